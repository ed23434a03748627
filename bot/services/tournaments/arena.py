"""An arena's steps (docs/tournaments.md 2.5): its end set at the start, batches of the players
waiting paired near in rank, the final standings at ``ends``; arena points and ``berserk``.

A player waits from the start, their late entry or the end of their last game. A batch is paired
when four or more wait (so a pair that just finished is not rematched merely because they finish
together), or when the longest-waiting has waited ``BATCH_WAIT``; each batch is a ``store_round``
(its number is the round), so the compare-and-set and the round's primary key make it once.
At ``ends`` nothing more is paired and the standings count the games finished by then only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Final

from storage.clock_records import has_moved
from storage.records import (
    BoardRow,
    Game,
    GameChanges,
    NewBoard,
    NewNotice,
    NewRound,
    Tournament,
    TournamentState,
)

from ...messages import Reply, User
from ...tournaments.arena import ArenaGame, Outcome, arena_scores, pair_waiting
from ...tournaments.tiebreaks import Row, standings
from ..errors import Refusal
from ..games.context import Context
from ..games.table import COLORS
from . import history, notices, present, pushes, rounds

if TYPE_CHECKING:
    from .service import TournamentService

BATCH_WAIT: Final = timedelta(seconds=10)  # the longest anyone waits for a fourth player
BATCH_AT_ONCE: Final = 4  # this many waiting are paired at once
LINE_GRACE: Final = timedelta(seconds=20)  # a batch's pairings on LINE: a reply in this time carries them free
OUTCOMES: Final[dict[str, tuple[Outcome, Outcome]]] = {  # a score as (White's, Black's) outcome
    "1-0": ("win", "loss"), "0-1": ("loss", "win"), "1/2-1/2": ("draw", "draw"),
    "1-0F": ("win", "loss"), "0-1F": ("loss", "win"), "0-0F": ("loss", "loss"),
}


async def step(service: TournamentService, state: TournamentState) -> bool:
    """The first thing the arena is owed now; whether it did one (``advance`` reads again)."""
    event = state.tournament
    if event.status != "running":
        return await rounds.step(service, state)  # the start and its reminders are every system's
    now = service.table.clock.now()
    if event.ends is None:  # just started: it ends arena_minutes after its start
        ends = (event.starts or now) + timedelta(minutes=event.arena_minutes or 0)
        await service.storage.change_tournament(event.id, event.version, {"ends": ends, "next_at": ends})
        return True
    if now >= event.ends:
        await finish(service, state)
        return True
    leaving = _leaving(state)
    if leaving:
        await withdraw_absent(service, state, leaving)
        return True
    since = waiting(state)
    if _batch_due(since, now, first=event.last_round == 0) and await pair_batch(service, state, since):
        return True
    wanted = next_check(since, now, event.ends)
    if wanted != event.next_at:
        await service.storage.change_tournament(event.id, event.version, {"next_at": wanted})
        return True
    return False


# --- who waits, and when the next batch is due -------------------------------------------------

def waiting(state: TournamentState) -> dict[int, datetime]:
    """The active entrants with no open game of the event, each with the moment they began to
    wait: the start, their entry, or the end of their last game, whichever came last."""
    event = state.tournament
    busy = {p for b in state.boards if b.game_id is not None and history.score_of(b) is None
            for p in (b.white, b.black)}
    start = event.starts or event.created
    since: dict[int, datetime] = {}
    for entrant in state.entrants:
        player = entrant.player_id
        if entrant.withdrawn or player in busy:
            continue
        ended = [b.finished for b in state.boards if player in (b.white, b.black) and b.finished is not None]
        since[player] = max([start, *([entrant.joined] if entrant.joined else []), *ended])
    return since


def _batch_due(since: Mapping[int, datetime], now: datetime, *, first: bool) -> bool:
    if len(since) < 2:
        return False
    return first or len(since) >= BATCH_AT_ONCE or min(since.values()) + BATCH_WAIT <= now


def next_check(since: Mapping[int, datetime], now: datetime, ends: datetime) -> datetime:
    """When the scheduler looks again: the longest-waiting's ``BATCH_WAIT`` (never in the past),
    else the end (a finished game pokes the event before that)."""
    if len(since) < 2:
        return ends
    return min(ends, max(min(since.values()) + BATCH_WAIT, now + timedelta(seconds=1)))


def _leaving(state: TournamentState) -> tuple[int, ...]:
    """Active players with two forfeit losses: they are withdrawn."""
    lost = history.forfeits(state)
    return tuple(sorted(p for p in history.active_ids(state) if lost.get(p, 0) >= rounds.FORFEITS_TO_WITHDRAW))


async def withdraw_absent(service: TournamentService, state: TournamentState, leaving: Sequence[int]) -> None:
    """Withdraws the players who lost two games by forfeit, telling the chat (they may rejoin)."""
    event = state.tournament
    names = await service.names(state)
    language = await service.language_of(event.platform, event.channel)
    t = present.texts(service.table.catalog, language)
    text = "\n".join(t("tournament.withdrawn.forfeits", name=names.get(p, "?"), id=event.id) for p in leaving)
    reply = Reply(kind="tournament", text=text, language=language)
    rows = [e for e in state.entrants if e.player_id in leaving]
    mark = f"w{event.last_round}-{min(leaving)}"  # the same withdrawal stored twice is one notice
    await service.storage.change_tournament(
        event.id, event.version, None, entrants=[dataclasses.replace(e, withdrawn=True) for e in rows],
        notices=[notices.notice(event, "tournament", reply, mark)])


# --- a batch ---------------------------------------------------------------------------------

def colours(pairs: Sequence[tuple[int, int]], state: TournamentState) -> list[tuple[int, int]]:
    """(White, Black) of each pair: White to the player with fewer Whites in the event, then to
    the one who had Black last, else to the better ranked (the pair's first)."""
    whites: dict[int, int] = {}
    last: dict[int, str] = {}
    for board in sorted(state.boards, key=lambda b: (b.round, b.board)):
        whites[board.white] = whites.get(board.white, 0) + 1
        last[board.white], last[board.black] = "w", "b"
    seated = []
    for a, b in pairs:
        if whites.get(a, 0) != whites.get(b, 0):
            white = a if whites.get(a, 0) < whites.get(b, 0) else b
        elif (last.get(a) == "b") != (last.get(b) == "b"):
            white = a if last.get(a) == "b" else b
        else:
            white = a
        seated.append((white, b if white == a else a))
    return seated


def last_opponents(state: TournamentState) -> dict[int, int]:
    """Each player's opponent in their latest game of the event."""
    last: dict[int, int] = {}
    for board in sorted(state.boards, key=lambda b: (b.round, b.board)):
        last[board.white], last[board.black] = board.black, board.white
    return last


async def pair_batch(service: TournamentService, state: TournamentState, since: Mapping[int, datetime]) -> bool:
    """Pairs the players waiting, each near in rank, in one ``store_round`` with its notices;
    whether there was a pair to make."""
    event = state.tournament
    table = service.table
    now = table.clock.now()
    names = await service.names(state)
    ranks = {row.player: row.rank for row in arena_rows(state, names)}
    pairs = colours(pair_waiting(sorted(since), ranks, last_opponents(state)), state)
    if not pairs:
        return False
    seated = {p for pair in pairs for p in pair}
    left = {p: t for p, t in since.items() if p not in seated}
    assert event.ends is not None
    number = event.last_round + 1
    settings = await table.storage.get_channel_settings(event.platform, event.channel)
    boards = tuple(NewBoard(n, white, black, game=rounds._new_game(service, event, settings, white, black, now))
                   for n, (white, black) in enumerate(pairs, start=1))
    new_round = NewRound(number=number, boards=boards, next_at=next_check(left, now, event.ends))
    language = settings.language or table.default_language(event.platform)
    t = present.texts(table.catalog, language)
    players = await table.storage.get_players(list(names))
    users = {pid: User(p.user_id, p.display_name) for pid, p in players.items()}
    shown_event = await notices.view(service, event, state)
    # On LINE a batch's pairings wait a little for a reply to carry them (the push quota).
    due = now + LINE_GRACE if event.platform == "line" else None

    def told(games: Sequence[Game]) -> list[NewNotice]:
        mentions = tuple(users[p] for pair in pairs for p in pair if p in users)
        pairings = notices.pairings_reply(t, language, shown_event, number,
                                          [(w, b, g.id, None) for (w, b), g in zip(pairs, games, strict=True)], None,
                                          names, mentions=mentions, check_in=pushes.per_member(event))
        if number == 1 and event.role:
            pairings = dataclasses.replace(pairings, data={**(pairings.data or {}), "role": event.role})
        rows = [notices.notice(event, "tournament_pairings", pairings, f"r{number}", due=due)]
        if pushes.per_member(event):
            return rows  # LINE: the batch's pairings say it; a notice per game would flood the group
        for n, ((w, b), game) in enumerate(zip(pairs, games, strict=True), start=1):
            here = tuple(users[p] for p in (w, b) if p in users)
            view = rounds._view(game, names, users)
            rows.append(notices.notice(event, "tournament_game",
                                       notices.game_reply(t, language, event, number, n, view, here), f"g{game.id}"))
        return rows

    _, made = await table.storage.store_round(event.id, event.version, new_round, answer=told)
    for stored in made:
        table.stored(stored)
    return True


# --- points and standings --------------------------------------------------------------------

def counted(state: TournamentState, until: datetime | None = None) -> TournamentState:
    """The event with only the boards that count: finished (by ``until``, the end, if given)."""
    return dataclasses.replace(state, boards=tuple(
        b for b in state.boards if history.score_of(b) is not None
        and (until is None or b.finished is None or b.finished <= until)))


def arena_games(state: TournamentState) -> dict[int, list[ArenaGame]]:
    """Each player's finished games as arena scoring reads them, in the order they finished."""
    played: dict[int, list[ArenaGame]] = {e.player_id: [] for e in state.entrants}
    ended = [b for b in state.boards if history.score_of(b) is not None]
    for board in sorted(ended, key=_finishing_order):
        score = history.score_of(board)
        assert score is not None
        forfeit = score.endswith("F")
        for player, colour, outcome in ((board.white, "w", OUTCOMES[score][0]),
                                        (board.black, "b", OUTCOMES[score][1])):
            plies = 0 if forfeit else board.plies
            game = ArenaGame.from_plies(outcome, plies, colour in (board.berserk or ""))
            played.setdefault(player, []).append(dataclasses.replace(game, forfeit=forfeit))
    return played


def _finishing_order(board: BoardRow) -> tuple[datetime | float, int, int]:
    return (board.finished.timestamp() if board.finished else float("inf"), board.round, board.board)


def arena_points(state: TournamentState) -> dict[int, float]:
    return {player: float(arena_scores(games).total) for player, games in arena_games(state).items()}


def arena_rows(state: TournamentState, names: Mapping[int, str], *, until: datetime | None = None) -> list[Row]:
    """The standings: arena points, then performance, over the games that count."""
    kept = counted(state, until)
    return standings(history.history_of(kept, names), "arena", points=arena_points(kept))


def standings_reply(t: present.Text, language: str, event: Tournament, state: TournamentState,
                    names: Mapping[int, str], *, final: bool, asking: int | None = None) -> Reply:
    rows = arena_rows(state, names, until=event.ends if final else None)
    if final:
        text = present.final_text(t, event.id, rows, "arena", round_number=event.last_round)
    else:
        text = present.standings_text(t, event.id, rows, "arena", round_number=event.last_round, live=True,
                                      asking=asking)
    data = present.standings_data(event.id, event.last_round, rows, "arena", final=final)
    return Reply(kind="tournament_standings", text=text, language=language, data=data)


async def standings_now(service: TournamentService, ctx: Context, event: Tournament) -> list[Reply]:
    """``standings`` in a running arena: the points so far."""
    state = await service.storage.tournament_state(event.id)
    names = await service.names(state)
    me = await service.table.player(ctx)
    t = present.texts(service.table.catalog, ctx.language)
    return [standings_reply(t, ctx.language, event, state, names, final=False, asking=me.id)]


async def finish(service: TournamentService, state: TournamentState) -> None:
    """The arena's time is up: finished, with the final standings of the games ended by then
    (games still running go on as games, and do not count)."""
    event = state.tournament
    names = await service.names(state)
    language = await service.language_of(event.platform, event.channel)
    t = present.texts(service.table.catalog, language)
    reply = standings_reply(t, language, event, state, names, final=True)
    await service.storage.change_tournament(event.id, event.version, {"status": "finished", "next_at": None},
                                            notices=[notices.notice(event, "tournament_standings", reply, "f")])


# --- berserk ---------------------------------------------------------------------------------

async def berserk(service: TournamentService, ctx: Context) -> list[Reply]:
    """``berserk``: in a running arena's game, before their first move, the sender plays on with
    half their clock and no increment (``live.after_move``), for a point more if they win in at
    least 7 moves."""
    table = service.table
    game = ctx.game
    if game is None or game.tournament_id is None or game.status != "active" or game.clocks is None \
            or game.time_control is None:
        raise Refusal("berserk_not_now")
    event = await service.storage.tournament(game.tournament_id)
    if event.pairing_system != "arena" or event.status != "running":
        raise Refusal("berserk_not_now")
    me = await table.player(ctx)
    colour = next((c for c in COLORS if (seat := game.seat(c)) is not None and seat.player_id == me.id), None)
    if colour is None or has_moved(game, colour) or colour in (game.berserk or ""):
        raise Refusal("berserk_not_now")
    half = game.time_control.initial * 1000 // 2
    clocks = dataclasses.replace(game.clocks, white_ms=half) if colour == "w" else \
        dataclasses.replace(game.clocks, black_ms=half)
    sides = "".join(c for c in "wb" if c in (game.berserk or "") + colour)
    text = present.texts(table.catalog, ctx.language)("tournament.berserk", name=me.display_name)
    changes = GameChanges(clocks=clocks, berserk=sides)
    after = game.after(changes, at=table.clock.now())
    # The answer is about the player's own game: it carries it (the console's "game", Discord's footer).
    shown = table.game_view(ctx, after, table.board(after), "berserk", await table.players_of(game)).game
    _, reply = await table.update(ctx, game, changes,
                                  Reply(kind="tournament", text=text, language=ctx.language, game=shown))
    return [reply]
