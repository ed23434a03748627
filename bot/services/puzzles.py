"""The puzzle service: daily posts, answers, hints, giving up, streaks, leaderboards, extras.

The game service routes to it: the puzzle commands, and bare moves in a chat whose current
puzzle is open while no game is being played there. Its ``tick`` is a scheduler job that
makes each subscription's daily post once its local time has come (so a post missed while
the bot was down goes out at start-up, the same day). Storage claims each day's post
before it is sent: one post per subscription and local date, whatever restarts.

Answers refer to the chat's latest post while it is open (``OPEN_FOR``). Each person's
place in a multi-move solution is stored, so two people solve independently and a restart
loses nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Sequence
from datetime import date, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from makruk import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from storage import PuzzleAlreadyPosted, extended_streak
from storage.records import Player, Puzzle, PuzzleAttempt, PuzzlePost, Subscription

from ..clock import Clock, SystemClock
from ..config import Settings
from ..i18n import Catalog
from ..messages import Action, BoardView, Incoming, Platform, Reply
from .claims import Claims
from .errors import Refusal
from .notation import move_text, square_text
from .outbox import AnswerWith, new_notice, unkept
from .presenter import Render

log = logging.getLogger(__name__)

DEFAULT_TIME = time(8, 0)
DEFAULT_ZONE = "Asia/Bangkok"
OPEN_FOR = timedelta(days=2)  # a post older than this takes no more answers
CARD_SIZE = 800
# Rating bands by weekday (Monday first) when the bank's ratings are not known.
DEFAULT_BANDS: tuple[tuple[int, int], ...] = (
    (0, 799), (800, 999), (1000, 1149), (1150, 1299), (1300, 1499), (1500, 1749), (1750, 9999),
)
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


class PuzzleService:
    def __init__(
        self,
        storage,
        settings: Settings,
        *,
        clock: Clock | None = None,
        catalog: Catalog | None = None,
        render: Render | None = None,
        bands: Sequence[tuple[int, int]] | None = None,
        claims: Claims | None = None,
    ) -> None:
        self.storage = storage
        # Each day's post is stored once (record_post); claiming it first spares the other
        # processes of the database drawing it for nothing.
        self.claims = claims
        self.settings = settings
        self.clock = clock or SystemClock()
        self.catalog = catalog or Catalog.load()
        self.bands = tuple(bands) if bands else DEFAULT_BANDS
        self._render = render or draw_card
        self._puzzles: dict[str, Puzzle] = {}

    def t(self, language: str, key: str, **fields: object) -> str:
        return self.catalog.text(language, key, **fields)

    # --- entry points for the game service ----------------------------------------------

    async def command(self, msg: Incoming, language: str, name: str, args: tuple[str, ...],
                      keep: AnswerWith = unkept) -> list[Reply]:
        """``puzzle``, ``hint``, ``giveup``, ``subscribe``, ``unsubscribe``, ``puzzletop`` or
        ``streak``; raises Refusal like the game service's commands. What a command changes is
        stored with its answer (``keep``)."""
        handler = getattr(self, f"_cmd_{name}")
        return await handler(msg, language, args, keep)

    async def answer(self, msg: Incoming, language: str, text: str, keep: AnswerWith = unkept) -> list[Reply] | None:
        """A bare move for the chat's open puzzle; None when there is none or ``text`` is no move."""
        post = await self._open_post(msg)
        if post is None:
            return None
        puzzle = await self._puzzle(post.puzzle_id)
        known = await self.storage.find_player(msg.platform, msg.user.id)  # chatter creates nobody
        ply, board = await self._position(post, puzzle, known)
        try:
            move = board.parse_move(text)
        except InvalidMoveError:
            return None
        except AmbiguousMoveError as error:
            names = ", ".join(move_text(language, board, m) for m in error.candidates)
            raise Refusal("ambiguous", text=text[:20], candidates=names) from None
        except IllegalMoveError as error:
            raise Refusal(f"illegal.{error.code}", text=text[:20]) from None
        player = known or await self._player(msg)
        await self._require_unfinished(post, player)
        return await self._try(msg, language, post, puzzle, player, ply, board, move, keep)

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

    async def _cmd_puzzle(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        """An extra puzzle, any time; it becomes the chat's current one and counts for no streak.
        ``puzzle help`` lists the puzzle commands."""
        if args and self.catalog.command_for(args[0]) == "help":
            return [Reply(kind="help", text=self.t(language, "puzzle.help"), language=language)]
        earlier = await self.storage.recent_posts(msg.platform, msg.channel, limit=1)
        puzzle = await self.storage.pick_puzzle(msg.platform, msg.channel)
        if puzzle is None:
            raise Refusal("puzzle_bank_empty", private=False)
        revealed = await self._revealed(language, [p for p in earlier if p.subscription_id is None])
        title = self.t(language, "puzzle.extra", rating=puzzle.rating or "?")
        answer, shown = keep(lambda post: [self._post_reply(language, puzzle, title, revealed)])
        try:
            await self.storage.record_extra_post(msg.platform, msg.channel, puzzle.id, answer=answer)
        except PuzzleAlreadyPosted:
            raise Refusal("conflict") from None
        return [await self.with_card(reply) for reply in shown]

    async def _revealed(self, language: str, posts: list[PuzzlePost]) -> list[str]:
        """The lines that give away the solutions of earlier posts."""
        return [self.t(language, "puzzle.previous", line=solution_text(language, await self._puzzle(post.puzzle_id)))
                for post in posts]

    def _post_reply(self, language: str, puzzle: Puzzle, title: str, revealed: list[str]) -> Reply:
        board = Board(puzzle.fen)
        first = Move.from_uci(puzzle.solution[0])
        example = next(m for m in board.legal_moves() if m != first)  # any move but the answer
        lines = [title, self._caption(language, puzzle, board),
                 self.t(language, "puzzle.how", example=move_text(language, board, example)), *revealed]
        return self._card(language, puzzle, board, "\n".join(lines), kind="puzzle")

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

    # --- answering --------------------------------------------------------------------

    async def _try(self, msg: Incoming, language: str, post: PuzzlePost, puzzle: Puzzle, player: Player,
                   ply: int, board: Board, move: Move, keep: AnswerWith) -> list[Reply]:
        expected = Move.from_uci(puzzle.solution[ply])
        last = ply == len(puzzle.solution) - 1
        notation = move_text(language, board, move)
        board.push(move)
        right = move == expected or (last and is_mate_puzzle(puzzle) and board.is_checkmate())
        if not right:
            def wrong(attempt: PuzzleAttempt) -> list[Reply]:
                text = self.t(language, "puzzle.wrong", name=msg.user.name, move=notation, tries=attempt.tries)
                return [Reply(kind="puzzle_wrong", text=text, language=language)]
            tried, shown = keep(wrong)
            await self.storage.record_attempt(post.id, player.id, False, answer=tried)
            return shown
        if last:
            day = post.local_date
            before = await self.storage.get_streak(post.platform, post.channel, player.id) if day else None

            def solved(attempt: PuzzleAttempt) -> list[Reply]:
                text = self.t(language, "puzzle.solved", name=msg.user.name, move=notation, tries=attempt.tries)
                if day is not None and before is not None:  # the streak as the solve leaves it
                    streak = extended_streak(before, day) or before
                    text += "\n" + self.t(language, "puzzle.solved.streak", current=streak.current, best=streak.best)
                else:
                    text += "\n" + self.t(language, "puzzle.solved.extra")
                return [self._card(language, puzzle, board, text, kind="puzzle_solved", last=move, solved=True)]
            solving, shown = keep(solved)
            await self.storage.record_attempt(post.id, player.id, True, progress=ply + 1, answer=solving)
            return [await self.with_card(reply) for reply in shown]
        reply = Move.from_uci(puzzle.solution[ply + 1])
        reply_notation = move_text(language, board, reply)
        board.push(reply)
        text = self.t(language, "puzzle.right", name=msg.user.name, move=notation, reply=reply_notation)
        card = self._card(language, puzzle, board, text, kind="puzzle", last=reply)
        answer, shown = keep(lambda progress: [card])
        await self.storage.save_progress(post.id, player.id, ply + 2, answer=answer)
        return [await self.with_card(card) for card in shown]

    async def _cmd_hint(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        post = await self._require_open_post(msg)
        puzzle = await self._puzzle(post.puzzle_id)
        player = await self._player(msg)
        await self._require_unfinished(post, player)
        ply, board = await self._position(post, puzzle, player)
        move = Move.from_uci(puzzle.solution[ply])
        piece = board.piece_at(move.from_square)
        assert piece is not None  # the solution's move starts on a piece
        name = self.t(language, f"puzzle.piece.{piece.kind.name.lower()}")
        text = self.t(language, "puzzle.hint", piece=name, square=square_text(language, move.from_square))
        return [Reply(kind="puzzle_hint", text=text, language=language, private=True)]

    async def _cmd_giveup(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        post = await self._require_open_post(msg)
        puzzle = await self._puzzle(post.puzzle_id)
        player = await self._player(msg)
        await self._require_unfinished(post, player)
        progress = await self.storage.get_progress(post.id, player.id)
        await self.storage.save_progress(post.id, player.id, progress.ply if progress else 0, gave_up=True)
        text = self.t(language, "puzzle.solution", line=solution_text(language, puzzle))
        return [Reply(kind="puzzle_solution", text=text, language=language, private=True)]

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

    async def _cmd_puzzletop(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        today = await self._chat_today(msg.platform, msg.channel)
        sections = []
        for key, day in (("puzzle.top.today", today), ("puzzle.top.all", None)):
            rows = await self.storage.puzzle_leaderboard(msg.platform, msg.channel, local_date=day, limit=10)
            lines = [self.t(language, "puzzle.top.line", rank=i + 1, name=r.display_name, solved=r.solved,
                            tries=r.tries) for i, r in enumerate(rows)]
            sections.append(self.t(language, key) + "\n" + ("\n".join(lines) or self.t(language, "puzzle.top.none")))
        return [Reply(kind="puzzle_top", text="\n".join(sections), language=language)]

    # --- shared steps -------------------------------------------------------------------

    async def _open_post(self, msg: Incoming) -> PuzzlePost | None:
        post = await self.storage.latest_post(msg.platform, msg.channel)
        if post is None or self.clock.now() - post.posted > OPEN_FOR:
            return None
        return post

    async def _require_open_post(self, msg: Incoming) -> PuzzlePost:
        post = await self._open_post(msg)
        if post is None:
            raise Refusal("no_puzzle")
        return post

    async def _require_unfinished(self, post: PuzzlePost, player: Player) -> None:
        attempt = await self.storage.get_attempt(post.id, player.id)
        if attempt is not None and attempt.solved:
            raise Refusal("puzzle_solved")
        progress = await self.storage.get_progress(post.id, player.id)
        if progress is not None and progress.gave_up:
            raise Refusal("puzzle_given_up")

    async def _position(self, post: PuzzlePost, puzzle: Puzzle, player: Player | None) -> tuple[int, Board]:
        """The player's place in the solution (plies played) and the board there."""
        progress = None if player is None else await self.storage.get_progress(post.id, player.id)
        ply = min(progress.ply, len(puzzle.solution) - 1) if progress else 0
        board = Board(puzzle.fen)
        for uci in puzzle.solution[:ply]:
            board.push(Move.from_uci(uci))
        return ply, board

    async def _puzzle(self, puzzle_id: str) -> Puzzle:
        found = self._puzzles.get(puzzle_id)
        if found is None:
            found = self._puzzles[puzzle_id] = await self.storage.get_puzzle(puzzle_id)
        return found

    async def _player(self, msg: Incoming) -> Player:
        return await self.storage.get_or_create_player(msg.platform, msg.user.id, msg.user.name)

    async def _chat_language(self, platform: str, channel: str, fallback: str | None) -> str:
        settings = await self.storage.get_channel_settings(platform, channel)
        if settings.language:
            return settings.language
        if fallback:
            return fallback
        return self.settings.line_language if platform == "line" else self.settings.language

    async def _chat_today(self, platform: str, channel: str) -> date:
        """Today in the chat's subscription time zone (Bangkok's when it has none)."""
        sub = await self.storage.get_subscription(platform, channel)
        try:
            zone = ZoneInfo(sub.timezone if sub else DEFAULT_ZONE)
        except (ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo(DEFAULT_ZONE)
        return self.clock.now().astimezone(zone).date()

    def _caption(self, language: str, puzzle: Puzzle, board: Board) -> str:
        """"White to move, mate in 2": the side to move and what is left to do."""
        side = self.t(language, "puzzle.side.w" if board.turn else "puzzle.side.b")
        if is_mate_puzzle(puzzle):
            left = (len(puzzle.solution) - len(board.move_stack) + 1) // 2
            return self.t(language, "puzzle.caption.mate", side=side, n=left)
        return self.t(language, "puzzle.caption.material", side=side)

    def _card(self, language: str, puzzle: Puzzle, board: Board, text: str, *, kind: str,
              last: Move | None = None, solved: bool = False) -> Reply:
        """A puzzle card's reply, its picture not drawn yet (with_card draws it)."""
        caption = self.t(language, "puzzle.caption.solved") if solved else self._caption(language, puzzle, board)
        view = BoardView(
            fen=board.fen(),
            flip=not Board(puzzle.fen).turn,  # always from the solver's side
            last_move=last.uci() if last else None,
            coords="thai" if language == "th" else "latin",
            caption=caption,
        )
        actions = () if solved else (Action("hint", self.t(language, "puzzle.action.hint")),
                                     Action("giveup", self.t(language, "puzzle.action.giveup")))
        return Reply(kind=kind, text=text, language=language, board=view, actions=actions)


    async def with_card(self, reply: Reply) -> Reply:
        """The reply with its puzzle card drawn again (the outbox keeps no images)."""
        if reply.board is None or reply.image is not None:
            return reply
        return dataclasses.replace(reply, image=await self._draw(reply.board))

    async def _draw(self, view: BoardView) -> bytes | None:
        return await asyncio.get_running_loop().run_in_executor(None, self._render, view)


# --- helpers ----------------------------------------------------------------------------------

def draw_card(view: BoardView) -> bytes:
    """The puzzle card: caption above the board (renderers.render_puzzle_card)."""
    from renderers import render_puzzle_card

    return render_puzzle_card(view.fen, view.caption or "", size=CARD_SIZE, flip=view.flip, coords=view.coords,
                              last_move=view.last_move)


def is_mate_puzzle(puzzle: Puzzle) -> bool:
    return "mate" in puzzle.themes


def solution_text(language: str, puzzle: Puzzle) -> str:
    """The whole line with move numbers, in Thai notation for Thai chats: ``1. Ra8+ Kf7 2. Ra7#``."""
    board = Board(puzzle.fen)
    parts = []
    for i, uci in enumerate(puzzle.solution):
        move = Move.from_uci(uci)
        if board.turn or i == 0:
            parts.append(f"{board.fullmove_number}." if board.turn else f"{board.fullmove_number}...")
        parts.append(move_text(language, board, move))
        board.push(move)
    return " ".join(parts)


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



