"""A tournament's standings as a PNG a phone can read: rank, name, points and tie-breaks.

The picture is 1080 px wide (a phone's width in pixels, so chat apps show it unscaled): a title
band, a header row, one 44 px row a player with 30 px text, and a legend that spells out the
tie-breaks' abbreviations (at most three columns fit beside a name; when an event breaks ties by
more, a line says in what order). Every word comes from the caller, already in the chat's language;
names may be in any script ``fonts`` draws (Thai, Latin, Japanese, Khmer). A name too wide for
its column is cut with an ellipsis at a letter boundary; one whose marks would reach outside
its row (stacked Thai tone marks, Khmer subscripts) is drawn a little smaller, never clipped.

>>> view = StandingsView("Swiss #7, round 2", "en", "#", "Player", "Pts",
...                      (Tiebreak("BH-1", "Buchholz Cut-1"),),
...                      (StandingsRow(1, "alice", "2", ("1.5",), highlight=True),))
>>> render_standings(view)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import fonts
from .errors import RenderError
from .palette import png_bytes

RGB = tuple[int, int, int]

WIDTH = 1080
MARGIN = 28  # left and right of the table
GAP = 18  # between columns
ROW_HEIGHT = 44
TEXT_SIZE = 30
BASELINE = 34  # below a row's top: room for Thai marks above and Khmer subscripts below
INK_ROOM = 1  # pixels a row keeps free of ink at its top and bottom
TITLE_SIZE = 40
HEADER_SIZE = 26
LEGEND_SIZE = 24
MIN_TEXT_SIZE = 16
MAX_TIEBREAKS = 3
MAX_ROWS = 128  # 64 rows is what a phone shows legibly; more make a longer picture, within reason
ELLIPSIS = "\u2026"
# Where a name may not be cut: before a combining mark, after Khmer's subscript sign (coeng),
# after a Thai vowel written before its consonant.
_COENG = "\u17d2"
_PREPOSED = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44")

PAPER: RGB = (250, 243, 228)
STRIPE: RGB = (240, 228, 204)
HIGHLIGHT: RGB = (255, 214, 110)
INK: RGB = (40, 26, 14)
MUTED: RGB = (112, 88, 62)
BAND: RGB = (84, 50, 24)
BAND_TEXT: RGB = (246, 226, 186)


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tie-break column: its short header and, for the legend, its full name."""

    abbreviation: str
    name: str


@dataclass(frozen=True, slots=True)
class StandingsRow:
    rank: int
    name: str
    points: str  # as the chat writes it: "3½", "3.5", "12"
    tiebreaks: tuple[str, ...] = ()  # one text a column of the view
    highlight: bool = False  # the winner, or the player who asked


@dataclass(frozen=True, slots=True)
class StandingsView:
    """What the picture shows; every word already in ``language``."""

    title: str
    language: str
    rank_header: str
    name_header: str
    points_header: str
    tiebreaks: tuple[Tiebreak, ...] = ()  # the first ``MAX_TIEBREAKS`` are drawn
    rows: tuple[StandingsRow, ...] = ()
    footer: str | None = None  # e.g. where the event stays readable: "tournament 7"
    order: str | None = None  # under the legend: the order ties are broken in, when not every one has a column


def render_standings(view: StandingsView) -> bytes:
    """The standings as a PNG ``WIDTH`` pixels wide; ``RenderError`` for a view it cannot draw."""
    _check(view)
    columns = column_layout(view)
    legend = _legend_lines(view.tiebreaks[:MAX_TIEBREAKS])
    if view.order:
        legend.append(_fitted(view.order, WIDTH - 2 * MARGIN, LEGEND_SIZE))
    title = _fitted(view.title, WIDTH - 2 * MARGIN, TITLE_SIZE)
    title_h = first_row_top(view) - ROW_HEIGHT
    footer = _fitted(view.footer, WIDTH - 2 * MARGIN, LEGEND_SIZE) if view.footer else None
    legend_step = round(LEGEND_SIZE * 1.5)
    bottom = (len(legend) + (footer is not None)) * legend_step + MARGIN // 2
    height = title_h + ROW_HEIGHT * (1 + len(view.rows)) + bottom + MARGIN // 2
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)

    draw.rectangle((0, 0, WIDTH - 1, title_h - 1), fill=BAND)
    fonts.draw_line(draw, (WIDTH - title.width) / 2, (title_h - title.ascent - title.descent) / 2 + title.ascent,
                    title, BAND_TEXT)
    top = title_h
    headers = [view.rank_header, view.name_header, view.points_header,
               *(t.abbreviation for t in view.tiebreaks[:MAX_TIEBREAKS])]
    _draw_row(draw, top, columns, headers, HEADER_SIZE, MUTED)
    draw.line((MARGIN, top + ROW_HEIGHT - 1, WIDTH - MARGIN, top + ROW_HEIGHT - 1), fill=MUTED, width=1)
    for i, row in enumerate(view.rows):
        top += ROW_HEIGHT
        background = HIGHLIGHT if row.highlight else STRIPE if i % 2 else PAPER
        if background != PAPER:
            draw.rectangle((0, top, WIDTH - 1, top + ROW_HEIGHT - 1), fill=background)
        cells = [str(row.rank), row.name, row.points, *row.tiebreaks[:MAX_TIEBREAKS]]
        _draw_row(draw, top, columns, cells, TEXT_SIZE, INK)
    baseline = top + ROW_HEIGHT + legend_step
    for line in [*legend, *([footer] if footer else [])]:
        fonts.draw_line(draw, MARGIN, baseline, line, MUTED)
        baseline += legend_step
    # Few colours, all flat: a palette image is a third of the bytes and quicker to compress.
    return png_bytes(image.quantize(palette=_palette(), dither=Image.Dither.NONE))


def first_row_top(view: StandingsView) -> int:
    """How far down the picture the first player's row begins: below the title band and the header."""
    title = _fitted(view.title, WIDTH - 2 * MARGIN, TITLE_SIZE)
    return 2 * round(TITLE_SIZE * 0.6) + title.ascent + title.descent + ROW_HEIGHT


def fit_text(text: str, width: float, size: int = TEXT_SIZE) -> fonts.TextLine:
    """``text`` measured to fit ``width`` and a row's height: smaller if its marks reach out of
    the row, then cut at a letter boundary with an ellipsis if it is still too wide.

    >>> fit_text("alice", 500).width < 500
    True
    >>> "".join(run for _, run in fit_text("Somchai Jaidee the Magnificent", 200).runs)
    'Somchai Jai…'
    """
    line = fonts.measure(text, size)
    while size > MIN_TEXT_SIZE and not _fits_row(line):
        size -= 2
        line = fonts.measure(text, size)
    if line.width <= width:
        return line
    cuts = _cut_points(text)
    low, high = 0, len(cuts) - 1  # the longest prefix that fits with its ellipsis, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        if _with_ellipsis(text[:cuts[middle]], size).width <= width:
            low = middle
        else:
            high = middle - 1
    return _with_ellipsis(text[:cuts[low]], size)


def _check(view: StandingsView) -> None:
    if len(view.rows) > MAX_ROWS:
        raise RenderError(f"at most {MAX_ROWS} rows fit a picture, not {len(view.rows)}")
    drawn = min(len(view.tiebreaks), MAX_TIEBREAKS)
    for row in view.rows:
        if len(row.tiebreaks) < drawn:
            raise RenderError(f"row {row.rank} has {len(row.tiebreaks)} tie-breaks for {drawn} columns")


@dataclass(frozen=True, slots=True)
class Column:
    """Where a column's text goes, in pixels from the left."""

    left: float
    right: float
    align: str  # "left" or "right"


def column_layout(view: StandingsView) -> list[Column]:
    """Rank, name, points, tie-breaks: the numbers as wide as their widest text, the name the rest."""
    tiebreaks = view.tiebreaks[:MAX_TIEBREAKS]

    def widest(texts: Sequence[str], header: str) -> float:
        return max([fonts.measure(header, HEADER_SIZE).width,
                    *(fonts.measure(t, TEXT_SIZE).width for t in texts)])

    rank_w = widest([str(r.rank) for r in view.rows], view.rank_header)
    numbers = [widest([r.points for r in view.rows], view.points_header)]
    numbers += [widest([r.tiebreaks[i] for r in view.rows], t.abbreviation) for i, t in enumerate(tiebreaks)]
    # A number column takes what it needs, up to a fifth of the width: the name keeps the most room.
    numbers = [min(w, WIDTH / 5) for w in numbers]
    rank_w = min(rank_w, WIDTH / 8)
    name_w = WIDTH - 2 * MARGIN - rank_w - sum(numbers) - GAP * (1 + len(numbers))
    layout = [Column(MARGIN, MARGIN + rank_w, "right")]
    left = MARGIN + rank_w + GAP
    layout.append(Column(left, left + name_w, "left"))
    left += name_w
    for w in numbers:
        left += GAP
        layout.append(Column(left, left + w, "right"))
        left += w
    return layout


def _draw_row(draw: ImageDraw.ImageDraw, top: int, columns: Sequence[Column], cells: Sequence[str],
              size: int, fill: RGB) -> None:
    for column, cell in zip(columns, cells, strict=False):
        line = fit_text(cell, column.right - column.left, size)
        x = column.left if column.align == "left" else column.right - line.width
        fonts.draw_line(draw, x, top + baseline_in_row(line), line, fill)


def _fitted(text: str, width: float, size: int) -> fonts.TextLine:
    """A title or footer line: smaller until it fits, never below ``MIN_TEXT_SIZE``, then cut."""
    line = fonts.measure(text, size)
    while size > MIN_TEXT_SIZE and line.width > width:
        size -= 2
        line = fonts.measure(text, size)
    return line if line.width <= width else fit_text(text, width, size)


def _legend_lines(tiebreaks: Sequence[Tiebreak]) -> list[fonts.TextLine]:
    """"BH-1 = Buchholz Cut-1" for each column, as many to a line as fit the width."""
    room = WIDTH - 2 * MARGIN
    lines: list[str] = []
    for entry in (f"{t.abbreviation} = {t.name}" for t in tiebreaks):
        joined = f"{lines[-1]}   ·   {entry}" if lines else entry
        if lines and fonts.measure(joined, LEGEND_SIZE).width <= room:
            lines[-1] = joined
        else:
            lines.append(entry)
    return [_fitted(line, room, LEGEND_SIZE) for line in lines]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Each background and each ink, and the antialiased shades between the pairs drawn (Pillow maps
    a colour to its nearest entry only roughly: a flat colour stays flat, maybe a shade off)."""
    pairs = [(PAPER, INK), (STRIPE, INK), (HIGHLIGHT, INK), (PAPER, MUTED), (STRIPE, MUTED), (HIGHLIGHT, MUTED),
             (BAND, BAND_TEXT)]
    steps = 256 // len(pairs)
    colours = [channel for back, front in pairs for i in range(steps)
               for channel in (round(b + (f - b) * i / (steps - 1)) for b, f in zip(back, front, strict=True))]
    holder = Image.new("P", (1, 1))
    holder.putpalette(colours)
    return holder


def _ink(line: fonts.TextLine) -> tuple[int, int]:
    """How far the line's ink reaches above and below its baseline."""
    boxes = [f.getbbox(run, anchor="ls") for f, run in line.runs if run.strip()]
    return max((-round(box[1]) for box in boxes), default=0), max((round(box[3]) for box in boxes), default=0)


def _fits_row(line: fonts.TextLine) -> bool:
    above, below = _ink(line)
    return above + below <= ROW_HEIGHT - 2 * INK_ROOM


def baseline_in_row(line: fonts.TextLine) -> int:
    """Where in a row the line stands: on the common baseline, unless its marks reach deeper
    (Khmer subscripts) or higher (stacked Thai marks) than the row allows there."""
    above, below = _ink(line)
    return max(above + INK_ROOM, min(BASELINE, ROW_HEIGHT - INK_ROOM - below))


def _with_ellipsis(prefix: str, size: int) -> fonts.TextLine:
    return fonts.measure(prefix.rstrip() + ELLIPSIS, size)


def _cut_points(text: str) -> list[int]:
    """Lengths of the prefixes that end between letters, shortest first (0: the ellipsis alone)."""
    cuts = [0]
    for i in range(1, len(text)):
        if unicodedata.category(text[i]).startswith("M") or text[i - 1] == _COENG or text[i - 1] in _PREPOSED:
            continue
        cuts.append(i)
    return cuts
