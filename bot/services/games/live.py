"""Live games: Fischer clocks beside the correspondence games' limit per move.

Each side's clock starts with its own first move (as on lichess): before it, the side has
``FIRST_MOVE_SECONDS`` to move, or the game is aborted, unrated; in a tournament's game it has
``TOURNAMENT_FIRST_MOVE_SECONDS`` and then loses by forfeit, unrated (docs/tournaments.md 2.8).
After each move the mover's clock loses the time it ran and gains the increment (a first move
is free and gains nothing; an arena player who went berserk gains none).
The game's ``deadline`` is the moment the side to move runs out, so the scheduler's
``due_deadlines`` and its claims announce a flag exactly once, as they do a correspondence
game's timeout. A live game gets no reminders: its deadline is minutes away at most.

On time the game is lost, or drawn when the side that did not flag cannot win by the rules'
material: it has nothing but its Khun (nor anything left to place), or the flagging side has a
bare Khun and the count it could declare would draw at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from makruk import Board
from makruk.counting import is_bare
from storage.clock_records import TOURNAMENT_FIRST_MOVE_SECONDS, first_move_seconds, has_moved, side_to_move
from storage.records import (
    FIRST_MOVE_SECONDS,
    Clocks,
    Color,
    Game,
    GameChanges,
    Result,
    TimeControl,
    clock_state,
)

from ...messages import Reply
from .presence import DOUBLE_FORFEIT, double_forfeit

if TYPE_CHECKING:
    from .context import Context
    from .table import Notify, Table


def starting_clocks(control: TimeControl, now: datetime, *, tournament: bool = False) -> tuple[Clocks, datetime]:
    """The clocks of a live game that becomes active at ``now`` (full, none running) and its
    deadline: the first side has ``FIRST_MOVE_SECONDS`` to move (a ``tournament``'s game:
    ``TOURNAMENT_FIRST_MOVE_SECONDS``)."""
    full = control.initial * 1000
    first = TOURNAMENT_FIRST_MOVE_SECONDS if tournament else FIRST_MOVE_SECONDS
    return Clocks(full, full, now), now + timedelta(seconds=first)


def after_move(game: Game, mover: Color, now: datetime) -> GameChanges:
    """The clocks and deadline once ``mover`` has moved at ``now`` in ``game`` (as it was
    before the move): the mover's time less what it ran, plus the increment (none for a side
    that went berserk in an arena: docs/tournaments.md 2.5); the next side's deadline."""
    assert game.time_control is not None and game.clocks is not None
    clocks = _stopped(game, now)
    # A first move is free (its clock was not running); a berserk side plays without increment.
    if has_moved(game, mover) and mover not in (game.berserk or ""):
        gained = game.time_control.increment * 1000
        clocks = _set(clocks, mover, _left(clocks, mover) + gained)
    waiting: Color = "b" if mover == "w" else "w"
    return GameChanges(clocks=clocks, deadline=_deadline(game, clocks, waiting, has_moved(game, waiting), now),
                       remind_at=None, reminded=False)


def resumed(game: Game, kept: Game, now: datetime) -> GameChanges:
    """The clocks after a takeback at ``now``: the running clock stops where it is, and the
    clock of the side to move in ``kept`` (the game after the takeback) runs from now."""
    clocks = _stopped(game, now)
    to_move = side_to_move(kept)
    return GameChanges(clocks=clocks, deadline=_deadline(game, clocks, to_move, has_moved(kept, to_move), now),
                       remind_at=None, reminded=False)


def stopped(game: Game, now: datetime) -> GameChanges:
    """The clocks of a game that ends at ``now`` (a flag leaves the loser at 0:00)."""
    return GameChanges(clocks=_stopped(game, now)) if game.clocks is not None else GameChanges()


def out_of_time(game: Game, now: datetime) -> bool:
    """Whether the side to move of a live game has run out (or let its first move go by)."""
    state = clock_state(game, now)
    if state is None:
        return False
    if state.first_move_ms is not None:
        return state.first_move_ms <= 0
    left = state.white_ms if state.running == "w" else state.black_ms
    return state.running is not None and left <= 0


# The bot's thinking on its clock: a share of what it has left plus most of the increment, and
# never so long that the time it takes to answer (a process hop, storing the move) could flag it.
THINK_SHARE = 30
THINK_INCREMENT = 0.8
SAFETY_SECONDS = 0.5
FIRST_MOVE_THINK = 2.0  # its first move: well inside FIRST_MOVE_SECONDS
LEAST_THINK = 0.01


def thinking_time(game: Game, color: Color, now: datetime) -> float | None:
    """How long the bot, playing ``color``, may think at ``now`` (None: a correspondence game,
    the level's own time). It keeps ``SAFETY_SECONDS`` in hand, so it never loses on time while
    it has more than its increment left (it gains the increment back with each move)."""
    state = clock_state(game, now)
    if state is None or game.time_control is None:
        return None
    if state.first_move_ms is not None:
        return min(FIRST_MOVE_THINK, max(LEAST_THINK, state.first_move_ms / 1000 - SAFETY_SECONDS))
    left = (state.white_ms if color == "w" else state.black_ms) / 1000
    wanted = left / THINK_SHARE + THINK_INCREMENT * game.time_control.increment
    return max(LEAST_THINK, min(wanted, left - SAFETY_SECONDS))


@dataclass(frozen=True, slots=True)
class Flag:
    """What a live game's run-out clock means: aborted (a first move not made; in a tournament's
    game, by neither player: ``double_forfeit``), lost (in a tournament's game, a first move not
    made is a forfeit: reason ``forfeit``, unrated), or drawn."""

    aborted: bool
    result: Result | None
    reason: str

    @property
    def rated(self) -> bool:
        return self.reason not in ("forfeit", DOUBLE_FORFEIT)


def flag_of(game: Game, board: Board) -> Flag:
    """The end of ``game``, whose side to move has run out."""
    flagged = side_to_move(game)
    if not has_moved(game, flagged):
        if double_forfeit(game, flagged):  # neither player came: both forfeit
            return Flag(True, None, DOUBLE_FORFEIT)
        if game.tournament_id is not None:
            return Flag(False, "0-1" if flagged == "w" else "1-0", "forfeit")
        return Flag(True, None, "first_move")
    winner = not board.turn  # the rules core's colour of the side that did not flag
    if not can_win(board, winner):
        return Flag(False, "1/2-1/2", "timeout_draw")
    return Flag(False, "0-1" if flagged == "w" else "1-0", "timeout")


def can_win(board: Board, color: bool) -> bool:
    """Whether ``color`` (the rules core's colour) could still mate by the rules' material:
    not with a bare Khun and nothing in hand, nor against a bare Khun whose count would draw
    at once."""
    codes = board.piece_codes
    if is_bare(codes, color) and not board.pocket(color):
        return False
    if is_bare(codes, not color) and not board.pocket(not color):
        limit = board.count_limit(color)
        return limit is None or limit > 0
    return True


async def time_out(table: Table, ctx: Context, game: Game, board: Board, notify: Notify | None) -> Reply:
    """Ends ``game`` on time: aborted (unrated) when the side to move never moved (lost by
    forfeit, unrated, in a tournament), else lost or drawn; the reply is written to the outbox
    as ``notify`` says."""
    now = table.clock.now()
    flag = flag_of(game, board)
    if flag.aborted:
        changes = replace(stopped(game, now), status="aborted", reason=flag.reason, deadline=None, remind_at=None,
                          draw_offer=None, takeback_offer=None)
        _, reply = await table.commit(ctx, game, board, changes, "aborted", notify=notify)
        return reply
    assert flag.result is not None
    return await table.finish(ctx, game, board, flag.result, flag.reason, notify=notify, rated=flag.rated)


# --- helpers ------------------------------------------------------------------------------

def _stopped(game: Game, now: datetime) -> Clocks:
    """The clocks at ``now`` with the running one stopped there."""
    state = clock_state(game, now)
    assert state is not None
    return Clocks(state.white_ms, state.black_ms, now)


def _left(clocks: Clocks, color: Color) -> int:
    return clocks.white_ms if color == "w" else clocks.black_ms


def _set(clocks: Clocks, color: Color, ms: int) -> Clocks:
    return replace(clocks, white_ms=ms) if color == "w" else replace(clocks, black_ms=ms)


def _deadline(game: Game, clocks: Clocks, to_move: Color, started: bool, now: datetime) -> datetime:
    if not started:
        return now + timedelta(seconds=first_move_seconds(game))
    return now + timedelta(milliseconds=_left(clocks, to_move))
