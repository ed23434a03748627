"""Builds a puzzle's line from a position with Fairy-Stockfish, under the bank's acceptance.

From the position, at each solver move: the searches of ``acceptance.BUDGETS`` (each on a
cleared hash, so the same search gives the same answer later), which must agree on the best
move and show it to be an only move (``acceptance.check_solver_ply``); then the defender's best
reply at the larger budget. A mate ends the line; a material line ends after the second or a
later solver move once the gain has settled (``verify.settle``) and no endgame count can draw
it; a counting puzzle (``counting``) is a mate in exactly the moves its count leaves. What the
engine said is returned as the verification record stored beside the bank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from makruk import Board, MakrukError, Move

from ..engines import EnginePosition, SyncUciEngine
from .acceptance import (
    BUDGETS,
    MAX_SOLVER_MOVES,
    MIN_GAIN,
    MIN_SOLVER_MOVES,
    check_solver_ply,
    line_chance,
    margin,
    multipv,
)
from .counting import puzzle_count
from .verify import count_cannot_matter, material, settle

SEARCH_SECONDS = 60.0  # a search this long is an engine that hangs
# The look-ahead's first look: the line built at 25,000 nodes alone, each margin at 0.6 of its
# size (it follows its own line there; the checks without a margin, a mate's length, the count,
# apply as they are). Of 175 Makruk candidates from fresh games, it refused 165 of the 170 the
# acceptance refuses (most after three searches, where the look-ahead spends one or three at
# 100,000 nodes) and passed its 5; it passes 232 of the bank's 253 puzzles that are neither
# races nor warm-ups (58 of Makruk's 60). How it was chosen: docs/puzzles.md.
SKETCH = (25_000, 0.6)


@dataclass(frozen=True)
class Built:
    """A line that passed, with the engine output that shows it."""

    moves: tuple[str, ...]
    kind: str  # "mate" or "material"
    mate_in: int | None
    record: dict


class Rejected(Exception):
    """The position gives no puzzle; the message says why: "kind: reason (details)"."""

    @property
    def reason(self) -> str:
        """The message without its details, to count refusals by."""
        return ": ".join(str(self).split(": ")[:2]).split(" (")[0]


class EngineCheck:
    """Fairy-Stockfish at the acceptance's budgets; one process for every variant. The
    ``sketch`` is a step of the ``look_ahead``: without it, there is none."""

    def __init__(self, engine: SyncUciEngine, budgets: Sequence[int] = BUDGETS, *, look_ahead: bool = False,
                 sketch: tuple[int, float] | None = SKETCH) -> None:
        self.engine = engine
        self.budgets = tuple(budgets)
        self.look_ahead = look_ahead
        self.sketch = sketch if look_ahead else None
        self.searches = 0
        self._seen: dict[tuple, list[list]] = {}  # one build's searches: each is reproduced exactly

    def lines(self, fen: str, variant: str, moves: Sequence[str], *, nodes: int, multipv: int = 1,
              searchmoves: Sequence[str] = ()) -> list[list]:
        """The MultiPV lines as ``[move, cp, mate]``, best first, from a cleared hash."""
        key = (fen, variant, tuple(moves), nodes, multipv, tuple(searchmoves))
        if key in self._seen:
            return self._seen[key]
        self.engine.new_game()
        self.searches += 1
        result = self.engine.go(EnginePosition(fen, tuple(moves), variant=variant), nodes=nodes, multipv=multipv,
                                timeout=SEARCH_SECONDS, searchmoves=searchmoves)
        if result.stopped:
            raise Rejected("engine overran")
        ordered = sorted((x for x in result.lines if x.pv), key=lambda x: x.multipv)
        self._seen[key] = [[x.pv[0], x.score_cp if x.mate is None else None, x.mate] for x in ordered]
        return self._seen[key]

    def build(self, fen: str, variant: str, *, first: str | None = None) -> Built:
        """The accepted line from ``fen`` (starting with ``first`` when given), or ``Rejected``.

        With ``look_ahead``, the line is first built at the smallest budget alone (the defender's
        replies too), and refused there before any larger search: many candidates fail at a
        later solver move, after the larger searches of the first. The full build then reuses
        the searches they share. It may refuse a line the full build would accept, where its
        replies differ: 4 of the bank's 99 puzzles that are neither races nor warm-ups, for
        three fifths of the acceptance's CPU (docs/puzzles.md). Before it, the ``sketch``
        (nodes, slack) builds the line at a smaller budget still, with looser margins (not
        for a line whose ``first`` move is given: that move is judged at the budgets)."""
        self._seen.clear()
        try:
            if self.sketch is not None and first is None:
                nodes, slack = self.sketch
                self._build(fen, variant, None, (nodes,), slack)
            if self.look_ahead and len(self.budgets) > 1:
                self._build(fen, variant, first, self.budgets[:1])
            return self._build(fen, variant, first, self.budgets)
        finally:
            self._seen.clear()

    def _build(self, fen: str, variant: str, first: str | None, budgets: tuple[int, ...],
               slack: float = 1.0) -> Built:
        board = Board(fen, variant=variant)
        count = puzzle_count(fen, variant)  # a counting puzzle: a mate in exactly the count's moves
        if count is None and not count_cannot_matter(board):
            raise Rejected("count: an endgame count could matter")
        solver = board.turn
        before = material(board, solver)
        moves: list[str] = []
        plies: list[dict] = []
        kind: str | None = None
        mate_in: int | None = None
        for solver_move in range(MAX_SOLVER_MOVES):
            ply = len(moves)
            legal = board.legal_moves()
            search: dict[str, list] = {}
            for b in budgets:
                search[str(b)] = self.lines(fen, variant, moves, nodes=b, multipv=multipv(ply))
                _screen(search[str(b)], first if ply == 0 else None, variant, slack)
            main = search[str(budgets[-1])]
            if not main:
                raise Rejected("engine: no line")
            best, _, mate = main[0]
            if first is not None and ply == 0 and best != first:
                raise Rejected(f"first move: the engine prefers another ({best} to {first})")
            if mate is not None and mate > 0:
                if kind == "material":
                    raise Rejected("material: a mate appeared")
                if kind is None:
                    kind, mate_in = "mate", mate
                    if mate_in > MAX_SOLVER_MOVES:
                        raise Rejected(f"mate: too long (in {mate_in})")
                    if count is not None and mate_in != count.moves_left:
                        raise Rejected(f"count: a mate in {mate_in} under a count of {count.moves_left} moves")
            elif kind == "mate":
                raise Rejected("mate: the defence holds")
            elif count is not None:
                raise Rejected("count: no mate within the count")
            else:
                kind = "material"
            last = kind == "mate" and mate_in is not None and solver_move + 1 == mate_in
            step: dict = {"ply": ply, "legal": len(legal), "search": search}
            if last:
                step["rest"] = self._rest(fen, variant, moves, board, legal, budgets)
            left = mate_in - solver_move if kind == "mate" and mate_in is not None else None
            problems = check_solver_ply(step, best, ply=ply, last=last, mate_left=left, variant=variant,
                                        budgets=budgets, slack=slack)
            if problems:
                raise Rejected(f"{kind}: not an only move: {problems[0]}")
            _push(board, best)
            moves.append(best)
            plies.append(step)
            if last:
                if not board.is_checkmate():
                    raise Rejected("mate: not checkmate under our rules")
                break
            if kind == "material" and solver_move + 1 >= MIN_SOLVER_MOVES and -settle(board) - before >= MIN_GAIN:
                if len(legal) <= 1:
                    raise Rejected("material: ends on a forced move")
                if not count_cannot_matter(board):
                    raise Rejected("material: the count could draw it")
                break
            if board.is_game_over():
                raise Rejected(f"{kind}: the game ends inside the line")
            reply = self.lines(fen, variant, moves, nodes=budgets[-1])
            if not reply:
                raise Rejected(f"{kind}: no defence found")
            _push(board, reply[0][0])
            moves.append(reply[0][0])
            plies.append({"ply": ply + 1, "reply": reply[0]})
        else:
            raise Rejected(f"{kind}: not settled in {MAX_SOLVER_MOVES} moves")
        record: dict = {"variant": variant, "budgets": list(budgets), "plies": plies}
        if kind == "material":
            record["gain"] = -settle(board) - before
        return Built(tuple(moves), kind or "material", mate_in, record)

    def _rest(self, fen: str, variant: str, moves: Sequence[str], board: Board, legal: list[Move],
              budgets: tuple[int, ...]) -> dict:
        """The best line among the moves that do not mate at once, at each budget (any mate
        is accepted on the last move; a slower one is not)."""
        others = [m.uci() for m in legal if not _mates(board, m)]
        if not others:
            return {}
        rest: dict = {}
        for b in budgets:
            found = self.lines(fen, variant, moves, nodes=b, searchmoves=others)
            rest[str(b)] = found[0] if found else None
        return rest


def _screen(lines: list[list], first: str | None, variant: str, slack: float) -> None:
    """Refuses at once, before the larger budget is spent, what its check would refuse anyway:
    another first move, or a second move too close (a mate in 1 aside: any mate is accepted)."""
    if not lines:
        return
    if first is not None and lines[0][0] != first:
        raise Rejected(f"first move: the engine prefers another ({lines[0][0]} to {first})")
    if len(lines) > 1 and lines[0][2] != 1 and \
            line_chance(lines[0], variant) - line_chance(lines[1], variant) < margin(lines[0]) * slack:
        raise Rejected(f"screen: not an only move ({lines[1][0]} close to {lines[0][0]})")


def _mates(board: Board, move: Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def _push(board: Board, uci: str) -> None:
    try:
        move = Move.from_uci(uci)
    except MakrukError:
        raise Rejected(f"rules: no move ({uci!r})") from None
    if move not in board.legal_moves():
        raise Rejected(f"rules: illegal under our rules ({uci} in {board.fen()})")
    board.push(move)
