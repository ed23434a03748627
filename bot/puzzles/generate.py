"""``makruk-bot puzzles generate``: new puzzles for the family, accepted and proved before kept.

1. Candidates from Fairy-Stockfish's self-play at mixed levels (``selfplay.candidates``).
2. The acceptance (``engine_check.EngineCheck.build``): only moves at every solver move at two
   node budgets, the defender's best replies, a mate or a settled gain of two Bia.
3. The project's own rules replay the line and prove it (``verify.verify_puzzle``).

Resumable and incremental: each kept puzzle's engine output is appended to the variant's
verification file, then the puzzle to its bank file (each line written whole and synced), and
after every game the state file keeps the run's seed, each variant's game counter, its CPU time
and what was kept and refused. A run stopped at any time continues where it stopped; a game cut
short is played again from its own seed and its puzzles already kept are skipped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from makruk import Board, Move
from makruk.counting import fen_count

from ..engines import EnginePosition, SyncUciEngine
from .acceptance import BUDGETS
from .bank import BANK_PATH, BankPuzzle, append_records, bank_path, load_bank, verification_path
from .engine_check import EngineCheck, Rejected
from .selfplay import PlaySettings, candidates
from .themes import rating, tags
from .verify import EXHAUSTIVE_UP_TO, verify_puzzle

log = logging.getLogger(__name__)

DEFAULT_ENGINE = "/usr/games/fairy-stockfish"
# The targets per variant (Makruk's counts the re-verified puzzles of the old bank).
TARGETS = {"makruk": 600, "asean": 140, "cambodian": 120, "makpong": 90, "sittuyin": 80}
ID_PREFIX = {"makruk": "mk", "asean": "as", "cambodian": "ou", "makpong": "mp", "sittuyin": "st"}
WARMUP_SHARE = 0.1  # mates in 1 (warm-ups) at most this share of a variant's target
RACE_SHARE = 0.6  # counting races at most this share of a variant's target
FOUND_DEPTH_MAX = 14
SEARCH_SECONDS = 60.0


@dataclass(frozen=True)
class GenerateSettings:
    """What shapes a run; kept in the state file and each run's header line."""

    targets: dict = field(default_factory=lambda: dict(TARGETS))
    seed: int = 0
    threads: int = 1
    hash_mb: int = 16
    play: PlaySettings = field(default_factory=PlaySettings)


def generate(settings: GenerateSettings, *, directory: Path = BANK_PATH.parent, state_path: Path | None = None,
             engine_path: str = DEFAULT_ENGINE, max_seconds: float | None = None,
             max_games: int | None = None) -> dict:
    """Plays games of the variants still short of their target, in turn, until every target
    is met or a limit is reached; returns the state (also kept in ``state_path``)."""
    state_path = state_path or directory / "generate-state.json"
    state = _load_state(state_path, settings)
    banks = {v: load_bank(bank_path(v, directory)) for v in settings.targets}
    have = {v: len(bank) for v, bank in banks.items()}
    warmups = {v: sum(1 for p in bank if p.mate_in == 1) for v, bank in banks.items()}
    races = {v: sum(1 for p in bank if "countingRace" in p.themes) for v, bank in banks.items()}
    seen = {p.id for bank in banks.values() for p in bank}
    seen_positions = {key for bank in banks.values() for p in bank for key in _line_keys(p)}
    started = time.monotonic()
    games = 0
    with SyncUciEngine(engine_path, options={"Threads": settings.threads, "Hash": settings.hash_mb}) as engine:
        engine.start()
        check = EngineCheck(engine)
        run_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{state['seed']}"
        headed: set[str] = set()
        while True:
            short = [v for v, n in settings.targets.items() if have[v] < n]
            if not short or (max_games is not None and games >= max_games):
                break
            if max_seconds is not None and time.monotonic() - started > max_seconds:
                break
            # Games go to the variants in proportion to the puzzles each still needs.
            variant = min(short, key=lambda v: (state["games"].get(v, 0) + 1) / (settings.targets[v] - have[v]))
            counter = state["games"].get(variant, 0)
            cpu_before = _cpu_seconds()
            rng = random.Random(_game_seed(state["seed"], variant, counter))
            raced = False  # a counting race kept from this game (its next positions are the same ending)
            racing = races[variant] < RACE_SHARE * settings.targets[variant]
            for fen in candidates(engine, variant, rng, settings.play, races=racing):
                if _position_key(fen) in seen_positions or have[variant] >= settings.targets[variant]:
                    continue
                race = fen_count(fen) is not None
                if race and (raced or races[variant] >= RACE_SHARE * settings.targets[variant]):
                    continue  # one race a game, and no more than their share of the bank
                seen_positions.add(_position_key(fen))
                _count(state, variant, "candidates")
                puzzle = _accept(check, engine, fen, variant, run_id, state)
                if puzzle is None:
                    continue
                if puzzle.id in seen:
                    _refused(state, variant, "duplicate id")
                    continue
                if puzzle.mate_in == 1 and warmups[variant] >= WARMUP_SHARE * settings.targets[variant]:
                    _refused(state, variant, "warm-up: enough mates in 1")
                    continue
                record = {"id": puzzle.id, **puzzle.extra.pop("verification"), "engine": engine.id_name}
                append_records(verification_path(variant, directory), [record])
                bank = bank_path(variant, directory)
                if variant not in headed:  # the run's header before its first puzzle in this bank
                    headed.add(variant)
                    append_records(bank, [{"run": run_id, "engine": engine.id_name, "variant": variant,
                                           "budgets": list(BUDGETS), "seed": state["seed"],
                                           "started": datetime.now(UTC).isoformat(timespec="seconds")}])
                append_records(bank, [puzzle])
                seen.add(puzzle.id)
                seen_positions.update(_line_keys(puzzle))  # not again as the tail of this line
                have[variant] += 1
                warmups[variant] += puzzle.mate_in == 1
                races[variant] += race
                raced = raced or race
                _count(state, variant, "kept")
                log.info("kept %s %s %s (%s) rating %d: %s", variant, puzzle.id, puzzle.kind, " ".join(puzzle.moves),
                         puzzle.rating, ",".join(puzzle.themes))
            state["games"][variant] = counter + 1
            state["cpu_seconds"][variant] = state["cpu_seconds"].get(variant, 0.0) + _cpu_seconds() - cpu_before
            _save_state(state_path, state)
            games += 1
            log.info("%s game %d done: bank %s of %s", variant, counter + 1, have, settings.targets)
    return state


def puzzle_id(fen: str, first_move: str, variant: str = "makruk") -> str:
    digest = hashlib.sha1(f"{_position_key(fen)} {first_move}".encode()).hexdigest()
    return ID_PREFIX.get(variant, variant[:2]) + digest[:8]


def make_puzzle(check: EngineCheck, engine: SyncUciEngine, fen: str, variant: str, *,
                first: str | None = None, run: str | None = None) -> BankPuzzle:
    """The accepted and proved puzzle from ``fen``, with its verification record in
    ``extra["verification"]``; raises ``Rejected``."""
    built = check.build(fen, variant, first=first)
    depth = found_depth(engine, fen, variant, built.moves[0])
    puzzle = BankPuzzle(
        id=puzzle_id(fen, built.moves[0], variant),
        fen=fen,
        moves=built.moves,
        kind=built.kind,  # type: ignore[arg-type]
        mate_in=built.mate_in,
        rating=rating(fen, built.moves, built.kind, built.mate_in, found_depth=depth, variant=variant),
        themes=tags(fen, built.moves, built.kind, built.mate_in, variant=variant),
        run=run,
        variant=variant,
        extra={"found_depth": depth, "verification": built.record},
    )
    verdict = verify_puzzle(puzzle, exhaustive=EXHAUSTIVE_UP_TO)
    if not verdict.ok:
        raise Rejected(f"rules proof: refused ({verdict.problems[0]})")
    return puzzle


def found_depth(engine: SyncUciEngine, fen: str, variant: str, first: str) -> int:
    """The shallowest depth from which a fresh search keeps choosing the first move."""
    engine.new_game()
    search = engine.go(EnginePosition(fen, (), variant=variant), depth=FOUND_DEPTH_MAX, timeout=SEARCH_SECONDS)
    by_depth = {info.depth: info.pv[0] for info in search.infos if info.multipv == 1 and info.exact and info.pv}
    found = FOUND_DEPTH_MAX + 1
    for depth in sorted(by_depth, reverse=True):
        if by_depth[depth] != first:
            break
        found = depth
    return found


def yields(state: dict) -> dict[str, float]:
    """Puzzles kept per CPU-hour (this process and its engine) per variant."""
    return {v: round(n / (state["cpu_seconds"][v] / 3600), 2)
            for v, n in state.get("kept", {}).items() if state["cpu_seconds"].get(v)}


def _accept(check: EngineCheck, engine: SyncUciEngine, fen: str, variant: str, run: str,
            state: dict) -> BankPuzzle | None:
    try:
        return make_puzzle(check, engine, fen, variant, run=run)
    except Rejected as why:
        _refused(state, variant, why.reason)
        return None


def _refused(state: dict, variant: str, reason: str) -> None:
    by_reason = state["rejected"].setdefault(variant, {})
    by_reason[reason] = by_reason.get(reason, 0) + 1


def _count(state: dict, variant: str, what: str) -> None:
    state[what][variant] = state[what].get(variant, 0) + 1


def _game_seed(seed: int, variant: str, counter: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}/{variant}/{counter}".encode()).digest()[:8], "big")


def _position_key(fen: str) -> str:
    return " ".join(fen.split()[:2])


def _line_keys(puzzle: BankPuzzle) -> set[str]:
    """The positions of a puzzle's line before its last move."""
    board = Board(puzzle.fen, variant=puzzle.variant)
    keys = {_position_key(board.fen())}
    for uci in puzzle.moves[:-1]:
        board.push(Move.from_uci(uci))
        keys.add(_position_key(board.fen()))
    return keys


def _load_state(path: Path, settings: GenerateSettings) -> dict:
    if path.exists():
        state = json.loads(path.read_text(encoding="utf-8"))
    else:
        state = {"seed": settings.seed, "started": datetime.now(UTC).isoformat(timespec="seconds")}
    for key in ("games", "cpu_seconds", "candidates", "kept", "rejected"):
        state.setdefault(key, {})
    return state


def _save_state(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _cpu_seconds() -> float:
    """CPU time of this process and its running children (the engine), from /proc."""
    own = time.process_time()
    ticks = os.sysconf("SC_CLK_TCK")
    children: Sequence[str] = ()
    try:
        for task in Path(f"/proc/{os.getpid()}/task").iterdir():
            children = [*children, *(task / "children").read_text().split()]
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            own += (int(fields[11]) + int(fields[12])) / ticks
    except OSError:
        pass  # no /proc: the engine's time is not counted
    return own
