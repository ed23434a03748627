"""Puzzles: the library, daily subscriptions and posts, attempts, streaks and leaderboards."""

from __future__ import annotations

import asyncio
from datetime import date, time, timedelta

import pytest

from storage import (
    NotFound,
    Player,
    Puzzle,
    PuzzleAlreadyPosted,
    Storage,
    StorageError,
    Subscription,
    open_storage,
)

from .storage_helpers import FakeClock

DAY = date(2026, 11, 30)
PUZZLES = [
    Puzzle("p1", "8/8/8/8/8/8/8/8 w 0 1", ("e3e4", "d6d5"), 1200, ("mate", "short"), "test"),
    Puzzle("p2", "8/8/8/8/8/8/8/8 b 0 1", ("d6d5",), 1500),
    Puzzle("p3", "8/8/8/8/8/8/8/8 w 0 1", ("a3a4", "h6h5", "a4a5"), 1900, ("long",)),
]


@pytest.fixture
async def library(storage: Storage) -> list[Puzzle]:
    assert await storage.upsert_puzzles(PUZZLES) == 3
    return PUZZLES


@pytest.fixture
async def daily(storage: Storage, library: list[Puzzle]) -> Subscription:
    return await storage.subscribe("line", "Cgroup", time(8, 30), "Asia/Bangkok", "th")


async def test_upsert_and_get_puzzles(storage: Storage, library: list[Puzzle]) -> None:
    assert await storage.get_puzzle("p1") == PUZZLES[0]
    assert await storage.get_puzzle("p2") == PUZZLES[1]
    fixed = Puzzle("p2", "8/8/8/8/8/8/8/8 b 0 1", ("d6d4",), 1550, ("fixed",))
    assert await storage.upsert_puzzles(iter([fixed])) == 1
    assert await storage.get_puzzle("p2") == fixed
    with pytest.raises(NotFound):
        await storage.get_puzzle("nope")


async def test_shipping_a_bank_retires_the_stored_puzzles_it_no_longer_holds(
    storage: Storage, daily: Subscription
) -> None:
    post = await storage.record_post(daily.id, DAY, "p1")
    assert post is not None
    assert await storage.ship_puzzles([PUZZLES[1]]) == 2
    # Retired puzzles stay readable (a post names p1, and it can still be answered) ...
    assert await storage.get_puzzle("p1") == PUZZLES[0]
    assert (await storage.get_post(post.id)).puzzle_id == "p1"
    # ... but nobody is served them again: not the daily post, not training.
    for _ in range(5):
        assert await storage.pick_puzzle("discord", "42") == PUZZLES[1]
    found = await storage.puzzle_candidates(None, "discord", "42", 1900, fresh=False, limit=10)
    assert [c.puzzle.id for c in found] == ["p2"]
    assert await storage.ship_puzzles([PUZZLES[1]]) == 0  # nothing more to retire
    # A retired puzzle shipped again is served again.
    assert await storage.ship_puzzles(PUZZLES) == 0
    found = await storage.puzzle_candidates(None, "discord", "42", 1900, fresh=False, limit=10)
    assert [c.puzzle.id for c in found] == ["p3", "p2", "p1"]


async def test_the_daily_pick_goes_round_the_kinds_of_puzzle_while_the_band_allows(storage: Storage) -> None:
    fen = PUZZLES[0].fen
    races = [Puzzle(f"race{i}", fen, ("a1a2",), 1000, ("mate", "countingRace", "endgame")) for i in range(6)]
    others = [Puzzle("mate1", fen, ("a1a2",), 1000, ("mate", "mateIn2")),
              Puzzle("gain1", fen, ("a1a2",), 1000, ("advantage",))]
    await storage.upsert_puzzles([*races, *others])
    await storage.record_extra_post("discord", "7", "race0")
    kinds = []
    for _ in range(5):
        picked = await storage.pick_puzzle("discord", "7")
        assert picked is not None
        await storage.record_extra_post("discord", "7", picked.id)
        kinds.append("race" if "countingRace" in picked.themes else picked.id)
    # The kinds go round, the one shown least lately first (never: before all); then races only.
    assert {kinds[0], kinds[1]} == {"mate1", "gain1"} and kinds[2:] == ["race", "race", "race"]


async def test_pick_puzzle_skips_seen_ones_and_honours_ratings(
    storage: Storage, daily: Subscription
) -> None:
    assert (await storage.pick_puzzle("line", "Cgroup", min_rating=1800)) == PUZZLES[2]
    assert (await storage.pick_puzzle("line", "Cgroup", max_rating=1300)) == PUZZLES[0]
    assert await storage.pick_puzzle("line", "Cgroup", min_rating=1300, max_rating=1400) is None
    await storage.record_post(daily.id, DAY, "p1")
    await storage.record_extra_post("line", "Cgroup", "p3")
    for _ in range(5):
        assert await storage.pick_puzzle("line", "Cgroup") == PUZZLES[1]
    await storage.record_extra_post("line", "Cgroup", "p2")
    assert await storage.pick_puzzle("line", "Cgroup") is None
    assert await storage.pick_puzzle("line", "Cother") is not None


async def test_subscribe_change_unsubscribe(storage: Storage, clock: FakeClock) -> None:
    sub = await storage.subscribe("discord", "chan-1", time(7, 0), "Asia/Tokyo", "ja")
    assert (sub.local_time, sub.timezone, sub.language, sub.last_posted) == (
        time(7, 0), "Asia/Tokyo", "ja", None,
    )
    assert sub.created == clock.now
    changed = await storage.subscribe("discord", "chan-1", time(21, 15), "Asia/Bangkok")
    assert changed.id == sub.id and changed.local_time == time(21, 15)
    assert changed.language is None
    await storage.subscribe("line", "Cgroup", time(8, 0), "Asia/Bangkok", "th")
    assert [s.channel for s in await storage.subscriptions()] == ["chan-1", "Cgroup"]
    assert await storage.get_subscription("discord", "chan-1") == changed

    assert await storage.unsubscribe("discord", "chan-1") is True
    assert await storage.unsubscribe("discord", "chan-1") is False
    assert await storage.get_subscription("discord", "chan-1") is None
    assert [s.channel for s in await storage.subscriptions()] == ["Cgroup"]
    again = await storage.subscribe("discord", "chan-1", time(7, 0), "Asia/Tokyo", "ja")
    assert again.id == sub.id  # the same row, so its posts still count


async def test_record_post_claims_each_day_once(
    storage: Storage, daily: Subscription, clock: FakeClock
) -> None:
    post = await storage.record_post(daily.id, DAY, "p1")
    assert post is not None
    assert (post.platform, post.channel, post.puzzle_id, post.subscription_id) == (
        "line", "Cgroup", "p1", daily.id,
    )
    assert (post.local_date, post.posted) == (DAY, clock.now)
    assert await storage.record_post(daily.id, DAY, "p2") is None
    sub = await storage.get_subscription("line", "Cgroup")
    assert sub is not None and sub.last_posted == DAY

    # Unsubscribing and coming back the same day does not give a second post.
    await storage.unsubscribe("line", "Cgroup")
    back = await storage.subscribe("line", "Cgroup", time(9, 0), "Asia/Bangkok", "th")
    assert await storage.record_post(back.id, DAY, "p2") is None

    tomorrow = await storage.record_post(daily.id, DAY + timedelta(days=1), "p2")
    assert tomorrow is not None
    sub = await storage.get_subscription("line", "Cgroup")
    assert sub is not None and sub.last_posted == DAY + timedelta(days=1)


async def test_a_chat_never_sees_a_puzzle_twice(
    storage: Storage, daily: Subscription
) -> None:
    await storage.record_post(daily.id, DAY, "p1")
    with pytest.raises(PuzzleAlreadyPosted):
        await storage.record_post(daily.id, DAY + timedelta(days=1), "p1")
    with pytest.raises(PuzzleAlreadyPosted):
        await storage.record_extra_post("line", "Cgroup", "p1")
    assert await storage.posted_puzzle_ids("line", "Cgroup") == {"p1"}
    await storage.record_extra_post("line", "Cother", "p1")  # another chat may see it


async def test_record_post_for_unknown_subscription_or_puzzle(
    storage: Storage, daily: Subscription
) -> None:
    with pytest.raises(NotFound):
        await storage.record_post(999, DAY, "p1")
    with pytest.raises(StorageError, match=r"(?i)foreign key"):
        await storage.record_post(daily.id, DAY, "no-such-puzzle")


async def test_two_schedulers_post_once(
    storage: Storage, daily: Subscription, database: str, clock: FakeClock
) -> None:
    async with await open_storage(database, clock=clock) as other:
        posts = await asyncio.gather(
            *((storage if i % 2 else other).record_post(daily.id, DAY, "p2") for i in range(10))
        )
    assert sum(post is not None for post in posts) == 1
    assert await storage.posted_puzzle_ids("line", "Cgroup") == {"p2"}


async def test_posts_get_and_latest(storage: Storage, daily: Subscription) -> None:
    assert await storage.latest_post("line", "Cgroup") is None
    first = await storage.record_post(daily.id, DAY, "p1")
    extra = await storage.record_extra_post("line", "Cgroup", "p2")
    assert first is not None and extra.subscription_id is None and extra.local_date is None
    assert await storage.get_post(first.id) == first
    assert await storage.latest_post("line", "Cgroup") == extra
    with pytest.raises(NotFound):
        await storage.get_post(999)


async def test_attempts_count_tries_until_solved(
    storage: Storage, daily: Subscription, alice: Player, clock: FakeClock
) -> None:
    post = await storage.record_post(daily.id, DAY, "p1")
    assert post is not None
    assert await storage.get_attempt(post.id, alice.id) is None
    first = await storage.record_attempt(post.id, alice.id, solved=False)
    assert (first.tries, first.solved, first.first_at, first.solved_at) == (
        1, False, clock.now, None,
    )
    clock.advance(40)
    solved = await storage.record_attempt(post.id, alice.id, solved=True)
    assert (solved.tries, solved.solved, solved.solved_at) == (2, True, clock.now)
    assert solved.first_at == first.first_at
    assert await storage.record_attempt(post.id, alice.id, solved=False) == solved
    assert await storage.get_attempt(post.id, alice.id) == solved
    with pytest.raises(NotFound):
        await storage.record_attempt(999, alice.id, solved=True)


async def test_streaks_follow_consecutive_daily_solves(
    storage: Storage, daily: Subscription, alice: Player
) -> None:
    more = [Puzzle(f"d{n}", "8/8/8/8/8/8/8/8 w 0 1", ("e3e4",)) for n in range(6)]
    await storage.upsert_puzzles(more)
    days = [DAY + timedelta(days=n) for n in range(6)]
    posts = [await storage.record_post(daily.id, d, p.id) for d, p in zip(days, more, strict=True)]
    assert all(post is not None for post in posts)

    async def solve(n: int) -> tuple[int, int]:
        post = posts[n]
        assert post is not None
        await storage.record_attempt(post.id, alice.id, solved=True)
        streak = await storage.get_streak("line", "Cgroup", alice.id)
        return streak.current, streak.best

    assert (await storage.get_streak("line", "Cgroup", alice.id)).current == 0
    assert await solve(0) == (1, 1)
    assert await solve(1) == (2, 2)
    assert await solve(2) == (3, 3)
    assert await solve(4) == (1, 3)  # day 3 skipped: a new streak
    assert await solve(3) == (1, 3)  # a late solve of an older puzzle changes nothing
    assert await solve(5) == (2, 3)
    streak = await storage.get_streak("line", "Cgroup", alice.id)
    assert streak.last_date == days[5]
    # On-demand puzzles and failed tries do not touch the streak.
    extra = await storage.record_extra_post("line", "Cgroup", "p3")
    await storage.record_attempt(extra.id, alice.id, solved=True)
    assert await storage.get_streak("line", "Cgroup", alice.id) == streak
    assert (await storage.get_streak("line", "Cother", alice.id)).best == 0


async def test_puzzle_leaderboards_daily_and_all_time(
    storage: Storage, daily: Subscription, alice: Player, bob: Player, clock: FakeClock
) -> None:
    carol = await storage.get_or_create_player("line", "U3", "Carol")
    today = await storage.record_post(daily.id, DAY, "p1")
    tomorrow = await storage.record_post(daily.id, DAY + timedelta(days=1), "p2")
    assert today is not None and tomorrow is not None
    # Today: Bob solves first try, Alice on the second, Carol fails.
    await storage.record_attempt(today.id, bob.id, solved=True)
    await storage.record_attempt(today.id, alice.id, solved=False)
    clock.advance(10)
    await storage.record_attempt(today.id, alice.id, solved=True)
    await storage.record_attempt(today.id, carol.id, solved=False)
    # Tomorrow only Alice solves.
    await storage.record_attempt(tomorrow.id, alice.id, solved=True)

    daily_board = await storage.puzzle_leaderboard("line", "Cgroup", local_date=DAY)
    assert [(s.display_name, s.solved, s.tries) for s in daily_board] == [
        ("Bob", 1, 1),
        ("Alice", 1, 2),
    ]
    all_time = await storage.puzzle_leaderboard("line", "Cgroup")
    assert [(s.player_id, s.solved, s.tries) for s in all_time] == [
        (alice.id, 2, 3),
        (bob.id, 1, 1),
    ]
    assert len(await storage.puzzle_leaderboard("line", "Cgroup", limit=1)) == 1
    assert await storage.puzzle_leaderboard("line", "Cother") == []
