"""The round lifecycle of a Swiss and a round robin (docs/tournaments.md 2.4): start, a round's
window closed, the last round over (the end), the next round paired.

``step`` does the first of these that applies to the event as read, and says whether it did
one (``advance`` then reads again). Each writes in one transaction with a compare-and-set on
the event's version, so a step repeated by another process, or after a crash, stores nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from makruk import starting_fen
from storage.records import (
    Bye,
    ChannelSettings,
    Color,
    EntrantRow,
    Game,
    NewBoard,
    NewGame,
    NewNotice,
    NewRound,
    Result,
    Seat,
    TimeControl,
    Tournament,
    TournamentRound,
    TournamentState,
)
from storage.tournament_records import ForfeitScore

from ...messages import GameView, Incoming, Reply, User
from ...tournaments import berger
from ...tournaments.records import History
from ...tournaments.swiss import Unpairable, pair_round
from ..games import live
from ..games.context import Context
from ..games.table import Notify, side_to_move
from ..games.timing import turn_times
from . import calendar, events, history, notices, present, pushes, reminders

if TYPE_CHECKING:
    from .service import TournamentService

MIN_ENTRANTS = {"swiss": 2, "roundrobin": berger.MIN_PLAYERS, "arena": 2}
FORFEITS_TO_WITHDRAW = 2
LIVE_SWEEP = timedelta(minutes=5)  # a live round's event is looked at this often, its games' pokes aside


async def opening(service: TournamentService, state: TournamentState) -> bool:
    """An announced event (of any system): its reminders, then its start when it is time."""
    event = state.tournament
    now = service.table.clock.now()
    if event.starts is not None and event.starts <= now:
        await start(service, state)
        return True
    return await reminders.before_start(service, state, now)


async def step(service: TournamentService, state: TournamentState) -> bool:
    """A Swiss or round robin (and any announced event): its start, a window closed, the end,
    or the next round."""
    event = state.tournament
    now = service.table.clock.now()
    if event.status == "announced":
        return await opening(service, state)
    if event.status != "running":
        return False
    if event.last_round:
        still = history.open_boards(state, event.last_round)
        if still:
            window = _round(state, event.last_round)
            if window is not None and window.window_ends is not None and window.window_ends <= now:
                await close_window(service, state, [b.game_id for b in still if b.game_id is not None])
                return True
            if window is None or window.window_ends is None:
                return await _look_again_later(service, event, now)
            return await reminders.before_window(service, state, now)
    if event.last_round >= rounds_total(event, state):
        await finish(service, state)
        return True
    return await pair_next(service, state)


async def _look_again_later(service: TournamentService, event: Tournament, now: datetime) -> bool:
    """A live round is advanced by its games' ends (their pokes); should a poke be lost with its
    process, the scheduler looks at the event again every ``LIVE_SWEEP``."""
    if event.next_at is not None and event.next_at > now:
        return False
    await service.storage.change_tournament(event.id, event.version, {"next_at": now + LIVE_SWEEP})
    return False


def rounds_total(event: Tournament, state: TournamentState) -> int:
    if event.rounds is not None:
        return event.rounds
    seats = sum(1 for e in state.entrants if e.seat is not None)
    return len(berger.berger_rounds(seats, event.cycles == 2)) if seats >= berger.MIN_PLAYERS else 0


# --- start -------------------------------------------------------------------------------------

def too_few(state: TournamentState) -> tuple[int, int] | None:
    """(entrants, needed) when the event has fewer entrants than its system needs to start."""
    active = sum(1 for e in state.entrants if not e.withdrawn)
    needed = MIN_ENTRANTS[state.tournament.pairing_system]
    return (active, needed) if active < needed else None


async def start(service: TournamentService, state: TournamentState, *, ctx: Context | None = None) -> list[Reply]:
    """The event starts: with too few entrants it is cancelled; else each entrant's rating of
    the event's variant and speed is taken, a round robin's seats are drawn (the same every
    time: a shuffle seeded by the event's salt) and its number of rounds follows. The notice is
    the answer to ``ctx``'s message (``tournament start``), else the chat's."""
    event = state.tournament
    table = service.table
    now = table.clock.now()
    active = [e for e in state.entrants if not e.withdrawn]
    language = ctx.language if ctx is not None else await service.language_of(event.platform, event.channel)
    t = present.texts(table.catalog, language)
    short = too_few(state)
    changes: dict[str, object]
    entrants = []
    if short is not None:
        changes = {"status": "cancelled", "next_at": None}
        text = t("tournament.cancelled.too_few", id=event.id, count=short[0], needed=short[1])
        kind, mark = "tournament_cancelled", "x"
    else:
        speed = events.speed_of(event)
        seats: dict[int, int] = {}
        if event.pairing_system == "roundrobin":
            order = sorted(e.player_id for e in active)
            random.Random(event.salt).shuffle(order)
            seats = {player: n for n, player in enumerate(order, start=1)}
        for entrant in active:
            rating = await table.storage.get_rating(entrant.player_id, event.variant, speed)
            entrants.append(dataclasses.replace(entrant, rating=round(rating.rating),
                                                seat=seats.get(entrant.player_id)))
        rounds = event.rounds
        if event.pairing_system == "roundrobin":
            rounds = len(berger.berger_rounds(len(active), event.cycles == 2))
        changes = {"status": "running", "starts": event.starts or now, "rounds": rounds, "next_at": None}
        text = t("tournament.started", id=event.id, count=len(active))
        kind, mark = "tournament_started", "b"
    reply = Reply(kind=kind, text=text, language=language, data=_role(event))
    if ctx is not None:
        rows, shown = table.answers(ctx, [reply])
    else:
        rows, shown = [notices.notice(event, kind, reply, mark)], [reply]
    if changes["status"] == "cancelled":
        rows = [*rows, *calendar.unscheduled(language, event)]
    await table.storage.change_tournament(event.id, event.version, changes, entrants=entrants, notices=rows)
    return shown


def _role(event: Tournament) -> dict[str, object] | None:
    """A Discord role to mention with the start and the first pairings (docs/tournaments.md 3.1)."""
    return {"role": event.role} if event.role else None


# --- a round's window --------------------------------------------------------------------------

async def close_window(service: TournamentService, state: TournamentState, game_ids: Sequence[int]) -> None:
    """The round's window closed with these games still open: each ends as the event's rules
    say (``draw`` by default, or ``loss`` for the side to move), unrated, under its chat's lock."""
    event = state.tournament
    table = service.table
    async with table.lock(event.platform, event.channel):
        for game_id in game_ids:
            game = await table.storage.get_game(game_id)
            if not game.is_open:
                continue
            board = table.board(game)
            result: Result = "1/2-1/2"
            if event.window_end == "loss":
                result = "0-1" if side_to_move(board) == "w" else "1-0"
            ctx = await _system_context(service, game)
            # Where a push counts per member (LINE) the result rides on a reply; elsewhere it is sent.
            await table.finish(ctx, game, board, result, "round_window", rated=False,
                               notify=Notify("tournament_result", push=not pushes.per_member(event)))


async def _system_context(service: TournamentService, game: Game) -> Context:
    settings = await service.storage.get_channel_settings(game.platform, game.channel)
    language = settings.language or service.table.default_language(game.platform)
    ctx = Context(Incoming(game.platform, game.channel, User("", ""), ""), language, settings)
    ctx.game, ctx.board = game, service.table.board(game)
    return ctx


# --- the end -----------------------------------------------------------------------------------

async def finish(service: TournamentService, state: TournamentState, *, unpairable: bool = False) -> None:
    """The event is over: finished, with the final standings naming the winner."""
    event = state.tournament
    names = await service.names(state)
    language = await service.language_of(event.platform, event.channel)
    t = present.texts(service.table.catalog, language)
    past = history.history_of(state, names, through=event.last_round)
    reply = notices.standings_reply(t, language, event, past, event.last_round, final=True)
    if unpairable:
        reply = dataclasses.replace(reply, text=t("tournament.unpairable", id=event.id) + "\n" + reply.text)
    if pushes.per_member(event):
        reply = dataclasses.replace(reply, data=pushes.with_picture(reply.data, event.id, event.last_round))
    told = notices.notice(event, "tournament_standings", reply, "f", due=pushes.due(event, service.table.clock.now()))
    await service.storage.change_tournament(event.id, event.version, {"status": "finished", "next_at": None},
                                            notices=[told])
    # The last round's results the clock made say nothing the final standings do not.
    await service.storage.mark_notices_sent(await pushes.superseded(service.storage, event))


# --- pairing the next round --------------------------------------------------------------------

async def pair_next(service: TournamentService, state: TournamentState) -> bool:
    event = state.tournament
    table = service.table
    number = event.last_round + 1
    names = await service.names(state)
    lost = history.forfeits(state)
    leaving = tuple(sorted(p for p in history.active_ids(state) if lost.get(p, 0) >= FORFEITS_TO_WITHDRAW))
    past = history.history_of(state, names)
    if leaving:
        past = dataclasses.replace(past, withdrawn=past.withdrawn | frozenset(leaving))
    loop = asyncio.get_running_loop()
    try:
        pairs, bye = await loop.run_in_executor(service.executor, functools.partial(
            _pairing, event, state, past, number, rounds_total(event, state)))
    except Unpairable:
        await finish(service, state, unpairable=True)
        return True
    now = table.clock.now()
    settings = await table.storage.get_channel_settings(event.platform, event.channel)
    boards = []
    for n, (white, black) in enumerate(pairs, start=1):
        score = _unplayed(white, black, past.withdrawn)
        game = None if score is not None else _new_game(service, event, settings, white, black, now)
        boards.append(NewBoard(n, white, black, game=game, score=score))
    window_ends = None
    if event.clock_initial is None and event.window_seconds is not None:
        window_ends = now + timedelta(seconds=event.window_seconds)
    byes = (Bye(number, bye, "pairing"),) if bye is not None else ()
    new_round = NewRound(number=number, boards=tuple(boards), byes=byes, withdrawn=leaving, window_ends=window_ends,
                         next_at=reminders.next_at_in_round(window_ends, now) if window_ends else now + LIVE_SWEEP)
    language = settings.language or table.default_language(event.platform)
    t = present.texts(table.catalog, language)
    players = await table.storage.get_players(list(names))
    users = {pid: User(p.user_id, p.display_name) for pid, p in players.items()}
    # The standings after the round just over: its byes and boards, never those of the round to come.
    settled = dataclasses.replace(history.history_of(state, names, through=event.last_round), withdrawn=past.withdrawn)
    before = notices.standings_reply(t, language, event, settled, event.last_round, final=False) \
        if event.last_round else None
    shown_event = await notices.view(service, event, state)
    left = [t("tournament.withdrawn.forfeits", name=names.get(p, "?"), id=event.id) for p in leaving]
    absent = [(b.player_id, b.kind) for b in state.byes if b.round == number and b.kind != "pairing"]

    def told(games: Sequence[Game]) -> list[NewNotice]:
        made = iter(games)  # in board order, for the boards that have a game
        shown = [(w, b, None if board.score is not None else next(made), board.score)
                 for (w, b), board in zip(pairs, boards, strict=True)]
        rows: list[NewNotice] = []
        if before is not None and not pushes.per_member(event):
            rows.append(notices.notice(event, "tournament_standings", before, f"s{event.last_round}"))
        mentions = tuple(users[p] for w, b, _, _ in shown for p in (w, b) if p in users)
        pairings = notices.pairings_reply(t, language, shown_event, number,
                                          [(w, b, g.id if g else None, score) for w, b, g, score in shown], bye,
                                          names, window_ends=window_ends, mentions=mentions, absent=absent,
                                          check_in=pushes.per_member(event))
        if left:
            pairings = dataclasses.replace(pairings, text="\n".join([*left, pairings.text]))
        if number == 1 and event.role:
            pairings = dataclasses.replace(pairings, data={**(pairings.data or {}), "role": event.role})
        if pushes.per_member(event):  # one notice a round, the only one pushed (pushes.py)
            rows.append(notices.notice(event, "tournament_pairings", pushes.round_notice(event, before, pairings),
                                       f"r{number}", due=pushes.due(event, now)))
            return rows
        rows.append(notices.notice(event, "tournament_pairings", pairings, f"r{number}"))
        for n, (w, b, game, _) in enumerate(shown, start=1):
            # A game's own notice opens its thread on Discord; a LINE group gets the round's
            # pairings only (its push quota is counted per member), docs/tournaments.md 3.2.
            if game is not None and event.platform != "line":
                players_here = tuple(users[p] for p in (w, b) if p in users)
                rows.append(notices.notice(event, "tournament_game", notices.game_reply(
                    t, language, event, number, n, _view(game, names, users), players_here), f"g{game.id}"))
        return rows

    _, made = await table.storage.store_round(event.id, event.version, new_round, answer=told,
                                              superseded=await pushes.superseded(table.storage, event))
    for stored in made:
        table.stored(stored)
    return True


def _pairing(event: Tournament, state: TournamentState, past: History, number: int,
             total: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``number``'s boards (White, Black) and its bye: run off the event loop."""
    if event.pairing_system == "roundrobin":
        by_seat = {e.seat: e.player_id for e in state.entrants if e.seat is not None}
        seated = [next(x for x in past.entrants if x.id == by_seat[s]) for s in sorted(by_seat)]
        pairings, bye = berger.round_robin_round(seated, number, event.cycles == 2, swap_last_two=True)
        given = None if bye is None or bye.player in past.withdrawn else bye.player
        return [(p.white, p.black) for p in pairings], given
    paired = pair_round(past, number, rounds_total=total)
    return list(paired.boards), paired.bye


def _unplayed(white: int, black: int, withdrawn: frozenset[int]) -> ForfeitScore | None:
    """A round robin's board of a player who left: decided without a game."""
    if white in withdrawn and black in withdrawn:
        return "0-0F"
    if white in withdrawn:
        return "0-1F"
    if black in withdrawn:
        return "1-0F"
    return None


def _new_game(service: TournamentService, event: Tournament, settings: ChannelSettings, white: int, black: int,
              now: datetime) -> NewGame:
    control = None
    if event.clock_initial is not None and event.clock_increment is not None:
        control = TimeControl(event.clock_initial, event.clock_increment)
    if control is not None:
        clocks, deadline = live.starting_clocks(control, now, tournament=True)
        remind_at = None
        move_seconds = service.table.settings.move_seconds
    else:
        clocks = None
        move_seconds = event.move_seconds or service.table.settings.move_seconds
        deadline, remind_at = turn_times(now, move_seconds)
    return NewGame(
        platform=event.platform, channel=event.channel, community=event.community or event.channel,
        white=Seat.human(white), black=Seat.human(black), variant=event.variant,
        start_fen=starting_fen(event.variant), promotion=settings.promotion or "forced",
        perpetual=settings.perpetual or "forbid", move_seconds=move_seconds, rated=event.rated,
        created_by=event.created_by, status="active", deadline=deadline, remind_at=remind_at,
        time_control=control, clocks=clocks, tournament_id=event.id,
    )


def _view(game: Game, names: dict[int, str], users: dict[int, User]) -> GameView:
    white = game.white.player_id if game.white else None
    black = game.black.player_id if game.black else None
    turn: Color = "b" if len(game.start_fen.split()) > 1 and game.start_fen.split()[1] == "b" else "w"
    mover = white if turn == "w" else black
    clocks = None
    if game.clocks is not None:
        clocks = (game.clocks.white_ms, game.clocks.black_ms, None)
    return GameView(id=game.id, fen=game.start_fen, turn=turn, ply=0, result=None, reason=None,
                    white=names.get(white or 0, "?"), black=names.get(black or 0, "?"), status="active",
                    to_move=users[mover].id if mover in users else None, variant=game.variant, clocks=clocks)


def _round(state: TournamentState, number: int) -> TournamentRound | None:
    return next((r for r in state.rounds if r.number == number), None)


def entrant_rows(state: TournamentState) -> dict[int, EntrantRow]:
    return {e.player_id: e for e in state.entrants}
