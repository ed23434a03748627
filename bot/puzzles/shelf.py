"""The banks a run fills, whatever its source of positions (``generate``: self-play; ``mine``:
real games): what they hold, and keeping a candidate that passes.

A candidate is offered with its variant. It is skipped when its position was seen (as a puzzle
or as a step of one) or its variant's bank is full, or when it is a counting race and the races
have their share. It is refused before the engine looks when the side to move mates at once and
the warm-ups (mates in 1) have their share; otherwise the acceptance
(``engine_check.EngineCheck.build``) and the rules' proof (``verify.verify_puzzle``) decide, and
a puzzle that repeats another's idea (``pattern``) is refused. A kept puzzle's engine output is
appended to the variant's verification file, then the puzzle to its bank (each line written
whole and synced), after a header naming the run before the run's first puzzle in that bank. ``play`` offers a
whole game's candidates (one counting race at most: a game's next positions are the same
ending) and counts the game.

The run's state (a JSON file) counts per variant the games, their CPU time, the candidates,
what was kept and why the rest was refused; ``yields`` reads the puzzles per CPU-hour from it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from makruk import Board, Move
from makruk.counting import fen_count

from ..engines import EnginePosition, SyncUciEngine
from .acceptance import BUDGETS
from .bank import BankPuzzle, append_records, bank_path, load_bank, verification_path
from .engine_check import EngineCheck, Rejected
from .themes import rating, tags
from .verify import EXHAUSTIVE_UP_TO, MateSearch, verify_puzzle

log = logging.getLogger(__name__)

DEFAULT_ENGINE = "/usr/games/fairy-stockfish"
# The targets per variant.
TARGETS = {"makruk": 600, "asean": 140, "cambodian": 120, "makpong": 90, "sittuyin": 80}
ID_PREFIX = {"makruk": "mk", "asean": "as", "cambodian": "ou", "makpong": "mp", "sittuyin": "st"}
WARMUP_SHARE = 0.1  # mates in 1 (warm-ups) at most this share of a variant's target
RACE_SHARE = 0.6  # counting races at most this share of a variant's target
FOUND_DEPTH_MAX = 14
SEARCH_SECONDS = 60.0


class Shelf:
    """The banks of ``targets``' variants in ``directory``, filled by one run."""

    def __init__(self, directory: Path, targets: dict[str, int], state: dict, engine: SyncUciEngine,
                 header: dict) -> None:
        self.directory = directory
        self.targets = targets
        self.state = state
        self.engine = engine
        self.check = EngineCheck(engine, look_ahead=True)
        self.run_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{header.get('seed', 'mine')}"
        self.header = header
        banks = {v: load_bank(bank_path(v, directory)) for v in targets}
        self.have = {v: len(bank) for v, bank in banks.items()}
        self.warmups = {v: sum(1 for p in bank if p.mate_in == 1) for v, bank in banks.items()}
        self.races = {v: sum(1 for p in bank if "countingRace" in p.themes) for v, bank in banks.items()}
        self.seen = {p.id for bank in banks.values() for p in bank}
        self.seen_positions = {key for bank in banks.values() for p in bank for key in line_keys(p)}
        self.patterns = {pattern(p) for bank in banks.values() for p in bank}
        self.headed: set[str] = set()

    def short(self) -> list[str]:
        """The variants still short of their target."""
        return [v for v, n in self.targets.items() if self.have[v] < n]

    def racing(self, variant: str) -> bool:
        """Whether the variant's counting races are still short of their share."""
        return self.races[variant] < RACE_SHARE * self.targets[variant]

    def play(self, variant: str, fens: Iterable[str], state_path: Path) -> None:
        """Offers one game's candidates (``fens``, lazily: the game is played or read as they
        come), one counting race at most (the game's next positions are the same ending); then
        counts the game and its CPU time and saves the state."""
        cpu_before = cpu_seconds()
        raced = False
        for fen in fens:
            kept = self.offer(fen, variant, raced=raced)
            raced = raced or (kept is not None and fen_count(fen) is not None)
        count(self.state, variant, "games")
        self.state["cpu_seconds"][variant] = self.state["cpu_seconds"].get(variant, 0.0) + cpu_seconds() - cpu_before
        save_state(state_path, self.state)

    def offer(self, fen: str, variant: str, *, raced: bool = False) -> BankPuzzle | None:
        """The puzzle kept from the candidate ``fen``, or None; ``raced``: a counting race was
        kept from the same game already (its next positions are the same ending)."""
        if position_key(fen) in self.seen_positions or self.have[variant] >= self.targets[variant]:
            return None
        race = fen_count(fen) is not None
        if race and (raced or not self.racing(variant)):
            return None
        self.seen_positions.add(position_key(fen))
        count(self.state, variant, "candidates")
        if self._warmups_full(variant) and MateSearch(Board(fen, variant=variant)).mates_in(1):
            refused(self.state, variant, "warm-up: enough mates in 1")  # before the engine's searches
            return None
        try:
            puzzle = make_puzzle(self.check, self.engine, fen, variant, run=self.run_id)
        except Rejected as why:
            refused(self.state, variant, why.reason)
            return None
        if puzzle.id in self.seen:
            refused(self.state, variant, "duplicate id")
            return None
        idea = pattern(puzzle)
        if idea in self.patterns:
            refused(self.state, variant, "repeat: another puzzle's line against the Khun on the same square")
            return None
        if puzzle.mate_in == 1 and self._warmups_full(variant):
            refused(self.state, variant, "warm-up: enough mates in 1")
            return None
        self._keep(puzzle, variant, race)
        self.patterns.add(idea)
        return puzzle

    def _warmups_full(self, variant: str) -> bool:
        return self.warmups[variant] >= WARMUP_SHARE * self.targets[variant]

    def _keep(self, puzzle: BankPuzzle, variant: str, race: bool) -> None:
        record = {"id": puzzle.id, **puzzle.extra.pop("verification"), "engine": self.engine.id_name}
        append_records(verification_path(variant, self.directory), [record])
        bank = bank_path(variant, self.directory)
        if variant not in self.headed:  # the run's header before its first puzzle in this bank
            self.headed.add(variant)
            append_records(bank, [{"run": self.run_id, "engine": self.engine.id_name, "variant": variant,
                                   "budgets": list(BUDGETS), **self.header,
                                   "started": datetime.now(UTC).isoformat(timespec="seconds")}])
        append_records(bank, [puzzle])
        self.seen.add(puzzle.id)
        self.seen_positions.update(line_keys(puzzle))  # not again as the tail of this line
        self.have[variant] += 1
        self.warmups[variant] += puzzle.mate_in == 1
        self.races[variant] += race
        count(self.state, variant, "kept")
        log.info("kept %s %s %s (%s) rating %d: %s", variant, puzzle.id, puzzle.kind, " ".join(puzzle.moves),
                 puzzle.rating, ",".join(puzzle.themes))


def puzzle_id(fen: str, first_move: str, variant: str = "makruk") -> str:
    digest = hashlib.sha1(f"{position_key(fen)} {first_move}".encode()).hexdigest()
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


def pattern(puzzle: BankPuzzle) -> tuple[str, tuple[str, ...], int]:
    """A puzzle's idea as a player sees it come again: its line, against the defending Khun on
    the same square (an opening trap's mate, from another game's pawns)."""
    board = Board(puzzle.fen, variant=puzzle.variant)
    return puzzle.variant, tuple(puzzle.moves), board.king(not board.turn)


def position_key(fen: str) -> str:
    return " ".join(fen.split()[:2])


def line_keys(puzzle: BankPuzzle) -> set[str]:
    """The positions of a puzzle's line before its last move."""
    board = Board(puzzle.fen, variant=puzzle.variant)
    keys = {position_key(board.fen())}
    for uci in puzzle.moves[:-1]:
        board.push(Move.from_uci(uci))
        keys.add(position_key(board.fen()))
    return keys


# The run's state file.

def load_state(path: Path, **first: object) -> dict:
    """The state kept in ``path``, or a new one holding ``first``."""
    if path.exists():
        state = json.loads(path.read_text(encoding="utf-8"))
    else:
        state = {**first, "started": datetime.now(UTC).isoformat(timespec="seconds")}
    for key in ("games", "cpu_seconds", "candidates", "kept", "rejected"):
        state.setdefault(key, {})
    return state


def save_state(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def yields(state: dict) -> dict[str, float]:
    """Puzzles kept per CPU-hour (this process and its engine) per variant."""
    return {v: round(n / (state["cpu_seconds"][v] / 3600), 2)
            for v, n in state.get("kept", {}).items() if state["cpu_seconds"].get(v)}


def refused(state: dict, variant: str, reason: str) -> None:
    by_reason = state["rejected"].setdefault(variant, {})
    by_reason[reason] = by_reason.get(reason, 0) + 1


def count(state: dict, variant: str, what: str) -> None:
    state[what][variant] = state[what].get(variant, 0) + 1


def cpu_seconds() -> float:
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
