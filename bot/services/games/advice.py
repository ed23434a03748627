"""The engine's advice: ``hint`` (in a game against the bot, or for the chat's puzzle),
``review`` (the channel's last finished game, one by its number, or a game pasted as PGN or a
move list) and ``analyse`` (any position: a FEN, or where a pasted game ends). The analysis
itself is in ../analysis.py."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from makruk import Board, InvalidFenError
from makruk.pgn import PgnMoveError, read_games, read_moves

from ...engines.base import EnginePosition
from ...messages import BoardView, Reply
from .. import analysis
from ..errors import Refusal
from .archive import finished_game, game_number
from .puzzle_routes import puzzle_command
from .registry import CommandGroup
from .table import side_to_move
from .variants import variant_named

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("advice")


@commands.command("hint")
async def hint(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    if table.puzzles is not None and (ctx.game is None or ctx.game.status != "active"):
        return await puzzle_command(table, ctx, "hint", args)  # no game: a hint for the chat's puzzle
    game, board = ctx.require_active()
    color = await table.my_color(ctx, game)
    if not any(seat is not None and seat.is_engine for seat in (game.white, game.black)):
        raise Refusal("hint_bot_only")
    if side_to_move(board) != color:
        raise Refusal("not_your_turn")
    if board.is_game_over():
        raise Refusal("game_over")
    shown = await table.game_reply(ctx, game, board, "board")
    reply = await analysis.hint(table.engine, table.present, ctx.language, board, table.position(game), shown)
    return [await table.drawn(ctx, reply)]


@commands.command("review")
async def review(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    number = game_number(args[0]) if len(args) == 1 else None
    if args and number is None:  # a pasted game
        pasted = read_pasted(table, ctx, pasted_text(ctx.msg.text))
        if not pasted.moves:
            raise Refusal("no_moves")
        position = EnginePosition(pasted.start_fen, pasted.moves, variant=pasted.variant, perpetual="draw")
        return [await analysis.review_position(table.engine, table.present, ctx.language, position, pasted.names,
                                               pasted.result, notation=ctx.notation)]
    if number is not None:
        game = await finished_game(table, ctx, number)
    else:
        if ctx.game is not None:
            raise Refusal("review_not_finished")
        last = await table.storage.last_game(ctx.msg.platform, ctx.msg.channel)
        if last is None or last.status != "finished":
            raise Refusal("no_game")
        game = last
    players = await table.players_of(game)
    reply = await analysis.review(table.engine, table.present, ctx.language, game, table.names(game, players),
                                  notation=ctx.notation)
    return [replace(reply, game=table.view(game, players))]


@commands.command("analyse")
async def analyse(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    """``analyse FEN`` (``analyse sittuyin FEN`` for a variant's), or a pasted PGN or move list:
    the engine's view of the position it comes to."""
    if not args:
        raise Refusal("analyse_missing")
    text = pasted_text(ctx.msg.text)
    variant = variant_named(table.catalog, args[0])
    if variant is not None:
        text = text.split(maxsplit=1)[1] if len(text.split(maxsplit=1)) > 1 else ""
    board = _position(text, variant or "makruk")
    if board is None:  # not a FEN: a game, analysed where it ends
        pasted = read_pasted(table, ctx, text, variant)
        board = Board(pasted.start_fen, variant=pasted.variant, perpetual="draw")
        board.replay(pasted.moves, trusted=True)
    if board.is_game_over():
        raise Refusal("fen.fen_game_over", text=board.fen()[:60])
    position = EnginePosition(board.fen(), (), variant=board.variant, perpetual="draw")
    coords = ctx.settings.coordinates or ("thai" if ctx.language == "th" else "latin")
    view = BoardView(board.fen(), flip=not board.turn, coords=coords, variant=board.variant)
    reply = await analysis.analyse(table.engine, table.present, ctx.language, board, position, view,
                                   notation=ctx.notation)
    return [await table.drawn(ctx, reply)]


@dataclass(frozen=True)
class Pasted:
    """A game someone pasted: where it starts, its moves (UCI), who played it."""

    start_fen: str
    variant: str
    moves: tuple[str, ...]
    names: dict[str, str]
    result: str


def pasted_text(text: str) -> str:
    """What follows the command word in the message as written (its lines kept: a PGN's
    ``;`` comments end at the line's end)."""
    body = text.strip().lstrip("/!").lstrip()
    parts = body.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


def read_pasted(table: Table, ctx: Context, text: str, variant: str | None = None) -> Pasted:
    """A pasted PGN (its first game) or move list; refused at the first move that cannot be read."""
    white, black = (table.catalog.text(ctx.language, f"colour.{c}") for c in "wb")
    if "[" in text and '"' in text:
        games = read_games(text)
        if not games:
            raise Refusal("no_moves")
        game = games[0]
        if game.error is not None:
            raise Refusal("bad_pgn", ply=game.error.ply, text=game.error.text[:20])
        names = {"w": game.tags.get("White", white), "b": game.tags.get("Black", black)}
        return Pasted(game.start_fen, game.variant, tuple(m.uci() for m in game.moves), names,
                      game.tags.get("Result", "*"))
    board = Board(variant=variant or "makruk", perpetual="draw")
    try:
        moves = read_moves(text, board)
    except PgnMoveError as error:
        raise Refusal("bad_pgn", ply=error.ply, text=error.text[:20]) from None
    return Pasted(board.starting_position, board.variant, tuple(m.uci() for m in moves), {"w": white, "b": black},
                  "*")


def _position(text: str, variant: str) -> Board | None:
    """The board of a FEN, if ``text`` is one; refused when it is a FEN of an impossible position."""
    if "/" not in text or ("[" in text and '"' in text) or "." in text:
        return None
    try:
        return Board(text, variant=variant, perpetual="draw")
    except InvalidFenError as error:
        raise Refusal(f"fen.{error.code}", text=text[:60]) from None
