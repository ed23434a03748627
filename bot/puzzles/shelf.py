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

Several runs (processes, each with its own state file) may fill the same banks: a run keeps a
puzzle holding a lock on its bank file, having first read what the others appended since it
last looked, so the targets, the shares and the checks for a repeat hold for all of them
together; it also reads the others' puzzles before each candidate, to spend no search on a
full bank or share.

The run's state (a JSON file) counts per variant the games, their CPU time, the candidates,
what was kept and why the rest was refused; ``yields`` reads the puzzles per CPU-hour from it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from makruk import Board, Move
from makruk.counting import fen_count

from ..engines import EnginePosition, SyncUciEngine
from .acceptance import BUDGETS
from .bank import BankPuzzle, append_records, bank_path, parse_records, puzzles_in, verification_path
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
        self.have = dict.fromkeys(targets, 0)
        self.warmups = dict.fromkeys(targets, 0)
        self.races = dict.fromkeys(targets, 0)
        self.seen: set[str] = set()
        self.seen_positions: set[str] = set()
        self.patterns: set[tuple[str, tuple[str, ...], int]] = set()
        self.headed: set[str] = set()
        self._read: dict[str, tuple[int, int]] = {}  # per bank file read: its inode, how far
        for variant in targets:
            path = bank_path(variant, directory)
            if not path.exists():
                continue  # made with the first puzzle kept, not before
            with locked(path):  # no run is writing: a last line without its end was cut off
                self._catch_up(variant)
                if path.stat().st_size != self._read[variant][1]:
                    raise ValueError(f"{path}: the last line is cut off (a run stopped while writing it); "
                                     "remove it")

    def short(self) -> list[str]:
        """The variants still short of their target (other runs' puzzles counted)."""
        for variant in self.targets:
            self._catch_up(variant)
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
        self._catch_up(variant)
        if position_key(fen) in self.seen_positions or self.have[variant] >= self.targets[variant]:
            return None
        if fen_count(fen) is not None and (raced or not self.racing(variant)):
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
        with locked(bank_path(variant, self.directory)):
            arrived = self._catch_up(variant)  # what other runs kept while this one searched
            reason = self._refusal(puzzle, variant, arrived)
            if reason is not None:
                refused(self.state, variant, reason)
                return None
            self._keep(puzzle, variant)
        return puzzle

    def _refusal(self, puzzle: BankPuzzle, variant: str, arrived: set[str]) -> str | None:
        """Why the bank, as it is now, cannot take ``puzzle``; None if it can. ``arrived``: the
        positions of the lines other runs kept during its search."""
        if puzzle.id in self.seen:
            return "duplicate id"
        if position_key(puzzle.fen) in arrived:
            return "seen: on the line of another run's puzzle"
        if pattern(puzzle) in self.patterns:
            return "repeat: another puzzle's line against the Khun on the same square"
        if self.have[variant] >= self.targets[variant]:
            return "full: other runs filled the bank"
        if puzzle.mate_in == 1 and self._warmups_full(variant):
            return "warm-up: enough mates in 1"
        if "countingRace" in puzzle.themes and not self.racing(variant):
            return "race: enough counting races"
        return None

    def _warmups_full(self, variant: str) -> bool:
        return self.warmups[variant] >= WARMUP_SHARE * self.targets[variant]

    def _keep(self, puzzle: BankPuzzle, variant: str) -> None:
        record = {"id": puzzle.id, **puzzle.extra.pop("verification"), "engine": self.engine.id_name}
        append_records(verification_path(variant, self.directory), [record])
        bank = bank_path(variant, self.directory)
        if variant not in self.headed:  # the run's header before its first puzzle in this bank
            self.headed.add(variant)
            append_records(bank, [{"run": self.run_id, "engine": self.engine.id_name, "variant": variant,
                                   "budgets": list(BUDGETS), **self.header,
                                   "started": datetime.now(UTC).isoformat(timespec="seconds")}])
        append_records(bank, [puzzle])
        self._catch_up(variant)  # counts it, as any puzzle read from the bank
        count(self.state, variant, "kept")
        log.info("kept %s %s %s (%s) rating %d: %s", variant, puzzle.id, puzzle.kind, " ".join(puzzle.moves),
                 puzzle.rating, ",".join(puzzle.themes))

    def _catch_up(self, variant: str) -> set[str]:
        """Counts the puzzles appended to the variant's bank since it was last read, and returns
        the positions of their lines. Whole lines only: another run may be writing one."""
        path = bank_path(variant, self.directory)
        inode, offset = self._read.get(variant, (0, 0))
        try:
            with path.open("rb") as f:
                now = os.fstat(f.fileno())
                if offset and (now.st_ino != inode or now.st_size < offset):
                    raise BankRewritten(f"{path} was rewritten by another command (verify --prune, accept) "
                                        "while this run went on; start the run again")
                f.seek(offset)
                new = f.read()
        except FileNotFoundError:
            return set()
        new = new[:new.rfind(b"\n") + 1]
        self._read[variant] = (now.st_ino, offset + len(new))
        lines = new.decode("utf-8").split("\n")  # its own line ends only, as the bank writes them
        positions: set[str] = set()
        for puzzle in puzzles_in(parse_records(lines, f"{path} (from byte {offset})")):
            positions |= self._note(puzzle, variant)
        return positions

    def _note(self, puzzle: BankPuzzle, variant: str) -> set[str]:
        """Counts a puzzle of the bank; returns the positions of its line."""
        self.have[variant] += 1
        self.warmups[variant] += puzzle.mate_in == 1
        self.races[variant] += "countingRace" in puzzle.themes
        self.seen.add(puzzle.id)
        keys = line_keys(puzzle)
        self.seen_positions.update(keys)  # not again as the tail of a line
        self.patterns.add(pattern(puzzle))
        return keys


class BankRewritten(RuntimeError):
    """A bank file a run reads was replaced under it."""


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Holds an exclusive lock on ``path`` (made if missing) against other runs."""
    with path.open("a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


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
