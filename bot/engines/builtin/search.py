"""The built-in engine's search: iterative deepening, principal variation search (negamax with
alpha-beta), quiescence on captures and promotions, a transposition table, and move ordering
by the table's move, captures by MVV-LVA, killer moves and a history table.

It plays every variant of the rules core on its Board with push/pop (the evaluation's tables
and counting follow ``board.variant``); Sittuyin's deployment is the rules core's sound standard
arrangement (``standard_drop``), one drop a move, without a search. Inside the tree it uses the board's move
generator without the perpetual-check filter; the root uses the real ``legal_moves()``, so a
move it returns is always legal. Draws by repetition, counting and dead material score 0;
mates score ``MATE - plies``, so shorter mates are preferred.

>>> from makruk import Board
>>> result = Searcher().search(Board("4k3/R7/8/8/8/8/8/1R1K4 w - - 0 1"), Limits(depth=3))
>>> result.move, result.mate
('b1b8', 1)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from makruk import Board, Move
from makruk.counting import is_bare
from makruk.variants import SittuyinBoard

from .evaluation import (
    BIA,
    BLACK_OFFSET,
    ORDER_VALUE,
    counts_by_itself,
    evaluate,
    hand_value,
    move_delta,
    promotion_gain,
    scores,
    tables_for,
)

INF = 10_000_000
MATE = 1_000_000
MATE_BOUND = MATE - 1_000
MAX_PLY = 96
EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 200_000  # entries (about 40 MB); the table is cleared when it grows past this
CHECK_EVERY = 256  # nodes between looks at the clock
MAX_FIFTY = 1 << 30  # no n-move rule (Makruk's family)


@dataclass(frozen=True)
class Limits:
    """When to stop: the first of depth, seconds and nodes that is reached."""

    depth: int = MAX_PLY
    seconds: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class SearchResult:
    move: str
    score: int  # centipawns for the side to move; mates as +-(MATE - plies)
    pv: tuple[str, ...]
    depth: int
    nodes: int
    seconds: float
    root_scores: tuple[tuple[str, int], ...] = field(default=())  # only with ``all_root_scores``

    @property
    def mate(self) -> int | None:
        """Moves to mate (negative: being mated), or None."""
        return mate_in(self.score)


def mate_in(score: int) -> int | None:
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score) // 2)
    return None


class _Stop(Exception):
    """The time or node budget ran out in the middle of an iteration."""


class Searcher:
    """One search at a time; keeps its transposition table between searches."""

    def __init__(self, tt: dict | None = None) -> None:
        self.tt: dict = {} if tt is None else tt

    def search(self, board: Board, limits: Limits, *, all_root_scores: bool = False) -> SearchResult:
        """The best move of ``board`` (whose game must go on) within ``limits``.

        With ``all_root_scores`` every root move gets an exact score (slower; weak levels
        pick among the near-best moves with them).
        """
        root_moves = board.legal_moves()
        if not root_moves:
            raise ValueError(f"no legal move in {board.fen()}")
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        self.board = board
        self.nodes = 0
        self.start = time.perf_counter()
        self.tables = tables_for(board.variant)
        self.mg, self.eg = scores(board, self.tables)
        if isinstance(board, SittuyinBoard) and board.in_deployment():
            drop = board.standard_drop()
            if drop is not None:
                return self._deployed(drop)
        self.declares = not counts_by_itself(board)  # a bare Khun in the tree declares the count
        self.fifty = 2 * board.move_rule if board.move_rule else MAX_FIFTY  # the n-move rule, in plies
        # Sittuyin's Bia stand in contact from the deployment on: long chains of captures would
        # swamp the quiescence search, which therefore leaves out the captures that lose at once.
        self.skip_losing_captures = isinstance(board, SittuyinBoard)
        self.deadline = self.start + limits.seconds if limits.seconds is not None else math.inf
        self.node_limit = limits.nodes if limits.nodes is not None else math.inf
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history: dict[tuple[int, int], int] = {}
        self._stack: list[tuple[int, int]] = []

        best_move, best_score, pv, depth_done = root_moves[0], -INF, [root_moves[0]], 0
        root_scores: dict[Move, int] = {}
        max_depth = max(1, min(limits.depth, MAX_PLY // 2))
        for depth in range(1, max_depth + 1):
            try:
                if all_root_scores:
                    score, move, root_scores = self._root_all(root_moves, depth)
                else:
                    score, move = self._root(root_moves, depth, best_move if depth > 1 else None)
            except _Stop:
                if self._partial is not None and depth_done:
                    best_move, best_score = self._partial
                    pv = [best_move, *self._pv_after(best_move)]
                break
            best_move, best_score, depth_done = move, score, depth
            pv = self._pv_line(best_move)
            elapsed = time.perf_counter() - self.start
            if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                break  # a mate was found within the full-width horizon
            if len(root_moves) == 1 and depth >= 2:
                break
            if limits.seconds is not None and elapsed > 0.45 * limits.seconds:
                break  # the next iteration would not finish
        if best_score == -INF:  # not even depth 1 finished: judge the moves statically
            best_move, best_score = self._static_choice(root_moves)
            pv = [best_move]
        return SearchResult(
            move=best_move.uci(),
            score=best_score,
            pv=tuple(m.uci() for m in pv),
            depth=depth_done,
            nodes=self.nodes,
            seconds=time.perf_counter() - self.start,
            root_scores=tuple((m.uci(), s) for m, s in root_scores.items()),
        )

    def _deployed(self, drop: Move) -> SearchResult:
        """Sittuyin's deployment: the standard arrangement's next drop, valued with the hands."""
        self._stack = []
        self._make(drop)
        score = -evaluate(self.board, self.mg, self.eg) - hand_value(self.board)
        self._unmake()
        return SearchResult(move=drop.uci(), score=score, pv=(drop.uci(),), depth=0, nodes=1,
                            seconds=time.perf_counter() - self.start)

    # --- the root ---------------------------------------------------------------------

    def _root(self, moves: list[Move], depth: int, previous: Move | None) -> tuple[int, Move]:
        self._partial = None
        ordered = self._order(moves, 0, previous or self._tt_move())
        alpha, beta = -INF, INF
        best_move = ordered[0]
        for i, move in enumerate(ordered):
            self._make(move)
            try:
                if i == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, 1, True)
                else:
                    score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1, False)
                    if score > alpha:
                        score = -self._negamax(depth - 1, -beta, -alpha, 1, True)
            finally:
                self._unmake()
            if score > alpha:
                alpha, best_move = score, move
                self._partial = (move, score)
        self._store(0, depth, alpha, EXACT, best_move)
        return alpha, best_move

    def _root_all(self, moves: list[Move], depth: int) -> tuple[int, Move, dict[Move, int]]:
        self._partial = None
        found: dict[Move, int] = {}
        best_move, best = moves[0], -INF
        for move in self._order(moves, 0, self._tt_move()):
            self._make(move)
            try:
                score = -self._negamax(depth - 1, -INF, INF, 1, True)
            finally:
                self._unmake()
            found[move] = score
            if score > best:
                best, best_move = score, move
                self._partial = (move, score)
        self._store(0, depth, best, EXACT, best_move)
        return best, best_move, found

    def _static_choice(self, moves: list[Move]) -> tuple[Move, int]:
        best, best_score = moves[0], -INF
        for move in moves:
            self._make(move)
            score = -evaluate(self.board, self.mg, self.eg)
            self._unmake()
            if score > best_score:
                best, best_score = move, score
        return best, best_score

    # --- the tree ---------------------------------------------------------------------

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int, is_pv: bool) -> int:
        board = self.board
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check_budget()
        if board.is_repetition(2):
            return 0  # the position occurred before (in the game or the search line): a draw
        in_check = board.checkers_mask
        if in_check:
            depth += 1  # look further into checks: mates hide behind them
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply, 0)

        # Mate-distance pruning: no line from here beats a mate already found closer to the root.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha

        key = board.transposition_key()
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth and not is_pv:
                e_score = _from_tt(e_score, ply)
                if flag == EXACT or (flag == LOWER and e_score >= beta) or (flag == UPPER and e_score <= alpha):
                    return e_score

        moves = board.generate_moves()
        if not moves:
            return -MATE + ply if in_check else 0
        count = board.count
        if count is not None and count.expired:
            return 0
        if board.halfmove_clock >= self.fifty:
            return 0  # ASEAN's and Sittuyin's 50-move rule (a mate on its last move still wins)

        declared = self._declare_if_bare()
        try:
            if declared is not None and declared <= 0:
                return 0
            return self._moves(moves, depth, alpha, beta, ply, is_pv, in_check, key, tt_move)
        finally:
            if declared is not None:
                self._undeclare()

    def _moves(self, moves, depth, alpha, beta, ply, is_pv, in_check, key, tt_move) -> int:
        board = self.board
        squares = board.piece_codes
        static = None
        if not is_pv and not in_check and abs(beta) < MATE_BOUND:
            static = evaluate(board, self.mg, self.eg)
            if depth <= 2 and static - 120 * depth >= beta:
                return static  # reverse futility: far above beta, quiet moves will not drop it
        futile = static is not None and depth == 1 and static + 250 <= alpha

        original_alpha = alpha
        best_score, best_move = -INF, None
        killers = self.killers[ply]
        for i, move in enumerate(self._order(moves, ply, tt_move)):
            quiet = not squares[move.to_square] and not move.promotion
            self._make(move)
            gives_check = board.checkers_mask
            try:
                if futile and quiet and not gives_check and i > 0:
                    continue
                if i == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, is_pv)
                else:
                    reduction = 0
                    if depth >= 3 and i >= 3 and quiet and not in_check and not gives_check \
                            and move is not killers[0] and move is not killers[1]:
                        reduction = 1 if i < 8 else 2
                    score = -self._negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, False)
                    if score > alpha and reduction:
                        score = -self._negamax(depth - 1, -alpha - 1, -alpha, ply + 1, False)
                    if score > alpha and score < beta:
                        score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                self._unmake()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            if killers[0] is not move:
                                killers[1], killers[0] = killers[0], move
                            hkey = (squares[move.from_square], move.to_square)
                            self.history[hkey] = self.history.get(hkey, 0) + depth * depth
                        break
        if best_move is None:  # every move was pruned as futile
            return alpha
        flag = LOWER if best_score >= beta else EXACT if best_score > original_alpha else UPPER
        self._store_key(key, depth, best_score, flag, best_move, ply)
        return best_score

    def _quiesce(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        board = self.board
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check_budget()
        in_check = board.checkers_mask
        count = board.count
        if not in_check:
            if count is not None and count.expired:
                return 0
            stand = evaluate(board, self.mg, self.eg)
            if stand >= beta or ply >= MAX_PLY:
                return stand
            if stand > alpha:
                alpha = stand
        elif ply >= MAX_PLY or qply > 8:
            return evaluate(board, self.mg, self.eg)
        if in_check:
            moves = board.generate_moves()
            if not moves:
                return -MATE + ply
            if count is not None and count.expired:
                return 0
            best = -INF
            ordered = self._order(moves, ply, None)
        else:
            squares = board.piece_codes
            ordered = []
            skip_losing = self.skip_losing_captures
            for move in board.generate_tactical_moves():
                victim = ORDER_VALUE[squares[move.to_square]]
                gain = promotion_gain(board, move) if move.promotion else 0
                if stand + victim + 200 + gain <= alpha:
                    continue  # delta pruning: even winning this piece cannot lift the score to alpha
                if skip_losing and not gain and ORDER_VALUE[squares[move.from_square]] > victim + 50 \
                        and board.attackers_mask(not board.turn, move.to_square):
                    continue  # a bigger piece takes a defended smaller one
                ordered.append(move)
            ordered.sort(
                key=lambda m: ORDER_VALUE[squares[m.to_square]] * 16 - ORDER_VALUE[squares[m.from_square]] // 64,
                reverse=True,
            )
            best = stand
        for move in ordered:
            self._make(move)
            try:
                score = -self._quiesce(-beta, -alpha, ply + 1, qply + 1)
            finally:
                self._unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # --- counting ---------------------------------------------------------------------

    def _declare_if_bare(self) -> int | None:
        """A bare Khun to move declares the pieces' honour count; returns the limit or None."""
        board = self.board
        bitboards = board.bitboards
        if board.count is not None or bitboards[BIA] or bitboards[BIA + BLACK_OFFSET]:  # a count runs, or a Bia is left
            return None
        if not self.declares:
            return None  # ASEAN's and Sittuyin's count starts by itself
        if not is_bare(board.piece_codes, board.turn) or is_bare(board.piece_codes, not board.turn):
            return None
        return board.declare_count().limit

    def _undeclare(self) -> None:
        self.board.stop_count()  # the declaring side, still to move, takes the count back

    # --- making moves, ordering, the table --------------------------------------------

    def _make(self, move: Move) -> None:
        d_mg, d_eg = move_delta(self.board, move, self.tables)
        self._stack.append((self.mg, self.eg))
        self.mg += d_mg
        self.eg += d_eg
        self.board.push(move)

    def _unmake(self) -> None:
        self.board.pop()
        self.mg, self.eg = self._stack.pop()

    def _order(self, moves: list[Move], ply: int, tt_move: Move | None) -> list[Move]:
        squares = self.board.piece_codes
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history

        def rank(move: Move) -> int:
            if move is tt_move:
                return 1 << 30
            victim = squares[move.to_square]
            if victim:
                return (1 << 24) + ORDER_VALUE[victim] * 16 - ORDER_VALUE[squares[move.from_square]] // 64
            if move.promotion:
                return 1 << 23
            if move is killers[0]:
                return 1 << 22
            if move is killers[1]:
                return (1 << 22) - 1
            return history.get((squares[move.from_square], move.to_square), 0)

        return sorted(moves, key=rank, reverse=True)

    def _tt_move(self) -> Move | None:
        entry = self.tt.get(self.board.transposition_key())
        return entry[3] if entry else None

    def _store(self, ply: int, depth: int, score: int, flag: int, move: Move) -> None:
        self._store_key(self.board.transposition_key(), depth, score, flag, move, ply)

    def _store_key(self, key, depth: int, score: int, flag: int, move: Move, ply: int) -> None:
        entry = self.tt.get(key)
        if entry is None or entry[0] <= depth or flag == EXACT:
            self.tt[key] = (depth, flag, _to_tt(score, ply), move)

    def _pv_line(self, first: Move) -> list[Move]:
        return [first, *self._pv_after(first)]

    def _pv_after(self, first: Move) -> list[Move]:
        """The expected continuation after ``first``, read from the table (legal moves only)."""
        board = self.board
        line: list[Move] = []
        board.push(first)
        seen = {board.transposition_key()}
        try:
            while len(line) < 16:
                entry = self.tt.get(board.transposition_key())
                if entry is None or entry[3] is None or entry[3] not in board.generate_moves():
                    break
                board.push(entry[3])
                line.append(entry[3])
                key = board.transposition_key()
                if key in seen:
                    break
                seen.add(key)
        finally:
            for _ in range(len(line) + 1):
                board.pop()
        return line

    def _check_budget(self) -> None:
        if self.nodes >= self.node_limit or time.perf_counter() >= self.deadline:
            raise _Stop


def _to_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def pick_near_best(result: SearchResult, spread: int, rng: random.Random) -> str:
    """A move among those within ``spread`` centipawns of the best, nearer ones likelier."""
    if spread <= 0 or not result.root_scores:
        return result.move
    best = max(score for _, score in result.root_scores)
    if best >= MATE_BOUND:
        return result.move  # a weak level still plays a mate it has seen
    candidates = [(uci, score) for uci, score in result.root_scores if score >= best - spread]
    weights = [math.exp(-3.0 * (best - score) / spread) for _, score in candidates]
    return rng.choices([uci for uci, _ in candidates], weights)[0]
