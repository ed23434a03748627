"""``makruk-bot puzzles generate``: new puzzles from Fairy-Stockfish's games, proved before kept.

1. Candidate positions: the engine plays itself from the start after a few random plies, a
   strong side against a weak one that now and then picks its second or third choice, so
   games end in mates and blunders. The project's rules replay every move. Candidates are
   the positions where the game's search saw a mate or a clear win, and the winner's last
   turns before a mate, where no endgame count can matter (``verify.count_cannot_matter``).
2. A cheap screen: MultiPV 2 at ``screen_depth``: a mate in 1-4 that the second move does not
   match, or a material win clearly ahead of the second move.
3. The full check: every legal move ranked (MultiPV = all) at every solver move. A mate
   in N is kept when no other first move (and no other later move but the last) mates in N
   or fewer; a material win when the best move is ``gap_cp`` ahead of the second at every
   solver move. The defender's replies are the engine's best. The line is cut after the
   solver's move that settles the gain.
4. The project's own verifier (``verify.verify_puzzle``) must then prove it.

Runs append to the bank as they go and may be stopped at any time; the next run reads the
bank and fills what is still missing of each kind's quota.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from makruk import STARTING_FEN, Board, Move

from ..engines import EnginePosition, InfoLine, SyncUciEngine
from .bank import BANK_PATH, BankPuzzle, append_records, load_bank
from .themes import rating, tags
from .verify import MIN_GAIN, count_cannot_matter, material, settle, verify_puzzle

log = logging.getLogger(__name__)

DEFAULT_ENGINE = "/usr/games/fairy-stockfish"
# Share of each kind in the bank ("mate2" = mate in 2).
DEFAULT_MIX = {"mate1": 0.17, "mate2": 0.33, "mate3": 0.20, "mate4": 0.10, "material": 0.20}
MAX_MATE = 4
MAX_MATERIAL_SOLVER_MOVES = 3
# At most this share of the material puzzles is a single move a shallow search finds at once.
OBVIOUS_MATERIAL_SHARE = 0.3
OBVIOUS_DEPTH = 2
# A search this long is stopped and its position skipped (MultiPV over every move at depth 12
# takes seconds; this is for an engine that hangs).
SEARCH_SECONDS = 120.0


@dataclass(frozen=True)
class GenerateSettings:
    """Everything that shapes a run; recorded in the bank's run header."""

    target: int = 420
    mix: dict = field(default_factory=lambda: dict(DEFAULT_MIX))
    seed: int = 0
    threads: int = 1
    hash_mb: int = 64
    play_nodes: tuple[int, int] = (1500, 6000)  # the stronger side's budget per move
    weak_nodes: tuple[int, int] = (100, 700)  # the weaker side's: games must end in mates
    random_plies: tuple[int, int] = (2, 10)
    margin_cp: int = 40
    wild_rate: float = 0.12
    max_plies: int = 180
    screen_depth: int = 10
    material_depth: int = 12
    gap_cp: int = 200
    min_win_cp: int = 200
    found_depth_max: int = 14

    def quotas(self) -> dict[str, int]:
        return {kind: round(self.target * share) for kind, share in self.mix.items()}


@dataclass
class RunStats:
    games: int = 0
    positions: int = 0
    screened: int = 0
    checked: int = 0
    kept: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)


def generate(
    settings: GenerateSettings,
    *,
    bank: Path = BANK_PATH,
    engine_path: str = DEFAULT_ENGINE,
    max_games: int | None = None,
    max_seconds: float | None = None,
) -> RunStats:
    """Plays games and appends proved puzzles to ``bank`` until the quotas are full."""
    existing = load_bank(bank)
    have = Counter(_slot(p) for p in existing)
    have["obvious"] = sum(1 for p in existing if _obvious(p))
    seen = {_position_key(p.fen) for p in existing}
    quotas = settings.quotas()
    stats = RunStats()
    rng = random.Random(settings.seed)
    started = time.monotonic()
    run_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{settings.seed}"
    with SyncUciEngine(engine_path, options={"Threads": settings.threads, "Hash": settings.hash_mb}) as engine:
        engine.start()
        header = {
            "run": run_id,
            "engine": engine.id_name,
            "engine_path": engine_path,
            "variant": "makruk",
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "settings": asdict(settings),
        }
        append_records(bank, [header])
        while not _full(have, quotas):
            if max_games is not None and stats.games >= max_games:
                break
            if max_seconds is not None and time.monotonic() - started > max_seconds:
                break
            game_seed = rng.getrandbits(32)
            finder = _Finder(engine, settings, random.Random(game_seed), have, quotas, seen, stats)
            for puzzle in finder.play_and_search():
                puzzle = BankPuzzle(**{**puzzle.__dict__, "run": run_id})
                append_records(bank, [puzzle])
                have[_slot(puzzle)] += 1
                seen.add(_position_key(puzzle.fen))
                stats.kept[_slot(puzzle)] += 1
                log.info("kept %s %s (%s) rating %d: %s", puzzle.id, _slot(puzzle), " ".join(puzzle.moves),
                         puzzle.rating, ",".join(puzzle.themes))
            stats.games += 1
            log.info("game %d done (%.0f s): bank %s of %s; rejected %s", stats.games, time.monotonic() - started,
                     dict(have), quotas, dict(stats.rejected))
    return stats


def _obvious(p: BankPuzzle) -> bool:
    """A single winning move that a shallow search finds at once (usually a piece left hanging)."""
    return p.kind == "material" and len(p.moves) == 1 and p.extra.get("found_depth", 0) <= OBVIOUS_DEPTH


def _slot(p: BankPuzzle) -> str:
    return f"mate{p.mate_in}" if p.kind == "mate" else "material"


def _full(have: Counter, quotas: dict[str, int]) -> bool:
    return all(have[kind] >= n for kind, n in quotas.items())


def _position_key(fen: str) -> str:
    return " ".join(fen.split()[:2])


def puzzle_id(fen: str, first_move: str) -> str:
    digest = hashlib.sha1(f"{_position_key(fen)} {first_move}".encode()).hexdigest()
    return "mk" + digest[:8]


class _Finder:
    """One game and the puzzles found in it."""

    def __init__(self, engine: SyncUciEngine, settings: GenerateSettings, rng: random.Random,
                 have: Counter, quotas: dict[str, int], seen: set[str], stats: RunStats) -> None:
        self.engine = engine
        self.s = settings
        self.rng = rng
        self.have = have
        self.quotas = quotas
        self.seen = seen
        self.stats = stats

    def play_and_search(self):
        """Plays one game, then searches the positions worth a look, in order."""
        board = Board()
        moves: list[str] = []
        random_plies = self.rng.randint(*self.s.random_plies)
        strong = self.rng.choice((True, False))
        budget = {strong: self.rng.randint(*self.s.play_nodes), not strong: self.rng.randint(*self.s.weak_nodes)}
        positions: list[tuple[Board, list[InfoLine]]] = []
        while len(moves) < self.s.max_plies and not board.is_game_over():
            legal = board.legal_moves()
            if len(moves) < random_plies:
                move = self.rng.choice(legal)
            else:
                lines = self._lines(STARTING_FEN, moves, nodes=budget[board.turn], multipv=3)
                if not lines:
                    break
                self.stats.positions += 1
                if count_cannot_matter(board):  # later positions still lead to the mate at the end
                    positions.append((board.copy(), lines))
                move = Move.from_uci(self._choose(lines, wild=board.turn != strong))
                if move not in legal:
                    log.warning("engine move %s is illegal under our rules in %s; game ends", move, board.fen())
                    break
            board.push(move)
            moves.append(move.uci())
        # The winner's last moves before a mate hold the long mates a small budget sees late.
        mated = board.is_checkmate()
        final = {board.ply - i for i in range(1, 2 * (MAX_MATE + 2), 2)} if mated else set()
        skip_until = 0
        for position, lines in positions:
            if position.ply < skip_until:
                continue
            if position.ply in final or self._promising(position, lines):
                found = self._search(position)
                if found is not None:
                    skip_until = position.ply + 8  # the next puzzle comes from another phase of the game
                    yield found

    def _lines(self, fen: str, moves: Sequence[str] = (), *, multipv: int, depth: int | None = None,
               nodes: int | None = None) -> list[InfoLine]:
        """The engine's lines from the position after ``moves``, in its order; none if it overran."""
        result = self.engine.go(EnginePosition(fen, tuple(moves)), depth=depth, nodes=nodes, multipv=multipv,
                                timeout=SEARCH_SECONDS)
        if result.stopped:
            log.warning("the engine overran %.0f s in %s after %s; position skipped", SEARCH_SECONDS, fen, moves)
            return []
        return [line for line in result.lines if line.pv]

    def _choose(self, lines: list[InfoLine], *, wild: bool) -> str:
        best = lines[0]
        if best.mates:
            return best.pv[0]
        if wild and len(lines) > 1 and self.rng.random() < self.s.wild_rate:
            return self.rng.choice(lines[1:]).pv[0]
        near = [line for line in lines if line.value() >= best.value() - self.s.margin_cp]
        return self.rng.choice(near).pv[0]

    def _promising(self, board: Board, lines: list[InfoLine]) -> bool:
        best = lines[0]
        mate = _mate_in(best)
        if mate is not None:
            return mate <= MAX_MATE + 1
        # Material: only when the side to move is not already ahead (winning more is no puzzle).
        return (best.score_cp is not None and best.score_cp >= self.s.min_win_cp - 50
                and material(board, board.turn) <= 100)

    def _wanted(self, slot: str) -> bool:
        return self.have[slot] < self.quotas.get(slot, 0)

    def _search(self, board: Board) -> BankPuzzle | None:
        fen = _puzzle_fen(board)
        if _position_key(fen) in self.seen:
            return None
        self.stats.screened += 1
        lines = self._lines(fen, depth=self.s.screen_depth, multipv=2)
        if not lines:
            return None
        best = lines[0]
        second = lines[1] if len(lines) > 1 else None
        mate = _mate_in(best)
        if mate is not None and mate <= MAX_MATE:
            second_mate = _mate_in(second) if second is not None else None
            if second_mate is not None and second_mate <= mate:
                self.stats.rejected["screen: two mates"] += 1
                return None
            if not self._wanted(f"mate{mate}"):
                return None
            return self._mate(fen, mate)
        if best.mate is None and best.score_cp is not None and best.score_cp >= self.s.min_win_cp:
            if second is not None and best.value() - second.value() < self.s.gap_cp:
                return None
            if material(board, board.turn) > 100 or not self._wanted("material"):
                return None  # already ahead: winning more is no puzzle
            return self._material(fen)
        return None

    # --- mates ----------------------------------------------------------------------

    def _mate(self, fen: str, n: int) -> BankPuzzle | None:
        self.stats.checked += 1
        board = Board(fen)
        line: list[str] = []
        left = n
        while True:
            ranked = self._ranked(fen, line, depth=max(8, 2 * left + 4))
            mates = [(mate, r) for r in ranked if (mate := _mate_in(r)) is not None]
            if not mates:
                self.stats.rejected["mate: lost on the full check"] += 1
                return None
            shortest = min(mate for mate, _ in mates)
            if not line and shortest < n:
                n = left = shortest  # the deeper search found a shorter mate
                if not self._wanted(f"mate{n}"):
                    return None
            if shortest > left:
                self.stats.rejected["mate: defence holds longer"] += 1
                return None
            keeping = [r.pv[0] for mate, r in mates if mate <= left]
            if left > 1 and len(keeping) > 1:
                self.stats.rejected[f"mate: {len(keeping)} moves mate (solver move {len(line) // 2 + 1})"] += 1
                return None
            line.append(keeping[0])
            board.push(Move.from_uci(keeping[0]))
            if left == 1:
                break
            reply = self._lines(fen, line, depth=max(8, 2 * left + 4), multipv=1)
            if not reply:
                self.stats.rejected["mate: no reply"] += 1
                return None
            line.append(reply[0].pv[0])
            board.push(Move.from_uci(reply[0].pv[0]))
            left -= 1
        if not board.is_checkmate():
            self.stats.rejected["mate: not checkmate under our rules"] += 1
            return None
        return self._finish(fen, line, "mate", n)

    # --- material ---------------------------------------------------------------------

    def _material(self, fen: str) -> BankPuzzle | None:
        self.stats.checked += 1
        board = Board(fen)
        solver = board.turn
        before = material(board, solver)
        line: list[str] = []
        for solver_move in range(MAX_MATERIAL_SOLVER_MOVES):
            ranked = self._ranked(fen, line, depth=self.s.material_depth)
            if not ranked:
                return None
            best = ranked[0]
            if best.mate is not None:
                self.stats.rejected["material: a mate appeared"] += 1
                return None
            if best.score_cp is None or best.score_cp < self.s.min_win_cp:
                self.stats.rejected["material: not winning on the full check"] += 1
                return None
            if len(ranked) > 1 and best.value() - ranked[1].value() < self.s.gap_cp:
                self.stats.rejected[f"material: second move close (solver move {solver_move + 1})"] += 1
                return None
            line.append(best.pv[0])
            board.push(Move.from_uci(best.pv[0]))
            if -settle(board) - before >= MIN_GAIN:
                return self._finish(fen, line, "material", None)
            reply = self._lines(fen, line, depth=self.s.material_depth, multipv=1)
            if not reply or board.is_game_over():
                return None
            line.append(reply[0].pv[0])
            board.push(Move.from_uci(reply[0].pv[0]))
        self.stats.rejected["material: gain not settled in time"] += 1
        return None

    # --- shared -------------------------------------------------------------------------

    def _ranked(self, fen: str, line: Sequence[str], *, depth: int) -> list[InfoLine]:
        """Every legal move, ranked (MultiPV = the number of legal moves)."""
        board = Board(fen)
        for uci in line:
            board.push(Move.from_uci(uci))
        count = len(board.legal_moves())
        ranked = self._lines(fen, line, depth=depth, multipv=max(1, count))
        return sorted(ranked, key=lambda r: -r.value())

    def _found_depth(self, fen: str, first: str) -> int:
        """The shallowest depth from which a fresh search keeps choosing the first move."""
        self.engine.new_game()  # an empty hash: earlier searches of this position must not help
        search = self.engine.go(EnginePosition(fen, ()), depth=self.s.found_depth_max, timeout=SEARCH_SECONDS)
        # The main line's first move after each completed depth (bound reports are unfinished ones).
        by_depth = {info.depth: info.pv[0] for info in search.infos if info.multipv == 1 and info.exact and info.pv}
        found = self.s.found_depth_max + 1
        for depth in sorted(by_depth, reverse=True):
            if by_depth[depth] != first:
                break
            found = depth
        return found

    def _finish(self, fen: str, line: list[str], kind: str, mate_in: int | None) -> BankPuzzle | None:
        depth = self._found_depth(fen, line[0])
        if kind == "material" and len(line) == 1 and depth <= OBVIOUS_DEPTH and (
                self.have["obvious"] >= OBVIOUS_MATERIAL_SHARE * self.quotas.get("material", 0)):
            self.stats.rejected["material: enough obvious captures"] += 1
            return None
        puzzle = BankPuzzle(
            id=puzzle_id(fen, line[0]),
            fen=fen,
            moves=tuple(line),
            kind=kind,  # type: ignore[arg-type]
            mate_in=mate_in,
            rating=rating(fen, line, kind, mate_in, found_depth=depth),
            themes=tags(fen, line, kind, mate_in),
            extra={"found_depth": depth},
        )
        verdict = verify_puzzle(puzzle, exhaustive=MAX_MATE)
        if not verdict.ok:
            self.stats.rejected["verify: " + verdict.problems[0].split(":")[0][:40]] += 1
            log.info("verifier refused %s: %s", fen, "; ".join(verdict.problems))
            return None
        if _obvious(puzzle):
            self.have["obvious"] += 1
        return puzzle


def _mate_in(line: InfoLine) -> int | None:
    """The moves to the mate the side to move forces; None when it forces none."""
    return line.mate if line.mate is not None and line.mate > 0 else None


def _puzzle_fen(board: Board) -> str:
    """The position alone: no history, the half-move clock reset (no count is running)."""
    fields = board.fen().split()
    fields[4] = "0"
    return " ".join(fields)
