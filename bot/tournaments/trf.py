"""An event as a FIDE Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2), for `export ID trf`.

Header lines carry a three-digit code and the text from column 5: ``012`` the event's name,
``022`` the site, ``042``/``052`` the first and last day (``YYYY/MM/DD``), ``062`` the number of
players, ``072`` how many are rated, ``092`` the type of event, ``122`` the time control.

Each ``001`` line is a player, in fixed columns (1-based, inclusive)::

    1-3 "001"   5-8 starting rank   15-47 name   49-52 rating   81-84 points   86-89 rank
    then a block of 8 columns a round, the first at 92-99, the next at 102-109, ...:
    opponent's starting rank (4 columns, 0000 for none), a space, colour w/b/-, a space, result

Results: ``1`` ``=`` ``0`` played; ``+`` ``-`` forfeit won and lost; ``U`` pairing-allocated bye,
``H`` half-point bye, ``Z`` zero-point bye, also any round without a board (absent, withdrawn, not
yet joined); a game still being played is left blank. The rating column holds the rating the
player entered with in this bot (there is no FIDE id, federation or birth date to write).
The starting rank is the order of ``History.entrants``; the rank is the place in the standings.

>>> from datetime import date
>>> from bot.tournaments.records import Entrant, History, Pairing
>>> event = History((Entrant(1, "ann", 1600), Entrant(2, "bob", 1500)), (Pairing(1, 1, 2, "1/2-1/2"),))
>>> print(export_trf(EventInfo("Friday blitz", date(2026, 12, 4)), event))
012 Friday blitz
042 2026/12/04
052 2026/12/04
062 2
072 2
092 Swiss system
001    1      ann                               1600                             0.5    1     2 w =
001    2      bob                               1500                             0.5    2     1 b =
<BLANKLINE>
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Final

from bot.tournaments.records import History, Pairing
from bot.tournaments.tiebreaks import System, standings

EVENT_TYPES: Final[dict[System, str]] = {"swiss": "Swiss system", "roundrobin": "Round robin", "arena": "Arena"}
ROUND_START: Final = 92  # the first round's block begins in this column
ROUND_WIDTH: Final = 10
BYE_CODES: Final = {"pairing": "U", "half": "H", "zero": "Z"}
PLAYED_CODES: Final = {1.0: "1", 0.5: "=", 0.0: "0"}


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the file says of the event beyond its games."""

    name: str
    start: date
    end: date | None = None  # default: the start
    system: System = "swiss"
    site: str = ""
    time_control: str = ""


def export_trf(event: EventInfo, history: History) -> str:
    """The whole file, lines ending with a newline."""
    lines = [f"012 {event.name}"]
    if event.site:
        lines.append(f"022 {event.site}")
    lines += [f"042 {_day(event.start)}", f"052 {_day(event.end or event.start)}",
              f"062 {len(history.entrants)}", f"072 {sum(1 for e in history.entrants if e.rating > 0)}",
              f"092 {EVENT_TYPES[event.system]}"]
    if event.time_control:
        lines.append(f"122 {event.time_control}")
    seat = {e.id: number for number, e in enumerate(history.entrants, start=1)}
    place = {row.player: number for number, row in enumerate(standings(history, event.system), start=1)}
    for entrant in history.entrants:
        line = _Line()
        line.put(1, "001")
        line.put(5, f"{seat[entrant.id]:>4}")
        line.put(15, f"{entrant.name[:33]:<33}")
        line.put(49, f"{entrant.rating:>4}" if entrant.rating > 0 else "")
        line.put(81, f"{history.points(entrant.id):>4.1f}")
        line.put(86, f"{place[entrant.id]:>4}")
        for r in range(1, history.rounds_played + 1):
            line.put(ROUND_START + ROUND_WIDTH * (r - 1), _round_block(history, entrant.id, r, seat))
        lines.append(line.text())
    return "\n".join(lines) + "\n"


def _round_block(history: History, player: int, r: int, seat: dict[int, int]) -> str:
    board = next((p for p in history.games_of(player) if p.round == r), None)
    if board is not None:
        colour = "w" if board.white == player else "b"
        return f"{seat[board.opponent_of(player)]:>4} {colour} {_result(board, player)}"
    bye = next((b for b in history.byes if b.player == player and b.round == r), None)
    return f"0000 - {BYE_CODES[bye.kind] if bye is not None else 'Z'}"


def _result(board: Pairing, player: int) -> str:
    if board.result is None:
        return " "
    points = board.points_of(player)
    if board.played:
        return PLAYED_CODES[points]
    return "+" if points == 1.0 else "-"


def _day(day: date) -> str:
    return day.strftime("%Y/%m/%d")


class _Line:
    """A fixed-column line, filled by 1-based column."""

    def __init__(self) -> None:
        self._chars: list[str] = []

    def put(self, column: int, text: str) -> None:
        end = column - 1 + len(text)
        self._chars.extend(" " * (end - len(self._chars)))
        self._chars[column - 1:end] = text

    def text(self) -> str:
        return "".join(self._chars).rstrip()
