"""Puzzles, subscriptions, posts, attempts and streaks in PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time
from typing import Any, Final

import asyncpg

from .._rows import (
    ATTEMPT_COLUMNS,
    NATIVE,
    POST_COLUMNS,
    PROGRESS_COLUMNS,
    PUZZLE_COLUMNS,
    STREAK_COLUMNS,
    SUBSCRIPTION_COLUMNS,
    attempt_from_row,
    extended_streak,
    post_from_row,
    progress_from_row,
    puzzle_from_row,
    puzzle_values,
    streak_from_row,
    subscription_from_row,
)
from ..errors import NotFound, PuzzleAlreadyPosted
from ..records import (
    NewNotice,
    Platform,
    Puzzle,
    PuzzleAttempt,
    PuzzlePost,
    PuzzleProgress,
    PuzzleScore,
    Streak,
    Subscription,
)
from ._outbox import add_notices
from ._sql import Connection

_SEEN_IN_CHAT: Final = "puzzle_posts_seen_in_chat"


async def upsert_puzzles(conn: Connection, puzzles: Iterable[Puzzle]) -> int:
    rows = [puzzle_values(p) for p in puzzles]
    async with conn.transaction():
        await conn.executemany(
            """INSERT INTO puzzles (id, fen, solution, rating, themes, source)
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (id) DO UPDATE SET fen = excluded.fen,
                   solution = excluded.solution, rating = excluded.rating,
                   themes = excluded.themes, source = excluded.source""",
            rows,
        )
    return len(rows)


async def get_puzzle(conn: Connection, puzzle_id: str) -> Puzzle:
    row = await conn.fetchrow(f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1", puzzle_id)
    if row is None:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    return puzzle_from_row(row)


async def pick_puzzle(
    conn: Connection, platform: str, channel: str, min_rating: int | None, max_rating: int | None
) -> Puzzle | None:
    row = await conn.fetchrow(
        f"""SELECT {PUZZLE_COLUMNS} FROM puzzles AS p
            WHERE ($3::integer IS NULL OR rating >= $3) AND ($4::integer IS NULL OR rating <= $4)
              AND NOT EXISTS (
                  SELECT 1 FROM puzzle_posts AS pp
                  WHERE pp.platform = $1 AND pp.channel = $2 AND pp.puzzle_id = p.id)
            ORDER BY random() LIMIT 1""",
        platform, channel, min_rating, max_rating,
    )
    return None if row is None else puzzle_from_row(row)


async def subscribe(
    conn: Connection,
    platform: str,
    channel: str,
    local_time: time,
    timezone: str,
    language: str | None,
    now: datetime,
) -> Subscription:
    row = await conn.fetchrow(
        f"""INSERT INTO subscriptions (platform, channel, local_time, timezone, language, created)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (platform, channel) DO UPDATE SET
                local_time = excluded.local_time, timezone = excluded.timezone,
                language = excluded.language, active = TRUE
            RETURNING {SUBSCRIPTION_COLUMNS}""",
        # Hours and minutes, as SQLite keeps them ("HH:MM").
        platform, channel, local_time.replace(second=0, microsecond=0, tzinfo=None), timezone,
        language, now,
    )
    return subscription_from_row(row, NATIVE)


async def unsubscribe(conn: Connection, platform: str, channel: str) -> bool:
    stopped = await conn.fetchval(
        """UPDATE subscriptions SET active = FALSE
           WHERE platform = $1 AND channel = $2 AND active RETURNING id""",
        platform, channel,
    )
    return stopped is not None


async def get_subscription(conn: Connection, platform: str, channel: str) -> Subscription | None:
    row = await conn.fetchrow(
        f"""SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions
            WHERE platform = $1 AND channel = $2 AND active""",
        platform, channel,
    )
    return None if row is None else subscription_from_row(row, NATIVE)


async def subscriptions(conn: Connection) -> list[Subscription]:
    rows = await conn.fetch(
        f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE active ORDER BY id"
    )
    return [subscription_from_row(row, NATIVE) for row in rows]


async def record_post(
    conn: Connection,
    subscription_id: int,
    local_date: date,
    puzzle_id: str,
    notices: Sequence[NewNotice],
    now: datetime,
) -> PuzzlePost | None:
    async with conn.transaction():
        # The subscription's row lock puts two schedulers' claims one after the other. Without
        # it, two inserts racing for the day may both conflict, and PostgreSQL may report the
        # chat's seen-puzzle index rather than the day's: the loser then heard "puzzle already
        # shown" instead of "today's is posted" (one run in a few dozen of the test below).
        chat = await conn.fetchrow(
            "SELECT platform, channel FROM subscriptions WHERE id = $1 FOR UPDATE", subscription_id
        )
        if chat is None:
            raise NotFound(f"no subscription {subscription_id}")
        # The day's UNIQUE (subscription_id, local_date) makes this a claim: one winner.
        row = await _insert_post(
            conn,
            """INSERT INTO puzzle_posts (platform, channel, puzzle_id, subscription_id,
                   local_date, posted)
               VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (subscription_id, local_date) DO NOTHING""",
            *chat, puzzle_id, subscription_id, local_date, now,
        )
        if row is None:
            return None
        await conn.execute(
            "UPDATE subscriptions SET last_posted = greatest(last_posted, $2) WHERE id = $1",
            subscription_id, local_date,
        )
        await add_notices(conn, notices, now)
        return post_from_row(row, NATIVE)


async def record_extra_post(
    conn: Connection, platform: str, channel: str, puzzle_id: str, now: datetime
) -> PuzzlePost:
    row = await _insert_post(
        conn,
        "INSERT INTO puzzle_posts (platform, channel, puzzle_id, posted) VALUES ($1, $2, $3, $4)",
        platform, channel, puzzle_id, now,
    )
    return post_from_row(row, NATIVE)


async def get_post(conn: Connection, post_id: int) -> PuzzlePost:
    row = await conn.fetchrow(f"SELECT {POST_COLUMNS} FROM puzzle_posts WHERE id = $1", post_id)
    if row is None:
        raise NotFound(f"no puzzle post {post_id}")
    return post_from_row(row, NATIVE)


async def latest_post(conn: Connection, platform: str, channel: str) -> PuzzlePost | None:
    row = await conn.fetchrow(
        f"""SELECT {POST_COLUMNS} FROM puzzle_posts WHERE platform = $1 AND channel = $2
            ORDER BY id DESC LIMIT 1""",
        platform, channel,
    )
    return None if row is None else post_from_row(row, NATIVE)


async def posted_puzzle_ids(conn: Connection, platform: str, channel: str) -> set[str]:
    rows = await conn.fetch(
        "SELECT puzzle_id FROM puzzle_posts WHERE platform = $1 AND channel = $2", platform, channel
    )
    return {puzzle_id for (puzzle_id,) in rows}


async def record_attempt(
    conn: Connection, post_id: int, player_id: int, solved: bool, now: datetime
) -> PuzzleAttempt:
    async with conn.transaction():
        # The player's row lock puts their tries one after another, as SQLite's one writer
        # does: a try never misses a solve (or a streak day) committed just before it.
        await conn.execute("SELECT FROM players WHERE id = $1 FOR NO KEY UPDATE", player_id)
        post = await get_post(conn, post_id)
        before = await get_attempt(conn, post_id, player_id)
        if before is not None and before.solved:
            return before  # tries after solving do not count
        row = await conn.fetchrow(
            f"""INSERT INTO puzzle_attempts (post_id, player_id, tries, solved, first_at,
                    solved_at)
                VALUES ($1, $2, 1, $3, $4, $5)
                ON CONFLICT (post_id, player_id) DO UPDATE SET
                    tries = puzzle_attempts.tries + 1,
                    solved = excluded.solved, solved_at = excluded.solved_at
                RETURNING {ATTEMPT_COLUMNS}""",
            post_id, player_id, solved, now, now if solved else None,
        )
        if solved and post.local_date is not None:
            await _extend_streak(conn, post, post.local_date, player_id)
    return attempt_from_row(row, NATIVE)


async def get_attempt(conn: Connection, post_id: int, player_id: int) -> PuzzleAttempt | None:
    row = await conn.fetchrow(
        f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE post_id = $1 AND player_id = $2",
        post_id, player_id,
    )
    return None if row is None else attempt_from_row(row, NATIVE)


async def get_streak(conn: Connection, platform: Platform, channel: str, player_id: int) -> Streak:
    row = await conn.fetchrow(
        f"""SELECT {STREAK_COLUMNS} FROM streaks
            WHERE platform = $1 AND channel = $2 AND player_id = $3""",
        platform, channel, player_id,
    )
    return streak_from_row(platform, channel, player_id, row, NATIVE)


async def puzzle_leaderboard(
    conn: Connection, platform: str, channel: str, local_date: date | None, limit: int
) -> list[PuzzleScore]:
    rows = await conn.fetch(
        """SELECT a.player_id, pl.display_name, count(*) FILTER (WHERE a.solved), sum(a.tries)
           FROM puzzle_attempts AS a
           JOIN puzzle_posts AS pp ON pp.id = a.post_id
           JOIN players AS pl ON pl.id = a.player_id
           WHERE pp.platform = $1 AND pp.channel = $2
             AND ($3::date IS NULL OR pp.local_date = $3)
           GROUP BY a.player_id, pl.display_name
           HAVING bool_or(a.solved)
           ORDER BY count(*) FILTER (WHERE a.solved) DESC, sum(a.tries), min(a.solved_at),
                    a.player_id
           LIMIT $4""",
        platform, channel, local_date, limit,
    )
    return [PuzzleScore(player_id, name, solved, tries) for player_id, name, solved, tries in rows]


async def recent_posts(conn: Connection, platform: str, channel: str, limit: int) -> list[PuzzlePost]:
    rows = await conn.fetch(
        f"""SELECT {POST_COLUMNS} FROM puzzle_posts WHERE platform = $1 AND channel = $2
            ORDER BY id DESC LIMIT $3""",
        platform, channel, limit,
    )
    return [post_from_row(row, NATIVE) for row in rows]


async def get_progress(conn: Connection, post_id: int, player_id: int) -> PuzzleProgress | None:
    row = await conn.fetchrow(
        f"SELECT {PROGRESS_COLUMNS} FROM puzzle_progress WHERE post_id = $1 AND player_id = $2",
        post_id, player_id,
    )
    return None if row is None else progress_from_row(row, NATIVE)


async def save_progress(
    conn: Connection, post_id: int, player_id: int, ply: int, gave_up: bool, now: datetime
) -> PuzzleProgress:
    async with conn.transaction():
        await get_post(conn, post_id)  # NotFound rather than a foreign-key error
        row = await conn.fetchrow(
            f"""INSERT INTO puzzle_progress (post_id, player_id, ply, gave_up, updated)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (post_id, player_id) DO UPDATE SET ply = excluded.ply,
                    gave_up = excluded.gave_up, updated = excluded.updated
                RETURNING {PROGRESS_COLUMNS}""",
            post_id, player_id, ply, gave_up, now,
        )
    return progress_from_row(row, NATIVE)


async def _insert_post(conn: Connection, sql: str, *params: Any) -> Any:
    """The post inserted (None if ON CONFLICT skipped it); PuzzleAlreadyPosted for a puzzle
    the chat has seen."""
    try:
        return await conn.fetchrow(f"{sql} RETURNING {POST_COLUMNS}", *params)
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name == _SEEN_IN_CHAT:
            raise PuzzleAlreadyPosted(
                f"puzzle {params[2]!r} was already shown in {params[0]} chat {params[1]!r}"
            ) from error
        raise


async def _extend_streak(conn: Connection, post: PuzzlePost, day: date, player_id: int) -> None:
    streak = extended_streak(await get_streak(conn, post.platform, post.channel, player_id), day)
    if streak is None:
        return
    await conn.execute(
        """INSERT INTO streaks (platform, channel, player_id, current, best, last_date)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (platform, channel, player_id) DO UPDATE SET
               current = excluded.current, best = excluded.best,
               last_date = excluded.last_date""",
        streak.platform, streak.channel, player_id, streak.current, streak.best, day,
    )
