"""Puzzles, daily subscriptions, posts, attempts, progress and streaks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time

from .._plan import Plan, count, lock, many, rows
from .._rows import (
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
from .outbox import insert_notices


def upsert_puzzles(puzzles: Sequence[Puzzle]) -> Plan[int]:
    yield many(
        """INSERT INTO puzzles (id, fen, solution, rating, themes, source, variant)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET fen = excluded.fen,
               solution = excluded.solution, rating = excluded.rating,
               themes = excluded.themes, source = excluded.source, variant = excluded.variant,
               retired = FALSE""",
        [puzzle_values(p) for p in puzzles],
    )
    return len(puzzles)


def ship_puzzles(puzzles: Sequence[Puzzle]) -> Plan[int]:
    """The shipped bank becomes what is served: its puzzles stored (served again if retired),
    every other stored puzzle retired. Returns how many were retired now."""
    yield from upsert_puzzles(puzzles)
    shipped = {p.id for p in puzzles}
    # In id order, so that processes starting together take the rows' locks in one order.
    served = yield rows("SELECT id FROM puzzles WHERE NOT retired ORDER BY id")
    gone = [(puzzle_id,) for puzzle_id, in served if puzzle_id not in shipped]
    if gone:
        yield many("UPDATE puzzles SET retired = TRUE WHERE id = ?", gone)
    return len(gone)


def get_puzzle(puzzle_id: str) -> Plan[Puzzle]:
    found = yield rows(f"SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = ?", puzzle_id)
    if not found:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    return puzzle_from_row(found[0])


# A puzzle's kind as the daily post varies it: a counting race (an ending), another mate, or a
# material puzzle. Most of the bank is counting races, which come fastest from self-play.
_KIND = """CASE WHEN (' ' || p.themes || ' ') LIKE '% countingRace %' THEN 'race'
                WHEN (' ' || p.themes || ' ') LIKE '% mate %' THEN 'mate' ELSE 'material' END"""


def pick_puzzle(platform: str, channel: str, min_rating: int | None, max_rating: int | None,
                variant: str = "makruk") -> Plan[Puzzle | None]:
    """An unseen puzzle of the band, at random among those of the kind the chat was shown least
    lately (never, first), so a chat's daily posts go round the kinds and are not all endings."""
    shown = yield rows(
        f"""SELECT {_KIND}, max(pp.id) FROM puzzle_posts AS pp JOIN puzzles AS p ON p.id = pp.puzzle_id
            WHERE pp.platform = ? AND pp.channel = ? GROUP BY {_KIND}""",
        platform, channel,
    )
    lately = dict(shown)
    bounds = [(bound, value) for bound, value in (("rating >= ?", min_rating), ("rating <= ?", max_rating))
              if value is not None]
    # The daily post stays Makruk's; a puzzle withheld after reports, or retired, is served to nobody.
    found = yield rows(
        f"""SELECT {PUZZLE_COLUMNS} FROM puzzles AS p
            WHERE {"".join(f"{bound} AND " for bound, _ in bounds)}p.variant = ? AND NOT p.withheld
                  AND NOT p.retired AND NOT EXISTS (
                  SELECT 1 FROM puzzle_posts AS pp
                  WHERE pp.platform = ? AND pp.channel = ? AND pp.puzzle_id = p.id)
            ORDER BY CASE {_KIND} WHEN 'race' THEN CAST(? AS BIGINT) WHEN 'mate' THEN CAST(? AS BIGINT)
                                   ELSE CAST(? AS BIGINT) END, random() LIMIT 1""",
        *(value for _, value in bounds), variant, platform, channel,
        *(lately.get(kind, 0) for kind in ("race", "mate", "material")),
    )
    return puzzle_from_row(found[0]) if found else None


def subscribe(platform: str, channel: str, local_time: time, timezone: str, language: str | None,
              now: datetime) -> Plan[Subscription]:
    found = yield rows(
        f"""INSERT INTO subscriptions (platform, channel, local_time, timezone, language, created)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (platform, channel) DO UPDATE SET
                local_time = excluded.local_time, timezone = excluded.timezone,
                language = excluded.language, active = TRUE
            RETURNING {SUBSCRIPTION_COLUMNS}""",
        # Hours and minutes, as SQLite keeps them ("HH:MM").
        platform, channel, local_time.replace(second=0, microsecond=0, tzinfo=None), timezone, language, now,
    )
    return subscription_from_row(found[0])


def unsubscribe(platform: str, channel: str) -> Plan[bool]:
    stopped: int = yield count(
        "UPDATE subscriptions SET active = FALSE WHERE platform = ? AND channel = ? AND active",
        platform, channel,
    )
    return stopped == 1


def get_subscription(platform: str, channel: str) -> Plan[Subscription | None]:
    found = yield rows(
        f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE platform = ? AND channel = ? AND active",
        platform, channel,
    )
    return subscription_from_row(found[0]) if found else None


def subscriptions() -> Plan[list[Subscription]]:
    found = yield rows(f"SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE active ORDER BY id")
    return [subscription_from_row(row) for row in found]


def record_post(subscription_id: int, local_date: date, puzzle_id: str, notices: Sequence[NewNotice],
                now: datetime) -> Plan[PuzzlePost | None]:
    # The subscription's row lock (PostgreSQL) puts two schedulers' claims one after the other,
    # as SQLite's one writer does: the loser finds the day's post made and hears "today's is
    # posted", never "puzzle already shown" for a post that was racing its own.
    chat = yield rows("SELECT platform, channel FROM subscriptions WHERE id = ? {for_update}", subscription_id)
    if not chat:
        raise NotFound(f"no subscription {subscription_id}")
    platform, channel = chat[0]
    # The day's UNIQUE (subscription_id, local_date) makes this a claim: one winner.
    post = yield from _insert_post(platform, channel, puzzle_id, now, subscription_id, local_date)
    if post is None:  # which UNIQUE index skipped it: the day's (a lost claim) or the chat's puzzles
        claimed = yield rows(
            "SELECT 1 FROM puzzle_posts WHERE subscription_id = ? AND local_date = ?", subscription_id, local_date
        )
        if claimed:
            return None
        raise _already_posted(platform, channel, puzzle_id)
    yield count(
        "UPDATE subscriptions SET last_posted = ? WHERE id = ? AND (last_posted IS NULL OR last_posted < ?)",
        local_date, subscription_id, local_date,
    )
    yield from insert_notices(notices, now)
    return post


def record_extra_post(platform: str, channel: str, puzzle_id: str, now: datetime) -> Plan[PuzzlePost]:
    post = yield from _insert_post(platform, channel, puzzle_id, now)
    if post is None:
        raise _already_posted(platform, channel, puzzle_id)
    return post


def get_post(post_id: int) -> Plan[PuzzlePost]:
    found = yield rows(f"SELECT {POST_COLUMNS} FROM puzzle_posts WHERE id = ?", post_id)
    if not found:
        raise NotFound(f"no puzzle post {post_id}")
    return post_from_row(found[0])


def latest_post(platform: str, channel: str) -> Plan[PuzzlePost | None]:
    posts = yield from recent_posts(platform, channel, 1)
    return posts[0] if posts else None


def recent_posts(platform: str, channel: str, limit: int) -> Plan[list[PuzzlePost]]:
    found = yield rows(
        f"""SELECT {POST_COLUMNS} FROM puzzle_posts WHERE platform = ? AND channel = ?
            ORDER BY id DESC LIMIT ?""",
        platform, channel, limit,
    )
    return [post_from_row(row) for row in found]


def posted_puzzle_ids(platform: str, channel: str) -> Plan[set[str]]:
    found = yield rows("SELECT puzzle_id FROM puzzle_posts WHERE platform = ? AND channel = ?", platform, channel)
    return {puzzle_id for (puzzle_id,) in found}


def record_attempt(post_id: int, player_id: int, solved: bool, now: datetime,
                   progress: int | None = None) -> Plan[PuzzleAttempt]:
    # The player's tries go one after another (PostgreSQL's lock; SQLite's one writer): a try
    # never misses a solve (or a streak day) committed just before it.
    yield lock(f"puzzle-tries:{player_id}")
    post = yield from get_post(post_id)
    before = yield from get_attempt(post_id, player_id)
    if before is not None and before.solved:
        return before  # tries after solving do not count
    found = yield rows(
        f"""INSERT INTO puzzle_attempts (post_id, player_id, tries, solved, first_at, solved_at)
            VALUES (?, ?, 1, ?, ?, ?)
            ON CONFLICT (post_id, player_id) DO UPDATE SET
                tries = puzzle_attempts.tries + 1,
                solved = excluded.solved, solved_at = excluded.solved_at
            RETURNING {ATTEMPT_COLUMNS}""",
        post_id, player_id, solved, now, now if solved else None,
    )
    if solved and post.local_date is not None:
        yield from _extend_streak(post, post.local_date, player_id)
    if progress is not None:
        yield from save_progress(post_id, player_id, progress, False, now)
    return attempt_from_row(found[0])


def get_attempt(post_id: int, player_id: int) -> Plan[PuzzleAttempt | None]:
    found = yield rows(
        f"SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE post_id = ? AND player_id = ?", post_id, player_id
    )
    return attempt_from_row(found[0]) if found else None


def get_streak(platform: Platform, channel: str, player_id: int) -> Plan[Streak]:
    found = yield rows(
        f"SELECT {STREAK_COLUMNS} FROM streaks WHERE platform = ? AND channel = ? AND player_id = ?",
        platform, channel, player_id,
    )
    return streak_from_row(platform, channel, player_id, found[0] if found else None)


def puzzle_leaderboard(platform: str, channel: str, local_date: date | None, limit: int) -> Plan[list[PuzzleScore]]:
    on_day = "" if local_date is None else " AND pp.local_date = ?"
    found = yield rows(
        f"""SELECT a.player_id, pl.display_name, count(*) FILTER (WHERE a.solved), sum(a.tries)
            FROM puzzle_attempts AS a
            JOIN puzzle_posts AS pp ON pp.id = a.post_id
            JOIN players AS pl ON pl.id = a.player_id
            WHERE pp.platform = ? AND pp.channel = ?{on_day}
            GROUP BY a.player_id, pl.display_name
            HAVING count(*) FILTER (WHERE a.solved) > 0
            ORDER BY count(*) FILTER (WHERE a.solved) DESC, sum(a.tries), min(a.solved_at), a.player_id
            LIMIT ?""",
        platform, channel, *(() if local_date is None else (local_date,)), limit,
    )
    return [PuzzleScore(player_id, name, solved, tries) for player_id, name, solved, tries in found]


def get_progress(post_id: int, player_id: int) -> Plan[PuzzleProgress | None]:
    found = yield rows(
        f"SELECT {PROGRESS_COLUMNS} FROM puzzle_progress WHERE post_id = ? AND player_id = ?", post_id, player_id
    )
    return progress_from_row(found[0]) if found else None


def save_progress(post_id: int, player_id: int, ply: int, gave_up: bool, now: datetime) -> Plan[PuzzleProgress]:
    yield from get_post(post_id)  # NotFound rather than a foreign-key error
    found = yield rows(
        f"""INSERT INTO puzzle_progress (post_id, player_id, ply, gave_up, updated)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (post_id, player_id) DO UPDATE SET ply = excluded.ply,
                gave_up = excluded.gave_up, updated = excluded.updated
            RETURNING {PROGRESS_COLUMNS}""",
        post_id, player_id, ply, gave_up, now,
    )
    return progress_from_row(found[0])


def _insert_post(platform: str, channel: str, puzzle_id: str, now: datetime, subscription_id: int | None = None,
                 local_date: date | None = None) -> Plan[PuzzlePost | None]:
    """The post inserted; None when a UNIQUE index skipped it: the subscription has its post of
    that day, or the chat has seen the puzzle."""
    found = yield rows(
        f"""INSERT INTO puzzle_posts (platform, channel, puzzle_id, subscription_id, local_date, posted)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            RETURNING {POST_COLUMNS}""",
        platform, channel, puzzle_id, subscription_id, local_date, now,
    )
    return post_from_row(found[0]) if found else None


def _already_posted(platform: str, channel: str, puzzle_id: str) -> PuzzleAlreadyPosted:
    return PuzzleAlreadyPosted(f"puzzle {puzzle_id!r} was already shown in {platform} chat {channel!r}")


def _extend_streak(post: PuzzlePost, day: date, player_id: int) -> Plan[None]:
    streak = extended_streak((yield from get_streak(post.platform, post.channel, player_id)), day)
    if streak is None:
        return
    yield count(
        """INSERT INTO streaks (platform, channel, player_id, current, best, last_date)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (platform, channel, player_id) DO UPDATE SET
               current = excluded.current, best = excluded.best, last_date = excluded.last_date""",
        streak.platform, streak.channel, player_id, streak.current, streak.best, day,
    )
