"""The standings picture: 64 rows of names in Thai, Khmer, Japanese and Latin, legible and unclipped."""

from __future__ import annotations

import io
import time
import unicodedata

import pytest
from PIL import Image, ImageChops

from renderers import RenderError, fonts, standings
from renderers.standings import (
    ROW_HEIGHT,
    WIDTH,
    StandingsRow,
    StandingsView,
    Tiebreak,
    column_layout,
    first_row_top,
    fit_text,
    render_standings,
)

from .support import same_pixels

THAI = ("สมชาย ใจดี", "ณัฐพงษ์ ศรีสุวรรณ์ผู้ยิ่งใหญ่แห่งกรุงเทพมหานครและปริมณฑลทั้งหมด", "ฎีกา ปู่ญ่า")
KHMER = ("សុខ សុភា", "ស្ត្រី ក្សត្រ", "ញូ ឈ្មោះ", "ព្រះករុណា ព្រះបាទសម្តេចព្រះបរមនាថ នរោត្តម សីហមុនី")
JAPANESE = ("山田太郎", "佐藤花子", "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末")
LATIN = ("alice", "Bob the very long named makruk player of Chiang Mai")
NAMES = THAI + KHMER + JAPANESE + LATIN
TIEBREAKS = (Tiebreak("BH-1", "Buchholz Cut-1"), Tiebreak("BH", "Buchholz"), Tiebreak("SB", "Sonneborn-Berger"))
HIGHLIGHTED = (0, 17)


def view_of(count: int = 64, tiebreaks: tuple[Tiebreak, ...] = TIEBREAKS) -> StandingsView:
    rows = tuple(
        StandingsRow(i + 1, NAMES[i % len(NAMES)], f"{(count - i) / 8:.1f}",
                     tuple(f"{i * k / 4:.2f}" for k in range(1, len(tiebreaks) + 1)), highlight=i in HIGHLIGHTED)
        for i in range(count))
    return StandingsView("Swiss #7: standings after round 5 of 9", "en", "#", "Player", "Pts", tiebreaks, rows,
                         footer="tournament 7")


@pytest.fixture(scope="module")
def picture() -> Image.Image:
    return Image.open(io.BytesIO(render_standings(view_of()))).convert("RGB")


def row_tops(view: StandingsView) -> list[int]:
    first = first_row_top(view)
    return [first + ROW_HEIGHT * i for i in range(len(view.rows))]


def ink(image: Image.Image, top: int, left: int = 0, right: int = WIDTH) -> tuple[int, int, int, int] | None:
    """The box (left, top, right, bottom; inclusive, in the picture's pixels) around every pixel
    of the row starting at ``top``, between ``left`` and ``right``, that is not the row's own colour."""
    band = image.crop((left, top, right, top + ROW_HEIGHT))
    box = ImageChops.difference(band, Image.new("RGB", band.size, image.getpixel((2, top)))).getbbox()
    return None if box is None else (left + box[0], box[1], left + box[2] - 1, box[3] - 1)


def test_sixty_four_rows_make_a_phone_wide_picture_of_44_px_rows(picture):
    assert picture.width == WIDTH == 1080
    # the title band and the header above the rows, the legend and the footer below: a few rows' worth
    assert 64 * ROW_HEIGHT + 2 * ROW_HEIGHT < picture.height < 64 * ROW_HEIGHT + 8 * ROW_HEIGHT
    tops = row_tops(view_of())
    highlight = picture.getpixel((2, tops[0]))
    assert {picture.getpixel((2, y)) for y in range(tops[0], tops[0] + ROW_HEIGHT)} == {highlight}  # 44 px
    assert picture.getpixel((2, tops[0] - 1)) != highlight and picture.getpixel((2, tops[1])) != highlight
    assert picture.getpixel((2, tops[17])) == highlight  # the asking player's row, 17 rows down
    stripes = {picture.getpixel((2, top)) for i, top in enumerate(tops) if i not in HIGHLIGHTED}
    assert len(stripes) == 2 and highlight not in stripes  # alternate rows striped, the highlight its own
    near = {standings.PAPER: 0, standings.STRIPE: 0, standings.HIGHLIGHT: 0}
    for colour in (*stripes, highlight):  # the colours drawn are the ones meant, give or take a shade
        meant = min(near, key=lambda c: sum(abs(a - b) for a, b in zip(c, colour, strict=True)))
        assert sum(abs(a - b) for a, b in zip(meant, colour, strict=True)) <= 12
        near[meant] += 1
    assert set(near.values()) == {1}


def test_every_row_has_text_about_30_px_tall_and_none_crosses_its_row(picture):
    for i, top in enumerate(row_tops(view_of())):
        box = ink(picture, top)
        assert box is not None, f"row {i + 1} is empty"
        _, high, _, low = box
        # Latin capitals and digits of 30 px text are ~21 px tall; marks and descenders add to that
        assert 20 <= low - high + 1 <= ROW_HEIGHT - 2, (i + 1, high, low)
        # the row's first and last pixel lines are its own colour: no ink was cut at its edges
        assert high >= 1 and low <= ROW_HEIGHT - 2, (i + 1, high, low)


def test_names_stay_in_their_column_and_long_ones_end_in_an_ellipsis(picture):
    view = view_of()
    rank, name, points, *tiebreak_columns = column_layout(view)
    assert len(tiebreak_columns) == 3 and rank.right < name.left < name.right < points.left
    assert name.right - name.left > WIDTH / 3  # the name has the most room
    for i, top in enumerate(row_tops(view_of())):
        row = view.rows[i]
        box = ink(picture, top, round(name.left) - 4, round(points.left))
        assert box is not None and box[2] <= name.right + 1, (i + 1, row.name, box, name.right)
        line = fit_text(row.name, name.right - name.left)
        drawn = "".join(run for _, run in line.runs)
        if drawn != row.name:  # cut: it fills the column and ends in the ellipsis
            assert drawn.endswith("…") and row.name.startswith(drawn[:-1].rstrip())
            assert box[2] > name.right - 40, (row.name, box, name.right)
    for top in row_tops(view):  # nothing reaches the right margin
        assert ink(picture, top, WIDTH - standings.MARGIN + 2, WIDTH) is None


@pytest.mark.parametrize("name", [THAI[1], KHMER[3], JAPANESE[2], LATIN[1]])
def test_a_long_name_is_cut_between_letters(name):
    line = fit_text(name, 300)
    drawn = "".join(run for _, run in line.runs)
    kept = drawn.removesuffix("…").rstrip()
    assert drawn.endswith("…") and name.startswith(kept) and line.width <= 300
    following = name[len(kept)]
    assert not unicodedata.category(following).startswith("M"), (name, kept)  # no mark torn off its letter
    assert not kept.endswith("\u17d2")  # no Khmer subscript sign without its consonant
    assert line.width > 300 - 60  # as much of the name as fits


def test_each_script_is_drawn_with_its_own_font():
    families = {name: {f.getname()[0] for f, _ in fit_text(name, 400).runs} for name in NAMES}
    assert all(families[n] == {"Noto Sans Thai"} for n in THAI + LATIN)
    assert all(families[n] == {"Noto Sans Khmer"} for n in KHMER)
    assert all(families[n] == {"Noto Sans CJK JP"} for n in JAPANESE)


def test_stacked_marks_shrink_a_name_only_as_much_as_the_row_needs():
    tall = fit_text(KHMER[2], 500)  # a subscript vowel under a tall consonant
    plain = fit_text("alice", 500)
    assert {f.size for f, _ in plain.runs} == {30}
    assert all(26 <= f.size <= 30 for f, _ in tall.runs)
    top = standings.baseline_in_row(tall)
    above = max(-f.getbbox(run, anchor="ls")[1] for f, run in tall.runs)
    below = max(f.getbbox(run, anchor="ls")[3] for f, run in tall.runs)
    assert top - above >= 1 and top + below <= ROW_HEIGHT - 1


def test_the_legend_spells_out_each_abbreviation():
    with_legend = render_standings(view_of(4))
    without = render_standings(view_of(4, ()))
    a, b = (Image.open(io.BytesIO(png)) for png in (with_legend, without))
    assert a.width == b.width == WIDTH and a.height > b.height  # the legend's line, and no empty columns
    assert len(column_layout(view_of(4, ()))) == 3
    assert len(column_layout(view_of(4, (*TIEBREAKS, Tiebreak("W", "Wins"))))) == 3 + 3  # at most three drawn


def test_the_same_view_gives_the_same_pixels():
    assert same_pixels(render_standings(view_of(10)), render_standings(view_of(10)))


def test_a_view_it_cannot_draw_is_a_render_error():
    rows = (StandingsRow(1, "alice", "1", ()),)
    with pytest.raises(RenderError):
        render_standings(StandingsView("t", "en", "#", "Player", "Pts", TIEBREAKS, rows))
    with pytest.raises(RenderError):
        render_standings(view_of(standings.MAX_ROWS + 1, ()))
    assert issubclass(RenderError, ValueError)


def test_sixty_four_rows_are_cheap_enough_for_a_worker_thread(monkeypatch):
    """Measuring text is the costly part: a bounded number of measures a row (the ellipsis is
    found by bisection), and well under a second of CPU for the whole picture."""
    calls = 0
    measure = fonts.measure

    def counted(*args, **kwargs):
        nonlocal calls
        calls += 1
        return measure(*args, **kwargs)

    monkeypatch.setattr(fonts, "measure", counted)
    view = view_of()
    started = time.process_time()
    render_standings(view)
    spent = time.process_time() - started
    assert calls <= 64 * 20
    assert spent < 2.0  # CPU time, not the wall clock: ~0.2 s where it was written


def test_half_points_are_drawn_with_a_font_that_has_the_fraction():
    """Noto Sans Thai has no ``½``: a score such as ``3½`` would show a missing-glyph box."""
    for text in ("3½", "½", "7¼"):
        assert {f.getname()[0] for f, _ in fit_text(text, 200).runs} == {"Noto Sans CJK JP"}, text
    assert {f.getname()[0] for f, _ in fit_text("11", 200).runs} == {"Noto Sans Thai"}
