"""Moves and the board: ``move`` (and a bare move), ``select`` for tap-to-move, the bot's answer,
and looking at the game: ``board``, ``flip``, ``history``, ``export``."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from makruk import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, MakrukError, Move, read_square
from storage import StorageError
from storage.records import Color, Game, GameChanges, NewMove, RatingUpdate

from ...engines import EngineError
from ...messages import Reply
from ...pgn import export_pgn
from ..errors import Refusal
from ..notation import NOTATIONS, move_text
from . import live, tournament_routes
from .archive import finished_game, game_number
from .counting import declare
from .puzzle_routes import keeper, puzzle_command
from .ratings import rating_updates
from .registry import CommandGroup
from .setup_auto import auto_drop
from .table import Notify, other, side_to_move
from .timing import turn_times

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

log = logging.getLogger(__name__)
commands = CommandGroup("moves")


@commands.command("move")
async def move(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if not args:
        raise Refusal("move_missing")
    text = " ".join(args)
    if table.puzzles is not None and (ctx.game is None or ctx.game.status != "active"):
        answered = await table.puzzles.answer(ctx.msg, ctx.language, text, keeper(table, ctx))  # the open puzzle
        if answered is not None:
            return answered
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if side_to_move(board) != color:
        raise Refusal("not_your_turn")
    chosen = parse_move(ctx, board, text)
    if live.out_of_time(game, table.clock.now()):  # too late: the flag falls before the move counts
        return [await live.time_out(table, ctx, game, board, None)]
    game, board, replies = await apply_move(table, ctx, game, board, chosen, color)
    if ctx.settings.push_notices is False:
        await _retire_reminders(table, ctx)
    return replies + await engine_turns(table, ctx, game, board)


async def _retire_reminders(table: Table, ctx: Context) -> None:
    """A reminder that waits for the chat's next answer (pushes are off) is stale once the
    player has moved: it is dropped instead of shown."""
    pending = await table.storage.pending_notices(ctx.msg.platform, ctx.msg.channel)
    stale = [row.key for row in pending if row.kind == "reminder"]
    if stale:
        await table.storage.mark_notices_sent(stale)


def parse_move(ctx: Context, board: Board, text: str) -> Move:
    """The legal move ``text`` names, in any notation; refused with the rules core's reason."""
    if board.is_game_over():
        raise Refusal("game_over")
    try:
        return board.parse_move(text)
    except AmbiguousMoveError as error:
        names = ", ".join(move_text(ctx.language, board, m, ctx.notation) for m in error.candidates)
        raise Refusal("ambiguous", text=text[:20], candidates=names) from None
    except IllegalMoveError as error:
        raise Refusal(f"illegal.{error.code}", text=text[:20]) from None
    except InvalidMoveError:
        raise Refusal("not_a_move", text=text[:20]) from None


def looks_like_move(board: Board | None, text: str) -> bool:
    """Whether ``text`` is written as a move (legal or not) rather than as chatter."""
    try:
        (board or Board()).parse_move(text)
    except InvalidMoveError:
        return False
    except MakrukError:
        return True
    return True


async def apply_move(table: Table, ctx: Context, game: Game, board: Board, chosen: Move, color: Color, *,
                     notify: Notify | None = None) -> tuple[Game, Board, list[Reply]]:
    """Plays a legal move and stores it (with the game's end, when it ends the game); with
    ``notify`` its reply is also written to the outbox in the same transaction."""
    san = board.san(chosen)
    board.push(chosen)
    outcome = board.outcome()
    now = table.clock.now()
    if game.time_control is not None:
        changes = replace(live.after_move(game, color, now), takeback_offer=None)
    else:
        deadline, remind_at = turn_times(now, game.move_seconds)
        changes = GameChanges(deadline=deadline, remind_at=remind_at, reminded=False, takeback_offer=None)
    if game.draw_offer == other(color):
        changes = replace(changes, draw_offer=None)  # a move instead of accepting declines the offer
    updates: list[RatingUpdate] = []
    if outcome is not None:
        changes = replace(changes, status="finished", result=outcome.result, reason=outcome.reason,
                          deadline=None, remind_at=None, draw_offer=None)
        updates = await rating_updates(table.storage, game, outcome.result)
    game, reply = await table.commit(ctx, game, board, changes, "moved", move=NewMove(chosen.uci(), san, color),
                                     last=chosen, ratings=updates, notify=notify)
    return game, board, [reply]


def engine_to_move(game: Game, board: Board) -> int | None:
    """The engine's level when it is the engine's turn in an active game, else None."""
    seat = game.seat(side_to_move(board))
    if game.status != "active" or seat is None or board.is_game_over():
        return None
    return seat.engine_level


async def engine_turns(table: Table, ctx: Context, game: Game, board: Board, *, inline: bool = True) -> list[Reply]:
    """The engine answers while it is its turn (at most once: then it is a person's turn).

    Each answer is written to the outbox with the move. ``inline``: the replies go back with
    the person's message, so the outbox holds them back for a while (the door reports them
    shown; a crash before that leaves them to the outbox). When the engine fails, the person's
    move stands and the scheduler gives the engine its turn again (clock.py).
    """
    replies: list[Reply] = []
    due = table.answer_due(ctx) if inline else None
    notify = Notify("bot_move", due)
    try:
        while True:
            placed = auto_drop(game, board)  # Sittuyin: a side that said "setup auto"
            if placed is not None:
                game, board, more = await apply_move(table, ctx, game, board, placed, side_to_move(board),
                                                     notify=notify)
                replies += more
                continue
            level = engine_to_move(game, board)
            if level is None:
                break
            color = side_to_move(board)
            if board.can_declare_count() and await table.engine.wants_count(table.position(game)):
                game, board, declared = await declare(table, ctx, game, board, notify=notify)
                replies.append(declared)
                if game.status != "active":
                    break
            position = replace(table.position(game), seconds=live.thinking_time(game, color, table.clock.now()))
            uci = await table.engine.best_move(position, level=level)
            if live.out_of_time(game, table.clock.now()):
                replies.append(await live.time_out(table, ctx, game, board, notify))
                break
            answer = Move.from_uci(uci)
            if answer not in board.legal_moves():
                log.error("engine %s answered an illegal move %s in %s", table.engine.name, uci, board.fen())
                break
            game, board, more = await apply_move(table, ctx, game, board, answer, color, notify=notify)
            replies += more
    except (EngineError, StorageError, MakrukError, ValueError) as error:
        log.warning("the engine could not answer in game %d (%r); the scheduler tries again", game.id, error)
    return replies


@commands.command("select")
async def select(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """Tap-to-move, first step: the player picks a piece; the reply marks where it may go."""
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if side_to_move(board) != color:
        raise Refusal("not_your_turn")
    square = read_square(args[0]) if len(args) == 1 else None
    if square is None:
        raise Refusal("bad_square")
    if not any(m.from_square == square for m in board.legal_moves()):
        raise Refusal("cannot_select")
    return [await table.game_reply(ctx, game, board, "selected", selected=square)]


@commands.command("board")
async def show_board(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if ctx.game is None and table.puzzles is not None:
        return await puzzle_command(table, ctx, "board", args)  # no game: the puzzle being solved
    game, board = ctx.require_active()
    return [await table.game_reply(ctx, game, board, "board")]


@commands.command("flip")
async def flip(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game, board = ctx.require_active()
    return [await table.game_reply(ctx, game, board, "board", flip=True)]


@commands.command("history")
async def history(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game = await _game_for_record(table, ctx)
    notation = ctx.notation
    if args:
        notation = table.catalog.word_for(args[0])
        if notation not in NOTATIONS:
            raise Refusal("bad_option", option=args[0][:20])
    board = Board(game.start_fen, variant=game.variant, promotion=game.promotion, perpetual=game.perpetual)
    parts = []
    for i, record in enumerate(game.moves):
        played = Move.from_uci(record.uci)
        if board.turn or i == 0:
            parts.append(f"{board.fullmove_number}." if board.turn else f"{board.fullmove_number}...")
        parts.append(move_text(ctx.language, board, played, notation))
        board.push(played)
    moves = " ".join(parts) if parts else table.catalog.text(ctx.language, "history.empty")
    reply = table.present.info(ctx.language, "history", moves=moves, kind="history")
    return [replace(reply, game=await table.view_of(ctx, game))]


@commands.command("export")
async def export(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """``export`` (the game being played, else the last one), ``export ID``, ``export ID gif``;
    ``export ID trf`` is tournament ``ID`` (tournament_routes)."""
    number = game_number(args[0]) if args else None
    if len(args) == 2 and "trf" in (args[1].casefold(), table.catalog.word_for(args[1])):
        digits = args[0].removeprefix("#")
        if number is None and digits.isascii() and digits.isdigit():  # beyond any id the database holds
            raise Refusal("no_such_tournament", id=digits[:12])
        if number is not None:
            return await tournament_routes.export_trf(table, ctx, number)  # an event, not a game
    if args and number is None:
        raise Refusal("bad_option", option=args[0][:20])
    gif = len(args) == 2 and table.catalog.word_for(args[1]) == "gif"
    if len(args) > 2 or (len(args) == 2 and not gif):
        raise Refusal("bad_option", option=args[-1][:20])
    game = await finished_game(table, ctx, number) if number is not None else await _game_for_record(table, ctx)
    if gif:
        return [await table.replay(ctx, game)]
    players = await table.players_of(game)
    names = table.names(game, players)
    pgn = export_pgn(
        start_fen=game.start_fen, moves=[m.uci for m in game.moves], white=names["w"], black=names["b"],
        result=game.result, date=game.created, promotion=game.promotion, variant=game.variant,
    )
    return [Reply(kind="export", text=pgn, language=ctx.language, game=table.view(game, players))]


async def _game_for_record(table: Table, ctx: Context) -> Game:
    """The game being played, else the channel's last game that started."""
    if ctx.game is not None and ctx.game.status == "active":
        return ctx.game
    last = await table.storage.last_game(ctx.msg.platform, ctx.msg.channel)
    if last is None or last.status == "challenge":
        raise Refusal("no_game")
    return last
