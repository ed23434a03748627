"""An event's stored rows (``TournamentState``) as the pure core's ``History``.

A board's result is its game's: a game ended by forfeit (reason ``forfeit``) reads as the
``F`` score of its result, a board decided without a game has its own ``score``, and a game
still open has none yet. A game aborted (the event cancelled under it, a correspondence game
ended without a move) counts as lost by both: ``0-0F``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from storage.records import BoardRow, TournamentState

from ...tournaments.records import Bye, Entrant, History, Pairing, Score

OPEN: Final = frozenset({"challenge", "active"})
FORFEIT_SCORES: Final[dict[str, Score]] = {"1-0": "1-0F", "0-1": "0-1F"}


def score_of(board: BoardRow) -> Score | None:
    """The board's result as the history writes it (None while its game is being played)."""
    if board.score is not None:
        return board.score
    if board.status is None or board.status in OPEN:
        return None
    if board.status != "finished" or board.result is None:
        return "0-0F"
    if board.reason == "forfeit":
        return FORFEIT_SCORES.get(board.result, "0-0F")
    return board.result


def history_of(state: TournamentState, names: Mapping[int, str], *, through: int | None = None) -> History:
    """The event so far (up to round ``through``): entrants with their ratings at the start,
    every board with its result, the byes, who withdrew, the forbidden pairs."""
    entrants = tuple(Entrant(e.player_id, names.get(e.player_id, "?"), e.rating) for e in state.entrants)
    pairings = tuple(Pairing(b.round, b.white, b.black, score_of(b)) for b in state.boards
                     if through is None or b.round <= through)
    byes = tuple(Bye(b.round, b.player_id, b.kind) for b in state.byes if through is None or b.round <= through)
    withdrawn = frozenset(e.player_id for e in state.entrants if e.withdrawn)
    forbidden = frozenset(frozenset(pair) for pair in state.forbidden)
    return History(entrants, pairings, byes, withdrawn, forbidden)


def round_boards(state: TournamentState, number: int) -> tuple[BoardRow, ...]:
    return tuple(b for b in state.boards if b.round == number)


def open_boards(state: TournamentState, number: int) -> tuple[BoardRow, ...]:
    """Round ``number``'s boards whose game is still being played."""
    return tuple(b for b in round_boards(state, number) if b.game_id is not None and score_of(b) is None)


def completed_round(state: TournamentState) -> int:
    """The last round every board of which has a result (0 while the first is being played)."""
    last = state.tournament.last_round
    return last if last and not open_boards(state, last) else max(last - 1, 0)


def forfeits(state: TournamentState) -> dict[int, int]:
    """How many games each player lost by forfeit in the event since they last joined (two
    withdraw them; a player who rejoins after that starts again from none)."""
    joined = {e.player_id: e.joined for e in state.entrants}
    lost: dict[int, int] = {}

    def count(player: int, board: BoardRow) -> None:
        since = joined.get(player)
        if board.finished is None or since is None or board.finished >= since:
            lost[player] = lost.get(player, 0) + 1

    for board in state.boards:
        score = score_of(board)
        if score in ("0-1F", "0-0F"):
            count(board.white, board)
        if score in ("1-0F", "0-0F"):
            count(board.black, board)
    return lost


def active_ids(state: TournamentState) -> tuple[int, ...]:
    return tuple(e.player_id for e in state.entrants if not e.withdrawn)
