"""``tournament new`` and ``tournament weekly`` in every language read to the same event, and each
wrong word is refused with its code (docs/tournaments.md 2.2)."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from bot.i18n import Catalog
from bot.services.errors import Refusal
from bot.services.tournaments.grammar import EventSpec, RotaSpec, parse_event, parse_rota
from storage.records import TimeControl

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)  # 17:00 in Bangkok
CATALOG = Catalog.load()
SWISS = EventSpec("swiss", rounds=5, time_control=TimeControl(180, 2), rated=True,
                  starts=datetime(2026, 12, 3, 13, 0, tzinfo=UTC))
ROUND_ROBIN = EventSpec("roundrobin", move_seconds=86400, window_seconds=10 * 86400)
ARENA = EventSpec("arena", time_control=TimeControl(180, 2), arena_minutes=90)


def event(line: str, **kwargs: object) -> EventSpec:
    return parse_event(CATALOG, line.split(), now=NOW, **kwargs)  # type: ignore[arg-type]


def rota(line: str) -> RotaSpec | None:
    return parse_rota(CATALOG, line.split(), now=NOW)


@pytest.mark.parametrize(("line", "spec"), [
    ("swiss 5 rounds 3+2 makruk at 20:00 rated", SWISS),
    ("roundrobin 1d", ROUND_ROBIN),
    ("arena 90m 3+2", ARENA),
    ("สวิส 5 รอบ 3+2 หมากรุก เวลา 20:00 นับคะแนน", SWISS),
    ("พบกันหมด 1วัน", ROUND_ROBIN),
    ("อารีน่า 90นาที 3+2", ARENA),
    ("スイス 5回戦 3+2 マークルック 20:00に レート戦", SWISS),
    ("総当たり 1日", ROUND_ROBIN),
    ("アリーナ 90分 3+2", ARENA),
    ("ស្វីស 5 ជុំ 3+2 ម៉ោង 20:00", SWISS),
    ("ស្វីស ៥ជុំ ៣+២ ម៉ោង ២០:០០", SWISS),  # Khmer digits
    ("สวิส ๕ รอบ ๓+๒ เวลา ๒๐:๐๐", SWISS),  # Thai digits
    ("ជុំវិលជុំ 1ថ្ងៃ", ROUND_ROBIN),
    ("អារ៉េណា 90នាទី 3+2", ARENA),
])
def test_the_issues_examples_read_alike_in_every_language(line: str, spec: EventSpec) -> None:
    assert event(line) == spec


@pytest.mark.parametrize("line", [
    "thursday 20:00 arena 3+2 90m",
    "พฤหัส 20:00 อารีน่า 3+2 90นาที",
    "木曜 20:00 アリーナ 3+2 90分",
    "ព្រហស្បតិ៍ 20:00 អារ៉េណា 3+2 90នាទី",
])
def test_the_weekly_examples_make_a_thursday_rota(line: str) -> None:
    assert rota(line) == RotaSpec(3, time(20, 0), "Asia/Bangkok", ARENA)


def test_a_rota_takes_its_zone_and_weekly_off_stops_it() -> None:
    saturday = rota("sat 19:30 europe/paris swiss 7 rounds 5+3")
    assert saturday is not None
    assert (saturday.weekday, saturday.time, saturday.zone, saturday.event.rounds) == (5, time(19, 30),
                                                                                       "Europe/Paris", 7)
    assert rota("off") is None
    assert rota("ปิด") is None


def test_starts_are_read_in_the_chats_zone_and_relative_to_now() -> None:
    assert event("swiss at 09:00").starts == datetime(2026, 12, 4, 2, 0, tzinfo=UTC)  # 09:00 passed: tomorrow's
    assert event("swiss at 20:00", zone="Asia/Tokyo").starts == datetime(2026, 12, 3, 11, 0, tzinfo=UTC)
    assert event("swiss at 2026-12-10 20:00").starts == datetime(2026, 12, 10, 13, 0, tzinfo=UTC)
    assert event("swiss in 30m").starts == datetime(2026, 12, 3, 10, 30, tzinfo=UTC)
    assert event("swiss 30分後").starts == event("สวิส อีก 30 นาที").starts == event("swiss in 30m").starts
    assert event("swiss").starts is None
    assert event("สวิส เวลา 20.00 น.").starts == event("swiss 20:00").starts == SWISS.starts


def test_thai_digits_fused_counts_and_the_other_options() -> None:
    spec = event("สวิส ๗รอบ ๕+๓ อุก casual role:42")
    assert (spec.rounds, spec.time_control, spec.variant, spec.rated, spec.role) == (7, TimeControl(300, 3),
                                                                                     "cambodian", False, "42")
    spec = event("roundrobin double 2d window 5d window-end loss")
    assert (spec.cycles, spec.move_seconds, spec.window_seconds, spec.window_end) == (2, 172800, 432000, "loss")
    assert event("swiss 1h").window_seconds == 86400  # ten hours, raised to a day
    assert event("swiss 3d").window_seconds == 14 * 86400  # thirty days, cut to fourteen


@pytest.mark.parametrize(("line", "code"), [
    ("", "bad_system"),
    ("knockout 3+2", "bad_system"),
    ("swiss 0 rounds", "bad_rounds"),
    ("swiss 21 rounds", "bad_rounds"),
    ("roundrobin 3 rounds 1d", "bad_rounds"),
    ("arena 90m", "arena_needs_clock"),
    ("arena 5 rounds 3+2", "bad_rounds"),
    ("arena double 3+2", "bad_option"),
    ("arena 3+2 window 2d", "bad_window"),
    ("arena 10m 3+2", "bad_arena_length"),
    ("arena 13h 3+2", "bad_arena_length"),
    ("swiss at 25:00", "bad_start"),
    ("swiss at 2026-12-01 20:00", "bad_start"),
    ("swiss at 2027-06-01 20:00", "bad_start"),
    ("swiss at", "bad_start"),
    ("swiss 3+2 window 3d", "bad_window"),
    ("swiss 1d window 20d", "bad_window"),
    ("swiss 3+2 5+3", "bad_option"),
    ("swiss 3+2 1d", "bad_option"),
    ("swiss double 3+2", "bad_option"),
    ("swiss 3+2 banana", "bad_option"),
])
def test_each_wrong_word_is_refused_with_its_code(line: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        event(line)
    assert refused.value.code == code
    assert CATALOG.has(f"error.{code}")


@pytest.mark.parametrize(("line", "code"), [
    ("thursday", "bad_rota"),
    ("someday 20:00 arena 3+2", "bad_rota"),
    ("thursday 20:00 Mars/Olympus arena 3+2", "bad_timezone"),
    ("thursday 20:00 swiss 3+2 at 21:00", "bad_start"),
])
def test_a_wrong_rota_is_refused_with_its_code(line: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        rota(line)
    assert refused.value.code == code
