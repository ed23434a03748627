"""The bank's acceptance, read off the engine output stored beside it (no engine runs here).

A puzzle is accepted, as lichess-puzzler accepts one but tuned for the Makruk family, when at
every solver move the best move is an only move at both budgets of ``BUDGETS`` (MultiPV 3 on
the first move, 2 later): the same best move at both, and its win chance ahead of the second's
by ``margin`` (``MARGIN_MATE`` behind a mate, ``MARGIN`` between evaluations); on the last move
of a mate any mate is accepted, so there the best move that does not mate at once must fall
``MARGIN_MATE`` short of a win. A material puzzle ends after the
solver move that keeps ``MIN_GAIN`` (two Bia) once the captures settle, where no endgame count
can draw it. 2-5 solver moves (a mate in 1 is a warm-up); no puzzle ends on a forced move; the
defender's moves are the engine's best. ``win_chance`` is lichess's -1..1 scale on a curve
fitted to each variant's self-play (``bench/fit_win_chance.py``; the numbers in docs/puzzles.md).

A verification record (one JSON line per puzzle in ``verification*.jsonl``)::

    {"id": ..., "variant": ..., "budgets": [A, B], "plies": [
        {"ply": 0, "legal": 23, "search": {"A": [[move, cp, mate], ...], "B": [...]}, "rest": {...}},
        {"ply": 1, "reply": [move, cp, mate]}, ...]}

Scores are the side to move's, as UCI gives them (``cp`` or ``mate``, the other None); ``rest``
(last move of a mate only) is the best line among the moves that do not mate at once.

>>> round(win_chance(0, None), 3), win_chance(None, 3), win_chance(None, -2)
(0.0, 1.0, -1.0)
>>> round(win_chance(400, None, "makruk"), 2) == round(-win_chance(-400, None, "makruk"), 2)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Node budgets of the two verifications (Fairy-Stockfish, 1 thread, 16 MB hash, a cleared hash
# before each search, so that a search is reproduced exactly).
BUDGETS = (100_000, 400_000)
MULTIPV_FIRST = 3
MULTIPV_LATER = 2
# The best move's win chance ahead of the second's, on lichess's -1..1 scale: lichess's 0.7
# when the best move mates (the second may keep at most about +410 cp in Makruk), and 0.4
# between two evaluations (winning a Rua against an equal second move passes, a Ma does not:
# what lichess's 0.7 lets through on chess's curve). How they were chosen: docs/puzzles.md.
MARGIN_MATE = 0.7
MARGIN = 0.4
MIN_GAIN = 200  # a material puzzle wins at least two Bia, captures settled
MIN_SOLVER_MOVES = 2  # a mate in 1 is the one exception (a warm-up)
MAX_SOLVER_MOVES = 5
# k of E = 1 / (1 + exp(-k cp)), fitted by bench/fit_win_chance.py on each variant's self-play.
CURVE_K = {
    "makruk": 0.001502,
    "asean": 0.002888,
    "cambodian": 0.001290,
    "makpong": 0.004362,
    "sittuyin": 0.001061,
}

Line = Sequence  # [move, cp, mate]


def win_chance(cp: int | None, mate: int | None, variant: str = "makruk") -> float:
    """The side to move's chance on -1..1: a forced mate is +-1, else the fitted curve."""
    if mate is not None:
        return 1.0 if mate > 0 else -1.0
    k = CURVE_K.get(variant, CURVE_K["makruk"])
    return 2 / (1 + math.exp(-k * (cp or 0))) - 1


def line_chance(line: Line, variant: str) -> float:
    return win_chance(line[1], line[2], variant)


def margin(best: Line) -> float:
    """The margin the second move must fall behind ``best`` by."""
    return MARGIN_MATE if best[2] is not None and best[2] > 0 else MARGIN


def multipv(ply: int) -> int:
    return MULTIPV_FIRST if ply == 0 else MULTIPV_LATER


def solver_moves_allowed(moves: Sequence[str], kind: str) -> str | None:
    """None when the line's length is allowed, else why not."""
    if len(moves) % 2 == 0:
        return f"the line must end on the solver's move, got {len(moves)} plies"
    n = (len(moves) + 1) // 2
    if n > MAX_SOLVER_MOVES:
        return f"{n} solver moves (at most {MAX_SOLVER_MOVES})"
    if n < MIN_SOLVER_MOVES and kind != "mate":
        return f"{n} solver move (a single move only as a mate in 1)"
    return None


def check_solver_ply(step: dict, move: str, *, ply: int, last: bool, mate_left: int | None,
                     variant: str, budgets: Sequence[int] = BUDGETS, slack: float = 1.0) -> list[str]:
    """The thresholds at one solver move, at every budget (``mate_left``: moves to the mate
    the line claims, None for a material puzzle); ``slack`` scales the margins (the
    generator's cheap first look: ``engine_check.SKETCH``)."""
    problems: list[str] = []
    legal = int(step["legal"])
    if legal <= 1 and (ply == 0 or last):
        return [f"ply {ply + 1}: a forced move {'begins' if ply == 0 else 'ends'} the puzzle"]
    for budget in budgets:
        lines = step["search"].get(str(budget)) or []
        where = f"ply {ply + 1} at {budget} nodes"
        if not lines:
            problems.append(f"{where}: no search stored")
            continue
        if len(lines) < min(legal, multipv(ply)):
            problems.append(f"{where}: {len(lines)} lines stored, MultiPV {multipv(ply)} needed")
        best = lines[0]
        if best[0] != move:
            problems.append(f"{where}: the engine prefers {best[0]} to {move}")
            continue
        if last and mate_left is not None:
            if best[2] != 1:
                problems.append(f"{where}: {move} does not mate")
            rest = (step.get("rest") or {}).get(str(budget))
            if rest is not None and line_chance(rest, variant) > 1 - MARGIN_MATE * slack:
                problems.append(f"{where}: {rest[0]} also wins ({_score(rest)})")
            continue
        if mate_left is not None and budget == budgets[-1] and best[2] != mate_left:
            problems.append(f"{where}: mate in {best[2]} seen, {mate_left} claimed")
        if legal > 1 and len(lines) > 1:
            gap = line_chance(best, variant) - line_chance(lines[1], variant)
            if gap < margin(best) * slack:
                problems.append(f"{where}: {lines[1][0]} ({_score(lines[1])}) is {gap:.2f} behind {move} "
                                f"({_score(best)}), {margin(best) * slack:.2g} needed")
    return problems


def check_record(moves: Sequence[str], kind: str, mate_in: int | None, variant: str, record: dict) -> list[str]:
    """Every threshold of the acceptance over a puzzle's stored engine output."""
    problems: list[str] = []
    length = solver_moves_allowed(moves, kind)
    if length:
        problems.append(length)
    budgets = tuple(record.get("budgets", ()))
    if budgets != BUDGETS:
        problems.append(f"verified at {budgets}, the acceptance needs {BUDGETS}")
    plies = record.get("plies", [])
    if len(plies) != len(moves):
        return [*problems, f"{len(plies)} plies verified, the line has {len(moves)}"]
    for ply, (step, move) in enumerate(zip(plies, moves, strict=True)):
        if step.get("ply") != ply:
            problems.append(f"ply {ply + 1}: the record is out of order")
        elif ply % 2 == 0:
            left = (mate_in - ply // 2) if kind == "mate" and mate_in is not None else None
            problems += check_solver_ply(step, move, ply=ply, last=ply == len(moves) - 1, mate_left=left,
                                         variant=variant, budgets=budgets or BUDGETS)
        else:
            reply = step.get("reply")
            if not reply or reply[0] != move:
                problems.append(f"ply {ply + 1}: {move} is not the engine's best defence "
                                f"({reply[0] if reply else 'none stored'})")
    return problems


def _score(line: Line) -> str:
    return f"mate {line[2]}" if line[2] is not None else f"{line[1]} cp"
