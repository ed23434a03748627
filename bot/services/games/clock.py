"""The clock of correspondence games: each move has a deadline, with a reminder at 80 % of the
time; ``tick`` (run by the scheduler) expires challenges, sends reminders and ends games lost on
time, also for deadlines that passed while the bot was down."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from storage import VersionConflict
from storage.records import Game, GameChanges, Result

from ...messages import Incoming, Notice, Platform, Reply, User
from ..errors import Refusal
from .context import Context
from .table import side_to_move

if TYPE_CHECKING:
    from .table import Table

REMINDER_FRACTION = 0.8


def turn_times(now: datetime, move_seconds: int) -> tuple[datetime, datetime]:
    """The deadline of a turn that starts ``now``, and when its reminder is due."""
    return now + timedelta(seconds=move_seconds), now + timedelta(seconds=move_seconds * REMINDER_FRACTION)


async def tick(table: Table, platform: Platform | None = None) -> list[Notice]:
    """Expires challenges, sends reminders, ends games lost on time. Call it periodically.

    A door passes its ``platform``, so that it only takes the notices it can deliver.
    """
    now = table.clock.now()
    notices: list[Notice] = []
    before = now - timedelta(seconds=table.settings.challenge_seconds)
    for game in await table.storage.expire_challenges(before, platform=platform):
        language = await table.channel_language(game)
        notices.append(Notice(game.platform, game.channel, table.present.info(language, "challenge.expired")))
    for game in await table.storage.due_deadlines(now, platform=platform):
        notices += await _flag(table, game)
    for game in await table.storage.due_reminders(now, platform=platform):
        notices += await _remind(table, game)
    return notices


async def _flag(table: Table, game: Game) -> list[Notice]:
    """The side to move has lost on time (checked again under the channel's lock)."""
    async with table.lock(game.platform, game.channel):
        try:
            game = await table.storage.get_game(game.id)
            if game.status != "active" or game.deadline is None or game.deadline > table.clock.now():
                return []
            board = table.board(game)
            result: Result = "0-1" if side_to_move(board) == "w" else "1-0"
            language = await table.channel_language(game)
            settings = await table.storage.get_channel_settings(game.platform, game.channel)
            ctx = Context(Incoming(game.platform, game.channel, User("", ""), ""), language, settings)
            reply = await table.finish(ctx, game, board, result, "timeout")
            return [Notice(game.platform, game.channel, reply)]
        except (VersionConflict, Refusal):
            return []


async def _remind(table: Table, game: Game) -> list[Notice]:
    """Tells the player to move that their time is running out."""
    try:
        game = await table.storage.update_game(game.id, game.version, GameChanges(reminded=True))
    except VersionConflict:
        return []
    board = table.board(game)
    players = await table.players_of(game)
    names = table.names(game, players)
    to_move = side_to_move(board)
    seat = game.seat(to_move)
    mention: tuple[User, ...] = ()
    if seat is not None and seat.player_id in players:
        p = players[seat.player_id]
        mention = (User(p.user_id, p.display_name),)
    language = await table.channel_language(game)
    reply = table.present.info(language, "reminder", name=names[to_move],
                               deadline=table.present.when(language, game.deadline))
    return [Notice(game.platform, game.channel, Reply(**{**reply.__dict__, "mentions": mention}))]
