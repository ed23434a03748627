"""Positions for the engine tests: seeded random play from the start and from sparse endgames."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.engines import EnginePosition
from bot.engines.builtin.pool import think
from bot.engines.builtin.search import Limits, SearchResult
from makruk import Board, CountEvent, Move, starting_fen

Player = Callable[[EnginePosition], Awaitable[str]]

# Sparse endgames: Bia Ngai, bare Khuns, counting material, the perpetual-check example.
ENDGAME_FENS = [
    "4k3/8/8/4m3/8/M~M~M~5/4RS2/3K2NR w - - 0 1",
    "8/8/3k4/8/8/2M~M~4/3SNN2/3K4 w - - 0 1",
    "8/8/8/4k3/8/8/8/R2K4 b - - 0 1",
    "8/2s5/5k2/8/3p4/8/1PP5/3KR3 w - - 0 1",
    "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1",
    "r3k3/8/2n5/8/8/5N2/8/3K3R w - - 0 1",
    "8/5k2/3m~m~3/8/8/3M~4/2K5/8 b - - 0 1",
    "3k4/8/2pp4/8/8/2PP4/8/4K3 w - - 0 1",
]


def random_positions(count: int, seed: int) -> list[EnginePosition]:
    """``count`` positions whose game goes on, half from the start and half from the endgames;
    the count is declared now and then when it may be."""
    rng = random.Random(seed)
    positions: list[EnginePosition] = []
    while len(positions) < count:
        from_start = len(positions) % 2 == 0
        fen = Board.starting_fen if from_start else rng.choice(ENDGAME_FENS)
        position = _random_walk(fen, rng.randrange(0, 120 if from_start else 40), rng)
        if position is not None:
            positions.append(position)
    return positions


def _random_walk(fen: str, plies: int, rng: random.Random) -> EnginePosition | None:
    board = Board(fen)
    moves: list[str] = []
    events: list[CountEvent] = []
    for _ in range(plies):
        if board.can_declare_count() and rng.random() < 0.3:
            board.declare_count()
            events.append(CountEvent(board.ply, "count"))
        if board.outcome() is not None:
            break
        captures = [m for m in board.legal_moves() if board.piece_at(m.to_square)]
        move = rng.choice(captures if captures and rng.random() < 0.3 else board.legal_moves())
        board.push(move)
        moves.append(move.uci())
    while board.outcome() is not None:  # step back into a game that goes on
        if not moves:
            return None
        board.pop()
        moves.pop()
        events = [e for e in events if e.ply <= len(moves)]
        board = EnginePosition(fen, tuple(moves), tuple(events)).board()
    return EnginePosition(fen, tuple(moves), tuple(events))


def variant_positions(variant: str, count: int, seed: int) -> list[EnginePosition]:
    """``count`` positions of ``variant`` whose game goes on, after 0-150 random plies from its start
    (captures preferred now and then, so that promotions and bare Khuns come up)."""
    rng = random.Random(seed)
    fen = starting_fen(variant)
    positions: list[EnginePosition] = []
    while len(positions) < count:
        board = Board(fen, variant=variant)
        moves: list[str] = []
        for _ in range(rng.randrange(0, 150)):
            legal = board.legal_moves()
            captures = [m for m in legal if m.promotion or (board.piece_at(m.to_square) and not m.drop)]
            move = rng.choice(captures if captures and rng.random() < 0.5 else legal)
            board.push(move)
            if board.outcome() is not None:
                board.pop()
                break
            moves.append(move.uci())
        positions.append(EnginePosition(fen, tuple(moves), variant=variant))
    return positions


def legal_ucis(position: EnginePosition) -> set[str]:
    return {m.uci() for m in position.board().legal_moves()}


def push_uci(board: Board, uci: str) -> None:
    move = Move.from_uci(uci)
    assert move in board.legal_moves(), f"{uci} is not legal in {board.fen()}"
    board.push(move)


async def play_out(players: dict[bool, Player], *, max_plies: int, fen: str | None = None,
                   declares: Callable[[EnginePosition], Awaitable[bool]] | None = None, variant: str = "makruk",
                   ) -> tuple[Board, EnginePosition]:
    """Plays ``players[board.turn](position) -> uci`` until the game ends or ``max_plies``, from
    ``fen`` (the variant's start by default); ``declares(position) -> bool`` decides the counts.
    Every move is checked against our rules."""
    fen = fen or starting_fen(variant)
    board = Board(fen, variant=variant)
    moves: list[str] = []
    events: list[CountEvent] = []
    while board.outcome() is None and board.ply < max_plies:
        position = EnginePosition(fen, tuple(moves), tuple(events), variant=variant)
        if board.can_declare_count() and declares is not None and await declares(position):
            board.declare_count()
            events.append(CountEvent(board.ply, "count"))
            continue
        uci = await players[board.turn](position)
        push_uci(board, uci)
        moves.append(uci)
    return board, EnginePosition(fen, tuple(moves), tuple(events), variant=variant)


def random_mover(seed: int) -> Player:
    rng = random.Random(seed)

    async def play(position: EnginePosition) -> str:
        return rng.choice(position.board().legal_moves()).uci()

    return play


def hold_until(started: str, release: str, limit: float = 120.0) -> bool:
    """Keeps a worker process busy: says so in the file ``started``, then waits for ``release``
    to exist (at most ``limit`` seconds). Runs in the built-in engine's worker, like a search."""
    Path(started).touch()
    deadline = time.monotonic() + limit
    while not Path(release).exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


HOLD_DIRECTORY = "ENGINE_TEST_HOLD"  # environment variable: the folder of think_held_once's files


def think_held_once(position: EnginePosition, limits: Limits, all_root_scores: bool = False) -> SearchResult:
    """The built-in engine's search, in place of ``think``. The first call after the test created
    ``armed`` in the folder $ENGINE_TEST_HOLD takes it, says ``searching`` and holds (so that
    the test can kill the worker mid-search); every other call searches at once."""
    folder = Path(os.environ[HOLD_DIRECTORY])
    try:
        (folder / "armed").unlink()
    except FileNotFoundError:
        pass
    else:
        hold_until(str(folder / "searching"), str(folder / "release"))
    return think(position, limits, all_root_scores)


def die(*args: object) -> None:
    """In place of a worker's search: its process ends at once (as if killed)."""
    os._exit(9)
