"""What the doors ask without sending a message: the channel's game as replies describe it, and
the legal moves for autocomplete and tap-to-move menus. Read-only: playing goes through ``handle``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from makruk import Board, Move
from storage import NotFound
from storage.records import ChannelSettings, Game

from ...messages import GameView, Platform, User
from ..notation import move_text
from .table import side_to_move

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True)
class MoveChoice:
    """One legal move, in every notation, with its squares (0 = a1 .. 63 = h8)."""

    uci: str
    san: str
    thai: str
    from_square: int
    to_square: int
    piece: str  # "khun", "met", "khon", "ma", "rua", "bia", "bia_ngai"


async def channel_game(table: Table, platform: Platform, channel: str) -> GameView | None:
    """The channel's current game, or its last finished one, as replies describe games."""
    game = await table.storage.active_game(platform, channel)
    if game is None:
        game = await table.storage.last_game(platform, channel)
    if game is None:
        return None
    return table.view(game, await table.players_of(game))


async def move_choices(table: Table, platform: Platform, channel: str, user: User, *,
                       fen: str | None = None) -> list[MoveChoice]:
    """The legal moves ``user`` may play now in the channel's game (empty when none, or when
    the game is no longer at ``fen``: someone moved meanwhile)."""
    game = await table.storage.active_game(platform, channel, user_id=user.id)
    if game is None or game.status != "active":
        return []
    board = table.board(game)
    if fen is not None and board.fen() != fen:
        return []
    player = await table.storage.find_player(platform, user.id)
    seat = game.seat(side_to_move(board))
    if player is None or seat is None or seat.player_id != player.id:
        return []
    return choices_of(table, game, board)


async def turn_choices(table: Table, platform: Platform, channel: str) -> list[MoveChoice]:
    """The legal moves of whoever is to move in the channel's game, when a person is (empty
    otherwise): what a tap-to-move menu shown to everyone offers."""
    game = await table.storage.active_game(platform, channel)
    if game is None or game.status != "active":
        return []
    board = table.board(game)
    seat = game.seat(side_to_move(board))
    if seat is None or seat.player_id is None:
        return []
    return choices_of(table, game, board)


def choices_of(table: Table, game: Game, board: Board) -> list[MoveChoice]:
    """Every legal move of the position in every notation: worked out once per position (a
    game's version) and kept with its board, since each door asks for them several times
    per answer (menus, autocomplete, tap-to-move)."""
    known = table.known_choices(game)
    if known is not None:
        return list(known)
    choices = []
    if not board.is_game_over():
        for m in board.legal_moves():
            kind = board.moving_kind(m)  # a drop's piece comes from the hand (Sittuyin's deployment)
            assert kind is not None  # a legal move starts on a piece
            choices.append(MoveChoice(m.uci(), board.san(m), board.thai_san(m), m.from_square, m.to_square,
                                      kind.name.lower()))
    table.keep_choices(game, tuple(choices))
    return choices


@dataclass(frozen=True)
class GameRecord:
    """One game as a door that shows it by its id (the web board) needs it: the game, its board
    now, the players' names and user ids by colour, the chat's language and settings, the status
    line, and every move written as the chat writes moves."""

    game: Game
    board: Board
    names: dict[str, str]  # colour -> name as replies show it
    user_ids: dict[str, str | None]  # colour -> the platform's user id (None: the engine, or empty)
    language: str
    settings: ChannelSettings
    status: str
    moves: tuple[str, ...]
    positions: tuple[str, ...]  # the FEN before the first move and after each move


async def game_record(table: Table, game_id: int) -> GameRecord | None:
    """Game ``game_id`` as GameRecord describes it; None when there is no such game."""
    try:
        game = await table.storage.get_game(game_id)
    except NotFound:
        return None
    settings = await table.storage.get_channel_settings(game.platform, game.channel)
    language = settings.language or table.default_language(game.platform)
    players = await table.players_of(game)
    names = table.names(game, players)
    user_ids: dict[str, str | None] = {}
    for color in ("w", "b"):
        seat = game.seat(color)
        player = players.get(seat.player_id) if seat is not None and seat.player_id is not None else None
        user_ids[color] = player.user_id if player is not None else None
    board = table.board(game)
    last = Move.from_uci(game.moves[-1].uci) if game.moves else None
    status = table.present.game(language, game, board, names, "board", last=last, flip=False, settings=settings,
                                actor=User("", "")).text
    replay = Board(game.start_fen, variant=game.variant, promotion=game.promotion, perpetual=game.perpetual)
    texts, positions = [], [replay.fen()]
    for record in game.moves:
        played = Move.from_uci(record.uci)
        texts.append(move_text(language, replay, played, settings.notation))
        replay.push(played)
        positions.append(replay.fen())
    return GameRecord(game, board, names, user_ids, language, settings, status, tuple(texts), tuple(positions))
