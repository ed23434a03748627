"""Live games (issue 24): Fischer clocks through the game service, on a fake clock."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.config import Settings
from bot.engines import RandomMover
from bot.i18n import Catalog
from bot.messages import Incoming, User
from bot.scheduler import SHORTEST_NAP, Scheduler
from bot.services.errors import Refusal
from bot.services.games import GameService
from bot.services.games.live import SAFETY_SECONDS, thinking_time
from bot.services.games.options import parse_challenge_options
from storage import open_storage
from storage.records import Clocks, TimeControl, clock_state

from .support import Chat, no_image, tick

CATALOG = Catalog.load()


def options(text: str, language_mentions: tuple[str, ...] = ()):
    msg = Incoming("console", "c1", User("alice", "alice"), "new " + text,
                   mentions=tuple(User(m, m) for m in language_mentions))
    return parse_challenge_options(CATALOG, msg, tuple(text.split()))


@pytest.mark.parametrize(("text", "control", "level", "variant"), [
    ("@bob 3+2", (180, 2), None, None),
    ("bot 5 10+0", (600, 0), 5, None),
    ("5+3 ouk", (300, 3), None, "cambodian"),
    ("@bob 3 + 2", (180, 2), None, None),
    ("@bob 3 นาที + 2", (180, 2), None, None),  # Thai
    ("@bob ๓+๒", (180, 2), None, None),  # Thai digits
    ("@bob 3 นาที + 2 วินาที หมากรุกพม่า", (180, 2), None, "sittuyin"),
    ("@bob 3分+2秒", (180, 2), None, None),  # Japanese
    ("bot 3 ３＋２", (180, 2), 3, None),  # full-width
    ("@bob 3 នាទី + 2", (180, 2), None, None),  # Khmer
    ("@bob ៣+២ អុក", (180, 2), None, "cambodian"),  # Khmer digits
    ("@bob 0+1", (0, 1), None, None),
    ("@bob 180+180", (10800, 180), None, None),
    ("@bob time=5+3", (300, 3), None, None),  # as a slash command's choice would write it
])
def test_a_live_clock_is_read_in_every_language(text, control, level, variant) -> None:
    parsed = options(text)
    assert parsed.time_control == TimeControl(*control)
    assert parsed.level == level and parsed.variant == variant


@pytest.mark.parametrize("text", ["@bob 0+0", "@bob 181+0", "@bob 3+181"])
def test_a_clock_outside_the_bounds_is_refused(text) -> None:
    with pytest.raises(Refusal) as refused:
        options(text)
    assert refused.value.code == "bad_clock"
    for language in ("th", "en", "ja", "km"):
        assert "180" in CATALOG.text(language, "error.bad_clock", **refused.value.fields)


def test_correspondence_stays_the_default() -> None:
    assert options("@bob").time_control is None and options("@bob 2h").move_seconds == 7200


async def live_game(chat: Chat, control: str = "3+2"):
    await chat.ok("alice", f"new @bob {control}", "bob")
    return await chat.ok("bob", "accept")


async def test_each_clock_starts_with_its_own_first_move_and_gains_the_increment(chat, service, clock) -> None:
    started = await live_game(chat)
    assert started[0].game.clocks == (180_000, 180_000, None)
    assert "3:00" in started[0].text and "30 s left for the first move" in started[0].text
    clock.advance(seconds=10)  # White's first move is free
    moved = await chat.ok("alice", "e3e4")
    assert moved[0].game.clocks == (180_000, 180_000, None)
    clock.advance(seconds=20)  # and so is Black's
    moved = await chat.ok("bob", "b6b5")
    assert moved[0].game.clocks == (180_000, 180_000, "w")
    clock.advance(seconds=5)
    moved = await chat.ok("alice", "a3a4")  # 5 s run, 2 s back
    assert moved[0].game.clocks == (177_000, 180_000, "b")
    assert "2:57" in moved[0].text and "3:00" in moved[0].text
    assert moved[0].board is not None and "2:57" in (moved[0].board.clocks or "")
    game = await service.storage.active_game("console", "c1")
    assert game.deadline == clock.now() + timedelta(seconds=180)  # Black's clock runs out then


async def test_a_first_move_not_made_in_30_seconds_aborts_the_game_unrated(chat, service, storage, clock) -> None:
    await live_game(chat)
    await chat.ok("alice", "e3e4")
    clock.advance(seconds=29)
    assert await tick(service) == []
    clock.advance(seconds=2)
    notices = await tick(service)
    assert len(notices) == 1 and "did not make a first move" in notices[0].reply.text
    game = await storage.last_game("console", "c1")
    assert game.status == "aborted" and game.reason == "first_move" and game.result is None
    bob = await storage.find_player("console", "bob")
    assert (await storage.get_rating(bob.id, "makruk", "live")).games_played == 0
    assert await tick(service) == []  # once


async def test_a_late_move_does_not_count_the_flag_falls_instead(chat, storage, clock) -> None:
    await live_game(chat, "1+0")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=61)
    replies = await chat.ok("alice", "a3a4")
    assert replies[0].game.result == "0-1" and replies[0].game.reason == "timeout"
    game = await storage.last_game("console", "c1")
    assert [m.uci for m in game.moves] == ["e3e4", "b6b5"] and game.clocks.white_ms == 0


async def test_a_flag_loses_and_moves_the_live_ratings_only(chat, service, storage, clock) -> None:
    await live_game(chat)
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=179)
    assert await tick(service) == []
    clock.advance(seconds=1)
    notices = await tick(service)
    assert len(notices) == 1
    game = notices[0].reply.game
    assert game is not None
    assert game.result == "0-1" and game.reason == "timeout" and game.clocks == (0, 180_000, None)
    alice = await storage.find_player("console", "alice")
    assert (await storage.get_rating(alice.id, "makruk", "live")).games_played == 1
    assert (await storage.get_rating(alice.id, "makruk")).games_played == 0
    replies = await chat.ok("carol", "top makruk live")
    assert "bob" in replies[0].text and "live" in replies[0].text
    replies = await chat.ok("carol", "top")
    assert replies[0].text == CATALOG.text("en", "top.empty")
    replies = await chat.ok("carol", "rating @bob live")
    assert "live Makruk rating" in replies[0].text and ", rated games: 1." in replies[0].text
    both = (await chat.ok("carol", "rating @bob"))[0].text.splitlines()  # correspondence, then live
    assert both[0].startswith("bob: rating 1500") and "live Makruk rating" in both[1]
    only = (await chat.ok("carol", "rating @bob correspondence"))[0].text.splitlines()
    assert only == both[:1]


async def test_a_flag_against_a_bare_khun_is_a_draw(chat, service, storage, clock) -> None:
    # Black has nothing but its Khun: White's flag cannot make it win.
    await chat.ok("alice", "new @bob 1+0 from 4k3/8/8/8/8/8/R7/4K3 w - - 0 1", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "a2a3")
    await chat.ok("bob", "e8d8")
    clock.advance(seconds=61)
    notices = await tick(service)
    game = notices[0].reply.game
    assert game is not None and game.result == "1/2-1/2" and game.reason == "timeout_draw"


async def test_a_flag_with_mating_material_left_loses(chat, service, clock) -> None:
    await chat.ok("alice", "new @bob 1+0 from 4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e1d1")
    await chat.ok("bob", "a2a3")
    clock.advance(seconds=61)
    game = (await tick(service))[0].reply.game
    assert game is not None and game.result == "0-1" and game.reason == "timeout"


async def test_sittuyin_s_deployment_is_played_on_the_clock(chat, clock) -> None:
    await live_game(chat, "3+2 sittuyin")
    await chat.ok("alice", "R@a1")
    await chat.ok("bob", "R@a8")
    clock.advance(seconds=4)
    placed = await chat.ok("alice", "R@h1")
    assert placed[0].game.clocks == (178_000, 180_000, "b")


async def test_clocks_survive_a_restart(db_path, clock) -> None:
    settings = Settings(language="en")
    async with await open_storage(str(db_path), clock=clock.now) as storage:
        chat = Chat(GameService(storage, settings, clock=clock, engine=RandomMover(1), render=no_image))
        await live_game(chat)
        await chat.ok("alice", "e3e4")
        await chat.ok("bob", "b6b5")
        clock.advance(seconds=7)
        await chat.ok("alice", "a3a4")
        before = await storage.active_game("console", "c1")
    clock.advance(seconds=30)
    async with await open_storage(str(db_path), clock=clock.now) as storage:
        after = await storage.active_game("console", "c1")
        assert after is not None and before is not None
        assert after.time_control == TimeControl(180, 2) and after.clocks == before.clocks
        state = clock_state(after, clock.now())
        assert state is not None and state.black_ms == 150_000
        chat = Chat(GameService(storage, settings, clock=clock, engine=RandomMover(1), render=no_image))
        replies = await chat.ok("carol", "board")
        assert "2:55" in replies[0].text and "2:30" in replies[0].text


async def test_a_flag_is_announced_once_by_two_processes(database, clock) -> None:
    settings = Settings(language="en")
    async with await open_storage(database, clock=clock.now) as s1, await open_storage(database, clock=clock.now) as s2:
        one = GameService(s1, settings, clock=clock, render=no_image)
        two = GameService(s2, settings, clock=clock, render=no_image)
        chat = Chat(one)
        await live_game(chat)
        await chat.ok("alice", "e3e4")
        await chat.ok("bob", "b6b5")
        clock.advance(seconds=181)
        await asyncio.gather(one.tick("console"), two.tick("console"), one.tick("console"))
        notices = await tick(one) + await tick(two)
        assert [n.reply.game.reason for n in notices if n.reply.game is not None] == ["timeout"]
        assert len(notices) == 1


async def test_the_bot_plays_on_its_clock(chat, service, clock) -> None:
    started = await chat.ok("alice", "new bot 2 black 1+0")
    assert started[-1].game.clocks is not None and started[-1].game.ply == 1  # the bot moved at once
    game = await service.storage.active_game("console", "c1")
    assert game.time_control == TimeControl(60, 0) and game.speed == "live"


def test_the_bot_never_thinks_into_its_safety_margin() -> None:
    from datetime import UTC, datetime

    from storage.records import Game, MoveRecord, Seat

    now = datetime(2026, 1, 1, tzinfo=UTC)
    moves = (MoveRecord(1, "e3e4", "e4", "w", now), MoveRecord(2, "b6b5", "b5", "b", now))
    for initial, increment in ((60, 0), (180, 2), (0, 1), (600, 30), (10800, 180)):
        for left_ms in (600, 1_000, 2_500, 9_000, 61_000, 180_000, 3_600_000):
            game = Game(1, "console", "c", None, "makruk", "forced", "forbid", 60, Seat.human(1), Seat.engine(3),
                        False, 1, "fen w", "active", None, None, None, None, None, None, None, False, now, now, 3,
                        moves, TimeControl(initial, increment), Clocks(left_ms, left_ms, now))
            seconds = thinking_time(game, "w", now)
            assert seconds is not None and seconds > 0
            if left_ms / 1000 > SAFETY_SECONDS + 0.01:
                assert seconds <= left_ms / 1000 - SAFETY_SECONDS
            # what it spends it gets back while it has more than its increment left
            if left_ms / 1000 > increment:
                assert seconds <= left_ms / 1000


class FakeWake:
    def __init__(self, due: float | None) -> None:
        self.due = due
        self.rung = asyncio.Event()
        self.jobs = ()

    async def seconds_to_next(self) -> float | None:
        return self.due

    async def wait(self, seconds: float) -> None:
        await self.rung.wait()
        self.rung.clear()


async def test_the_scheduler_sleeps_until_the_next_deadline_not_its_interval() -> None:
    assert await Scheduler([], interval=20).next_delay() == 20
    assert await Scheduler([], interval=20, wake=FakeWake(None)).next_delay() == 20
    assert 3.0 <= await Scheduler([], interval=20, wake=FakeWake(3.0)).next_delay() < 3.1
    assert await Scheduler([], interval=20, wake=FakeWake(-5)).next_delay() == SHORTEST_NAP
    assert await Scheduler([], interval=2, wake=FakeWake(300)).next_delay() == 2


async def test_the_next_deadline_is_the_live_game_s_flag(chat, service, clock) -> None:
    wake = service.wake("console")
    assert await wake.seconds_to_next() is None
    await live_game(chat)
    assert await wake.seconds_to_next() == 30  # the first move
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=3)
    await chat.ok("alice", "a3a4")
    assert await wake.seconds_to_next() == 180


async def test_storing_a_live_game_wakes_the_scheduler(chat, service) -> None:
    wake = service.wake("console")
    rounds: list[str] = []

    async def full_round() -> None:
        rounds.append("full")

    async def deadlines() -> None:
        rounds.append("deadlines")

    wake.jobs.append(deadlines)
    scheduler = Scheduler([full_round], interval=3600, wake=wake)
    task = scheduler.start()
    try:
        await asyncio.wait_for(_until(lambda: rounds == ["full"]), timeout=30)
        await live_game(chat)  # the new deadline rings the bell: the scheduler looks again
        await asyncio.wait_for(_until(lambda: len(rounds) >= 2), timeout=30)
    finally:
        await scheduler.stop()
    assert task.done() and rounds[:2] == ["full", "deadlines"]  # not its whole round before the hour is up


async def test_woken_for_a_deadline_the_tick_only_ends_games_on_time(chat, service, storage, clock) -> None:
    await chat.ok("alice", "new @bob", "bob")  # a correspondence game, to be reminded
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    clock.advance(hours=20)
    await service.tick("console", deadlines_only=True)
    game = await storage.active_game("console", "c1")
    assert game is not None and not game.reminded  # reminders wait for the scheduler's full round
    await service.tick("console")
    game = await storage.active_game("console", "c1")
    assert game is not None and game.reminded


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_a_takeback_stops_the_running_clock_and_starts_the_side_to_move_s(chat, service, clock) -> None:
    await live_game(chat)
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=5)
    await chat.ok("alice", "a3a4")  # White: 180 - 5 + 2
    clock.advance(seconds=4)
    await chat.ok("bob", "undo")
    # Black's 4 s are spent; Black's move and White's reply go back, so Black is before its
    # first move again: its clock stops, and it has 30 s to make one.
    replies = await chat.ok("alice", "accept")
    assert replies[0].game is not None and replies[0].game.clocks == (177_000, 176_000, None)
    game = await service.storage.active_game("console", "c1")
    assert game is not None and game.deadline == clock.now() + timedelta(seconds=30)
    clock.advance(seconds=3)
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=1)
    await chat.ok("alice", "undo")  # White's running second is spent; both first moves go back
    replies = await chat.ok("bob", "accept")
    assert replies[0].game is not None and replies[0].game.ply == 0
    assert replies[0].game.clocks == (176_000, 176_000, None)


async def test_resigning_stops_the_clocks(chat, clock) -> None:
    await live_game(chat)
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "b6b5")
    clock.advance(seconds=10)
    replies = await chat.ok("alice", "resign")
    assert replies[0].game is not None and replies[0].game.clocks == (170_000, 180_000, None)


@pytest.mark.parametrize(("language", "words"), [
    ("en", "3 min + 2 s"), ("th", "3 นาที + 2 วินาที"), ("ja", "3分+2秒"), ("km", "3 នាទី + 2 វិនាទី"),
])
async def test_a_live_challenge_names_its_clock_in_the_chat_s_language(chat, language, words) -> None:
    await chat.ok("carol", f"lang {language}")
    replies = await chat.ok("alice", "new @bob 3+2", "bob")
    assert words in replies[0].text
    started = await chat.ok("bob", "accept")
    assert "3:00" in started[0].text and "30" in started[0].text


async def test_top_live_in_thai(chat) -> None:
    replies = await chat.ok("carol", "top หมากรุก สด")
    assert replies[0].text == CATALOG.text("en", "top.empty.live", variant="Makruk")


class SlowMover(RandomMover):
    """A random mover that thinks past its clock from its ``slow_from``-th move on, and notes
    the thinking time each position allowed it."""

    def __init__(self, clock, slow_from: int, seconds: float) -> None:
        super().__init__(seed=2)
        self.clock, self.slow_from, self.seconds = clock, slow_from, seconds
        self.allowed: list[float | None] = []

    async def best_move(self, position, *, level: int) -> str:
        self.allowed.append(position.seconds)
        if len(self.allowed) >= self.slow_from:
            self.clock.advance(seconds=self.seconds)
        return await super().best_move(position, level=level)


async def test_the_bot_s_answer_after_its_flag_loses_on_time(storage, clock) -> None:
    engine = SlowMover(clock, slow_from=2, seconds=61)
    chat = Chat(GameService(storage, Settings(language="en"), clock=clock, engine=engine, render=no_image))
    await chat.ok("alice", "new bot 1 1+0")
    await chat.ok("alice", "e3e4")  # the bot's first move is in time
    replies = await chat.ok("alice", "a3a4")  # its second comes after its minute ran out
    assert replies[-1].game is not None and replies[-1].game.result == "1-0"
    assert replies[-1].game.reason == "timeout"
    game = await storage.last_game("console", "c1")
    assert game is not None and len(game.moves) == 3  # its late move was not played
    assert engine.allowed[0] == 2.0 and engine.allowed[1] is not None and engine.allowed[1] < 60


async def test_the_bot_s_first_move_too_late_aborts(storage, clock) -> None:
    engine = SlowMover(clock, slow_from=1, seconds=31)
    chat = Chat(GameService(storage, Settings(language="en"), clock=clock, engine=engine, render=no_image))
    replies = await chat.ok("alice", "new bot 1 black 3+2")
    assert replies[-1].game is not None and replies[-1].game.status == "aborted"


async def test_the_built_in_engine_thinks_no_longer_than_the_clock_allows() -> None:
    from bot.engines import BuiltinEngine
    from bot.engines.base import EnginePosition
    from makruk import starting_fen

    engine = BuiltinEngine()
    asked: list[float | None] = []

    async def think(position, *, depth=None, seconds=None, nodes=None, all_root_scores=False):
        asked.append(seconds)
        raise RuntimeError("no search here")  # it answers anyway, by a quick move

    engine.think = think  # type: ignore[method-assign]
    position = EnginePosition(starting_fen("makruk"), ())
    await engine.best_move(position, level=4)
    await engine.best_move(EnginePosition(starting_fen("makruk"), (), seconds=0.3), level=4)
    assert asked == [2.5, 0.3]


async def test_a_deadline_left_unhandled_does_not_keep_the_scheduler_awake(chat, service, clock) -> None:
    wake = service.wake("console")
    await live_game(chat)
    clock.advance(seconds=29)
    assert await wake.seconds_to_next() == 1
    clock.advance(seconds=5)  # due 4 s ago and still there (another process has it, say)
    assert await wake.seconds_to_next() is None  # the full rounds look at it; no nap of 0.1 s after 0.1 s


async def test_help_tells_how_to_play_live(chat) -> None:
    replies = await chat.ok("carol", "help")
    assert "new @name 3+2" in replies[0].text


async def test_the_channel_s_game_view_carries_its_clocks(chat, service, clock) -> None:
    await live_game(chat)
    view = await service.channel_game("console", "c1")
    assert view is not None and view.clocks == (180_000, 180_000, None)
    assert view.as_dict()["clocks"] == {"white_ms": 180_000, "black_ms": 180_000, "running": None}
