"""The clock of correspondence games: each move has a deadline, with a reminder at 80 % of the
time (timing.py); ``tick`` (run by the scheduler) expires challenges, sends reminders, ends games
lost on time and gives the engine a turn it is owed, also for what came due while the bot was
down."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING

from storage import VersionConflict
from storage.clock_records import has_moved
from storage.records import Game, GameChanges, Result

from ...messages import Incoming, Platform, User
from ..errors import Refusal
from . import live
from .context import Context
from .moves import engine_to_move, engine_turns
from .presence import DOUBLE_FORFEIT, double_forfeit
from .table import side_to_move

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)

CLAIM_BATCH = 16  # games claimed at a time: several processes share a long list of due games


async def tick(table: Table, platform: Platform | None = None, *, deadlines_only: bool = False) -> None:
    """Expires challenges, sends reminders, ends games lost on time, and gives the engine its
    turn where it is waiting (after a crash, a cancelled task, an engine failure). Call it
    periodically, and once at start-up. What the chats are owed goes to the outbox with each
    change; one game's failure is logged and does not hold up the others.

    A door passes its ``platform``, so that it only takes the games it can deliver to. With
    several processes on one database, each game's step is done by the one that claims it.
    ``deadlines_only``: just the games whose deadline has passed (what the scheduler does when
    it wakes for a live game's flag, between its full rounds).
    """
    now = table.clock.now()
    steps: list[tuple[Callable[[Table, Game], Awaitable[None]], list[Game]]] = [
        (_flag, await table.storage.due_deadlines(now, platform=platform)),
    ]
    if not deadlines_only:
        before = now - timedelta(seconds=table.settings.challenge_seconds)
        steps = [
            (_expire, await table.storage.due_challenges(before, platform=platform)),
            *steps,
            (_remind, await table.storage.due_reminders(now, platform=platform)),
            (_resume_engine, await table.storage.engine_games(platform=platform)),
        ]
    for step, games in steps:
        for start in range(0, len(games), CLAIM_BATCH):
            batch = games[start:start + CLAIM_BATCH]
            # Other processes on the database run this too: each game goes to the one that claims it.
            async with table.claims.hold("game", [str(game.id) for game in batch]) as mine:
                for game in batch:
                    if await mine.keep(str(game.id)):
                        await _step_safely(step, table, game)


async def _step_safely(step: Callable[[Table, Game], Awaitable[None]], table: Table, game: Game) -> None:
    try:
        await step(table, game)
    except (VersionConflict, Refusal):
        pass  # someone acted on the game meanwhile; the next tick looks again
    except Exception:
        log.exception("%s failed for game %d; the next tick tries again", step.__name__, game.id)


async def _expire(table: Table, game: Game) -> None:
    """A challenge nobody accepted in time."""
    async with table.lock(game.platform, game.channel):
        game = await table.storage.get_game(game.id)
        if game.status != "challenge":
            return
        language = await table.channel_language(game)
        notice, _ = table.notice(game, "challenge_expired", table.present.info(language, "challenge.expired"))
        await table.storage.update_game(game.id, game.version,
                                        GameChanges(status="aborted", reason="expired", deadline=None),
                                        notices=[notice])
        table.remember(replace(game, status="aborted"), table.board(game))


async def _flag(table: Table, game: Game) -> None:
    """The side to move has lost on time (checked again under the channel's lock)."""
    async with table.lock(game.platform, game.channel):
        game = await table.storage.get_game(game.id)
        if game.status != "active" or game.deadline is None or game.deadline > table.clock.now():
            return
        board = table.board(game)
        if game.time_control is not None:  # a live game: lost, drawn, or aborted before a first move
            await live.time_out(table, await _system_context(table, game), game, board,
                                table.clock_notify(game, "timeout"))
            return
        flagged = side_to_move(board)
        if double_forfeit(game, flagged):  # a tournament game neither player came to
            changes = GameChanges(status="aborted", reason=DOUBLE_FORFEIT, deadline=None, remind_at=None)
            await table.commit(await _system_context(table, game), game, board, changes, "aborted",
                               notify=table.clock_notify(game, "timeout"))
            return
        result: Result = "0-1" if flagged == "w" else "1-0"
        # A tournament's player who never moved did not come to the board: a forfeit, unrated.
        forfeit = game.tournament_id is not None and not has_moved(game, flagged)
        await table.finish(await _system_context(table, game), game, board, result,
                           "forfeit" if forfeit else "timeout", notify=table.clock_notify(game, "timeout"),
                           rated=not forfeit)


async def _remind(table: Table, game: Game) -> None:
    """Tells the player to move that their time is running out (once a turn)."""
    async with table.lock(game.platform, game.channel):
        game = await table.storage.get_game(game.id)
        if game.status != "active" or game.reminded or game.remind_at is None or game.remind_at > table.clock.now():
            return
        board = table.board(game)
        players = await table.players_of(game)
        to_move = side_to_move(board)
        seat = game.seat(to_move)
        mention: tuple[User, ...] = ()
        if seat is not None and seat.player_id in players:
            p = players[seat.player_id]
            mention = (User(p.user_id, p.display_name),)
        ctx = await _system_context(table, game)
        reply = table.present.info(ctx.language, "reminder", name=table.names(game, players)[to_move],
                                   deadline=table.present.when(ctx.language, game.deadline))
        notice, _ = table.notice(game, "reminder", replace(reply, mentions=mention),
                                 push=ctx.settings.push_notices is not False and not table.quiet(game))
        await table.storage.update_game(game.id, game.version, GameChanges(reminded=True), notices=[notice])


async def _resume_engine(table: Table, game: Game) -> None:
    """The engine's turn that nobody is playing: it moves now, and the chat is told."""
    lock = table.lock(game.platform, game.channel)
    if lock.locked():
        return  # a message of that chat is being handled, and answers itself
    async with lock:
        game = await table.storage.get_game(game.id)
        board = table.board(game)
        if engine_to_move(game, board) is None:
            return
        log.info("the engine's turn in game %d was waiting; it moves now", game.id)
        await engine_turns(table, await _system_context(table, game), game, board, inline=False)


async def _system_context(table: Table, game: Game) -> Context:
    """What the clock acts in: the game's chat, its language and settings, no sender."""
    settings = await table.storage.get_channel_settings(game.platform, game.channel)
    language = settings.language or table.default_language(game.platform)
    ctx = Context(Incoming(game.platform, game.channel, User("", ""), ""), language, settings)
    ctx.game, ctx.board = game, table.board(game)
    return ctx
