"""TRF-16 export: the fixed columns read back exactly, for a small Swiss with a bye, a forfeit and a withdrawal."""

from __future__ import annotations

from datetime import date

from bot.tournaments.records import Bye, Entrant, History, Pairing
from bot.tournaments.trf import EventInfo, export_trf

PLAYERS = (Entrant(11, "Somchai Boonmee", 1800), Entrant(12, "Ann", 1700), Entrant(13, "Bob", 1600),
           Entrant(14, "Cy", 0), Entrant(15, "Dee Who Has A Very Long Name Indeed", 1400))
# R1: Somchai-Cy 1-0, Ann-Bob draw, Dee pairing bye
# R2: Dee-Somchai 0-1, Bob-Cy 1-0 by forfeit, Ann half-point bye
# R3: Somchai-Ann 0-1, Cy-Dee still playing; Bob withdrew (no board)
SWISS = History(
    PLAYERS,
    (Pairing(1, 11, 14, "1-0"), Pairing(1, 12, 13, "1/2-1/2"),
     Pairing(2, 15, 11, "0-1"), Pairing(2, 13, 14, "1-0F"),
     Pairing(3, 11, 12, "0-1"), Pairing(3, 14, 15)),
    (Bye(1, 15, "pairing"), Bye(2, 12, "half")),
    withdrawn=frozenset({13}),
)
INFO = EventInfo("Makruk Shield", date(2026, 12, 5), date(2026, 12, 6), "swiss", "Bangkok", "5+3")


def _columns(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last``, 1-based and inclusive, as the format counts them."""
    return line.ljust(last)[first - 1:last]


def test_header_lines() -> None:
    lines = export_trf(INFO, SWISS).splitlines()
    assert lines[:8] == ["012 Makruk Shield", "022 Bangkok", "042 2026/12/05", "052 2026/12/06",
                         "062 5", "072 4", "092 Swiss system", "122 5+3"]


def test_player_lines_in_fixed_columns() -> None:
    players = [line for line in export_trf(INFO, SWISS).splitlines() if line.startswith("001")]
    assert len(players) == 5
    def field(first: int, last: int) -> list[str]:
        return [_columns(line, first, last) for line in players]

    assert field(5, 8) == ["   1", "   2", "   3", "   4", "   5"]
    assert field(15, 47)[0] == "Somchai Boonmee".ljust(33)
    assert field(15, 47)[4] == "Dee Who Has A Very Long Name Indeed"[:33]
    assert field(49, 52) == ["1800", "1700", "1600", "    ", "1400"]
    # Points: Somchai 2, Ann 2, Bob 1.5, Cy 0, Dee 1; Cy last.
    assert field(81, 84) == [" 2.0", " 2.0", " 1.5", " 0.0", " 1.0"]
    assert sorted(field(86, 89)) == ["   1", "   2", "   3", "   4", "   5"]
    assert field(86, 89)[3] == "   5"
    rounds = [[(_columns(line, c, c + 3), _columns(line, c + 5, c + 5), _columns(line, c + 7, c + 7))
               for c in (92, 102, 112)] for line in players]
    assert rounds == [
        [("   4", "w", "1"), ("   5", "b", "1"), ("   2", "w", "0")],
        [("   3", "w", "="), ("0000", "-", "H"), ("   1", "b", "1")],
        [("   2", "b", "="), ("   4", "w", "+"), ("0000", "-", "Z")],
        [("   1", "b", "0"), ("   3", "b", "-"), ("   5", "w", " ")],
        [("0000", "-", "U"), ("   1", "w", "0"), ("   4", "b", " ")],
    ]
    for line in players:  # separators between the fields are blank
        for c in (4, 9, 48, 85, 90, 91, 96, 98, 100, 101, 106, 108):
            assert _columns(line, c, c) == " "


def test_the_file_ends_with_a_newline_and_has_no_trailing_spaces() -> None:
    text = export_trf(INFO, SWISS)
    assert text.endswith("\n")
    assert all(line == line.rstrip() for line in text.splitlines())
