"""Proofs of the bank's puzzles with the project's own rules core: no engine is trusted.

Every puzzle is replayed under the project's rules (each move legal, no position repeated, the
game not over before the end, no endgame count that could matter, unless the puzzle is set under
one: then it is a mate in exactly the count's moves, and the proof below that no other move mates
in the moves left is what makes the count's race unique). A mate puzzle must end in
checkmate, and an exhaustive search (``MateSearch``) shows that the first move is the only
one that forces mate in N or fewer (for N up to ``EXHAUSTIVE_UP_TO``; beyond, that it forces
the mate and no shorter mate exists), that every later solver move but the last is the only
one that keeps the mate, and that the defender's replies hold out longest. A material puzzle
must win at least ``MIN_GAIN`` after the best captures of both sides (``settle``).

>>> from makruk import Board
>>> search = MateSearch(Board("6k1/8/6K1/8/8/8/8/R7 w - - 0 1"))
>>> [m.uci() for m in search.mating_moves(1)]
['a1a8']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from makruk import Board, MakrukError, Move, PieceType
from makruk import attacks as A
from makruk.counting import has_unpromoted_bia

from .bank import KNOWN_THEMES, BankPuzzle
from .counting import PuzzleCount, is_rules_count, puzzle_count

# Mates in this many moves or fewer have every solver move but the last proved unique by
# exhaustive search (a mate in 4 takes a few seconds, a mate in 3 a fraction of one).
EXHAUSTIVE_UP_TO = 4
MIN_GAIN = 200  # a material puzzle wins at least this much (a Bia is 100)
MIN_PIECES_WITHOUT_BIA = 3  # without an unpromoted Bia, each side keeps this many pieces besides its Khun

VALUES = {
    PieceType.BIA: 100,
    PieceType.BIA_NGAI: 150,
    PieceType.MET: 150,
    PieceType.KHON: 250,
    PieceType.MA: 300,
    PieceType.RUA: 500,
    PieceType.KHUN: 0,
}
MATE_VALUE = 100_000


@dataclass(frozen=True)
class Verdict:
    """What the verifier found about one puzzle; no problems means proved."""

    puzzle_id: str
    problems: tuple[str, ...]
    nodes: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_bank(puzzles: Sequence[BankPuzzle], *, workers: int | None = None,
                exhaustive: int = EXHAUSTIVE_UP_TO) -> list[Verdict]:
    """Every puzzle's verdict, in order; with ``workers`` > 1 the proofs run in processes."""
    workers = workers or min(2, os.cpu_count() or 1)
    ids = [p.id for p in puzzles]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if workers <= 1 or len(puzzles) < 8:
        verdicts = [verify_puzzle(p, exhaustive=exhaustive) for p in puzzles]
    else:
        # Longest proofs first, so that no worker is left with a slow one at the end.
        order = sorted(range(len(puzzles)), key=lambda i: -(puzzles[i].mate_in or 0))
        with ProcessPoolExecutor(workers) as pool:
            done = pool.map(partial(verify_puzzle, exhaustive=exhaustive), [puzzles[i] for i in order])
            by_index = dict(zip(order, done, strict=True))
        verdicts = [by_index[i] for i in range(len(puzzles))]
    return [
        Verdict(v.puzzle_id, (*v.problems, "duplicate id"), v.nodes) if v.puzzle_id in duplicates else v
        for v in verdicts
    ]


def verify_puzzle(puzzle: BankPuzzle, *, exhaustive: int = EXHAUSTIVE_UP_TO) -> Verdict:
    """Replays and proves one puzzle (see the module's docstring)."""
    problems: list[str] = []
    nodes = 0
    try:
        problems += _check_record(puzzle)
        board = Board(puzzle.fen, variant=puzzle.variant)
        count = puzzle_count(puzzle.fen, puzzle.variant)
        if count is not None:
            problems += _check_race(puzzle, board, count)
        problems += _check_line(board, puzzle.moves, counted=count is not None)
        if not problems:
            if puzzle.kind == "mate" and puzzle.variant != "makruk":
                # MateSearch reads checks off Makruk's attack tables; the other variants' mates
                # are replayed to the checkmate, their uniqueness shown by the stored engine output.
                if not board.is_checkmate():
                    problems.append("the line does not end in checkmate")
            elif puzzle.kind == "mate":
                found, nodes = _prove_mate(Board(puzzle.fen), puzzle.moves, puzzle.mate_in or 0, exhaustive)
                problems += found
            else:
                problems += _prove_material(Board(puzzle.fen, variant=puzzle.variant), puzzle.moves)
    except MakrukError as error:
        problems.append(f"rules error: {error}")
    return Verdict(puzzle.id, tuple(problems), nodes)


def _check_record(p: BankPuzzle) -> list[str]:
    problems = []
    if not p.moves or len(p.moves) % 2 == 0:
        problems.append(f"the line must end on the solver's move, got {len(p.moves)} plies")
    if p.kind == "mate":
        if p.mate_in is None or not 1 <= p.mate_in <= 8:
            problems.append(f"bad mate_in {p.mate_in!r}")
        elif len(p.moves) != 2 * p.mate_in - 1:
            problems.append(f"mate in {p.mate_in} needs {2 * p.mate_in - 1} plies, got {len(p.moves)}")
    elif p.kind == "material":
        if p.mate_in is not None:
            problems.append("a material puzzle has no mate_in")
    else:
        problems.append(f"unknown kind {p.kind!r}")
    unknown = set(p.themes) - KNOWN_THEMES
    if unknown:
        problems.append(f"unknown themes {sorted(unknown)}")
    if not 400 <= p.rating <= 3000:
        problems.append(f"rating {p.rating} out of range")
    return problems


def _check_race(p: BankPuzzle, board: Board, count: PuzzleCount) -> list[str]:
    """A counting race: a mate in exactly the count's moves, under a count the rules can have
    running there, where without it no count could matter."""
    problems = []
    if p.kind != "mate" or p.mate_in != count.moves_left:
        problems.append(f"a count of {count.moves_left} moves set on a {p.kind} puzzle in {p.mate_in}")
    if not is_rules_count(p.fen, p.variant):
        problems.append("the count is not one the rules can have running here")
    if count_cannot_matter(board):
        problems.append("a count set where none could matter")
    return problems


def _check_line(board: Board, moves: Sequence[str], *, counted: bool = False) -> list[str]:
    """Each move legal under the project's rules; nothing ends the game early or repeats; no
    count can matter unless the puzzle is set under one (``counted``)."""
    if not counted and not count_cannot_matter(board):
        return ["no unpromoted Bia and too little material: an endgame count could matter"]
    seen = {(board.placement(), board.turn)}
    for ply, uci in enumerate(moves):
        outcome = board.outcome()
        if outcome is not None:
            return [f"the game is over ({outcome.reason}) before ply {ply + 1}"]
        try:
            move = Move.from_uci(uci)
        except MakrukError:
            return [f"ply {ply + 1}: {uci!r} is not a UCI move"]
        if move not in board.legal_moves():
            return [f"ply {ply + 1}: {uci} is illegal in {board.fen()}: {board.why_illegal(move)}"]
        board.push(move)
        position = (board.placement(), board.turn)
        if position in seen:
            return [f"ply {ply + 1}: {uci} repeats a position"]
        seen.add(position)
    return []


def count_cannot_matter(board: Board) -> bool:
    """No endgame count can matter: an unpromoted Bia is on the board, or both sides keep
    enough pieces. (Fairy-Stockfish counts on its own; the project's rules count on declaration.)"""
    placement = board.placement()
    return has_unpromoted_bia(placement) or all(
        _piece_count(placement, white) >= MIN_PIECES_WITHOUT_BIA for white in (True, False)
    )


def _piece_count(placement: Sequence[int], white: bool) -> int:
    khun = int(PieceType.KHUN)
    return sum(1 for code in placement if code and (code < 8) == white and code & 7 != khun)


# --- mate puzzles -----------------------------------------------------------------------

def _prove_mate(board: Board, moves: Sequence[str], n: int, exhaustive: int) -> tuple[list[str], int]:
    """The line mates; each solver move but the last is the only one that keeps the mate in
    the moves left; the defence holds out longest. Uniqueness is searched exhaustively with
    up to ``exhaustive`` moves left; with more, the move is only proved to force the mate."""
    search = MateSearch(board)
    line = [Move.from_uci(u) for u in moves]
    if search.mates_in(n - 1):
        return [f"there is a mate in fewer than {n}"], search.nodes
    for ply, move in enumerate(line):
        left = n - ply // 2  # solver moves left, this one included
        if ply % 2 == 0 and left > 1:
            problem = _only_mating_move(search, move, left, unique=left <= exhaustive)
            if problem:
                return [f"ply {ply + 1}: {problem}"], search.nodes
        elif ply == 0 and len(search.mating_moves(1)) > 1:
            return ["more than one move mates in 1"], search.nodes
        board.push(move)
        if ply % 2 == 1 and left - 2 >= 1 and search.mates_in(left - 2):
            # The reply let the solver mate sooner: the defence was not the longest.
            return [f"ply {ply + 1}: {move.uci()} allows a mate in {left - 2}"], search.nodes
    if not board.is_checkmate():
        return ["the line does not end in checkmate"], search.nodes
    return [], search.nodes


def _only_mating_move(search: MateSearch, move: Move, left: int, *, unique: bool) -> str | None:
    if unique:
        mating = search.mating_moves(left)
        if move not in mating:
            return f"{move.uci()} does not force mate in {left}"
        if len(mating) > 1:
            return ", ".join(m.uci() for m in mating if m != move) + f" also mate in {left} or fewer"
        return None
    if not search.forces_mate(move, left):
        return f"{move.uci()} does not force mate in {left}"
    return None


class MateSearch:
    """Exhaustive search for forced mates from a board (which it changes and restores).

    In Makruk a mate is given with a check, so the last solver move tries checks only;
    earlier ones try every move, checks first. The defender tries every reply, the one that
    refuted last time first. Results are cached per position and depth.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.nodes = 0
        # Per position (placement, side to move): (deepest depth known to fail, shallowest known to
        # succeed). A mate in k is a mate in k + 1 too, so one entry answers other depths.
        self._attack_known: dict[tuple, tuple[int, int]] = {}
        self._defence_known: dict[tuple, tuple[int, int]] = {}
        self._refutations: dict[int, Move] = {}

    def mates_in(self, n: int) -> bool:
        """Whether the side to move forces checkmate in ``n`` moves or fewer."""
        return n >= 1 and self._attack(n)

    def forces_mate(self, move: Move, n: int) -> bool:
        """Whether ``move`` forces checkmate in ``n`` moves or fewer (itself included)."""
        self.board.push(move)
        try:
            return self._defence(n - 1)
        finally:
            self.board.pop()

    def mating_moves(self, n: int) -> list[Move]:
        """Every first move that forces checkmate in ``n`` moves or fewer."""
        board = self.board
        found = []
        for move in board.legal_moves():
            board.push(move)
            try:
                if self._defence(n - 1):
                    found.append(move)
            finally:
                board.pop()
        return found

    def _attack(self, n: int) -> bool:
        """The side to move mates in n or fewer."""
        placement = self.board.placement()
        key = (placement, self.board.turn)
        fails, succeeds = self._attack_known.get(key, _UNKNOWN)
        if n <= fails:
            return False
        if n >= succeeds:
            return True
        self.nodes += 1
        board = self.board
        result = False
        checks, quiet = _split_checks(board, placement, board.legal_moves())
        if n == 1:
            for move in checks:
                board.push(move)
                mate = not board.legal_moves()
                board.pop()
                if mate:
                    result = True
                    break
        else:
            for move in checks + quiet:
                board.push(move)
                ok = self._defence(n - 1)
                board.pop()
                if ok:
                    result = True
                    break
        self._attack_known[key] = (fails, n) if result else (n, succeeds)
        return result

    def _defence(self, k: int) -> bool:
        """The side to move is checkmated now, or whatever it plays, mated in k or fewer."""
        board = self.board
        replies = board.legal_moves()
        if not replies:
            return board.is_check()
        if k <= 0:
            return False
        key = (self.board.placement(), self.board.turn)
        fails, succeeds = self._defence_known.get(key, _UNKNOWN)
        if k <= fails:
            return False
        if k >= succeeds:
            return True
        self.nodes += 1
        refutation = self._refutations.get(k)
        if refutation is not None and refutation in replies:
            replies.remove(refutation)
            replies.insert(0, refutation)
        result = True
        for reply in replies:
            board.push(reply)
            ok = self._attack(k)
            board.pop()
            if not ok:
                self._refutations[k] = reply
                result = False
                break
        self._defence_known[key] = (fails, k) if result else (k, succeeds)
        return result


def _split_checks(board: Board, placement: tuple[int, ...], moves: list[Move]) -> tuple[list[Move], list[Move]]:
    """The moves that give check and the others, read off the attack tables (no move is made).

    A check comes from the moved piece on its new square, or is discovered: only a Rua
    attacks along lines, so only a Rua's line through the moved piece's square can open.
    """
    us = board.turn
    enemy_khun = board.king(not us)
    offset = 0 if us else 8
    occupied = 0
    our_rua = []
    for sq, code in enumerate(placement):
        if code:
            occupied |= 1 << sq
            if code == _RUA + offset:
                our_rua.append(sq)
    lines = [(sq, A.BETWEEN[enemy_khun][sq]) for sq in our_rua if A.RUA_RAYS[enemy_khun] >> sq & 1]
    target = 1 << enemy_khun
    checks: list[Move] = []
    quiet: list[Move] = []
    for move in moves:
        frm, to = move.from_square, move.to_square
        kind = _BIA_NGAI if move.promotion else placement[frm] - offset
        if kind == _MA:
            hit = A.MA[to] & target
        elif kind in (_MET, _BIA_NGAI):
            hit = A.MET[to] & target
        elif kind == _KHON:
            hit = A.KHON[us][to] & target
        elif kind == _BIA:
            hit = A.BIA_CAPTURES[us][to] & target
        elif kind == _RUA:
            hit = A.rua_attacks(to, (occupied & ~(1 << frm)) | (1 << to)) & target
        else:
            hit = 0  # a Khun never gives check itself
        if not hit:
            for rua, between in lines:
                if rua != frm and between >> frm & 1 and not between >> to & 1 and between & occupied == 1 << frm:
                    hit = 1
                    break
        (checks if hit else quiet).append(move)
    return checks, quiet


_UNKNOWN = (0, 1 << 30)
_BIA, _BIA_NGAI, _MET, _KHON, _MA, _RUA = (int(k) for k in (
    PieceType.BIA, PieceType.BIA_NGAI, PieceType.MET, PieceType.KHON, PieceType.MA, PieceType.RUA))


# --- material puzzles -------------------------------------------------------------------

def _prove_material(board: Board, moves: Sequence[str]) -> list[str]:
    """After the line, the solver keeps at least MIN_GAIN more than it had, captures settled."""
    solver = board.turn
    before = material(board, solver)
    for uci in moves:
        board.push(Move.from_uci(uci))
    if board.is_checkmate():
        return ["the line ends in checkmate: a mate puzzle, not a material one"]
    after = -settle(board)  # the defender is to move; settle counts for the side to move
    if after - before < MIN_GAIN:
        return [f"the line wins only {after - before} (at least {MIN_GAIN} is needed)"]
    return []


def material(board: Board, color: bool) -> int:
    """Material of ``color`` minus the opponent's (a Bia is 100)."""
    total = 0
    for code in board.placement():
        if code:
            value = VALUES[PieceType(code & 7)]
            total += value if (code < 8) == color else -value
    return total


def settle(board: Board, depth: int = 8, alpha: int = -MATE_VALUE, beta: int = MATE_VALUE) -> int:
    """Material for the side to move once the captures are played out (quiescence search).

    The side to move may stop capturing, unless in check; then every reply is tried.
    """
    moves = board.legal_moves()
    in_check = board.is_check()
    if not moves:
        return -MATE_VALUE if in_check else 0
    stand = material(board, board.turn)
    if not in_check:
        if stand >= beta or depth <= 0:
            return stand
        alpha = max(alpha, stand)
        moves = [m for m in moves if board.piece_at(m.to_square) is not None or m.promotion]
        moves.sort(key=lambda m: -_captured_value(board, m))
    elif depth <= -4:
        return stand
    for move in moves:
        board.push(move)
        score = -settle(board, depth - 1, -beta, -alpha)
        board.pop()
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def _captured_value(board: Board, move: Move) -> int:
    captured = board.piece_at(move.to_square)
    return VALUES[captured.kind] if captured is not None else 0
