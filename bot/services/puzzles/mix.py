"""A mix of kinds, as lichess serves one when no theme is asked: most of the bank is counting
races (they come fastest from self-play), so the next puzzle is of another kind than the last
when one is near."""

from __future__ import annotations

import random
from typing import Literal

from storage.records import Puzzle, RatedPuzzle

Kind = Literal["race", "mate", "material"]


def kind(puzzle: Puzzle) -> Kind:
    """A counting race, another mate or a material gain (as storage's daily pick tells them)."""
    if "countingRace" in puzzle.themes:
        return "race"
    return "mate" if "mate" in puzzle.themes else "material"


def draw(found: list[RatedPuzzle], nearest: int, after: Puzzle | None, rng: random.Random) -> RatedPuzzle:
    """One of the ``nearest`` of ``found`` (nearest first), of another kind than ``after`` when
    ``found`` holds one."""
    last = None if after is None else kind(after)
    varied = [c for c in found if kind(c.puzzle) != last]
    return rng.choice(varied[:nearest] if last is not None and varied else found[:nearest])
