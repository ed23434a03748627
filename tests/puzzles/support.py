"""Puzzles and helpers for the puzzle tests: real positions, proved by the verifier."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.config import Settings
from bot.engines import EnginePosition, RandomMover, SyncUciEngine
from bot.engines.uci import UciResult
from bot.messages import Notice, Platform
from bot.services.games import GameService
from bot.services.outbox import Outbox
from bot.services.puzzles import PuzzleService
from storage.records import Puzzle

from ..bot.support import Chat, drain, no_image

# A mate in 2 for Black: Rh2+ Kg3 Rg1#; the only first move that mates in 2.
MATE2 = Puzzle("t-mate2", "8/8/3mspk1/4ppNp/3m~2nP/5R1K/2r5/r7 b - - 0 61", ("c2h2", "h3g3", "a1g1"), 1100,
               ("mate", "mateIn2", "check", "rua"), "test")
# A mate in 2 for White whose last move may be either promotion: d6=M# or f6=M#.
MATE2_TWO_ENDINGS = Puzzle("t-mate2b", "4k3/2R5/4M~3/3P1P2/S3N3/P1K3S1/5M2/8 w - - 0 53",
                           ("c7c8", "e8e7", "d5d6m"), 1150, ("mate", "mateIn2", "promotion"), "test")
# A mate in 1: Ra8#.
MATE1 = Puzzle("t-mate1", "7k/8/4p2K/8/8/4P3/8/R7 w - - 0 1", ("a1a8",), 700, ("mate", "mateIn1"), "test")
# White wins the Rua on d6 with the Ma, with check.
MATERIAL = Puzzle("t-material", "2Nr4/5ks1/2srnm1p/p1p4P/PpP1RMn1/1P4SR/8/2S1K3 w - - 0 39", ("c8d6",), 900,
                  ("material", "capture", "ma"), "test")
FLOW_PUZZLES = [MATE2, MATE2_TWO_ENDINGS, MATE1, MATERIAL]



class CountingEngine(SyncUciEngine):
    """Fairy-Stockfish, noting the node budget of every search it is sent (``nodes``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nodes: list[int | None] = []

    def go(self, position: EnginePosition, **limits: Any) -> UciResult:
        self.nodes.append(limits.get("nodes"))
        return super().go(position, **limits)


BANDS = ((0, 799), (800, 999), (1000, 1199), (1200, 1399), (1400, 1599), (1600, 1799), (1800, 9999))


def band_puzzles(per_band: int = 3) -> list[Puzzle]:
    """Copies of MATE2 with ratings in every weekday band (storage does not care)."""
    found = []
    for day, (low, _) in enumerate(BANDS):
        for i in range(per_band):
            found.append(Puzzle(f"band{day}-{i}", MATE2.fen, MATE2.solution, low + 10 * i, MATE2.themes, "test"))
    return found


MONDAY = datetime(2026, 11, 30, tzinfo=UTC)  # 2026-11-30 is a Monday


def make_services(storage, clock, *, bands=BANDS, language: str = "en") -> tuple[GameService, PuzzleService]:
    settings = Settings(language=language, line_language=language)
    puzzles = PuzzleService(storage, settings, clock=clock, render=no_image, bands=bands)
    games = GameService(storage, settings, clock=clock, engine=RandomMover(seed=1), render=no_image, puzzles=puzzles)
    return games, puzzles




async def daily_posts(puzzles: PuzzleService, platform: Platform | None = None) -> list[Notice]:
    """Runs the daily posts, then delivers what they wrote to the outbox (``platform``'s, or
    every platform's); returns the notices delivered, as a door's scheduler would."""
    await puzzles.tick(platform)
    return await drain(lambda each, send: Outbox(puzzles.storage, puzzles.clock, each, send,
                                                 prepare=puzzles.with_card), platform)


__all__ = ["Chat", "daily_posts", "no_image"]
