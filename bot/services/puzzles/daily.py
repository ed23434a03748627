"""The daily puzzle: each subscription's post once its local time has come, subscriptions,
daily streaks and the chat's leaderboards.

The scheduler's job ``tick`` makes each subscription's daily post once its local time has come
(so a post missed while the bot was down goes out at start-up, the same day). Storage claims
each day's post before it is sent: one post per subscription and local date, whatever restarts.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import date, time
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from makruk import Move
from storage import PuzzleAlreadyPosted
from storage.records import Puzzle, PuzzlePost, Subscription

from ...messages import Incoming, Platform, Reply
from ..errors import Refusal
from ..notation import move_text
from ..outbox import AnswerWith, new_notice
from .base import DEFAULT_BANDS, PuzzleBase
from .cards import board_of, solution_text

log = logging.getLogger(__name__)

DEFAULT_TIME = time(8, 0)
DEFAULT_ZONE = "Asia/Bangkok"
_CLOCK_TIME = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?")


def weekday_bands(ratings: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Seven rating bands, Monday's the easiest, each holding a seventh of the bank.

    >>> weekday_bands(range(700, 2100, 100))
    ((700, 800), (900, 1000), (1100, 1200), (1300, 1400), (1500, 1600), (1700, 1800), (1900, 2000))
    """
    ordered = sorted(ratings)
    if len(ordered) < 7:
        return DEFAULT_BANDS
    n = len(ordered)
    bands = []
    for day in range(7):
        low = ordered[n * day // 7]
        high = ordered[n * (day + 1) // 7 - 1]
        bands.append((low, high))
    return tuple(bands)



class DailyPosts(PuzzleBase):
    async def tick(self, platform: Platform | None = None) -> None:
        """Each subscription's daily post, once its local time has come and if not sent yet;
        the post goes to the outbox with the record that it was made.

        A door passes its ``platform``, so that it only claims the posts it can deliver.
        """
        now = self.clock.now()
        for sub in await self.storage.subscriptions():
            if platform is not None and sub.platform != platform:
                continue
            try:
                local = now.astimezone(ZoneInfo(sub.timezone))
            except (ZoneInfoNotFoundError, ValueError):
                log.error("subscription %d has an unknown time zone %r", sub.id, sub.timezone)
                continue
            today = local.date()
            if (sub.last_posted is not None and sub.last_posted >= today) or local.time() < sub.local_time:
                continue
            try:
                await self._post_daily_once(sub, today)
            except Exception:
                log.exception("could not post the daily puzzle to %s/%s", sub.platform, sub.channel)

    # --- daily and extra posts ------------------------------------------------------------

    async def _post_daily_once(self, sub: Subscription, today: date) -> None:
        if self.claims is None:
            await self._post_daily(sub, today)
            return
        async with self.claims.hold("post", [f"{sub.id}:{today.isoformat()}"]) as mine:
            if mine:
                await self._post_daily(sub, today)

    async def _post_daily(self, sub: Subscription, today: date) -> None:
        earlier = await self.storage.recent_posts(sub.platform, sub.channel, limit=20)
        puzzle = await self._pick(sub.platform, sub.channel, today.weekday())
        if puzzle is None:
            log.warning("no puzzle left that %s/%s has not seen", sub.platform, sub.channel)
            return
        language = await self._chat_language(sub.platform, sub.channel, sub.language)
        reveal = [p for p in earlier if p.subscription_id is not None][:1]
        if earlier and earlier[0].subscription_id is None:
            reveal.append(earlier[0])  # an extra puzzle is revealed by the next post
        title = self.t(language, "puzzle.daily", weekday=self.t(language, f"puzzle.weekday.{today.weekday()}"),
                       rating=puzzle.rating or "?")
        revealed = await self._revealed(language, sorted(reveal, key=lambda p: p.id))
        reply = self._post_reply(language, puzzle, title, revealed)
        settings = await self.storage.get_channel_settings(sub.platform, sub.channel)
        notice, _ = new_notice(sub.platform, sub.channel, "daily_puzzle", reply,
                               push=settings.push_notices is not False)
        try:
            # The post and its notice are stored together: None when today's post was claimed
            # already (another process, or a restart), and then nothing is sent.
            await self.storage.record_post(sub.id, today, puzzle.id, notices=[notice])
        except PuzzleAlreadyPosted:
            pass  # another process showed it a moment ago; the next tick picks again

    async def _revealed(self, language: str, posts: list[PuzzlePost]) -> list[str]:
        """The lines that give away the solutions of earlier posts."""
        return [self.t(language, "puzzle.previous", line=solution_text(language, await self._puzzle(post.puzzle_id)))
                for post in posts]

    def _post_reply(self, language: str, puzzle: Puzzle, title: str, revealed: list[str], *,
                    data: dict[str, Any] | None = None, private: bool = False) -> Reply:
        board = board_of(puzzle)
        first = Move.from_uci(puzzle.solution[0])
        example = next(m for m in board.legal_moves() if m != first)  # any move but the answer
        lines = [title, self._caption(language, puzzle, board),
                 self.t(language, "puzzle.how", example=move_text(language, board, example)), *revealed]
        return self._card(language, puzzle, board, "\n".join(lines), kind="puzzle", data=data, private=private)

    async def _pick(self, platform: str, channel: str, weekday: int) -> Puzzle | None:
        """An unseen puzzle of the weekday's band; else of the nearest band, easier first."""
        order = [weekday]
        for distance in range(1, 7):
            order += [d for d in (weekday - distance, weekday + distance) if 0 <= d < 7]
        for day in order:
            low, high = self.bands[day]
            found = await self.storage.pick_puzzle(platform, channel, min_rating=low, max_rating=high)
            if found is not None:
                return found
        return await self.storage.pick_puzzle(platform, channel)

    # --- subscriptions, streaks, leaderboards -------------------------------------------------

    async def _cmd_subscribe(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        local_time, zone = parse_subscription(args)
        text = self.t(language, "puzzle.subscribed", time=local_time.strftime("%H:%M"), zone=zone)
        answer, shown = keep(lambda sub: [Reply(kind="puzzle_subscription", text=text, language=language)])
        await self.storage.subscribe(msg.platform, msg.channel, local_time, zone, language, answer=answer)
        return shown

    async def _cmd_unsubscribe(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        text = self.t(language, "puzzle.unsubscribed")
        # Nothing stopped, nothing to answer but the refusal below.
        answer, shown = keep(lambda stopped: [Reply(kind="puzzle_subscription", text=text, language=language)]
                             if stopped else [])
        if not await self.storage.unsubscribe(msg.platform, msg.channel, answer=answer):
            raise Refusal("not_subscribed")
        return shown

    async def _cmd_streak(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        player = await self._player(msg)
        streak = await self.storage.get_streak(msg.platform, msg.channel, player.id)
        today = await self._chat_today(msg.platform, msg.channel)
        text = self.t(language, "puzzle.streak", name=player.display_name, current=streak.current_on(today),
                      best=streak.best)
        return [Reply(kind="puzzle_streak", text=text, language=language)]

    async def _chat_top(self, msg: Incoming, language: str) -> list[Reply]:
        """Today's and all-time solvers of the chat's puzzles."""
        today = await self._chat_today(msg.platform, msg.channel)
        sections = []
        for key, day in (("puzzle.top.today", today), ("puzzle.top.all", None)):
            rows = await self.storage.puzzle_leaderboard(msg.platform, msg.channel, local_date=day, limit=10)
            lines = [self.t(language, "puzzle.top.line", rank=i + 1, name=r.display_name, solved=r.solved,
                            tries=r.tries) for i, r in enumerate(rows)]
            sections.append(self.t(language, key) + "\n" + ("\n".join(lines) or self.t(language, "puzzle.top.none")))
        return [Reply(kind="puzzle_top", text="\n".join(sections), language=language)]




def parse_subscription(args: Sequence[str]) -> tuple[time, str]:
    """``[HH:MM] [Area/City]`` in any order; 08:00 Asia/Bangkok by default.

    >>> parse_subscription(["america/new_york", "7:30"])
    (datetime.time(7, 30), 'America/New_York')
    """
    local_time, zone = DEFAULT_TIME, DEFAULT_ZONE
    for arg in args:
        clock = _CLOCK_TIME.fullmatch(arg)
        if clock:
            hours, minutes = int(clock.group(1)), int(clock.group(2) or 0)
            if hours > 23 or minutes > 59:
                raise Refusal("bad_subscription")
            local_time = time(hours, minutes)
            continue
        canonical = _zones().get(arg.casefold())
        if canonical is None:
            raise Refusal("bad_timezone" if "/" in arg else "bad_subscription", zone=arg[:40])
        zone = canonical
    return local_time, zone


@cache
def _zones() -> dict[str, str]:
    return {name.casefold(): name for name in available_timezones()}
