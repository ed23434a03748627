"""A bot that dies at each point of a tournament's ``advance`` (docs/tournaments.md 2.6) and is
started again on the same database: each round is paired once, with the pairing the dead
process would have stored, and each of the event's notices is delivered once.

The storage of the dying process fails at one chosen call: before it, inside ``store_round``'s
transaction (the round, its games and notices written, not committed), or after it committed.
From then on every call of that process fails, as nothing of a killed process reaches the
database: its claim on the event stays held until the lease runs out. The "restart" is a new
storage and new services over the same file (or PostgreSQL database), the clock moved past
the lease.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from bot.clock import FakeClock
from bot.messages import Notice
from bot.services.claims import LEASE
from storage import Storage, open_storage
from storage.records import NewRound, TournamentState

from .tournament_support import Event

PLAYERS = ["alice", "bob", "cy", "dan", "eve"]  # five: a round has a bye too


class Crash(Exception):
    """The process dies here."""


class Dying:
    """A storage that dies at one armed point, and stays dead."""

    def __init__(self, real: Storage) -> None:
        self.real = real
        self.dead = False
        self.armed: tuple[str, str, int] | None = None  # (method, "before" | "inside" | "after", n-th call)
        self.calls = 0
        self.lost: NewRound | None = None  # the round a crash inside or before store_round lost

    def arm(self, method: str, when: str, nth: int = 1) -> None:
        self.armed, self.calls = (method, when, nth), 0

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.real, name)
        if not inspect.iscoroutinefunction(value):
            return value

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.dead:
                raise Crash(f"{name} after the crash")
            if self.armed is None or self.armed[0] != name:
                return await value(*args, **kwargs)
            self.calls += 1
            _, when, nth = self.armed
            if self.calls != nth:
                return await value(*args, **kwargs)
            self.armed = None
            if name == "store_round":
                self.lost = args[2]
            if when == "before":
                self.dead = True
                raise Crash(f"before {name}")
            if when == "inside":
                kwargs["answer"] = self._dying_inside(kwargs["answer"])
                return await value(*args, **kwargs)
            await value(*args, **kwargs)  # committed
            self.dead = True
            raise Crash(f"after {name} committed")

        return call

    def _dying_inside(self, answer: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def dying(made: Any) -> Any:
            answer(made)  # the notices built: everything of the round is written but not committed
            self.dead = True
            raise Crash("inside store_round")
        return dying


class Bot:
    """The bot's process on the test's database, started again after each crash."""

    def __init__(self, database: str, clock: FakeClock) -> None:
        self.database = database
        self.clock = clock
        self.delivered: list[Notice] = []  # by every run of the bot, as the platform saw them
        self.storage: Dying | None = None
        self.event: Event | None = None
        self.tournament: int | None = None  # the event's id
        self.lost: NewRound | None = None  # the round the crash lost (before or inside store_round)

    async def start(self) -> Event:
        self.storage = Dying(await open_storage(self.database, clock=self.clock.now))
        self.event = Event(cast(Storage, self.storage), self.clock)
        return self.event

    async def restart(self) -> Event:
        """The dead process is gone (its connection closed, nothing more written); a new one
        starts once the dead one's claims ran out."""
        assert self.storage is not None and self.storage.dead, "the process did not crash"
        self.lost = self.storage.lost
        await self.storage.real.close()
        self.clock.advance(seconds=LEASE.total_seconds() + 1)
        return await self.start()

    async def close(self) -> None:
        if self.storage is not None:
            await self.storage.real.close()

    async def crashes(self, action: Awaitable[object]) -> None:
        """Runs ``action``, in which the armed point is met and the process dies."""
        try:
            await action
        except Crash:
            pass
        assert self.storage is not None and self.storage.dead, "the armed point was never reached"

    async def notices(self) -> list[Notice]:
        assert self.event is not None
        sent = await self.event.notices()
        self.delivered += sent
        return sent


@pytest.fixture
async def bot(database: str, clock: FakeClock):
    running = Bot(database, clock)
    yield running
    await running.close()


async def state_of(bot: Bot) -> TournamentState:
    assert bot.event is not None and bot.tournament is not None
    return await bot.event.storage.tournament_state(bot.tournament)


async def names_of(event: Event, state: TournamentState) -> dict[int, str]:
    players = await event.storage.get_players([e.player_id for e in state.entrants])
    return {pid: p.user_id for pid, p in players.items()}


async def resign_all(event: Event, state: TournamentState, *, dying: bool = False) -> None:
    """Black resigns each open game of the event's last round (``dying``: the bot may die
    answering, and answer that something went wrong)."""
    names = await names_of(event, state)
    for board in state.boards:
        if board.round == state.tournament.last_round and board.status == "active":
            await (event.say if dying else event.ok)(names[board.black], "resign")


async def begin(bot: Bot, spec: str) -> TournamentState:
    event = await bot.start()
    await event.ok("alice", f"tournament new {spec}")
    for name in PLAYERS:
        await event.ok(name, "join")
    found = await event.storage.open_tournament("console", event.chat.channel)
    assert found is not None
    bot.tournament = found.id
    await event.ok("alice", "tournament start")
    await bot.notices()
    return await state_of(bot)


async def play_to_the_end(bot: Bot) -> TournamentState:
    assert bot.event is not None
    for _ in range(10):
        await bot.notices()
        state = await state_of(bot)
        if state.tournament.status == "finished":
            return state
        await resign_all(bot.event, state)
    raise AssertionError("the event did not finish")


def once_each(bot: Bot, state: TournamentState) -> None:
    """Each round paired once, its notice and its games' notices delivered once, one final standings."""
    event = state.tournament
    keys = Counter(n.key for n in bot.delivered)
    assert not [key for key, count in keys.items() if count > 1], keys
    rounds = event.last_round
    assert [r.number for r in state.rounds] == list(range(1, rounds + 1))
    assert {n.key for n in bot.delivered if n.reply.kind == "tournament_pairings"} == \
        {f"{event.salt}r{n}" for n in range(1, rounds + 1)}
    games = [b.game_id for b in state.boards if b.game_id is not None]
    assert len(games) == len(set(games))
    assert sorted(str(n.key) for n in bot.delivered if n.reply.kind == "tournament_game") == \
        sorted(f"{event.salt}g{game}" for game in games)
    assert [n.key for n in bot.delivered if n.key == f"{event.salt}f"] == [f"{event.salt}f"]
    for round_number in range(1, rounds + 1):  # every entrant on one board or the bye, once
        seated = [p for b in state.boards if b.round == round_number for p in (b.white, b.black)]
        seated += [b.player_id for b in state.byes if b.round == round_number]
        assert sorted(seated) == sorted(e.player_id for e in state.entrants)


async def no_stray_games(event: Event, state: TournamentState) -> None:
    """No game of a pairing that never committed: the channel's games are the boards' games."""
    played = await event.storage.channel_games("console", event.chat.channel, limit=100)
    assert sorted(g.id for g in played) == sorted(b.game_id for b in state.boards if b.game_id is not None)
    for name in PLAYERS:
        assert (await event.storage.chat_state("console", event.chat.channel, name)).game is None


@pytest.mark.parametrize("when", ["before", "inside", "after"])
async def test_a_crash_at_store_round_pairs_the_round_once(bot: Bot, when: str) -> None:
    state = await begin(bot, "swiss 3 rounds 2d")
    assert bot.event is not None and bot.storage is not None
    bot.storage.arm("store_round", when)
    await bot.crashes(resign_all(bot.event, state, dying=True))  # the last game's end pairs round 2: the crash

    event = await bot.restart()
    await bot.notices()  # the scheduler finds the round over: the poke died with the process
    state = await state_of(bot)
    assert state.tournament.last_round == 2
    if when != "after":  # the pairing lost is the pairing made again
        lost = bot.lost
        assert lost is not None and lost.number == 2
        assert [(b.white, b.black) for b in lost.boards] == \
            [(b.white, b.black) for b in state.boards if b.round == 2]
        assert list(lost.byes) == [b for b in state.byes if b.round == 2]
    final = await play_to_the_end(bot)
    once_each(bot, final)
    await no_stray_games(event, final)


async def test_a_crash_after_the_last_game_of_a_round_ends_still_pairs_the_next(bot: Bot) -> None:
    state = await begin(bot, "swiss 3 rounds 2d")
    assert bot.event is not None and bot.storage is not None
    bot.storage.arm("update_game", "after", nth=2)  # the second resignation: the round's last game
    await bot.crashes(resign_all(bot.event, state, dying=True))

    event = await bot.restart()
    await bot.notices()
    assert (await state_of(bot)).tournament.last_round == 2
    final = await play_to_the_end(bot)
    once_each(bot, final)
    await no_stray_games(event, final)


async def test_a_crash_between_the_game_ends_of_a_window_close(bot: Bot) -> None:
    state = await begin(bot, "swiss 3 rounds 1d window 1d")
    assert bot.event is not None and bot.storage is not None
    assert len([b for b in state.boards if b.game_id is not None]) == 2
    names = await names_of(bot.event, state)
    bot.clock.advance(hours=1)
    for board in state.boards:  # White moves: Black's day to move outlasts the window
        await bot.event.ok(names[board.white], "e3e4")
    bot.clock.advance(hours=23, seconds=1)  # the window closes on both games of round 1
    bot.storage.arm("update_game", "after", nth=1)  # dies once the first has ended
    await bot.crashes(bot.event.tournaments.tick("console"))

    event = await bot.restart()
    await bot.notices()
    state = await state_of(bot)
    assert state.tournament.last_round == 2
    first = [b for b in state.boards if b.round == 1]
    assert all(b.status == "finished" and b.reason == "round_window" and b.result == "1/2-1/2" for b in first)
    # Each game's end was told once (its notice committed with the end, sent by the outbox).
    told = Counter(n.reply.game.id for n in bot.delivered
                   if n.reply.kind == "game_over" and n.reply.game is not None)
    assert told == Counter({b.game_id: 1 for b in first})
    final = await play_to_the_end(bot)
    once_each(bot, final)
    await no_stray_games(event, final)


async def test_a_crash_after_the_round_is_stored_delivers_its_notices_once(bot: Bot) -> None:
    """The round committed, nothing delivered: the next process's outbox sends each notice once."""
    state = await begin(bot, "swiss 3 rounds 2d")
    assert bot.event is not None and bot.storage is not None
    bot.storage.arm("store_round", "after")
    await bot.crashes(resign_all(bot.event, state, dying=True))

    await bot.restart()
    state = await state_of(bot)
    assert state.tournament.last_round == 2  # committed before the crash
    sent = await bot.notices()
    salt = state.tournament.salt
    assert [n.key for n in sent if n.reply.kind == "tournament_pairings"] == [f"{salt}r2"]
    assert [n.key for n in sent if n.reply.kind == "tournament_standings"] == [f"{salt}s1"]
    assert not [n for n in await bot.notices() if n.reply.kind.startswith("tournament_")]



async def test_a_rotas_event_is_announced_and_reminded_once_across_restarts(bot: Bot) -> None:
    """The rota's event made 5 hours ahead (its day's mark passed: the announcement says it),
    then the hour's and the 5 minutes' reminders; a restart after each sends none again."""
    event = await bot.start()  # 2026-01-01 is a Thursday; 12:00 in Bangkok is 05:00 UTC
    await event.ok("alice", "tournament weekly thursday 12:00 swiss 3 rounds 1d")
    await bot.notices()  # the rota's event is made
    made = await event.storage.open_tournament("console", event.chat.channel)
    assert made is not None and made.rota_id is not None
    for mark in (datetime(2026, 1, 1, 4, tzinfo=UTC), datetime(2026, 1, 1, 4, 55, tzinfo=UTC)):  # hour, 5m
        bot.clock.set(mark)
        await bot.notices()
        assert bot.storage is not None
        bot.storage.dead = True  # the process dies between two ticks
        event = await bot.restart()
        await bot.notices()
    bot.clock.advance(minutes=6)
    await bot.notices()
    told = [n.key for n in bot.delivered if n.key and n.key.startswith(made.salt)]
    assert told == [f"{made.salt}{mark}" for mark in ("a", "mhour", "m5m", "x")]
    assert (await event.storage.tournament(made.id)).status == "cancelled"  # nobody joined
    assert await event.storage.open_tournament("console", event.chat.channel) is None  # one event, once


@pytest.mark.parametrize("when", ["inside", "after"])
async def test_a_crash_as_a_rotas_event_is_made_announces_it_once(bot: Bot, when: str) -> None:
    event = await bot.start()
    await event.ok("alice", "tournament weekly thursday 12:00 swiss 3 rounds 1d")
    assert bot.storage is not None
    bot.storage.arm("rota_event", when)
    await bot.crashes(bot.notices())
    event = await bot.restart()
    await bot.notices()
    made = await event.storage.open_tournament("console", event.chat.channel)
    assert made is not None and made.rota_id is not None
    assert [n.key for n in bot.delivered if n.key and n.key.startswith(made.salt)] == [f"{made.salt}a"]
