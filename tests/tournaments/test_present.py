"""An event's texts in every language, and the console's data exactly as the issue's contract
(docs/tournaments.md 3.3)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, Catalog
from bot.services.tournaments import present
from bot.services.tournaments.grammar import EventSpec, parse_event, parse_rota
from bot.services.tournaments.present import EventView, RoundBoard, texts
from bot.tournaments.records import Bye, Entrant, History, Pairing
from bot.tournaments.tiebreaks import TIEBREAKS, Row, standings

CATALOG = Catalog.load()
NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
PLAYERS = tuple(Entrant(i, f"p{i:02d}", 1500 + i) for i in range(1, 15))


def spec(line: str) -> EventSpec:
    return parse_event(CATALOG, line.split(), now=NOW)


def swiss_history() -> History:
    """Two rounds of 14 players: round 1 White wins, round 2 draws, p14 sat out round 2 on a half bye."""
    first = tuple(Pairing(1, a.id, b.id, "1-0") for a, b in zip(PLAYERS[::2], PLAYERS[1::2], strict=True))
    second = tuple(Pairing(2, a.id, b.id, "1/2-1/2") for a, b in zip(PLAYERS[1:12:2], PLAYERS[2:13:2], strict=True))
    return History(PLAYERS, first + second + (Pairing(2, 1, 13, "0-1F"),), (Bye(2, 14, "half"),))


def test_the_pairings_data_is_the_contract() -> None:
    data = present.pairings_data(7, 2, [RoundBoard("alice", "bob", 31), RoundBoard("cy", "dan", 32)], "eve")
    assert data == {"tournament": 7, "round": 2, "bye": "eve",
                    "pairs": [{"white": "alice", "black": "bob", "game": 31},
                              {"white": "cy", "black": "dan", "game": 32}]}
    assert json.loads(json.dumps(data)) == data
    assert present.pairings_data(7, 1, [], None)["bye"] is None


@pytest.mark.parametrize("system", ["swiss", "roundrobin", "arena"])
def test_the_standings_data_is_the_contract_with_the_systems_tiebreaks_in_order(system: str) -> None:
    rows = standings(swiss_history(), system)  # type: ignore[arg-type]
    data = present.standings_data(7, 2, rows, system, final=True)  # type: ignore[arg-type]
    assert set(data) == {"tournament", "round", "final", "rows"}
    assert (data["tournament"], data["round"], data["final"]) == (7, 2, True)
    first = data["rows"][0]
    assert set(first) == {"rank", "player", "points", "tiebreaks"}
    assert (first["rank"], first["player"]) == (rows[0].rank, rows[0].name)
    assert isinstance(first["points"], float)
    assert list(first["tiebreaks"]) == list(TIEBREAKS[system])  # type: ignore[index]
    assert [row["player"] for row in data["rows"]] == [row.name for row in rows]
    assert json.loads(json.dumps(data)) == data


def test_the_standings_text_shows_the_top_ten_and_the_askers_own_row() -> None:
    t = texts(CATALOG, "en")
    rows = standings(swiss_history(), "swiss")
    last = rows[-1]
    text = present.standings_text(t, 7, rows, "swiss", round_number=2, asking=last.player)
    lines = text.splitlines()
    assert lines[0] == "Tournament #7, standings after round 2:"
    assert len(lines) == 1 + 10 + 2
    assert lines[-2] == "…" and lines[-1].startswith(f"{last.rank}. {last.name}: ")
    assert all(row.name in text for row in rows[:10])
    assert rows[10].name not in text or rows[10] == last
    in_top = present.standings_text(t, 7, rows, "swiss", round_number=2, asking=rows[0].player)
    assert len(in_top.splitlines()) == 11
    assert present.standings_text(t, 7, [], "swiss", round_number=0).endswith("No games have finished yet.")


def test_a_row_reads_points_and_every_tiebreak_naturally() -> None:
    rows = [Row(1, 1, "ann", 3.5, {"buchholz_cut1": 9.5, "buchholz": 11.0, "sonneborn_berger": 7.25,
                                    "direct_encounter": 0.0, "wins": 3.0})]
    assert present.standings_text(texts(CATALOG, "en"), 7, rows, "swiss", round_number=4).splitlines()[1] == \
        "1. ann: 3½ pts (BH-1 9½, BH 11, SB 7.25, DE 0, W 3)"
    assert "3½ คะแนน" in present.standings_text(texts(CATALOG, "th"), 7, rows, "swiss", round_number=4)
    assert "3½点" in present.standings_text(texts(CATALOG, "ja"), 7, rows, "swiss", round_number=4)
    arena = [Row(1, 1, "ann", 8.0, {"performance": 1712.4})]
    assert present.standings_text(texts(CATALOG, "en"), 7, arena, "arena", round_number=3).splitlines()[1] == \
        "1. ann: 8 pts (Perf 1712)"


def test_the_final_text_names_the_winner_or_those_sharing_first_and_the_link() -> None:
    t = texts(CATALOG, "en")
    rows = standings(swiss_history(), "swiss")
    text = present.final_text(t, 7, rows, "swiss", round_number=2)
    assert text.startswith("Tournament #7, final standings:")
    assert f"{rows[0].name} wins tournament #7" in text
    assert text.endswith("type tournament 7 to see it again.")
    tied = [Row(1, 1, "ann", 2.0, {"performance": 0.0}), Row(1, 2, "bob", 2.0, {"performance": 0.0})]
    assert "ann, bob share first place in tournament #7 with 2 pts!" in present.final_text(t, 7, tied, "arena",
                                                                                          round_number=1)


def test_a_result_is_one_line_and_a_forfeit_says_so() -> None:
    t = texts(CATALOG, "en")
    assert present.result_line(t, 7, 3, "ann", "bob", "0-1") == "Tournament #7, round 3: ann 0-1 bob"
    assert present.result_line(t, 7, 3, "ann", "bob", "1-0F") == "Tournament #7, round 3: ann 1-0 bob (forfeit)"


def test_points_read_with_halves() -> None:
    assert [present.points_text(v) for v in (0.0, 0.5, 1.0, 4.5, 11.0, 7.25)] == ["0", "½", "1", "4½", "11", "7.25"]


EVENTS = [
    EventView(7, spec("swiss 5 rounds 3+2 at 20:00"), "ann", entrants=("ann", "bob")),
    EventView(8, spec("roundrobin double 2d window 5d window-end loss casual sittuyin"), "bob", state="running",
              round=2, rounds=6, entrants=("ann", "bob", "cy")),
    EventView(9, spec("arena 90m 3+2 in 30m"), "cy", zone="Asia/Tokyo"),
    EventView(10, spec("swiss 7 rounds 1d"), "dan", state="finished", round=7, rounds=7),
    EventView(11, spec("roundrobin 5+3"), "eve", state="cancelled"),
    EventView(12, spec("arena 2h 5+0 asean"), "fay", state="running", round=4,
              ends=datetime(2026, 12, 3, 14, 0, tzinfo=UTC)),
    EventView(13, spec("arena 30m 1+1"), "gus", state="running", round=1),
    EventView(14, spec("swiss 1 rounds 3+2"), "hal"),
]


def test_a_one_round_swiss_says_round() -> None:
    t = texts(CATALOG, "en")
    one = EVENTS[-1]
    assert "1 round, FIDE Dutch pairings" in present.event_summary(t, one)
    assert "Swiss of 1 round:" in present.rules_text(t, one)
    assert "5 rounds, FIDE Dutch pairings" in present.event_summary(t, EVENTS[0])


def rendered(language: str) -> list[str]:
    """Every text ``present`` makes, for every kind of event, in ``language``."""
    t = texts(CATALOG, language)
    boards = [RoundBoard("ann", "bob", 31), RoundBoard("cy", "dan", 32)]
    out: list[str] = []
    for event in EVENTS:
        rows = standings(swiss_history(), event.spec.system)
        out += [present.announcement(t, event), present.event_summary(t, event), present.rules_text(t, event),
                present.pairings_text(t, event, 2, boards, ("eve", "half"), before=rows,
                                      window_ends=datetime(2026, 12, 8, 13, 0, tzinfo=UTC)),
                present.pairings_text(t, event, 1, boards, ("eve", "pairing")),
                present.reminder_text(t, event, "r2:day", still_playing=("ann", "bob"),
                                      window_ends=datetime(2026, 12, 8, 13, 0, tzinfo=UTC))]
        out += [present.reminder_text(t, event, mark) for mark in ("day", "hour", "5m")]
    for system in ("swiss", "roundrobin", "arena"):
        system_rows = standings(swiss_history(), system)
        out += [present.standings_text(t, 7, system_rows, system, round_number=2, asking=14),
                present.standings_text(t, 7, system_rows, system, round_number=2, live=True),
                present.final_text(t, 7, system_rows, system, round_number=2)]
    out += [present.result_line(t, 7, 2, "ann", "bob", score) for score in ("1-0", "0-1", "1/2-1/2", "0-0F")]
    out.append(present.check_in_line(t))
    weekly = parse_rota(CATALOG, ["thursday", "20:00", "arena", "3+2", "90m"], now=NOW)
    assert weekly is not None
    out.append(present.rota_text(t, weekly))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_renders_every_text_without_missing_fields(language: str) -> None:
    english = rendered("en")
    texts_ = rendered(language)
    assert len(texts_) == len(english)
    for text in texts_:
        assert text.strip() and "{" not in text and "}" not in text, text
    if language != "en":  # translated, not the English fallback
        assert sum(a != b for a, b in zip(texts_, english, strict=True)) == len(english)


def test_every_tournament_message_is_used_by_a_text_or_left_to_the_service() -> None:
    """The keys no pure text renders are the service's own notices and refusals."""
    source = Path(present.__file__).read_text("utf-8")
    for key in CATALOG.keys("en"):
        if key.startswith("tournament.") and not key.startswith(("tournament.tiebreak.", "tournament.system.",
                                                                  "tournament.state.", "tournament.reminder.",
                                                                  "tournament.rules.window_end.")):
            service_notice = key.split(".")[1] in {"joined", "withdrew", "rejoined", "started", "cancelled",
                                                   "withdrawn", "bye", "berserk", "forbidden", "unpairable",
                                                   "rota"}
            assert service_notice or f'"{key}"' in source, key
