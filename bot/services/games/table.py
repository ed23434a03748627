"""The table every command works at: storage, the clock, the engine, the presenter, and the
steps the commands share (the board of a game, the players' names, a game's reply, its end)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from makruk import Board, CountEvent, Move
from storage import Answer, Storage, StorageError
from storage.records import (
    UNCHANGED,
    ChannelSettings,
    Color,
    Game,
    GameChanges,
    NewMove,
    NewNotice,
    Player,
    RatingUpdate,
    Result,
    clock_state,
)

from ...clock import Clock
from ...config import Settings
from ...engines import Engine, EnginePosition
from ...i18n import Catalog, normalize_language
from ...messages import PUSH_PER_MEMBER, GameView, Incoming, Platform, Reply, User
from ..claims import Claims
from ..errors import Refusal
from ..outbox import new_notice
from ..presenter import Presenter
from ..puzzles import PuzzleService
from . import live
from .alarm import Bell
from .context import Context
from .feed import ChangeFeed
from .ratings import rating_updates

if TYPE_CHECKING:
    from .tournament_routes import TournamentDesk

T = TypeVar("T")

COLORS: tuple[Color, Color] = ("w", "b")
BOARDS_KEPT = 1024  # boards of open games kept between messages (each is replayed on a miss)
# How long the outbox waits for a door to show an answer itself before it sends it: the door
# marks what it showed; a process that died first leaves the answer to the outbox.
ANSWER_GRACE = timedelta(seconds=60)


class Table:
    def __init__(self, storage: Storage, settings: Settings, *, clock: Clock, engine: Engine, catalog: Catalog,
                 present: Presenter, rng: random.Random, puzzles: PuzzleService | None, claims: Claims) -> None:
        self.storage = storage
        self.claims = claims  # on scheduled work, shared with the other processes of the database
        self.settings = settings
        self.clock = clock
        self.engine = engine
        self.catalog = catalog
        self.present = present
        self.random = rng
        self.puzzles = puzzles
        self._boards: OrderedDict[int, tuple[int, Board]] = OrderedDict()  # game id -> (version, board)
        # game id -> (version, its legal moves in every notation): see queries.choices_of
        self._choices: OrderedDict[int, tuple[int, tuple[Any, ...]]] = OrderedDict()
        # One lock per channel while anyone waits on it; unused locks go away with their last user.
        self._locks: weakref.WeakValueDictionary[tuple[Platform, str], asyncio.Lock] = weakref.WeakValueDictionary()
        self._render_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render")
        self.bell = Bell()  # rung when a live game's deadline may have come sooner (alarm.py)
        self.feed = ChangeFeed()  # told of every game this process stores (the web board listens)
        self.desk: TournamentDesk | None = None  # the tournament service, once bot/app.py attached it

    def sizes(self) -> dict[str, int]:
        """How many entries the in-memory tables hold (each has a bound; for tests and metrics)."""
        return {"boards": len(self._boards), "locks": len(self._locks), "choices": len(self._choices)}

    # --- channels ---------------------------------------------------------------------

    def lock(self, platform: Platform, channel: str) -> asyncio.Lock:
        """The lock that puts one channel's messages (and clock events) one after the other."""
        lock = self._locks.get((platform, channel))
        if lock is None:
            lock = self._locks[(platform, channel)] = asyncio.Lock()
        return lock

    def language(self, msg: Incoming, settings: ChannelSettings) -> str:
        """The channel's language, else the sender's client language, else the platform's default."""
        if settings.language:
            return settings.language
        return normalize_language(msg.locale) or self.default_language(msg.platform)

    def default_language(self, platform: Platform) -> str:
        return self.settings.line_language if platform == "line" else self.settings.language

    async def channel_language(self, game: Game) -> str:
        settings = await self.storage.get_channel_settings(game.platform, game.channel)
        return settings.language or self.default_language(game.platform)

    # --- boards -----------------------------------------------------------------------

    def board(self, game: Game) -> Board:
        """The game's board now (a copy: the caller may play on it)."""
        cached = self._boards.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._boards.move_to_end(game.id)
            return cached[1].copy()
        board = self.replayed(game)
        self._keep(game, board)
        return board.copy()

    @staticmethod
    def replayed(game: Game) -> Board:
        """The game's board, replayed from its stored moves (not kept: ``game`` may be one
        that is yet to be stored)."""
        board = Board(game.start_fen, variant=game.variant, promotion=game.promotion, perpetual=game.perpetual)
        board.replay([m.uci for m in game.moves], CountEvent.load_all(game.counting), trusted=True)
        return board

    def remember(self, game: Game, board: Board) -> None:
        """After ``game`` was stored: keeps the board of an open game for its next message
        (forgets a finished one) and tells who listens (``stored``)."""
        self._keep(game, board)
        self.stored(game)

    def _keep(self, game: Game, board: Board) -> None:
        if not game.is_open:
            self._boards.pop(game.id, None)
            return
        self._boards[game.id] = (game.version, board.copy())
        self._boards.move_to_end(game.id)
        while len(self._boards) > BOARDS_KEPT:
            self._boards.popitem(last=False)

    def known_choices(self, game: Game) -> tuple[Any, ...] | None:
        cached = self._choices.get(game.id)
        if cached is None or cached[0] != game.version:
            return None
        self._choices.move_to_end(game.id)
        return cached[1]

    def keep_choices(self, game: Game, choices: tuple[Any, ...]) -> None:
        self._choices[game.id] = (game.version, choices)
        self._choices.move_to_end(game.id)
        while len(self._choices) > BOARDS_KEPT:
            self._choices.popitem(last=False)

    def position(self, game: Game) -> EnginePosition:
        """The game as an engine needs it."""
        return EnginePosition(
            game.start_fen, tuple(m.uci for m in game.moves), tuple(CountEvent.load_all(game.counting)),
            game.promotion, game.perpetual, variant=game.variant,
        )

    # --- players ----------------------------------------------------------------------

    async def player(self, ctx: Context, user: User | None = None) -> Player:
        """The sender's player record (made on first sight), or ``user``'s."""
        if user is not None:
            player = await self.storage.get_or_create_player(ctx.msg.platform, user.id, user.name)
            ctx.know(player)
            return player
        if ctx.player is None:
            ctx.player = await self.storage.get_or_create_player(ctx.msg.platform, ctx.msg.user.id, ctx.msg.user.name)
            ctx.know(ctx.player)
        return ctx.player

    async def my_color(self, ctx: Context, game: Game) -> Color:
        """The sender's colour in ``game``; refused when they do not play in it."""
        me = await self.player(ctx)
        for color in COLORS:
            seat = game.seat(color)
            if seat is not None and seat.player_id == me.id:
                return color
        raise Refusal("not_playing")

    async def plays_here(self, msg: Incoming) -> bool:
        """Whether the sender is a player of the channel's open game."""
        try:
            game = await self.storage.active_game(msg.platform, msg.channel)
            player = await self.storage.find_player(msg.platform, msg.user.id)
        except StorageError:
            return False
        return game is not None and player is not None and player.id in game.player_ids

    async def players_of(self, game: Game) -> dict[int, Player]:
        return await self.storage.get_players(game.player_ids)

    def names(self, game: Game, players: Mapping[int, Player]) -> dict[str, str]:
        """Each colour's name as replies show it: the player's, or "Bot (level)"."""
        names: dict[str, str] = {}
        for color in COLORS:
            seat = game.seat(color)
            if seat is None:
                names[color] = "?"
            elif seat.player_id is None:
                names[color] = f"Bot ({seat.engine_level})"
            else:
                player = players.get(seat.player_id)
                names[color] = player.display_name if player else "?"
        return names

    def view(self, game: Game, players: Mapping[int, Player]) -> GameView:
        """``game`` as replies describe it (``Reply.game``), its players' names from ``players``."""
        board = self.board(game)
        names = self.names(game, players)
        clocks = clock_state(game, self.clock.now())
        return GameView(game.id, board.fen(), side_to_move(board), board.ply, game.result, game.reason,
                        names["w"], names["b"], status=game.status,
                        clocks=None if clocks is None else (clocks.white_ms, clocks.black_ms, clocks.running))

    async def view_of(self, ctx: Context, game: Game) -> GameView:
        """``view``, with the players read with the message when they are ``game``'s."""
        return self.view(game, ctx.known_players(game) or await self.players_of(game))

    # --- replies ----------------------------------------------------------------------

    async def game_reply(self, ctx: Context, game: Game, board: Board, event: str, *,
                         last: Move | None = None, flip: bool = False, selected: int | None = None) -> Reply:
        """The reply that shows a game after ``event``, with its board drawn."""
        players = ctx.known_players(game)
        if players is None:
            players = await self.players_of(game)
        return await self.drawn(ctx, self.game_view(ctx, game, board, event, players, last=last, flip=flip,
                                                    selected=selected))

    def game_view(self, ctx: Context, game: Game, board: Board, event: str, players: Mapping[int, Player], *,
                  last: Move | None = None, flip: bool = False, selected: int | None = None) -> Reply:
        """game_reply's reply, its board not drawn."""
        reply = self.present.game(
            ctx.language, game, board, self.names(game, players), event,
            last=last or (Move.from_uci(game.moves[-1].uci) if game.moves else None),
            flip=flip, settings=ctx.settings, actor=ctx.msg.user, selected=selected,
            clocks=clock_state(game, self.clock.now()),
        )
        seat = game.seat(side_to_move(board)) if game.status == "active" else None
        mover = players.get(seat.player_id) if seat is not None and seat.player_id is not None else None
        if reply.game is not None and mover is not None:
            reply = dataclasses.replace(reply, game=dataclasses.replace(reply.game, to_move=mover.user_id))
        return reply

    async def drawn(self, ctx: Context, reply: Reply) -> Reply:
        """The reply with its board drawn, if the message's door wants PNGs (``Incoming.pictures``)."""
        return await self.with_image(reply) if ctx.msg.pictures else reply

    async def with_image(self, reply: Reply) -> Reply:
        """The reply with its board drawn off the event loop: Pillow releases the GIL while it
        quantizes and compresses, so the drawing threads use the machine's other core."""
        if reply.board is None or reply.image is not None:
            return reply
        loop = asyncio.get_running_loop()
        image = await loop.run_in_executor(self._render_pool, self.present.render, reply.board)
        return dataclasses.replace(reply, image=image)

    async def replay(self, ctx: Context, game: Game) -> Reply:
        """``export ID gif``: the game's GIF replay, drawn off the event loop."""
        players = await self.players_of(game)
        names = self.names(game, players)
        coords = ctx.settings.coordinates or ("thai" if ctx.language == "th" else "latin")
        loop = asyncio.get_running_loop()
        gif = await loop.run_in_executor(self._render_pool, functools.partial(self.present.replay, game,
                                                                              coords=coords))
        text = self.present.t(ctx.language, "export.gif", id=game.id, white=names["w"], black=names["b"],
                              result=game.result or "*")
        return Reply(kind="replay", text=text, language=ctx.language, image=gif, game=self.view(game, players))

    # --- the end of a game ------------------------------------------------------------

    async def finish(self, ctx: Context, game: Game, board: Board, result: Result, reason: str, *,
                     notify: Notify | None = None, rated: bool = True) -> Reply:
        """Ends the game with ``result`` for ``reason``, rates it, and shows it; ``rated=False``:
        an end that moves no rating (a tournament's forfeit or round window), the game unrated."""
        changes = GameChanges(status="finished", result=result, reason=reason, deadline=None, remind_at=None,
                              draw_offer=None, takeback_offer=None)
        updates: Sequence[RatingUpdate] = ()
        if rated:
            updates = await rating_updates(self.storage, game, result)
        elif game.rated:
            changes = dataclasses.replace(changes, rated=False)
        _, reply = await self.commit(ctx, game, board, changes, "finished", ratings=updates, notify=notify)
        return reply

    async def commit(self, ctx: Context, game: Game, board: Board, changes: GameChanges, event: str, *,
                     move: NewMove | None = None, last: Move | None = None,
                     ratings: Sequence[RatingUpdate] = (), notify: Notify | None = None) -> tuple[Game, Reply]:
        """Stores ``changes`` (and ``move``, already played on ``board``) as one compare-and-set,
        keeps the board, and returns the stored game with the reply that shows ``event``.

        The reply is built first, from the game as it will be stored, and written to the
        outbox in the same transaction: as ``notify`` says, or, in answer to a person's
        message, as its answer (kind ``answer``).
        """
        notify = notify or self.answering(ctx, game)
        if changes.status in ("finished", "aborted") and changes.clocks is UNCHANGED:
            changes = dataclasses.replace(changes, **dict(live.stopped(game, self.clock.now()).items()))
        notices: list[NewNotice] = []
        reply: Reply | None = None
        if notify is not None:
            after = game.after(changes, move=move, at=self.clock.now())
            reply = await self.game_reply(ctx, after, board, event, last=last)
            new, reply = self.notice(game, notify.kind, reply, due=notify.due, push=notify.push, key=ctx.next_key())
            notices.append(new)
        if move is None:
            game = await self.storage.update_game(game.id, game.version, changes, ratings=ratings, notices=notices)
        else:
            game = await self.storage.append_move(game.id, game.version, move, changes, ratings=ratings,
                                                  notices=notices)
        self.remember(game, board)
        if reply is None:
            reply = await self.game_reply(ctx, game, board, event, last=last)
        return game, reply

    def stored(self, game: Game) -> None:
        """A change of ``game`` is stored: the change feed hears of it (the web board's watchers),
        a live game's new deadline wakes the scheduler, and a tournament game's end pokes its
        event (paired again once the chat's lock is released: GameService.handle)."""
        self.feed.publish(game.id, game.version)
        if game.time_control is not None:
            self.bell.ring()
        if game.tournament_id is not None and not game.is_open and self.desk is not None:
            self.desk.poke(game.tournament_id)

    def answering(self, ctx: Context, game: Game | None = None) -> Notify | None:
        """How a change a person's message makes keeps its answer: in the outbox, held back
        while the door shows it, and then pushed, or with ``notices off`` carried by the chat's
        next answer (None for the clock's own changes, which notify themselves). An event's
        game where a push costs once per member (LINE) is never pushed: a move made on the
        web board would push to the whole group (``tournament_move``, superseded by the round)."""
        if ctx.msg.event is None:
            return None
        if self.quiet(game or ctx.game):
            return Notify("tournament_move", self.answer_due(ctx), push=False)
        return Notify("answer", self.answer_due(ctx), push=ctx.settings.push_notices is not False)

    @staticmethod
    def quiet(game: Game | None) -> bool:
        """Whether ``game``'s notices ride on replies only: an event's game on a platform that
        counts a push once per member of the group (docs/line.md, Tournaments)."""
        return game is not None and game.tournament_id is not None and game.platform in PUSH_PER_MEMBER

    def clock_notify(self, game: Game, kind: str) -> Notify:
        """How a change the clock makes (a loss on time, a forfeit) is told: pushed as ``kind``,
        or for a quiet game one ``tournament_result`` line riding on the chat's next reply."""
        return Notify("tournament_result", push=False) if self.quiet(game) else Notify(kind)

    def answer_due(self, ctx: Context) -> datetime | None:
        """When the outbox sends an answer kept for a message: after a grace while its door
        shows it, at once when the door shows the chat nothing (``Incoming.shown``: the web board)."""
        return self.clock.now() + ANSWER_GRACE if ctx.msg.shown else None

    def answers(self, ctx: Context, replies: Sequence[Reply]) -> tuple[list[NewNotice], list[Reply]]:
        """Outbox rows holding ``replies``, the answer to a person's message, to store with the
        change they answer (none for a message without an event id), and the replies marked."""
        notify = self.answering(ctx)
        if notify is None:
            return [], list(replies)
        notices, marked = [], []
        for reply in replies:
            new, reply = new_notice(ctx.msg.platform, ctx.msg.channel, notify.kind, reply, due=notify.due,
                                    push=notify.push, key=ctx.next_key())
            notices.append(new)
            marked.append(reply)
        return notices, marked

    def answer_with(self, ctx: Context, build: Callable[[T], Sequence[Reply]]) -> tuple[Answer[T], list[Reply]]:
        """The storage's ``answer`` for a change whose answer needs what the change returns (a
        new game's id, a try's count): ``build`` makes the replies inside the change's
        transaction, which stores them with it; the list gets them, marked, once it has run."""
        shown: list[Reply] = []

        def answer(result: T) -> list[NewNotice]:
            notices, shown[:] = self.answers(ctx, build(result))
            return notices
        return answer, shown

    async def update(self, ctx: Context, game: Game, changes: GameChanges, reply: Reply) -> tuple[Game, Reply]:
        """Stores ``changes`` with ``reply``, their answer, kept in the outbox; the answer is about
        the game, so it carries it as changed (unless it carries it already)."""
        if reply.game is None:
            reply = dataclasses.replace(reply, game=await self.view_of(ctx, game.after(changes, at=self.clock.now())))
        notices, (reply,) = self.answers(ctx, [reply])
        game = await self.storage.update_game(game.id, game.version, changes, notices=notices)
        self.stored(game)
        return game, reply

    # --- the outbox -------------------------------------------------------------------

    def notice(self, game: Game, kind: str, reply: Reply, *, due: datetime | None = None,
               push: bool = True, key: str | None = None) -> tuple[NewNotice, Reply]:
        """An outbox row for ``reply`` in the game's chat (to store with the change that causes
        it), and the reply marked with the row's key."""
        return new_notice(game.platform, game.channel, kind, reply, due=due, push=push, key=key)


def side_to_move(board: Board) -> Color:
    return "w" if board.turn else "b"


def other(color: Color) -> Color:
    return "b" if color == "w" else "w"


@dataclass(frozen=True)
class Notify:
    """Write a reply to the outbox too: its kind, when it is due (None: at once), and whether
    it may be pushed (else it waits for a reply in the chat to carry it)."""

    kind: str
    due: datetime | None = None
    push: bool = True
