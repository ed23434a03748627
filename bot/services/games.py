"""The game service: chat commands in, localized replies out; one game per channel.

Adapters give it ``Incoming`` messages and show the ``Reply`` values it returns. It decides
everything (who may do what, the rules, the clock, ratings); storage keeps it durable.
Two messages for one channel are handled one after the other (a lock per channel in this
process, a compare-and-set on the game's version across processes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta

from makruk import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, MakrukError, Move, thai_san
from makruk import san as write_san
from makruk.notation import THAI_FILES
from storage import ChannelBusy, NotFound, StorageError, VersionConflict
from storage.records import ChannelSettings, Game, GameChanges, NewGame, NewMove, Player, RatingUpdate, Seat

from .. import ratings
from ..clock import Clock, SystemClock
from ..commands import Command, parse_command
from ..config import Settings
from ..engines import Engine, EnginePosition, RandomMover
from ..engines.levels import ENGINE_DEVIATION
from ..engines.levels import rating as level_rating
from ..i18n import Catalog, normalize_language
from ..messages import MAX_MESSAGE_LENGTH, GameView, Incoming, Notice, Reply, User
from ..pgn import export_pgn
from . import analysis
from .presenter import Presenter
from .replay import CountEvent, dump_events, load_events, replay

log = logging.getLogger(__name__)

MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 14 * 24 * 3600
ENGINE_LEVELS = range(1, 9)
REMINDER_FRACTION = 0.8
_TIME_SPEC = re.compile(r"(\d{1,4})\s*(m|min|h|d|นาที|ชม|ชั่วโมง|วัน|分|時間|日)", re.IGNORECASE)
_TIME_UNITS = {"m": 60, "min": 60, "นาที": 60, "分": 60, "h": 3600, "ชม": 3600, "ชั่วโมง": 3600, "時間": 3600,
               "d": 86400, "วัน": 86400, "日": 86400}


@dataclass(frozen=True)
class MoveChoice:
    """One legal move, in every notation, with its squares (0 = a1 .. 63 = h8)."""

    uci: str
    san: str
    thai: str
    from_square: int
    to_square: int
    piece: str  # "khun", "met", "khon", "ma", "rua", "bia", "bia_ngai"


class Refusal(Exception):
    """A message is refused: nothing changes, the actor gets a short localized reason."""

    def __init__(self, code: str, *, private: bool = True, **fields: object) -> None:
        super().__init__(code)
        self.code = code
        self.private = private
        self.fields = fields


@dataclass
class Context:
    """What one message is about, loaded once."""

    msg: Incoming
    language: str
    settings: ChannelSettings
    game: Game | None = None
    board: Board | None = None
    _player: Player | None = field(default=None, repr=False)


class GameService:
    def __init__(
        self,
        storage,
        settings: Settings,
        *,
        clock: Clock | None = None,
        engine: Engine | None = None,
        catalog: Catalog | None = None,
        render=None,
        rng: random.Random | None = None,
        puzzles=None,
    ) -> None:
        self.storage = storage
        self.puzzles = puzzles  # bot.services.puzzles.PuzzleService, when puzzles are on
        self.settings = settings
        self.clock = clock or SystemClock()
        self.engine = engine or RandomMover()
        self.catalog = catalog or Catalog.load()
        self.present = Presenter(self.catalog, render)
        self._random = rng or random.Random()
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._boards: dict[int, tuple[int, Board]] = {}  # game id -> (version, board)
        self._render_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")

    # --- the entry point --------------------------------------------------------------

    async def handle(self, msg: Incoming) -> list[Reply]:
        """Everything the bot answers to one message. Never raises for bad input."""
        lock = self._locks.setdefault((msg.platform, msg.channel), asyncio.Lock())
        async with lock:
            try:
                return await self._handle(msg)
            except Refusal as refusal:
                if not msg.addressed and not await self._plays_here(msg):
                    return []  # chatter that merely looks like a command: no answer to the group
                language = await self._language_safely(msg)
                return [self.present.error(language, refusal.code, private=refusal.private, **refusal.fields)]
            except VersionConflict:
                language = await self._language_safely(msg)
                return [self.present.error(language, "conflict")]
            except Exception:
                log.exception("could not handle a message in %s/%s", msg.platform, msg.channel)
                language = await self._language_safely(msg)
                return [self.present.error(language, "internal")]

    async def _handle(self, msg: Incoming) -> list[Reply]:
        if len(msg.text) > MAX_MESSAGE_LENGTH:
            if not msg.addressed:
                return []
            raise Refusal("too_long", limit=MAX_MESSAGE_LENGTH)
        command = parse_command(msg.text, self.catalog)
        if command is None:
            return []
        ctx = await self._context(msg)
        if command.bare_move:
            return await self._bare_text(ctx, command)
        handler = getattr(self, f"_cmd_{command.name}", None)
        if handler is None:
            raise Refusal("unknown_command")
        return await handler(ctx, command.args)

    async def _context(self, msg: Incoming) -> Context:
        settings = await self.storage.get_channel_settings(msg.platform, msg.channel)
        ctx = Context(msg, self._language(msg, settings), settings)
        ctx.game = await self.storage.active_game(msg.platform, msg.channel)
        if ctx.game is not None:
            ctx.board = self._board(ctx.game)
        return ctx

    def _language(self, msg: Incoming, settings: ChannelSettings) -> str:
        if settings.language:
            return settings.language
        from_client = normalize_language(msg.locale)
        if from_client:
            return from_client
        return self.settings.line_language if msg.platform == "line" else self.settings.language

    async def _plays_here(self, msg: Incoming) -> bool:
        """Whether the sender is a player of the channel's open game."""
        try:
            game = await self.storage.active_game(msg.platform, msg.channel)
            player = await self.storage.find_player(msg.platform, msg.user.id)
        except StorageError:
            return False
        return game is not None and player is not None and player.id in game.player_ids

    async def _language_safely(self, msg: Incoming) -> str:
        try:
            settings = await self.storage.get_channel_settings(msg.platform, msg.channel)
            return self._language(msg, settings)
        except Exception:
            return self.settings.language

    async def _player(self, ctx: Context, user: User | None = None) -> Player:
        if user is None:
            if ctx._player is None:
                ctx._player = await self.storage.get_or_create_player(
                    ctx.msg.platform, ctx.msg.user.id, ctx.msg.user.name
                )
            return ctx._player
        return await self.storage.get_or_create_player(ctx.msg.platform, user.id, user.name)

    def _board(self, game: Game) -> Board:
        cached = self._boards.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[1].copy()
        board = replay(
            game.start_fen,
            [m.uci for m in game.moves],
            load_events(game.counting),
            promotion=game.promotion,
            perpetual=game.perpetual,
        )
        self._remember(game, board)
        return board.copy()

    def _remember(self, game: Game, board: Board) -> None:
        if game.is_open:
            self._boards[game.id] = (game.version, board.copy())
        else:
            self._boards.pop(game.id, None)

    # --- text that is not a command word ---------------------------------------------

    async def _bare_text(self, ctx: Context, command: Command) -> list[Reply]:
        game = ctx.game
        answered = await self._puzzle_answer(ctx, command.args[0])
        if answered is not None:
            return answered
        if game is not None and game.status == "active" and self._looks_like_move(ctx, command.args[0]):
            return await self._cmd_move(ctx, command.args)
        if not (ctx.msg.addressed or command.prefixed):
            return []  # ordinary chatter in a group
        if game is None and self._looks_like_move(ctx, command.args[0]):
            raise Refusal("no_game")
        raise Refusal("unknown_command")

    def _looks_like_move(self, ctx: Context, text: str) -> bool:
        try:
            (ctx.board or Board()).parse_move(text)
        except InvalidMoveError:
            return False
        except MakrukError:
            return True
        return True

    # --- challenges -------------------------------------------------------------------

    async def _cmd_new(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        options = self._challenge_options(ctx, args)
        if ctx.game is not None:
            raise Refusal("channel_busy", private=False)
        me = await self._player(ctx)
        now = self.clock.now()
        if options.vs_bot:
            return await self._start_bot_game(ctx, me, options)
        opponent = None
        if options.opponent is not None:
            if options.opponent.id == ctx.msg.user.id:
                raise Refusal("challenge_self")
            opponent = await self._player(ctx, options.opponent)
        color = options.color or "w"
        if color == "random":
            color = self._random.choice("wb")
        mine, theirs = Seat.human(me.id), Seat.human(opponent.id) if opponent else None
        new = NewGame(
            platform=ctx.msg.platform,
            channel=ctx.msg.channel,
            community=ctx.msg.community or ctx.msg.channel,
            white=mine if color == "w" else theirs,
            black=theirs if color == "w" else mine,
            start_fen=Board.starting_fen,
            promotion=options.promotion or ctx.settings.promotion or "forced",
            perpetual=options.perpetual or ctx.settings.perpetual or "forbid",
            move_seconds=options.move_seconds or ctx.settings.move_seconds or self.settings.move_seconds,
            rated=options.rated,
            created_by=me.id,
            status="challenge",
            deadline=now + timedelta(seconds=self.settings.challenge_seconds),
        )
        try:
            game = await self.storage.create_game(new)
        except ChannelBusy:
            raise Refusal("channel_busy", private=False) from None
        return [await self.present.challenge(ctx.language, game, self._names(game, {me.id: me, **({opponent.id: opponent} if opponent else {})}), opponent)]

    async def _start_bot_game(self, ctx: Context, me: Player, options) -> list[Reply]:
        level = options.level or 1
        color = options.color or "w"
        if color == "random":
            color = self._random.choice("wb")
        now = self.clock.now()
        seconds = options.move_seconds or ctx.settings.move_seconds or self.settings.move_seconds
        new = NewGame(
            platform=ctx.msg.platform,
            channel=ctx.msg.channel,
            community=ctx.msg.community or ctx.msg.channel,
            white=Seat.human(me.id) if color == "w" else Seat.engine(level),
            black=Seat.engine(level) if color == "w" else Seat.human(me.id),
            start_fen=Board.starting_fen,
            promotion=options.promotion or ctx.settings.promotion or "forced",
            perpetual=options.perpetual or ctx.settings.perpetual or "forbid",
            move_seconds=seconds,
            rated=True,  # against the level's fixed rating (see _rating_updates)
            created_by=me.id,
            status="active",
            deadline=now + timedelta(seconds=seconds),
            remind_at=now + timedelta(seconds=seconds * REMINDER_FRACTION),
        )
        try:
            game = await self.storage.create_game(new)
        except ChannelBusy:
            raise Refusal("channel_busy", private=False) from None
        board = self._board(game)
        replies = [await self._game_reply(ctx, game, board, "game_started")]
        replies += await self._engine_turns(ctx, game, board)
        return replies

    @dataclass
    class _Options:
        opponent: User | None = None
        vs_bot: bool = False
        level: int | None = None
        color: str | None = None
        promotion: str | None = None
        perpetual: str | None = None
        move_seconds: int | None = None
        rated: bool = True

    def _challenge_options(self, ctx: Context, args: tuple[str, ...]) -> GameService._Options:
        options = self._Options()
        mentions = list(ctx.msg.mentions)
        for token in args:
            word = self.catalog.word_for(token)
            if token.startswith("@") and len(token) > 1:
                if options.opponent is not None:
                    raise Refusal("bad_option", option=token)
                options.opponent = mentions.pop(0) if mentions else User(token[1:], token[1:])
            elif word == "bot":
                options.vs_bot = True
            elif word in ("white", "black", "random"):
                options.color = {"white": "w", "black": "b", "random": "random"}[word]
            elif word in ("optional", "forced"):
                options.promotion = word
            elif word in ("perpetual_draw", "perpetual_forbid"):
                options.perpetual = word.removeprefix("perpetual_")
            elif word in ("rated", "casual"):
                options.rated = word == "rated"
            elif token.isdigit() and options.vs_bot:
                level = int(token)
                if level not in ENGINE_LEVELS:
                    raise Refusal("bad_level", low=ENGINE_LEVELS[0], high=ENGINE_LEVELS[-1])
                options.level = level
            elif _TIME_SPEC.fullmatch(token.removeprefix("time=")):
                options.move_seconds = _parse_time(token.removeprefix("time="))
            else:
                raise Refusal("bad_option", option=token[:20])
        if options.opponent is None and mentions:
            options.opponent = mentions[0]
        if options.vs_bot and options.opponent is not None:
            raise Refusal("bad_option", option="@" + options.opponent.name[:20])
        return options

    async def _cmd_accept(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game = self._require_game(ctx)
        if game.status == "active":
            return await self._accept_offer(ctx)
        me = await self._player(ctx)
        if game.created_by == me.id:
            raise Refusal("own_challenge")
        invited = [s for s in (game.white, game.black) if s is not None and s.player_id != game.created_by]
        if invited and invited[0].player_id != me.id:
            raise Refusal("not_invited")
        now = self.clock.now()
        seat = Seat.human(me.id)
        changes = GameChanges(
            white=game.white if game.white is not None else seat,
            black=game.black if game.black is not None else seat,
            status="active",
            deadline=now + timedelta(seconds=game.move_seconds),
            remind_at=now + timedelta(seconds=game.move_seconds * REMINDER_FRACTION),
        )
        game = await self.storage.update_game(game.id, game.version, changes)
        return [await self._game_reply(ctx, game, self._board(game), "game_started")]

    async def _cmd_decline(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game = self._require_game(ctx)
        if game.status == "active":
            return await self._decline_offer(ctx)
        me = await self._player(ctx)
        invited = [s.player_id for s in (game.white, game.black) if s is not None and s.player_id != game.created_by]
        if me.id != game.created_by and invited and me.id not in invited:
            raise Refusal("not_invited")
        if me.id != game.created_by and not invited:
            raise Refusal("not_invited")  # anyone may accept an open challenge; only its author withdraws it
        reason = "withdrawn" if me.id == game.created_by else "declined"
        await self.storage.update_game(game.id, game.version, GameChanges(status="aborted", reason=reason, deadline=None))
        return [self.present.info(ctx.language, f"challenge.{reason}", name=ctx.msg.user.name)]

    # --- moves ------------------------------------------------------------------------

    async def _cmd_move(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        if not args:
            raise Refusal("move_missing")
        answered = await self._puzzle_answer(ctx, " ".join(args))
        if answered is not None:
            return answered
        text = " ".join(args)
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        if (board.turn and color != "w") or (not board.turn and color != "b"):
            raise Refusal("not_your_turn")
        move = self._parse_move(ctx, board, text)
        game, board, replies = await self._apply_move(ctx, game, board, move, color)
        return replies + await self._engine_turns(ctx, game, board)

    def _parse_move(self, ctx: Context, board: Board, text: str) -> Move:
        if board.is_game_over():
            raise Refusal("game_over")
        try:
            return board.parse_move(text)
        except AmbiguousMoveError as error:
            names = ", ".join(self._notation(ctx.language, board, m) for m in error.candidates)
            raise Refusal("ambiguous", text=text[:20], candidates=names) from None
        except IllegalMoveError as error:
            raise Refusal(f"illegal.{error.code}", text=text[:20]) from None
        except InvalidMoveError:
            raise Refusal("not_a_move", text=text[:20]) from None

    async def _apply_move(self, ctx: Context, game: Game, board: Board, move: Move, color: str):
        san = write_san(board, move)
        board.push(move)
        outcome = board.outcome()
        now = self.clock.now()
        opponent = _other(color)
        changes = dict(
            deadline=now + timedelta(seconds=game.move_seconds),
            remind_at=now + timedelta(seconds=game.move_seconds * REMINDER_FRACTION),
            reminded=False,
            takeback_offer=None,
        )
        if game.draw_offer == opponent:
            changes["draw_offer"] = None  # a move instead of accepting declines the offer
        rating_updates: list[RatingUpdate] = []
        if outcome is not None:
            changes.update(status="finished", result=outcome.result, reason=outcome.reason,
                           deadline=None, remind_at=None, draw_offer=None)
            rating_updates = await self._rating_updates(game, outcome.result)
        game = await self.storage.append_move(
            game.id, game.version, NewMove(move.uci(), san, color), GameChanges(**changes), ratings=rating_updates
        )
        self._remember(game, board)
        return game, board, [await self._game_reply(ctx, game, board, "moved", last=move)]

    async def _engine_turns(self, ctx: Context, game: Game, board: Board) -> list[Reply]:
        """The engine answers while it is its turn (at most once: then it is a person's turn)."""
        replies: list[Reply] = []
        while game.status == "active":
            color = _side_to_move(board)
            seat = game.seat(color)
            if seat is None or not seat.is_engine:
                break
            position = self._position(game)
            if board.can_declare_count() and await self.engine.wants_count(position):
                game, board = await self._declare(game, board)
                replies.append(await self._game_reply(ctx, game, board, "count_declared"))
                if game.status != "active":
                    break
            uci = await self.engine.best_move(self._position(game), level=seat.engine_level)
            move = Move.from_uci(uci)
            if move not in board.legal_moves():
                log.error("engine %s answered an illegal move %s in %s", self.engine.name, uci, board.fen())
                raise Refusal("engine_failed", private=False)
            game, board, more = await self._apply_move(ctx, game, board, move, color)
            replies += more
        return replies

    def _position(self, game: Game) -> EnginePosition:
        return EnginePosition(
            game.start_fen, tuple(m.uci for m in game.moves), tuple(load_events(game.counting)),
            game.promotion, game.perpetual,
        )

    async def _cmd_select(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        """Tap-to-move, first step: the player picks a piece; the reply marks where it may go."""
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        if _side_to_move(board) != color:
            raise Refusal("not_your_turn")
        square = _read_square(args[0]) if len(args) == 1 else None
        if square is None:
            raise Refusal("bad_square")
        if not any(m.from_square == square for m in board.legal_moves()):
            raise Refusal("cannot_select")
        reply = await self._game_reply(ctx, game, board, "selected", selected=square)
        return [reply]

    # --- hint and review: the engine's advice (bot/services/analysis.py) --------------

    async def _cmd_hint(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        if self.puzzles is not None and (ctx.game is None or ctx.game.status != "active"):
            return await self._puzzle_command(ctx, "hint", args)  # no game: a hint for the chat's puzzle
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        if not (game.white.is_engine or game.black.is_engine):
            raise Refusal("hint_bot_only")
        if _side_to_move(board) != color:
            raise Refusal("not_your_turn")
        if board.is_game_over():
            raise Refusal("game_over")
        shown = await self._game_reply(ctx, game, board, "board")
        reply = await analysis.hint(self.engine, self.present, ctx.language, board, self._position(game), shown)
        return [await self.with_image(reply)]

    async def _cmd_review(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        if ctx.game is not None:
            raise Refusal("review_not_finished")
        game = await self.storage.last_game(ctx.msg.platform, ctx.msg.channel)
        if game is None or game.status != "finished":
            raise Refusal("no_game")
        names = self._names(game, await self._players_of(game))
        return [await analysis.review(self.engine, self.present, ctx.language, game, names)]

    # --- resign, draw, takeback -------------------------------------------------------

    async def _cmd_resign(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        result = "0-1" if color == "w" else "1-0"
        return [await self._finish(ctx, game, board, result, "resignation")]

    async def _cmd_draw(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        opponent = _other(color)
        if game.draw_offer == opponent:
            return [await self._finish(ctx, game, board, "1/2-1/2", "agreement")]
        if game.draw_offer == color:
            raise Refusal("draw_already_offered")
        seat = game.seat(opponent)
        if seat is not None and seat.is_engine:
            if await self.engine.accepts_draw(self._position(game), level=seat.engine_level):
                return [await self._finish(ctx, game, board, "1/2-1/2", "agreement")]
            return [self.present.info(ctx.language, "draw.bot_declines")]
        game = await self.storage.update_game(game.id, game.version, GameChanges(draw_offer=color))
        return [await self._game_reply(ctx, game, board, "draw_offered")]

    async def _accept_offer(self, ctx: Context) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        opponent = _other(color)
        if game.draw_offer == opponent:
            return [await self._finish(ctx, game, board, "1/2-1/2", "agreement")]
        if game.takeback_offer == opponent:
            return await self._take_back(ctx, game, board, opponent)
        raise Refusal("nothing_to_accept")

    async def _decline_offer(self, ctx: Context) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        opponent = _other(color)
        if game.draw_offer == opponent:
            game = await self.storage.update_game(game.id, game.version, GameChanges(draw_offer=None))
            return [self.present.info(ctx.language, "draw.declined", name=ctx.msg.user.name)]
        if game.takeback_offer == opponent:
            game = await self.storage.update_game(game.id, game.version, GameChanges(takeback_offer=None))
            return [self.present.info(ctx.language, "undo.declined", name=ctx.msg.user.name)]
        raise Refusal("nothing_to_decline")

    async def _cmd_undo(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        opponent = _other(color)
        if game.takeback_offer == opponent:
            return await self._take_back(ctx, game, board, opponent)
        if self._plies_to_take_back(game, board, color) == 0:
            raise Refusal("undo_nothing")
        seat = game.seat(opponent)
        if seat is not None and seat.is_engine:
            return await self._take_back(ctx, game, board, color)
        if game.takeback_offer == color:
            raise Refusal("undo_already_asked")
        game = await self.storage.update_game(game.id, game.version, GameChanges(takeback_offer=color))
        return [await self._game_reply(ctx, game, board, "undo_asked")]

    def _plies_to_take_back(self, game: Game, board: Board, requester: str) -> int:
        """Takes back the requester's last move (and the reply to it, if there was one)."""
        plies = len(game.moves)
        to_move = _side_to_move(board)
        wanted = 2 if to_move == requester else 1
        return wanted if plies >= wanted else 0

    async def _take_back(self, ctx: Context, game: Game, board: Board, requester: str) -> list[Reply]:
        n = self._plies_to_take_back(game, board, requester)
        if n == 0:
            raise Refusal("undo_nothing")
        kept = len(game.moves) - n
        events = [e for e in load_events(game.counting) if e.ply <= kept]
        now = self.clock.now()
        game = await self.storage.undo_moves(
            game.id, game.version, n,
            GameChanges(
                takeback_offer=None, draw_offer=None, counting=dump_events(events),
                deadline=now + timedelta(seconds=game.move_seconds),
                remind_at=now + timedelta(seconds=game.move_seconds * REMINDER_FRACTION), reminded=False,
            ),
        )
        board = self._board(game)
        return [await self._game_reply(ctx, game, board, "undone")]

    # --- counting ---------------------------------------------------------------------

    async def _cmd_count(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        if _side_to_move(board) != color:
            raise Refusal("not_your_turn")
        if board.is_game_over():
            raise Refusal("game_over")
        if board.can_declare_count() is None:
            raise Refusal("count_not_allowed")
        game, board = await self._declare(game, board)
        return [await self._game_reply(ctx, game, board, "count_declared")]

    async def _declare(self, game: Game, board: Board) -> tuple[Game, Board]:
        board.declare_count()
        events = load_events(game.counting) + [CountEvent(board.ply, "count")]
        changes = {"counting": dump_events(events)}
        outcome = board.outcome()
        if outcome is not None:  # a limit of zero or less draws at once
            changes.update(status="finished", result=outcome.result, reason=outcome.reason, deadline=None, remind_at=None)
        game = await self.storage.update_game(game.id, game.version, GameChanges(**changes))
        self._remember(game, board)
        return game, board

    async def _cmd_stopcount(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        color = await self._my_color(ctx, game)
        if _side_to_move(board) != color or not board.can_stop_count():
            raise Refusal("stopcount_not_allowed")
        board.stop_count()
        events = load_events(game.counting) + [CountEvent(board.ply, "stopcount")]
        game = await self.storage.update_game(game.id, game.version, GameChanges(counting=dump_events(events)))
        self._remember(game, board)
        return [await self._game_reply(ctx, game, board, "count_stopped")]

    # --- looking ----------------------------------------------------------------------

    async def _cmd_board(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        return [await self._game_reply(ctx, game, board, "board")]

    async def _cmd_flip(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game, board = self._require_active(ctx)
        return [await self._game_reply(ctx, game, board, "board", flip=True)]

    async def _cmd_history(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game = await self._game_for_record(ctx)
        thai = ctx.language == "th"
        if args:
            word = self.catalog.word_for(args[0])
            if word not in ("thai", "san"):
                raise Refusal("bad_option", option=args[0][:20])
            thai = word == "thai"
        board = Board(game.start_fen, promotion=game.promotion, perpetual=game.perpetual)
        parts = []
        for i, record in enumerate(game.moves):
            move = Move.from_uci(record.uci)
            if board.turn or i == 0:
                parts.append(f"{board.fullmove_number}." if board.turn else f"{board.fullmove_number}...")
            parts.append(thai_san(board, move) if thai else write_san(board, move))
            board.push(move)
        moves = " ".join(parts) if parts else self.catalog.text(ctx.language, "history.empty")
        return [self.present.info(ctx.language, "history", moves=moves, kind="history")]

    async def _cmd_export(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        game = await self._game_for_record(ctx)
        names = self._names(game, await self._players_of(game))
        pgn = export_pgn(
            start_fen=game.start_fen, moves=[m.uci for m in game.moves], white=names["w"], black=names["b"],
            result=game.result, date=game.created, promotion=game.promotion,
        )
        return [Reply(kind="export", text=pgn, language=ctx.language)]

    async def _game_for_record(self, ctx: Context) -> Game:
        if ctx.game is not None and ctx.game.status == "active":
            return ctx.game
        last = await self.storage.last_game(ctx.msg.platform, ctx.msg.channel)
        if last is None or last.status == "challenge":
            raise Refusal("no_game")
        return last

    # --- settings, ratings, help ------------------------------------------------------

    async def _cmd_lang(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        language = normalize_language(args[0]) if args else None
        if language is None:
            word = self.catalog.word_for(args[0]) if args else None
            language = {"thai": "th", "english": "en", "japanese": "ja"}.get(word or "")
        if language is None:
            raise Refusal("bad_language")
        settings = ctx.settings
        await self.storage.set_channel_settings(
            ChannelSettings(settings.platform, settings.channel, language, settings.promotion, settings.perpetual,
                            settings.move_seconds, settings.coordinates, settings.orientation)
        )
        return [self.present.info(language, "language_set")]

    async def _cmd_rating(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        user = ctx.msg.mentions[0] if ctx.msg.mentions else None
        if user is None and args and args[0].startswith("@"):
            found = await self.storage.find_player(ctx.msg.platform, args[0][1:])
            if found is None:
                raise Refusal("unknown_player", name=args[0][1:20])
            player = found
        else:
            player = await self._player(ctx, user)
        return [self.present.info(ctx.language, "rating", name=player.display_name, rating=round(player.rating),
                                  deviation=round(player.deviation), games=player.games_played, kind="rating")]

    async def _cmd_top(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        players = await self.storage.top_players(ctx.msg.platform, community=ctx.msg.community or ctx.msg.channel, limit=10)
        if not players:
            return [self.present.info(ctx.language, "top.empty", kind="top")]
        lines = [self.catalog.text(ctx.language, "top.line", rank=i + 1, name=p.display_name,
                                   rating=round(p.rating), games=p.games_played) for i, p in enumerate(players)]
        return [self.present.info(ctx.language, "top", lines="\n".join(lines), kind="top")]

    async def _cmd_help(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return [self.present.help(ctx.language)]

    async def channel_game(self, platform: str, channel: str) -> GameView | None:
        """The channel's current game, or its last finished one, as replies describe games."""
        game = await self.storage.active_game(platform, channel)
        if game is None:
            game = await self.storage.last_game(platform, channel)
        if game is None:
            return None
        board = self._board(game)
        names = self._names(game, await self._players_of(game))
        return GameView(game.id, board.fen(), _side_to_move(board), board.ply, game.result, game.reason,
                        names["w"], names["b"], status=game.status)

    async def move_choices(self, platform: str, channel: str, user: User) -> list[MoveChoice]:
        """The legal moves ``user`` may play now in the channel's game (empty when none):
        for autocomplete and tap-to-move. Read-only; playing one goes through ``handle``."""
        game = await self.storage.active_game(platform, channel)
        if game is None or game.status != "active":
            return []
        player = await self.storage.find_player(platform, user.id)
        board = self._board(game)
        seat = game.seat(_side_to_move(board))
        if player is None or seat is None or seat.player_id != player.id or board.is_game_over():
            return []
        return [
            MoveChoice(m.uci(), write_san(board, m), thai_san(board, m), m.from_square, m.to_square,
                       board.piece_at(m.from_square).kind.name.lower())
            for m in board.legal_moves()
        ]

    async def turn_choices(self, platform: str, channel: str) -> list[MoveChoice]:
        """The legal moves of whoever is to move in the channel's game, when a person is (empty
        otherwise): what a tap-to-move menu shown to everyone offers. Read-only."""
        game = await self.storage.active_game(platform, channel)
        if game is None or game.status != "active":
            return []
        seat = game.seat("w" if self._board(game).turn else "b")
        if seat is None or seat.is_engine:
            return []
        player = await self.storage.get_player(seat.player_id)
        return await self.move_choices(platform, channel, User(player.user_id, player.display_name))

    # --- puzzles: bot/services/puzzles.py decides; these only route -------------------

    async def _cmd_puzzle(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "puzzle", args)

    async def _cmd_giveup(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "giveup", args)

    async def _cmd_subscribe(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "subscribe", args)

    async def _cmd_unsubscribe(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "unsubscribe", args)

    async def _cmd_puzzletop(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "puzzletop", args)

    async def _cmd_streak(self, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
        return await self._puzzle_command(ctx, "streak", args)

    async def _puzzle_command(self, ctx: Context, name: str, args: tuple[str, ...]) -> list[Reply]:
        if self.puzzles is None:
            raise Refusal("unknown_command")
        return await self.puzzles.command(ctx.msg, ctx.language, name, args)

    async def _puzzle_answer(self, ctx: Context, text: str) -> list[Reply] | None:
        """A move for the chat's open puzzle while no game is being played; None otherwise."""
        if self.puzzles is None or (ctx.game is not None and ctx.game.status == "active"):
            return None
        return await self.puzzles.answer(ctx.msg, ctx.language, text)

    # --- the clock --------------------------------------------------------------------

    async def tick(self, platform: str | None = None) -> list[Notice]:
        """Expires challenges, sends reminders, ends games lost on time. Call it periodically.

        A door passes its ``platform``, so that it only takes the notices it can deliver.
        """
        now = self.clock.now()
        notices: list[Notice] = []
        before = now - timedelta(seconds=self.settings.challenge_seconds)
        for game in await self.storage.expire_challenges(before, platform=platform):
            language = await self._channel_language(game)
            notices.append(Notice(game.platform, game.channel, self.present.info(language, "challenge.expired")))
        for game in await self.storage.due_deadlines(now, platform=platform):
            notices += await self._flag(game)
        for game in await self.storage.due_reminders(now, platform=platform):
            notices += await self._remind(game)
        return notices

    async def _flag(self, game: Game) -> list[Notice]:
        lock = self._locks.setdefault((game.platform, game.channel), asyncio.Lock())
        async with lock:
            try:
                game = await self.storage.get_game(game.id)
                if game.status != "active" or game.deadline is None or game.deadline > self.clock.now():
                    return []
                board = self._board(game)
                loser = _side_to_move(board)
                result = "0-1" if loser == "w" else "1-0"
                language = await self._channel_language(game)
                ctx = Context(Incoming(game.platform, game.channel, User("", ""), ""), language,
                              await self.storage.get_channel_settings(game.platform, game.channel))
                reply = await self._finish(ctx, game, board, result, "timeout")
                return [Notice(game.platform, game.channel, reply)]
            except (VersionConflict, Refusal):
                return []

    async def _remind(self, game: Game) -> list[Notice]:
        try:
            game = await self.storage.update_game(game.id, game.version, GameChanges(reminded=True))
        except VersionConflict:
            return []
        board = self._board(game)
        players = await self._players_of(game)
        names = self._names(game, players)
        to_move = _side_to_move(board)
        seat = game.seat(to_move)
        mention = ()
        if seat is not None and seat.player_id in players:
            p = players[seat.player_id]
            mention = (User(p.user_id, p.display_name),)
        language = await self._channel_language(game)
        reply = self.present.info(language, "reminder", name=names[to_move], deadline=self.present.when(language, game.deadline))
        return [Notice(game.platform, game.channel, Reply(**{**reply.__dict__, "mentions": mention}))]

    async def _channel_language(self, game: Game) -> str:
        settings = await self.storage.get_channel_settings(game.platform, game.channel)
        if settings.language:
            return settings.language
        return self.settings.line_language if game.platform == "line" else self.settings.language

    # --- shared steps -----------------------------------------------------------------

    async def _finish(self, ctx: Context, game: Game, board: Board, result: str, reason: str) -> Reply:
        updates = await self._rating_updates(game, result)
        game = await self.storage.update_game(
            game.id, game.version,
            GameChanges(status="finished", result=result, reason=reason, deadline=None, remind_at=None,
                        draw_offer=None, takeback_offer=None),
            ratings=updates,
        )
        self._remember(game, board)
        return await self._game_reply(ctx, game, board, "finished")

    async def _rating_updates(self, game: Game, result: str) -> list[RatingUpdate]:
        if not game.rated or game.white is None or game.black is None:
            return []
        if game.white.is_engine or game.black.is_engine:
            return await self._rating_update_against_engine(game, result)
        white = await self.storage.get_player(game.white.player_id)
        black = await self.storage.get_player(game.black.player_id)
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        w, b = (ratings.Rating(p.rating, p.deviation, p.volatility) for p in (white, black))
        new_w = ratings.update(w, [(b, score)])
        new_b = ratings.update(b, [(w, 1 - score)])
        return [
            RatingUpdate.after_game(white, new_w.rating, new_w.deviation, new_w.volatility),
            RatingUpdate.after_game(black, new_b.rating, new_b.deviation, new_b.volatility),
        ]

    async def _rating_update_against_engine(self, game: Game, result: str) -> list[RatingUpdate]:
        """Only the person's rating moves, against the level's fixed estimated rating."""
        if game.white.is_engine and game.black.is_engine:
            return []
        person, bot = (game.black, game.white) if game.white.is_engine else (game.white, game.black)
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        if person is game.black:
            score = 1 - score
        player = await self.storage.get_player(person.player_id)
        new = ratings.update(ratings.Rating(player.rating, player.deviation, player.volatility),
                             [(ratings.Rating(level_rating(bot.engine_level), ENGINE_DEVIATION), score)])
        return [RatingUpdate.after_game(player, new.rating, new.deviation, new.volatility)]

    def _require_game(self, ctx: Context) -> Game:
        if ctx.game is None:
            raise Refusal("no_game")
        return ctx.game

    def _require_active(self, ctx: Context) -> tuple[Game, Board]:
        game = self._require_game(ctx)
        if game.status != "active":
            raise Refusal("not_started")
        return game, ctx.board

    async def _my_color(self, ctx: Context, game: Game) -> str:
        me = await self._player(ctx)
        for color in ("w", "b"):
            seat = game.seat(color)
            if seat is not None and seat.player_id == me.id:
                return color
        raise Refusal("not_playing")

    async def _players_of(self, game: Game) -> dict[int, Player]:
        players = {}
        for pid in game.player_ids:
            try:
                players[pid] = await self.storage.get_player(pid)
            except NotFound:
                pass
        return players

    def _names(self, game: Game, players: dict[int, Player]) -> dict[str, str]:
        names = {}
        for color in ("w", "b"):
            seat = game.seat(color)
            if seat is None:
                names[color] = "?"
            elif seat.is_engine:
                names[color] = f"Bot ({seat.engine_level})"
            else:
                player = players.get(seat.player_id)
                names[color] = player.display_name if player else "?"
        return names

    def _notation(self, language: str, board: Board, move: Move) -> str:
        return thai_san(board, move) if language == "th" else write_san(board, move)

    async def _game_reply(self, ctx: Context, game: Game, board: Board, event: str, *,
                          last: Move | None = None, flip: bool = False, selected: int | None = None) -> Reply:
        players = await self._players_of(game)
        reply = self.present.game(
            ctx.language, game, board, self._names(game, players), event,
            last=last or (Move.from_uci(game.moves[-1].uci) if game.moves else None),
            flip=flip, settings=ctx.settings, actor=ctx.msg.user, selected=selected,
        )
        return await self.with_image(reply)

    async def with_image(self, reply: Reply) -> Reply:
        """The reply with its board drawn off the event loop: Pillow releases the GIL while it
        quantizes and compresses, so the drawing threads use the machine's other core."""
        if reply.board is None or reply.image is not None:
            return reply
        loop = asyncio.get_running_loop()
        image = await loop.run_in_executor(self._render_pool, self.present.render, reply.board)
        return dataclasses.replace(reply, image=image)


def _side_to_move(board: Board) -> str:
    return "w" if board.turn else "b"


def _other(color: str) -> str:
    return "b" if color == "w" else "w"


def _read_square(text: str) -> int | None:
    """A square in Latin (``e3``) or Thai (``จ3``, ``จ๓``) coordinates."""
    text = text.strip().lower().translate(str.maketrans("๐๑๒๓๔๕๖๗๘๙", "0123456789"))
    if len(text) != 2 or text[1] not in "12345678":
        return None
    files = "abcdefgh" if text[0] in "abcdefgh" else THAI_FILES
    if text[0] not in files:
        return None
    return files.index(text[0]) + 8 * (int(text[1]) - 1)


def _parse_time(text: str) -> int:
    m = _TIME_SPEC.fullmatch(text)
    seconds = int(m.group(1)) * _TIME_UNITS[m.group(2).lower()]
    if not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise Refusal("bad_time", low="1m", high="14d")
    return seconds
