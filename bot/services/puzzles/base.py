"""What every part of the puzzle service shares: its storage, settings, clock, catalogue and
random choices, the puzzles it has read, and the cards it answers with."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from makruk import Board, Move
from storage.records import Player, Puzzle, PuzzlePost

from ...clock import Clock, SystemClock
from ...config import Settings
from ...i18n import Catalog
from ...messages import Action, BoardView, Incoming, Reply
from ...puzzles.counting import puzzle_count
from ..claims import Claims
from ..errors import Refusal
from ..presenter import Render
from .cards import board_of, draw_card, is_mate_puzzle

DEFAULT_ZONE = "Asia/Bangkok"
OPEN_FOR = timedelta(days=2)  # a post older than this takes no more answers
# Rating bands by weekday (Monday first) when the bank's ratings are not known.
DEFAULT_BANDS: tuple[tuple[int, int], ...] = (
    (0, 799), (800, 999), (1000, 1149), (1150, 1299), (1300, 1499), (1500, 1749), (1750, 9999),
)


class PuzzleBase:
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
        rng: random.Random | None = None,
    ) -> None:
        self.storage = storage
        # Each day's post is stored once (record_post); claiming it first spares the other
        # processes of the database drawing it for nothing.
        self.claims = claims
        self.settings = settings
        self.clock = clock or SystemClock()
        self.catalog = catalog or Catalog.load()
        self.bands = tuple(bands) if bands else DEFAULT_BANDS
        self.random = rng or random.Random()  # which of the puzzles nearest a rating is served
        self._render = render or draw_card
        self._puzzles: dict[str, Puzzle] = {}

    def t(self, language: str, key: str, **fields: object) -> str:
        return self.catalog.text(language, key, **fields)

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

    async def _seen_through(self, post: PuzzlePost, player: Player) -> bool:
        """Whether the player has solved the post's puzzle or been shown its solution."""
        attempt = await self.storage.get_attempt(post.id, player.id)
        progress = await self.storage.get_progress(post.id, player.id)
        return bool(attempt and attempt.solved) or bool(progress and progress.gave_up)

    async def _position(self, post: PuzzlePost, puzzle: Puzzle, player: Player | None) -> tuple[int, Board]:
        """The player's place in the solution (plies played) and the board there."""
        progress = None if player is None else await self.storage.get_progress(post.id, player.id)
        ply = min(progress.ply, len(puzzle.solution) - 1) if progress else 0
        board = board_of(puzzle)
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

    # --- cards --------------------------------------------------------------------------

    def _caption(self, language: str, puzzle: Puzzle, board: Board) -> str:
        """"White to move, mate in 2": the side to move and what is left to do."""
        side = self.t(language, "puzzle.side.w" if board.turn else "puzzle.side.b")
        if is_mate_puzzle(puzzle):
            left = (len(puzzle.solution) - len(board.move_stack) + 1) // 2
            count = puzzle_count(puzzle.fen, puzzle.variant)
            if count is not None:  # set so that the count runs out with the mate
                return self.t(language, "puzzle.caption.count", side=side, n=left,
                              count=self.t(language, f"puzzle.count.{count.kind}"))
            return self.t(language, "puzzle.caption.mate", side=side, n=left)
        return self.t(language, "puzzle.caption.material", side=side)

    def _card(self, language: str, puzzle: Puzzle, board: Board, text: str, *, kind: str,
              last: Move | None = None, solved: bool = False, actions: bool = True,
              data: dict[str, Any] | None = None, private: bool = False) -> Reply:
        """A puzzle card's reply, its picture not drawn yet (with_card draws it)."""
        caption = self.t(language, "puzzle.caption.solved") if solved else self._caption(language, puzzle, board)
        view = BoardView(
            fen=board.fen(),
            flip=not board_of(puzzle).turn,  # always from the solver's side
            last_move=last.uci() if last else None,
            coords="thai" if language == "th" else "latin",
            caption=caption,
            variant=puzzle.variant,
        )
        buttons = () if solved or not actions else (Action("hint", self.t(language, "puzzle.action.hint")),
                                                     Action("giveup", self.t(language, "puzzle.action.giveup")))
        return Reply(kind=kind, text=text, language=language, board=view, actions=buttons, data=data,
                     private=private)

    async def with_card(self, reply: Reply) -> Reply:
        """The reply with its puzzle card drawn again (the outbox keeps no images)."""
        if reply.board is None or reply.image is not None:
            return reply
        return dataclasses.replace(reply, image=await self._draw(reply.board))

    async def _draw(self, view: BoardView) -> bytes | None:
        return await asyncio.get_running_loop().run_in_executor(None, self._render, view)
