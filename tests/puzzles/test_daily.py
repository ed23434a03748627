"""Daily posts with a fake clock: once per subscription and local day, across restarts and
time zones; missed posts at start-up; difficulty through the week; streaks."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from storage import open_storage

from .support import BANDS, MATE2, Chat, band_puzzles, daily_posts, make_services


@pytest.fixture
async def services(storage, clock):
    """Here the bank holds copies of one mate in 2 in every rating band (see each test)."""
    return make_services(storage, clock)


async def subscribe(games, platform, channel, *args):
    replies = await Chat(games, channel, platform).ok("admin", " ".join(("subscribe", *args)))
    return replies[0]


async def test_one_post_per_day_also_across_restarts(games, puzzles, storage, clock, database):
    await storage.upsert_puzzles(band_puzzles())
    await subscribe(games, "discord", "chan", "08:00", "Asia/Bangkok")
    clock.set(datetime(2026, 11, 30, 0, 59, tzinfo=UTC))  # 07:59 in Bangkok
    assert await daily_posts(puzzles) == []
    clock.advance(minutes=1)
    notices = await daily_posts(puzzles)
    assert [(n.platform, n.channel, n.reply.kind) for n in notices] == [("discord", "chan", "puzzle")]
    assert notices[0].reply.text.startswith("Daily puzzle, Monday")
    assert await daily_posts(puzzles) == []
    clock.advance(hours=10)
    # A restart: new storage and service objects on the same file post nothing more today.
    async with await open_storage(database, clock=clock.now) as again:
        _, restarted = make_services(again, clock)
        assert await daily_posts(restarted) == []
        clock.set(datetime(2026, 12, 1, 1, 0, tzinfo=UTC))
        notices = await daily_posts(restarted)
        assert len(notices) == 1 and "Tuesday" in notices[0].reply.text
        assert await daily_posts(restarted) == []
    assert await daily_posts(puzzles) == []  # the old objects agree: the day is taken
    seen = await storage.posted_puzzle_ids("discord", "chan")
    assert len(seen) == 2


async def test_time_zones_around_local_midnight(games, puzzles, storage, clock):
    await storage.upsert_puzzles(band_puzzles())
    await subscribe(games, "line", "bangkok", "00:00", "Asia/Bangkok")  # 17:00 UTC the day before
    await subscribe(games, "line", "newyork", "00:00", "America/New_York")  # 05:00 UTC (EST)
    clock.set(datetime(2026, 11, 30, 16, 59, tzinfo=UTC))  # Bangkok: Monday 23:59; New York: Monday 11:59
    posted = {n.channel for n in await daily_posts(puzzles)}
    assert posted == {"bangkok", "newyork"}
    clock.advance(minutes=1)  # Bangkok: Tuesday 00:00
    assert {n.channel for n in await daily_posts(puzzles)} == {"bangkok"}
    clock.set(datetime(2026, 12, 1, 4, 59, tzinfo=UTC))  # New York: Monday 23:59
    assert await daily_posts(puzzles) == []
    clock.advance(minutes=1)  # New York: Tuesday 00:00
    notices = await daily_posts(puzzles)
    assert [n.channel for n in notices] == ["newyork"] and "Tuesday" in notices[0].reply.text
    for channel, days in (("bangkok", [date(2026, 11, 30), date(2026, 12, 1)]),
                          ("newyork", [date(2026, 11, 30), date(2026, 12, 1)])):
        posts = await storage.recent_posts("line", channel)
        assert sorted(p.local_date for p in posts) == days


async def test_a_missed_post_goes_out_at_start_up_the_same_day(storage, clock, database):
    await storage.upsert_puzzles(band_puzzles())
    await storage.subscribe("line", "C1", time(8, 0), "Asia/Bangkok", "en")
    await storage.subscribe("line", "C2", time(8, 0), "Asia/Bangkok", "en")
    # The bot was down from Sunday until Monday 15:00 in Bangkok: Sunday's post is gone, Monday's goes out.
    clock.set(datetime(2026, 11, 30, 8, 0, tzinfo=UTC))
    _, puzzles = make_services(storage, clock)
    notices = await daily_posts(puzzles)
    assert sorted(n.channel for n in notices) == ["C1", "C2"]  # one push per subscribed LINE chat
    assert all("Monday" in n.reply.text for n in notices)
    assert await daily_posts(puzzles) == []


async def test_difficulty_rises_through_the_week_and_no_puzzle_repeats(games, puzzles, storage, clock):
    await storage.upsert_puzzles(band_puzzles(per_band=2))
    await subscribe(games, "console", "c", "06:00", "UTC")
    ratings = []
    for day in range(14):
        clock.set(datetime(2026, 11, 30, 7, 0, tzinfo=UTC) + timedelta(days=day))
        [_notice] = await daily_posts(puzzles)  # exactly one post a day
        post = await storage.latest_post("console", "c")
        ratings.append((await storage.get_puzzle(post.puzzle_id)).rating)
    for day, rating in enumerate(ratings):
        low, high = BANDS[day % 7]
        assert low <= rating <= high, (day, rating)
    assert len(await storage.posted_puzzle_ids("console", "c")) == 14


async def test_a_missing_band_falls_back_to_the_nearest_easier_one(games, puzzles, storage, clock):
    await storage.upsert_puzzles([p for p in band_puzzles() if not p.id.startswith("band6")])
    await subscribe(games, "console", "c", "06:00", "UTC")
    clock.set(datetime(2026, 12, 6, 7, 0, tzinfo=UTC))  # a Sunday
    await daily_posts(puzzles)
    post = await storage.latest_post("console", "c")
    low, high = BANDS[5]
    assert low <= (await storage.get_puzzle(post.puzzle_id)).rating <= high


async def test_the_next_post_reveals_the_previous_solution(games, puzzles, storage, clock):
    await storage.upsert_puzzles(band_puzzles())
    await subscribe(games, "console", "c", "06:00", "UTC")
    clock.set(datetime(2026, 11, 30, 7, 0, tzinfo=UTC))
    [first] = await daily_posts(puzzles)
    assert "Solution of the previous puzzle" not in first.reply.text
    clock.advance(days=1)
    [second] = await daily_posts(puzzles)
    assert "Solution of the previous puzzle: 61... Rh2+ 62. Kg3 Rg1#" in second.reply.text


async def test_subscription_commands(games, storage):
    chat = Chat(games, "chan", "discord")
    reply = await subscribe(games, "discord", "chan")
    assert reply.text.startswith("Daily puzzle every day at 08:00 (Asia/Bangkok)")
    reply = await subscribe(games, "discord", "chan", "america/new_york", "7:30")
    sub = await storage.get_subscription("discord", "chan")
    assert (sub.local_time, sub.timezone, sub.language) == (time(7, 30), "America/New_York", "en")
    await chat.refused("admin", "subscribe Mars/Olympus", "bad_timezone")
    await chat.refused("admin", "subscribe 25:00", "bad_subscription")
    await chat.refused("admin", "subscribe tomorrow", "bad_subscription")
    assert (await chat.ok("admin", "unsubscribe"))[0].text == "The daily puzzle is stopped."
    await chat.refused("admin", "unsubscribe", "not_subscribed")
    assert (await chat.ok("admin", "สมัครโจทย์ 09:15"))[0].kind == "puzzle_subscription"
    assert (await chat.ok("admin", "購読停止"))[0].kind == "puzzle_subscription"


async def test_streaks_count_consecutive_local_days_and_not_extras(games, puzzles, storage, clock):
    await storage.upsert_puzzles([MATE2, *band_puzzles()])
    await subscribe(games, "line", "g", "06:00", "Asia/Bangkok")
    chat = Chat(games, "g", "line")

    async def solve_today():
        await daily_posts(puzzles)
        await chat.ok("alice", "Rh2")
        return (await chat.ok("alice", "Rg1"))[0].text

    clock.set(datetime(2026, 11, 30, 2, 0, tzinfo=UTC))
    assert "Daily streak: 1 (best 1)" in await solve_today()
    clock.advance(days=1)
    assert "Daily streak: 2 (best 2)" in await solve_today()
    # An extra puzzle the same day changes nothing.
    await chat.ok("alice", "puzzle")
    extra = await chat.ok("alice", "giveup")
    assert extra[0].kind == "puzzle_solution"
    clock.advance(days=1)
    assert "Daily streak: 3 (best 3)" in await solve_today()
    clock.advance(days=2)  # a missed day resets
    assert (await chat.ok("alice", "streak"))[0].text == "alice: daily streak 0 (best 3)."
    assert "Daily streak: 1 (best 3)" in await solve_today()
    # Local days: Friday 23:30 UTC is Saturday 06:30 in Bangkok: the next day's post, solved.
    clock.set(datetime(2026, 12, 4, 23, 30, tzinfo=UTC))
    assert "Daily streak: 2 (best 3)" in await solve_today()


async def test_the_console_scheduler_runs_the_daily_job(games, storage, clock):
    import io

    from bot.adapters.console import ConsoleChat

    await storage.upsert_puzzles([MATE2])
    await storage.subscribe("console", "console", time(0, 0), "UTC", "en")
    out = io.StringIO()

    async def no_lines():
        return
        yield

    await ConsoleChat(games, out=out).run(no_lines())
    assert "bot: Daily puzzle, Monday" in out.getvalue()


async def test_each_door_claims_only_its_own_platforms_posts(games, puzzles, storage, clock):
    await storage.upsert_puzzles(band_puzzles())
    await subscribe(games, "discord", "chan", "08:00", "Asia/Bangkok")
    await subscribe(games, "line", "group:G1", "08:00", "Asia/Bangkok")
    clock.set(datetime(2026, 11, 30, 1, 0, tzinfo=UTC))  # 08:00 in Bangkok
    notices = await daily_posts(puzzles, "line")
    assert [(n.platform, n.channel) for n in notices] == [("line", "group:G1")]
    notices = await daily_posts(puzzles, "discord")
    assert [(n.platform, n.channel) for n in notices] == [("discord", "chan")]
