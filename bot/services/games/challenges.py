"""Starting games: ``new`` (a challenge to someone, to anyone, or a game against the bot),
``accept`` and ``decline`` of a challenge. Answers to draw and takeback offers are in offers.py."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING

from storage import Answer, ChannelBusy
from storage.records import Clocks, Color, Game, GameChanges, NewGame, Player, Seat

from ...messages import Reply, User
from ..errors import Refusal
from . import live, offers, tournament_routes
from .moves import engine_turns
from .options import ChallengeOptions, parse_challenge_options, start_position
from .registry import CommandGroup
from .timing import turn_times

if TYPE_CHECKING:
    from .context import Context
    from .table import Table

commands = CommandGroup("challenges")


@commands.command("new")
async def new(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    options = parse_challenge_options(table.catalog, ctx.msg, args)
    if ctx.game is not None:
        raise Refusal("channel_busy", private=False)
    await tournament_routes.refuse_new(table, ctx)
    me = await table.player(ctx)
    if options.vs_bot:
        return await _start_bot_game(table, ctx, me, options)
    opponent = None
    if options.opponent is not None:
        user = await _known(table, ctx, options.opponent) if options.typed else options.opponent
        if user.id == ctx.msg.user.id:
            raise Refusal("challenge_self")
        opponent = await table.player(ctx, user)
    color = _color(table, options)
    mine, theirs = Seat.human(me.id), Seat.human(opponent.id) if opponent else None
    players = {me.id: me, **({opponent.id: opponent} if opponent else {})}

    def challenge(game: Game) -> list[Reply]:
        return [table.present.challenge(ctx.language, game, table.names(game, players), opponent)]
    answer, shown = table.answer_with(ctx, challenge)
    await _create(table, answer, NewGame(
        platform=ctx.msg.platform,
        channel=ctx.msg.channel,
        community=ctx.msg.community or ctx.msg.channel,
        white=mine if color == "w" else theirs,
        black=theirs if color == "w" else mine,
        variant=options.variant or "makruk",
        start_fen=start_position(options),
        promotion=options.promotion or ctx.settings.promotion or "forced",
        perpetual=options.perpetual or ctx.settings.perpetual or "forbid",
        move_seconds=_move_seconds(table, ctx, options),
        rated=options.rated,
        created_by=me.id,
        status="challenge",
        deadline=table.clock.now() + _challenge_time(table),
        time_control=options.time_control,
    ))
    return shown


async def _start_bot_game(table: Table, ctx: Context, me: Player, options: ChallengeOptions) -> list[Reply]:
    level = options.level or 1
    color = _color(table, options)
    seconds = _move_seconds(table, ctx, options)
    deadline, remind_at = turn_times(table.clock.now(), seconds)
    clocks: Clocks | None = None
    if options.time_control is not None:
        clocks, deadline = live.starting_clocks(options.time_control, table.clock.now())

    def started(game: Game) -> list[Reply]:
        return [table.game_view(ctx, game, table.replayed(game), "game_started", {me.id: me})]
    answer, shown = table.answer_with(ctx, started)
    game = await _create(table, answer, NewGame(
        platform=ctx.msg.platform,
        channel=ctx.msg.channel,
        community=ctx.msg.community or ctx.msg.channel,
        white=Seat.human(me.id) if color == "w" else Seat.engine(level),
        black=Seat.engine(level) if color == "w" else Seat.human(me.id),
        variant=options.variant or "makruk",
        start_fen=start_position(options),
        promotion=options.promotion or ctx.settings.promotion or "forced",
        perpetual=options.perpetual or ctx.settings.perpetual or "forbid",
        move_seconds=seconds,
        rated=True,  # against the level's fixed rating (see ratings.py)
        created_by=me.id,
        status="active",
        deadline=deadline,
        remind_at=None if clocks is not None else remind_at,
        time_control=options.time_control,
        clocks=clocks,
    ))
    table.stored(game)
    board = table.board(game)
    replies = [await table.drawn(ctx, reply) for reply in shown]
    replies += await engine_turns(table, ctx, game, board)
    return replies


@commands.command("accept")
async def accept(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game = ctx.require_game()
    if game.status == "active":
        return await offers.accept_offer(table, ctx)
    me = await table.player(ctx)
    if game.created_by == me.id:
        raise Refusal("own_challenge")
    invited = [s for s in (game.white, game.black) if s is not None and s.player_id != game.created_by]
    if invited and invited[0].player_id != me.id:
        raise Refusal("not_invited")
    seat = Seat.human(me.id)
    deadline, remind_at = turn_times(table.clock.now(), game.move_seconds)
    changes = GameChanges(
        white=game.white if game.white is not None else seat,
        black=game.black if game.black is not None else seat,
        status="active",
        deadline=deadline,
        remind_at=remind_at,
    )
    if game.time_control is not None:  # a live game's clocks are set; the first move has its 30 s
        clocks, first_move = live.starting_clocks(game.time_control, table.clock.now())
        changes = replace(changes, clocks=clocks, deadline=first_move, remind_at=None)
    _, reply = await table.commit(ctx, game, table.board(game), changes, "game_started")
    return [reply]


@commands.command("decline")
async def decline(table: Table, ctx: Context, args: tuple[str, ...]) -> list[Reply]:
    game = ctx.require_game()
    if game.status == "active":
        return await offers.decline_offer(table, ctx)
    me = await table.player(ctx)
    invited = [s.player_id for s in (game.white, game.black) if s is not None and s.player_id != game.created_by]
    if me.id != game.created_by and invited and me.id not in invited:
        raise Refusal("not_invited")
    if me.id != game.created_by and not invited:
        raise Refusal("not_invited")  # anyone may accept an open challenge; only its author withdraws it
    reason = "withdrawn" if me.id == game.created_by else "declined"
    answer = table.present.info(ctx.language, f"challenge.{reason}", name=ctx.msg.user.name)
    _, answer = await table.update(ctx, game, GameChanges(status="aborted", reason=reason, deadline=None), answer)
    return [answer]


async def _known(table: Table, ctx: Context, typed: User) -> User:
    """The person a typed ``@name`` (not a real mention) stands for: someone who played in this
    chat under that name. No one else: an invitation to a stranger nobody can accept helps no one."""
    name = typed.name.casefold()
    for player in await table.storage.channel_players(ctx.msg.platform, ctx.msg.channel):
        if name in (player.display_name.casefold(), player.user_id.casefold()):
            return User(player.user_id, player.display_name)
    raise Refusal("unknown_mention", name="@" + typed.name[:20])


async def _create(table: Table, answer: Answer[Game], new: NewGame) -> Game:
    """The new game, stored with its answer (which shows its id)."""
    try:
        return await table.storage.create_game(new, answer=answer)
    except ChannelBusy:
        raise Refusal("channel_busy", private=False) from None


def _color(table: Table, options: ChallengeOptions) -> Color:
    if options.color == "random":
        return "w" if table.random.choice("wb") == "w" else "b"
    return options.color or "w"


def _move_seconds(table: Table, ctx: Context, options: ChallengeOptions) -> int:
    return options.move_seconds or ctx.settings.move_seconds or table.settings.move_seconds


def _challenge_time(table: Table) -> timedelta:
    return timedelta(seconds=table.settings.challenge_seconds)
