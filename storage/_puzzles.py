"""Puzzles, subscriptions, posts, attempts and streaks in SQLite (run on the worker thread)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any, Final

from ._outbox import insert_notices
from ._rows import (
    ATTEMPT_COLUMNS,
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
from ._sql import TEXT, encode_date, is_unique_violation, write_tx
from .errors import NotFound, PuzzleAlreadyPosted
from .records import (
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

_SEEN_IN_CHAT: Final = "puzzle_posts.platform, puzzle_posts.channel, puzzle_posts.puzzle_id"


def upsert_puzzles(conn: sqlite3.Connection, puzzles: Iterable[Puzzle]) -> int:
    rows = [puzzle_values(p) for p in puzzles]
    with write_tx(conn):
        conn.executemany(
            """INSERT INTO puzzles (id, fen, solution, rating, themes, source)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (id) DO UPDATE SET fen = excluded.fen,
                   solution = excluded.solution, rating = excluded.rating,
                   themes = excluded.themes, source = excluded.source""",
            rows,
        )
    return len(rows)


def get_puzzle(conn: sqlite3.Connection, puzzle_id: str) -> Puzzle:
    row = conn.execute(
        f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = ?", (puzzle_id,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    return puzzle_from_row(row)


def pick_puzzle(
    conn: sqlite3.Connection,
    platform: str,
    channel: str,
    min_rating: int | None,
    max_rating: int | None,
) -> Puzzle | None:
    row = conn.execute(
        f"""SELECT {PUZZLE_COLUMNS} FROM puzzles AS p
            WHERE (:low IS NULL OR rating >= :low) AND (:high IS NULL OR rating <= :high)
              AND NOT EXISTS (
                  SELECT 1 FROM puzzle_posts AS pp
                  WHERE pp.platform = :platform AND pp.channel = :channel
                    AND pp.puzzle_id = p.id)
            ORDER BY random() LIMIT 1""",
        {"low": min_rating, "high": max_rating, "platform": platform, "channel": channel},
    ).fetchone()
    return None if row is None else puzzle_from_row(row)


def subscribe(
    conn: sqlite3.Connection,
    platform: str,
    channel: str,
    local_time: str,
    timezone: str,
    language: str | None,
    now: str,
) -> Subscription:
    with write_tx(conn):
        row = conn.execute(
            f"""INSERT INTO subscriptions (platform, channel, local_time, timezone, language,
                    created)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (platform, channel) DO UPDATE SET
                    local_time = excluded.local_time, timezone = excluded.timezone,
                    language = excluded.language, active = 1
                RETURNING {SUBSCRIPTION_COLUMNS}""",
            (platform, channel, local_time, timezone, language, now),
        ).fetchall()[0]
    return subscription_from_row(row, TEXT)


def unsubscribe(conn: sqlite3.Connection, platform: str, channel: str) -> bool:
    cursor = conn.execute(
        "UPDATE subscriptions SET active = 0 WHERE platform = ? AND channel = ? AND active = 1",
        (platform, channel),
    )
    return cursor.rowcount == 1


def get_subscription(
    conn: sqlite3.Connection, platform: str, channel: str
) -> Subscription | None:
    row = conn.execute(
        f"""SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions
            WHERE platform = ? AND channel = ? AND active = 1""",
        (platform, channel),
    ).fetchone()
    return None if row is None else subscription_from_row(row, TEXT)


def subscriptions(conn: sqlite3.Connection) -> list[Subscription]:
    rows = conn.execute(
        f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE active = 1 ORDER BY id"
    ).fetchall()
    return [subscription_from_row(row, TEXT) for row in rows]


def record_post(
    conn: sqlite3.Connection,
    subscription_id: int,
    local_date: date,
    puzzle_id: str,
    notices: Sequence[NewNotice],
    now: str,
) -> PuzzlePost | None:
    day = encode_date(local_date)
    with write_tx(conn):
        chat = conn.execute(
            "SELECT platform, channel FROM subscriptions WHERE id = ?", (subscription_id,)
        ).fetchone()
        if chat is None:
            raise NotFound(f"no subscription {subscription_id}")
        # The day's UNIQUE (subscription_id, local_date) makes this a claim: one winner.
        rows = _insert_post(
            conn,
            """INSERT INTO puzzle_posts (platform, channel, puzzle_id, subscription_id,
                   local_date, posted)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (subscription_id, local_date) DO NOTHING""",
            (*chat, puzzle_id, subscription_id, day, now),
        )
        if not rows:
            return None
        conn.execute(
            """UPDATE subscriptions SET last_posted = max(coalesce(last_posted, ''), ?)
               WHERE id = ?""",
            (day, subscription_id),
        )
        insert_notices(conn, notices, now)
        return post_from_row(rows[0], TEXT)


def record_extra_post(
    conn: sqlite3.Connection, platform: str, channel: str, puzzle_id: str, now: str
) -> PuzzlePost:
    with write_tx(conn):
        rows = _insert_post(
            conn,
            """INSERT INTO puzzle_posts (platform, channel, puzzle_id, posted)
               VALUES (?, ?, ?, ?)""",
            (platform, channel, puzzle_id, now),
        )
    return post_from_row(rows[0], TEXT)


def get_post(conn: sqlite3.Connection, post_id: int) -> PuzzlePost:
    row = conn.execute(f"SELECT {POST_COLUMNS} FROM puzzle_posts WHERE id = ?", (post_id,))
    found = row.fetchone()
    if found is None:
        raise NotFound(f"no puzzle post {post_id}")
    return post_from_row(found, TEXT)


def latest_post(conn: sqlite3.Connection, platform: str, channel: str) -> PuzzlePost | None:
    row = conn.execute(
        f"""SELECT {POST_COLUMNS} FROM puzzle_posts WHERE platform = ? AND channel = ?
            ORDER BY id DESC LIMIT 1""",
        (platform, channel),
    ).fetchone()
    return None if row is None else post_from_row(row, TEXT)


def posted_puzzle_ids(conn: sqlite3.Connection, platform: str, channel: str) -> set[str]:
    rows = conn.execute(
        "SELECT puzzle_id FROM puzzle_posts WHERE platform = ? AND channel = ?",
        (platform, channel),
    )
    return {puzzle_id for (puzzle_id,) in rows}


def record_attempt(
    conn: sqlite3.Connection, post_id: int, player_id: int, solved: bool, now: str
) -> PuzzleAttempt:
    with write_tx(conn):
        post = get_post(conn, post_id)
        before = get_attempt(conn, post_id, player_id)
        if before is not None and before.solved:
            return before  # tries after solving do not count
        row = conn.execute(
            f"""INSERT INTO puzzle_attempts (post_id, player_id, tries, solved, first_at,
                    solved_at)
                VALUES (?, ?, 1, ?, ?, ?)
                ON CONFLICT (post_id, player_id) DO UPDATE SET tries = tries + 1,
                    solved = excluded.solved, solved_at = excluded.solved_at
                RETURNING {ATTEMPT_COLUMNS}""",
            (post_id, player_id, int(solved), now, now if solved else None),
        ).fetchall()[0]
        if solved and post.local_date is not None:
            _extend_streak(conn, post, post.local_date, player_id)
    return attempt_from_row(row, TEXT)


def get_attempt(conn: sqlite3.Connection, post_id: int, player_id: int) -> PuzzleAttempt | None:
    row = conn.execute(
        f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE post_id = ? AND player_id = ?",
        (post_id, player_id),
    ).fetchone()
    return None if row is None else attempt_from_row(row, TEXT)


def get_streak(
    conn: sqlite3.Connection, platform: Platform, channel: str, player_id: int
) -> Streak:
    row = conn.execute(
        f"""SELECT {STREAK_COLUMNS} FROM streaks
            WHERE platform = ? AND channel = ? AND player_id = ?""",
        (platform, channel, player_id),
    ).fetchone()
    return streak_from_row(platform, channel, player_id, row, TEXT)


def puzzle_leaderboard(
    conn: sqlite3.Connection,
    platform: str,
    channel: str,
    local_date: date | None,
    limit: int,
) -> list[PuzzleScore]:
    rows = conn.execute(
        """SELECT a.player_id, pl.display_name, sum(a.solved), sum(a.tries)
           FROM puzzle_attempts AS a
           JOIN puzzle_posts AS pp ON pp.id = a.post_id
           JOIN players AS pl ON pl.id = a.player_id
           WHERE pp.platform = :platform AND pp.channel = :channel
             AND (:day IS NULL OR pp.local_date = :day)
           GROUP BY a.player_id
           HAVING sum(a.solved) > 0
           ORDER BY sum(a.solved) DESC, sum(a.tries), min(a.solved_at), a.player_id
           LIMIT :limit""",
        {
            "platform": platform,
            "channel": channel,
            "day": None if local_date is None else encode_date(local_date),
            "limit": limit,
        },
    ).fetchall()
    return [PuzzleScore(*row) for row in rows]


def recent_posts(
    conn: sqlite3.Connection, platform: str, channel: str, limit: int
) -> list[PuzzlePost]:
    rows = conn.execute(
        f"""SELECT {POST_COLUMNS} FROM puzzle_posts WHERE platform = ? AND channel = ?
            ORDER BY id DESC LIMIT ?""",
        (platform, channel, limit),
    ).fetchall()
    return [post_from_row(row, TEXT) for row in rows]


def get_progress(conn: sqlite3.Connection, post_id: int, player_id: int) -> PuzzleProgress | None:
    row = conn.execute(
        f"SELECT {PROGRESS_COLUMNS} FROM puzzle_progress WHERE post_id = ? AND player_id = ?",
        (post_id, player_id),
    ).fetchone()
    return None if row is None else progress_from_row(row, TEXT)


def save_progress(
    conn: sqlite3.Connection, post_id: int, player_id: int, ply: int, gave_up: bool, now: str
) -> PuzzleProgress:
    with write_tx(conn):
        get_post(conn, post_id)  # NotFound rather than a foreign-key error
        row = conn.execute(
            f"""INSERT INTO puzzle_progress (post_id, player_id, ply, gave_up, updated)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (post_id, player_id) DO UPDATE SET ply = excluded.ply,
                    gave_up = excluded.gave_up, updated = excluded.updated
                RETURNING {PROGRESS_COLUMNS}""",
            (post_id, player_id, ply, int(gave_up), now),
        ).fetchall()[0]
    return progress_from_row(row, TEXT)


def _insert_post(
    conn: sqlite3.Connection, sql: str, params: Sequence[Any]
) -> list[Any]:
    try:
        return conn.execute(f"{sql} RETURNING {POST_COLUMNS}", params).fetchall()
    except sqlite3.IntegrityError as error:
        if is_unique_violation(error, _SEEN_IN_CHAT):
            raise PuzzleAlreadyPosted(
                f"puzzle {params[2]!r} was already shown in {params[0]} chat {params[1]!r}"
            ) from error
        raise


def _extend_streak(conn: sqlite3.Connection, post: PuzzlePost, day: date, player_id: int) -> None:
    streak = extended_streak(get_streak(conn, post.platform, post.channel, player_id), day)
    if streak is None:
        return
    conn.execute(
        """INSERT INTO streaks (platform, channel, player_id, current, best, last_date)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (platform, channel, player_id) DO UPDATE SET
               current = excluded.current, best = excluded.best,
               last_date = excluded.last_date""",
        (streak.platform, streak.channel, player_id, streak.current, streak.best,
         encode_date(day)),
    )
