"""The game service: chat commands in, localized replies out; one game per channel.

Adapters give it ``Incoming`` messages and show the ``Reply`` values it returns. It decides
everything (who may do what, the rules, the clock, ratings); storage keeps it durable.
Two messages for one channel are handled one after the other (a lock per channel in this
process, a compare-and-set on the game's version across processes).

Each command is answered by one module of this package, found through the registry below:
challenges.py (new, accept, decline), moves.py (move, select, board, flip, history, export),
offers.py (resign, draw, undo), counting.py, ratings.py (rating, top), advice.py (hint,
review), channel.py (lang, help), deployment.py (setup: Sittuyin), puzzle_routes.py; clock.py
runs the deadlines.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from makruk import Board
from storage import Storage, StorageBusy, StorageError, VersionConflict
from storage.records import Game, GameChanges, NewMove

from ...clock import Clock, SystemClock
from ...commands import Command, parse_command
from ...config import Settings
from ...engines import Engine, RandomMover
from ...i18n import Catalog
from ...messages import (
    MAX_MESSAGE_LENGTH,
    MAX_PASTED_LENGTH,
    PASTED_COMMANDS,
    GameView,
    Incoming,
    Platform,
    Reply,
    User,
)
from ...observability.metrics import METRICS, Metrics, Outcome
from ...scheduler import Job
from ..claims import Claims
from ..errors import HandleAgain, Refusal
from ..outbox import Outbox, Send, event_keys, new_notice, notice_of
from ..presenter import Presenter, Render
from ..puzzles import PuzzleService
from . import (
    advice,
    archive,
    challenges,
    channel,
    clock,
    counting,
    deployment,
    moves,
    offers,
    presence,
    puzzle_routes,
    queries,
    ratings,
    tournament_routes,
)
from .alarm import DeadlineWake
from .context import Context
from .feed import ChangeFeed
from .queries import GameRecord, MoveChoice
from .registry import Registry
from .table import Table

log = logging.getLogger(__name__)

COMMANDS = Registry(
    challenges.commands, moves.commands, offers.commands, counting.commands, ratings.commands,
    advice.commands, channel.commands, puzzle_routes.commands, deployment.commands, archive.commands,
    tournament_routes.commands,
)
# The commands that play the chat's game: a refusal of one is about the message's game.
PLAYING_GROUPS = frozenset({"challenges", "moves", "offers", "counting", "deployment", "advice"})


class GameService:
    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        *,
        clock: Clock | None = None,
        engine: Engine | None = None,
        catalog: Catalog | None = None,
        render: Render | None = None,
        rng: random.Random | None = None,
        puzzles: PuzzleService | None = None,
        claims: Claims | None = None,
        metrics: Metrics = METRICS,
    ) -> None:
        catalog = catalog or Catalog.load()
        self.metrics = metrics
        clock = clock or SystemClock()
        self.table = _CountingTable(
            storage, settings, clock=clock, engine=engine or RandomMover(), catalog=catalog,
            present=Presenter(catalog, render), rng=rng or random.Random(), puzzles=puzzles, metrics=metrics,
            claims=claims or Claims(storage, clock),
        )

    def attach(self, desk: tournament_routes.TournamentDesk) -> None:
        """The tournament service, built after this one (it plays its games here)."""
        self.table.desk = desk

    @property
    def storage(self) -> Storage:
        return self.table.storage

    @property
    def catalog(self) -> Catalog:
        return self.table.catalog

    @property
    def clock(self) -> Clock:
        return self.table.clock

    @property
    def puzzles(self) -> PuzzleService | None:
        return self.table.puzzles

    @property
    def feed(self) -> ChangeFeed:
        """Told of every game this process stores (game id, version): the web board listens."""
        return self.table.feed

    # --- the entry point --------------------------------------------------------------

    async def handle(self, msg: Incoming) -> list[Reply]:
        """Everything the bot answers to one message. Never raises for bad input; raises
        HandleAgain for a redeliverable message when the database failed half-way."""
        started = time.perf_counter()
        replies, outcome = await self._answer(msg)
        await self._settle_tournaments()
        self.metrics.message_handled(msg.platform, outcome if replies else "ignored", time.perf_counter() - started)
        return replies

    async def _settle_tournaments(self) -> None:
        """The events whose games this message ended are paired on now, outside the chat's lock
        (the next round's games are in other chats' hands too), before the door looks for the
        notices it can carry."""
        if self.table.desk is None:
            return
        try:
            await self.table.desk.settle()
        except Exception:
            log.exception("the tournaments poked by a message could not advance; the scheduler tries again")

    async def _tournament_tick(self, platform: Platform | None = None) -> None:
        if self.table.desk is not None:
            await self.table.desk.tick(platform)

    async def _answer(self, msg: Incoming) -> tuple[list[Reply], Outcome]:
        table = self.table
        async with table.lock(msg.platform, msg.channel):
            try:
                return await self._handle(msg), "ok"
            except Refusal as refusal:
                if not msg.addressed and not await table.plays_here(msg):
                    return [], "refused"  # chatter that merely looks like a command: no answer to the group
                language = await self._language_safely(msg)
                error = table.present.error(language, refusal.code, private=refusal.private, **refusal.fields)
                return [replace(error, game=refusal.game)], "refused"
            except VersionConflict:
                return [table.present.error(await self._language_safely(msg), "conflict")], "refused"
            except StorageBusy as error:
                log.warning("the database was busy for a message in %s/%s: %s", msg.platform, msg.channel, error)
                # The channel's language is in the busy database too: the platform's default.
                return [table.present.error(table.default_language(msg.platform), "busy")], "error"
            except Exception as error:
                if type(error) is StorageError and msg.redeliverable and msg.event is not None:
                    log.warning("the database failed for a message in %s/%s (%s): it is handled again",
                                msg.platform, msg.channel, error)
                    raise HandleAgain(str(error)) from error
                log.exception("could not handle a message in %s/%s", msg.platform, msg.channel)
                return [table.present.error(await self._language_safely(msg), "internal")], "error"

    def _pasted_game(self, msg: Incoming) -> bool:
        """A long message that is a game pasted for ``review`` or ``analyse`` (up to LINE's limit)."""
        if len(msg.text) > MAX_PASTED_LENGTH:
            return False
        head = parse_command(msg.text[:40], self.table.catalog)
        return head is not None and head.name in PASTED_COMMANDS and not head.bare_move

    async def _handle(self, msg: Incoming) -> list[Reply]:
        if msg.retried and msg.event is not None:
            stored = await self._stored_answer(msg, msg.event)
            if stored is not None:
                return stored
        if len(msg.text) > MAX_MESSAGE_LENGTH and not self._pasted_game(msg):
            if not msg.addressed:
                return []
            raise Refusal("too_long", limit=MAX_MESSAGE_LENGTH)
        command = parse_command(msg.text, self.table.catalog)
        if command is None:
            return []
        ctx = await self._context(msg)
        entry = COMMANDS.find(command.name)
        playing = command.bare_move or (entry is not None and entry.group in PLAYING_GROUPS)
        try:
            replies = await self._dispatch(ctx, command)
        except Refusal as refusal:
            await self._check_in(ctx)  # a move typed before White's: Black is there all the same
            if playing:
                refusal.game = await self._refused_in(ctx)
            raise
        await self._check_in(ctx)  # Black, writing to a tournament game, is at the board
        return replies

    async def _refused_in(self, ctx: Context) -> GameView | None:
        """The game a refused command that plays it was about, as the message found it (a refusal
        changes nothing), for its answer to carry; None without one. Best effort: should the
        database fail reading its players, the refusal goes without it."""
        if ctx.game is None:
            return None
        try:
            return await self.table.view_of(ctx, ctx.game)
        except StorageError as error:
            log.warning("could not read the players of game %s for a refusal in %s/%s: %s", ctx.game.id,
                        ctx.msg.platform, ctx.msg.channel, error)
            return None

    async def _check_in(self, ctx: Context) -> None:
        """Black's check-in (presence.py), best effort: the message's answer, a refusal or a change
        already stored with it, stands if the database fails here; Black's next message tries again."""
        try:
            await presence.check_in(self.table, ctx)
        except StorageError as error:
            log.warning("could not record Black at the board of game %s in %s/%s: %s",
                        ctx.game.id if ctx.game else "?", ctx.msg.platform, ctx.msg.channel, error)

    async def _dispatch(self, ctx: Context, command: Command) -> list[Reply]:
        if command.bare_move:
            return await self._bare_text(ctx, command)
        entry = COMMANDS.find(command.name)
        if entry is None:
            raise Refusal("unknown_command")
        return await entry.handler(self.table, ctx, command.args)

    async def _stored_answer(self, msg: Incoming, event: str) -> list[Reply] | None:
        """A message taken again after its process died: if what it changed was stored, its
        answer was stored with it (keyed by the event), and it is not applied again; the
        answer is given once more unless a door showed it already. None: nothing was stored,
        so the message is handled now."""
        rows = await self.table.storage.notices_with_keys(event_keys(msg.platform, event))
        if not rows:
            return None
        log.info("a message in %s/%s was handled before its process died: its stored answer stands",
                 msg.platform, msg.channel)
        waiting = [notice_of(row).reply for row in rows if row.sent is None and row.dead is None]
        return [await self._draw_again(r) if msg.pictures else r for r in waiting]

    async def _context(self, msg: Incoming) -> Context:
        state = await self.table.storage.chat_state(msg.platform, msg.channel, msg.user.id, msg.game)
        ctx = Context(msg, self.table.language(msg, state.settings), state.settings, game=state.game,
                      players=state.players)
        if state.sender is not None and state.sender.display_name == msg.user.name:
            ctx.player = state.sender  # else Table.player records the new name when it is asked for
        if ctx.game is not None:
            ctx.board = self.table.board(ctx.game)
        return ctx

    async def _bare_text(self, ctx: Context, command: Command) -> list[Reply]:
        """Text that is no command word: an answer to the chat's puzzle, a move, a puzzle mode's
        word said to the bot (``puzzle_routes.bare_word``), or chatter."""
        text = command.args[0]
        table = self.table
        if table.puzzles is not None and (ctx.game is None or ctx.game.status != "active"):
            answered = await table.puzzles.answer(ctx.msg, ctx.language, text, puzzle_routes.keeper(table, ctx))
            if answered is not None:
                return answered
        if ctx.game is not None and ctx.game.status == "active" and moves.looks_like_move(ctx.board, text):
            return await moves.move(table, ctx, command.args)
        if not (ctx.msg.addressed or command.prefixed):
            return []  # ordinary chatter in a group
        if (words := puzzle_routes.bare_word(table, text)) is not None:
            return await puzzle_routes.puzzle_command(table, ctx, "puzzle", words)
        if ctx.game is None and moves.looks_like_move(ctx.board, text):
            raise Refusal("no_game")
        raise Refusal("unknown_command")

    async def _language_safely(self, msg: Incoming) -> str:
        try:
            settings = await self.table.storage.get_channel_settings(msg.platform, msg.channel)
            return self.table.language(msg, settings)
        except Exception:
            return self.table.settings.language

    # --- for the doors and the scheduler ----------------------------------------------

    async def tick(self, platform: Platform | None = None, *, deadlines_only: bool = False) -> None:
        """Expires challenges, sends reminders, ends games lost on time, gives the engine its
        waiting turns (``deadlines_only``: only ends the games on time); what the chats are owed
        goes to the outbox (see clock.py)."""
        await clock.tick(self.table, platform, deadlines_only=deadlines_only)

    def wake(self, platform: Platform | None = None, outbox: Outbox | None = None) -> DeadlineWake:
        """What a door's Scheduler sleeps on (``Scheduler(jobs, wake=games.wake(platform, outbox))``):
        until the next deadline of ``platform``'s games, or until this service stores an earlier
        one, so a live game's flag falls on time. Woken so, the scheduler only ends the games
        whose deadline passed and delivers what the ``outbox`` owes, not its whole round."""
        jobs: list[Job] = [functools.partial(self.tick, platform, deadlines_only=True),
                           functools.partial(self._tournament_tick, platform)]
        if outbox is not None:
            jobs.append(outbox.drain)
        return DeadlineWake(self.table.storage, self.table.clock, self.table.bell, platform, jobs)

    def outbox(self, platform: Platform, send: Send, *, pictures: bool = True) -> Outbox:
        """The deliverer of ``platform``'s notices through its door's ``send``; ``pictures=False``
        for a door that draws boards itself from the reply's view (LINE), so none is drawn here."""
        return Outbox(self.table.storage, self.table.clock, platform, send,
                      prepare=self._draw_again if pictures else None, claims=self.table.claims)

    def jobs(self, platform: Platform, outbox: Outbox) -> list[Job]:
        """What a door's scheduler runs: the games' clock (deadlines, reminders, the engine's
        waiting turns) and the daily puzzle posts, each limited to the door's platform (the
        other doors deliver their own), then the outbox's delivery of what they owe."""
        jobs: list[Job] = [functools.partial(self.tick, platform), functools.partial(self._tournament_tick, platform)]
        if self.table.puzzles is not None:
            jobs.append(functools.partial(self.table.puzzles.tick, platform))
        jobs.append(outbox.drain)
        return jobs

    async def delivered(self, replies: Sequence[Reply]) -> None:
        """A door showed these replies: the outbox need not send the ones it also holds."""
        keys = [reply.outbox_key for reply in replies if reply.outbox_key]
        if keys:
            await self.table.storage.mark_notices_sent(keys)

    async def undelivered(self, platform: Platform, channel: str, replies: Sequence[Reply]) -> None:
        """A door could not show these replies: the outbox sends them to the chat later.
        (Replies meant for one person only are not pushed to the whole chat.)"""
        public = []
        for reply in replies:
            if reply.private:
                log.info("a private reply in %s/%s could not be shown: %s", platform, channel, reply.text[:80])
            else:
                public.append(reply)
        if all(reply.outbox_key for reply in public):
            # The outbox holds them all, in their order (the answer, then the bot's move): due now.
            # Each step is idempotent, so a crash half-way neither loses nor doubles one.
            for reply in public:
                assert reply.outbox_key is not None
                await self.table.storage.retry_notice(reply.outbox_key, due=self.clock.now(),
                                                      error="not shown by the door", count=False)
            return
        # Some are not in the outbox (an answer that changed nothing): all are queued again, so
        # that the chat gets them in their order, and the rows held already are retired.
        owed = [new_notice(platform, channel, "reply", replace(reply, outbox_key=None))[0] for reply in public]
        replaced = [reply.outbox_key for reply in public if reply.outbox_key]
        await self.table.storage.add_notices(owed)
        if replaced:
            await self.table.storage.mark_notices_sent(replaced)

    async def channel_game(self, platform: Platform, channel: str) -> GameView | None:
        return await queries.channel_game(self.table, platform, channel)

    async def move_choices(self, platform: Platform, channel: str, user: User, *,
                           fen: str | None = None) -> list[MoveChoice]:
        return await queries.move_choices(self.table, platform, channel, user, fen=fen)

    async def game_record(self, game_id: int) -> GameRecord | None:
        """Game ``game_id`` as a door that shows it by its id needs it (the web board)."""
        return await queries.game_record(self.table, game_id)

    def choices(self, record: GameRecord) -> list[MoveChoice]:
        """The legal moves of the position of ``record`` (whoever is to move)."""
        return queries.choices_of(self.table, record.game, record.board)

    async def replay_gif(self, game: Game, *, coords: str = "latin") -> bytes | None:
        """The game as a looping GIF, drawn off the event loop (None without the renderers)."""
        draw = functools.partial(self.table.present.replay, game, coords=coords)
        return await asyncio.get_running_loop().run_in_executor(None, draw)

    async def turn_choices(self, platform: Platform, channel: str) -> list[MoveChoice]:
        return await queries.turn_choices(self.table, platform, channel)

    async def with_image(self, reply: Reply) -> Reply:
        return await self.table.with_image(reply)

    async def _draw_again(self, reply: Reply) -> Reply:
        """A reply from the outbox with its picture: a puzzle card (it has a caption), an event's
        standings, or a board."""
        if reply.board is not None and reply.board.caption is not None and self.table.puzzles is not None:
            return await self.table.puzzles.with_card(reply)
        if reply.kind == "tournament_standings" and reply.image is None and reply.data and self.table.desk is not None:
            png = await self.table.desk.standings_png(reply.data["tournament"], reply.data["round"], reply.language)
            return replace(reply, image=png) if png is not None else reply
        return await self.table.with_image(reply)


class _CountingTable(Table):
    """The table, counting on ``metrics`` each move it stores: the person's and the engine's,
    in answer to a message or on the clock's turn."""

    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def commit(self, ctx: Context, game: Game, board: Board, changes: GameChanges, event: str, *,
                     move: NewMove | None = None, **rest: Any) -> tuple[Game, Reply]:
        stored = await super().commit(ctx, game, board, changes, event, move=move, **rest)
        if move is not None:
            seat = game.seat(move.by)
            self.metrics.move_played(game.platform, by="engine" if seat is not None and seat.is_engine else "human")
        return stored
