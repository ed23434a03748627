"""Fonts from PyPI packages (never the system's) and drawing of mixed Thai/Latin/Japanese/Khmer text.

Noto Sans Thai covers Thai and Latin; Japanese runs use Noto Sans CJK JP, Khmer runs Noto Sans
Khmer. Each run of one script is laid out by raqm (HarfBuzz + FriBiDi), which places Thai vowels
and tone marks and builds Khmer's subscript consonants and vowels written before their consonant.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont, features

MAIN = "main"  # Thai and Latin
CJK = "cjk"  # Japanese
KHMER = "khmer"

_FRACTIONS = frozenset("¼½¾⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞")
# Japanese fonts in order of preference: (module, attribute holding the font file).
_CJK_PACKAGES = (("noto_cjk_sans_jp_bold", "FONT_PATH"), ("noto_cjk_sans_jp_regular", "FONT_PATH"))


def layout_engine() -> ImageFont.Layout:
    """Raqm when Pillow has it (needed for Thai marks), else the basic layout."""
    return ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


@lru_cache(maxsize=1)
def thai_font_path() -> Path:
    """The Noto Sans Thai variable font shipped by the ``fontpkg-noto-sans-thai`` package."""
    import fontpkg_noto_sans_thai

    return _upright_font(fontpkg_noto_sans_thai.ROOT, "fontpkg-noto-sans-thai")


@lru_cache(maxsize=1)
def khmer_font_path() -> Path:
    """The Noto Sans Khmer variable font shipped by the ``fontpkg-noto-sans-khmer`` package."""
    import fontpkg_noto_sans_khmer

    return _upright_font(fontpkg_noto_sans_khmer.ROOT, "fontpkg-noto-sans-khmer")


def _upright_font(root: Path, package: str) -> Path:
    files = sorted((root / "files").glob("*.[ot]tf"))
    upright = [f for f in files if "Italic" not in f.name]
    if not upright:
        raise FileNotFoundError(f"{package} ships no font file")
    return upright[0]


@lru_cache(maxsize=1)
def cjk_font_path() -> Path | None:
    """The Japanese font file from its package, or None when no such package is installed."""
    for module_name, attribute in _CJK_PACKAGES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        return Path(str(getattr(module, attribute)))
    return None


@lru_cache(maxsize=64)
def font(size: int, script: str = MAIN, weight: int = 600) -> ImageFont.FreeTypeFont:
    """A font of ``size`` pixels for a script; ``weight`` (100..900) applies to the Thai and Khmer fonts."""
    if script == CJK and cjk_font_path() is not None:
        return ImageFont.truetype(str(cjk_font_path()), size, layout_engine=layout_engine())
    path = khmer_font_path() if script == KHMER else thai_font_path()
    loaded = ImageFont.truetype(str(path), size, layout_engine=layout_engine())
    axes = loaded.get_variation_axes()
    loaded.set_variation_by_axes(
        # FreeType always reports an axis' default; Pillow's types also allow None.
        [weight if axis["name"] == b"Weight" else axis["default"] or 0 for axis in axes]
    )
    return loaded


def script_runs(text: str) -> list[tuple[str, str]]:
    """Splits text into ``(script, run)`` pieces; spaces, digits and punctuation join a neighbour.

    >>> script_runs("2手詰め Mate in 2")
    [('cjk', '2手詰め '), ('main', 'Mate in 2')]
    >>> script_runs("ខាងសដើរ Mate in 2")
    [('khmer', 'ខាងសដើរ '), ('main', 'Mate in 2')]
    """
    runs: list[list[str]] = []  # [script or "", text]
    for ch in text:
        script = _script_of(ch)
        if runs and (script == "" or script == runs[-1][0] or runs[-1][0] == ""):
            if runs[-1][0] == "":
                runs[-1][0] = script
            runs[-1][1] += ch
        else:
            runs.append([script, ch])
    return [(script or MAIN, run) for script, run in runs]


def _script_of(ch: str) -> str:
    """``cjk``, ``khmer``, ``main`` (letters of Thai or Latin) or "" (neutral: spaces, digits, punctuation).

    Fractions (``½``, a tournament's points) are not in Noto Sans Thai nor Khmer: the CJK font draws them.

    >>> [script for script, _ in script_runs("3½ pts")] == [CJK if cjk_font_path() else MAIN, MAIN]
    True
    """
    cp = ord(ch)
    if 0x1780 <= cp <= 0x17FF or 0x19E0 <= cp <= 0x19FF:  # Khmer and Khmer symbols, its marks and digits too
        return KHMER
    if ch in _FRACTIONS:
        return CJK if cjk_font_path() is not None else ""
    if (
        0x3000 <= cp <= 0x30FF  # CJK punctuation, Hiragana, Katakana
        or 0x3400 <= cp <= 0x9FFF  # CJK ideographs
        or 0xF900 <= cp <= 0xFAFF
        or 0xFF00 <= cp <= 0xFFEF  # full-width forms
    ):
        return CJK
    if ch.isalpha() or 0x0E00 <= cp <= 0x0E7F:  # Thai marks are not alphabetic: keep them
        return MAIN
    return ""


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of text measured for drawing: width, and height above/below its baseline."""

    runs: tuple[tuple[ImageFont.FreeTypeFont, str], ...]
    width: float
    ascent: int
    descent: int


def measure(text: str, size: int, weight: int = 600) -> TextLine:
    runs = tuple((font(size, script, weight), run) for script, run in script_runs(text))
    width = sum(f.getlength(run) for f, run in runs)
    ascent = max((f.getmetrics()[0] for f, _ in runs), default=size)
    descent = max((f.getmetrics()[1] for f, _ in runs), default=0)
    return TextLine(runs, width, ascent, descent)


def draw_line(
    draw: ImageDraw.ImageDraw, x: float, baseline: float, line: TextLine, fill: tuple[int, int, int]
) -> None:
    """Draws a measured line with its left end at ``x``, every run on the same baseline."""
    for f, run in line.runs:
        draw.text((x, baseline), run, font=f, fill=fill, anchor="ls")
        x += f.getlength(run)
