"""The one engine interface the services use: moves at a level, analyses for hints and reviews."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from makruk import Board, CountEvent, Move
from makruk.board import Perpetual, Promotion

MATE_VALUE = 100_000  # centipawns standing for a mate (minus the moves it takes)


class EngineError(Exception):
    """The engine could not produce a move (it died, timed out, or answered nonsense)."""


@dataclass(frozen=True)
class Analysis:
    """An engine's judgement of a position, for the side to move (as UCI engines report it).

    ``mate`` counts moves: positive when the side to move mates, negative when it is mated,
    0 when it is checkmated already. ``pv`` starts with the move the engine would play.

    >>> Analysis(None, 2, ("a1a8",)).value(), Analysis(35, None, ()).white_cp(False)
    (99998, -35)
    """

    score_cp: int | None
    mate: int | None
    pv: tuple[str, ...]
    depth: int = 0
    nodes: int = 0

    @property
    def best(self) -> str | None:
        return self.pv[0] if self.pv else None

    def value(self) -> int:
        """Centipawns for the side to move; a mate in n counts as MATE_VALUE - n."""
        if self.mate is None:
            return self.score_cp or 0
        if self.mate > 0:
            return MATE_VALUE - self.mate
        return -MATE_VALUE - self.mate

    def white_cp(self, white_to_move: bool, *, clamp: int = MATE_VALUE) -> int:
        """The value from White's side, clamped to +-``clamp``."""
        value = self.value() if white_to_move else -self.value()
        return max(-clamp, min(clamp, value))


@dataclass(frozen=True)
class EnginePosition:
    """A game as an engine needs it; plain data, so it can cross into another process.

    ``variant`` is the game's member of the family, by its Fairy-Stockfish name (``makruk.VARIANTS``).

    >>> from makruk import starting_fen
    >>> EnginePosition(starting_fen("sittuyin"), ("R@a1",), variant="sittuyin").board().fen()
    '8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1'
    """

    start_fen: str
    moves: tuple[str, ...]
    events: tuple[CountEvent, ...] = ()
    promotion: Promotion = "forced"
    perpetual: Perpetual = "forbid"
    variant: str = "makruk"
    seconds: float | None = None  # a live game's clock: think at most this long (None: the level's time)

    def board(self) -> Board:
        """The board after the game's moves and count events (checked when they were stored)."""
        board = Board(self.start_fen, variant=self.variant, promotion=self.promotion, perpetual=self.perpetual)
        board.replay(self.moves, self.events, trusted=True)
        return board


class Engine(Protocol):
    name: str

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        """The UCI of the move the engine plays at ``level`` (1 weakest .. 8 strongest)."""
        ...

    async def wants_count(self, position: EnginePosition) -> bool:
        """Whether the engine, to move, declares the count it is entitled to."""
        ...

    async def accepts_draw(self, position: EnginePosition, *, level: int) -> bool:
        ...

    async def analyse(self, position: EnginePosition, *, depth: int | None = None,
                      seconds: float | None = None) -> Analysis:
        """Score and principal variation of a position whose game goes on (for hints)."""
        ...

    async def analyse_game(self, position: EnginePosition, *, seconds: float) -> list[Analysis]:
        """An analysis of every position of a game, start to end, in about ``seconds`` (for reviews).

        Positions where the game is over get their result: mate 0 for checkmate, 0 for draws.
        """
        ...


def rules_move(board: Board) -> str:
    """A legal move chosen by the rules alone, when every engine failed: the capture of the
    biggest piece, else the first move in UCI order. EngineError when the game is over.

    >>> rules_move(Board()), rules_move(Board("4k3/8/8/8/8/8/3r4/R3K3 w - - 0 1"))
    ('a1a2', 'e1d2')
    """
    moves = board.legal_moves()
    if not moves:
        raise EngineError(f"no legal move in {board.fen()}: the game is over")

    def order(move: Move) -> tuple[int, str]:
        victim = board.piece_at(move.to_square)
        return -(victim.kind if victim is not None else 0), move.uci()

    return min(moves, key=order).uci()


def final_analysis(board: Board) -> Analysis | None:
    """The analysis of a position whose game is over (None while it goes on): a lost game (the
    side to move checkmated, or checked in Kar Ouk) is mate 0, a draw 0.

    >>> checked = "R3k3/8/8/8/8/8/8/4K3 b - - 0 1"
    >>> final_analysis(Board(checked)), final_analysis(Board(checked, variant="karouk"))
    (None, Analysis(score_cp=None, mate=0, pv=(), depth=0, nodes=0))
    """
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is not None:
        return Analysis(None, 0, ())
    return Analysis(0, None, ())


def game_positions(position: EnginePosition) -> list[EnginePosition]:
    """Every position of a game, from the start to its last move, each with its count events."""
    return [
        replace(position, moves=position.moves[:ply], events=tuple(e for e in position.events if e.ply <= ply))
        for ply in range(len(position.moves) + 1)
    ]
