"""Standings and their tie-breaks, computed from an event's :class:`History` (FIDE Handbook C.07, 2023).

Each tie-break is a function of the history giving a float per player. How unplayed rounds count
(our reading of C.07 art. 16; the same rule for every event, shown by ``tournament rules``):

- A player's unplayed round is a pairing-allocated bye, a forfeit win or loss, a half- or zero-point
  bye, or a round with no board at all (absent, withdrawn, not yet joined). The last four are
  *voluntary unplayed rounds* (VUR).
- An opponent's score, as it enters Buchholz and Sonneborn-Berger, is their *adjusted score*: each
  of their VURs counts as a draw (1/2); every other round counts as scored.
- For the player's own unplayed rounds they are taken to have met a *dummy opponent* whose score is
  the player's own final score: Buchholz adds that score, Sonneborn-Berger adds it times the points
  the round gave. Buchholz Cut-1 drops the least of these contributions, whatever its kind.

``direct_encounter`` applies to a group of tied players only when every pair of them has a board
with a result (forfeits count, as results of the event); it is then each one's score against the
others, else 0 for all of the group. ``wins`` counts games won over the board (no forfeit, no bye).

>>> from bot.tournaments.records import Entrant, History, Pairing
>>> event = History((Entrant(1, "ann", 1600), Entrant(2, "bob", 1500)), (Pairing(1, 1, 2, "1-0"),))
>>> [(row.rank, row.name, row.points, row.tiebreaks["buchholz"]) for row in standings(event, "swiss")]
[(1, 'ann', 1.0, 0.0), (2, 'bob', 0.0, 1.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from bot.tournaments.records import BYE_POINTS, ByeKind, History

System = Literal["swiss", "roundrobin", "arena"]
Kind = Literal["played", "forfeit_win", "pab", "forfeit_loss", "half", "zero", "absent"]

TIEBREAKS: Final[dict[System, tuple[str, ...]]] = {
    "swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"),
    "roundrobin": ("direct_encounter", "sonneborn_berger", "wins", "koya"),
    "arena": ("performance",),
}
BYE_KINDS: Final[dict[ByeKind, Kind]] = {"pairing": "pab", "half": "half", "zero": "zero"}
VOLUNTARY: Final[frozenset[Kind]] = frozenset({"forfeit_loss", "half", "zero", "absent"})
PERFORMANCE_SPREAD: Final = 500  # rating points a win above a draw, in the linear performance


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings: rank (shared when everything is equal), the player, points, named tie-breaks."""

    rank: int
    player: int
    name: str
    points: float
    tiebreaks: Mapping[str, float]


def standings(history: History, system: System, *, points: Mapping[int, float] | None = None) -> list[Row]:
    """Every entrant ranked by points, then the system's tie-breaks in order (``TIEBREAKS[system]``).

    ``points`` replaces the history's score when the event counts otherwise (an arena's points).
    Players equal on everything share a rank and are listed in entry order.
    """
    entrants = history.entrants
    score = {e.id: points.get(e.id, 0.0) if points is not None else history.points(e.id) for e in entrants}
    keys: dict[int, tuple[float, ...]] = {e.id: (score[e.id],) for e in entrants}
    values: dict[str, dict[int, float]] = {}
    for name in TIEBREAKS[system]:
        if name == "direct_encounter":
            tied: dict[tuple[float, ...], list[int]] = {}
            for player, key in keys.items():
                tied.setdefault(key, []).append(player)
            values[name] = direct_encounter(history, tied.values())
        else:
            values[name] = FUNCTIONS[name](history)
        keys = {player: (*key, values[name][player]) for player, key in keys.items()}
    order = sorted(entrants, key=lambda e: tuple(-v for v in keys[e.id]))
    rows: list[Row] = []
    for place, entrant in enumerate(order, start=1):
        shared = bool(rows) and keys[rows[-1].player] == keys[entrant.id]
        rows.append(Row(rows[-1].rank if shared else place, entrant.id, entrant.name, score[entrant.id],
                        {name: values[name][entrant.id] for name in TIEBREAKS[system]}))
    return rows


def buchholz(history: History) -> dict[int, float]:
    """The sum of the opponents' adjusted scores, a dummy opponent for each unplayed round."""
    adjusted = _adjusted_scores(history)
    return {e.id: sum(_buchholz_parts(history, e.id, adjusted)) for e in history.entrants}


def buchholz_cut1(history: History) -> dict[int, float]:
    """Buchholz without its least contribution."""
    adjusted = _adjusted_scores(history)
    return {e.id: _cut(_buchholz_parts(history, e.id, adjusted)) for e in history.entrants}


def sonneborn_berger(history: History) -> dict[int, float]:
    """The sum, round by round, of the opponent's adjusted score times the points scored against them
    (for an unplayed round, the dummy opponent's: the player's own score)."""
    adjusted = _adjusted_scores(history)
    own = {e.id: history.points(e.id) for e in history.entrants}
    return {player: sum((adjusted[opponent] if kind == "played" and opponent is not None else own[player]) * pts
                        for kind, opponent, pts in _rounds(history, player))
            for player in own}


def wins(history: History) -> dict[int, float]:
    """Games won over the board."""
    return {e.id: float(sum(1 for kind, _, pts in _rounds(history, e.id) if kind == "played" and pts == 1.0))
            for e in history.entrants}


def koya(history: History) -> dict[int, float]:
    """Points scored (over the board or by forfeit) against the players who made at least half the rounds' points."""
    half = history.rounds_played / 2
    strong = {e.id for e in history.entrants if history.points(e.id) >= half}
    return {e.id: sum(p.points_of(e.id) for p in history.games_of(e.id) if p.opponent_of(e.id) in strong)
            for e in history.entrants}


def performance(history: History) -> dict[int, float]:
    """The linear performance rating over games played: the opponents' mean rating plus 500 x (wins - losses) / games.

    (The formula lichess uses for an arena's performance; no game played gives 0.)
    """
    rating = {e.id: e.rating for e in history.entrants}
    result: dict[int, float] = {}
    for player in rating:
        games = [(opponent, pts) for kind, opponent, pts in _rounds(history, player)
                 if kind == "played" and opponent is not None]
        if not games:
            result[player] = 0.0
            continue
        balance = sum(1 if pts == 1.0 else -1 if pts == 0.0 else 0 for _, pts in games)
        result[player] = (sum(rating[o] for o, _ in games) + PERFORMANCE_SPREAD * balance) / len(games)
    return result


def direct_encounter(history: History, groups: Iterable[Collection[int]] | None = None) -> dict[int, float]:
    """Each tied player's score against the others of their group, where all of the group met; else 0.

    ``groups`` are the sets of players still tied (default: by points).
    """
    if groups is None:
        by_points: dict[float, list[int]] = {}
        for e in history.entrants:
            by_points.setdefault(history.points(e.id), []).append(e.id)
        groups = by_points.values()
    result = {e.id: 0.0 for e in history.entrants}
    met = {frozenset((p.white, p.black)) for p in history.pairings if p.result is not None}
    for group in groups:
        if len(group) < 2 or any(frozenset(pair) not in met for pair in combinations(group, 2)):
            continue
        for player in group:
            result[player] = sum(p.points_of(player) for p in history.games_of(player)
                                 if p.result is not None and p.opponent_of(player) in group)
    return result


FUNCTIONS: Final[dict[str, Callable[[History], dict[int, float]]]] = {
    "buchholz_cut1": buchholz_cut1, "buchholz": buchholz, "sonneborn_berger": sonneborn_berger,
    "wins": wins, "koya": koya, "performance": performance,
}


def _rounds(history: History, player: int) -> list[tuple[Kind, int | None, float]]:
    """Each finished round of ``player``: how it went, the opponent over the board (or None), the points."""
    boards = {p.round: p for p in history.games_of(player)}
    byes = {b.round: b for b in history.byes if b.player == player}
    rounds: list[tuple[Kind, int | None, float]] = []
    for r in range(1, history.rounds_played + 1):
        board, bye = boards.get(r), byes.get(r)
        if board is not None:
            if board.result is None:
                continue  # still being played: not counted yet
            pts = board.points_of(player)
            kind: Kind = "played" if board.played else "forfeit_win" if pts == 1.0 else "forfeit_loss"
            rounds.append((kind, board.opponent_of(player) if board.played else None, pts))
        elif bye is not None:
            rounds.append((BYE_KINDS[bye.kind], None, BYE_POINTS[bye.kind]))
        else:
            rounds.append(("absent", None, 0.0))
    return rounds


def _adjusted_scores(history: History) -> dict[int, float]:
    return {e.id: sum(0.5 if kind in VOLUNTARY else pts for kind, _, pts in _rounds(history, e.id))
            for e in history.entrants}


def _buchholz_parts(history: History, player: int, adjusted: Mapping[int, float]) -> list[float]:
    own = history.points(player)
    return [adjusted[opponent] if kind == "played" and opponent is not None else own
            for kind, opponent, _ in _rounds(history, player)]


def _cut(parts: list[float]) -> float:
    return sum(parts) - min(parts, default=0.0)
