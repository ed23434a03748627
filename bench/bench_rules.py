"""Speed of the rules core against its peers (issue 2).

    .venv/bin/python bench/bench_rules.py [--runs 7] [--perft5]

1. Perft throughput: makruk/ from the Makruk start position against python-chess from the
   chess start position, both to depth 4, written the same way (recursive, push/pop, the
   number of legal moves at depth 1). Goal: at least 1.0x python-chess's nodes per second.
2. The bot's path when a stored game is loaded and a player moves: set up the start FEN,
   play the 100 stored moves with full validation, read one more move typed by a player and
   play it. Against pyffish doing the same with ``pyffish.legal_moves("makruk", fen, moves)``
   and a membership test. Goal: at least 5x faster than pyffish.

Each measurement is the best of ``--runs`` runs, and the contenders alternate run by run, so
that a busy machine slows both alike. ``--perft5`` also times the depth-5 perft (6,223,994).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess
import pyffish

import makruk
from makruk import Board, Move

PERFT_DEPTH = 4
MAKRUK_PERFT = {4: 273026, 5: 6223994}
CHESS_PERFT = {4: 197281}
GAME_PLIES = 100
GAME_SEED = 20261130
LOADS_PER_RUN = 50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each contender (best counts)")
    parser.add_argument("--perft5", action="store_true", help="also time makruk perft 5")
    args = parser.parse_args()

    rows = []
    ours, theirs = best_of(args.runs, perft_makruk, perft_chess)
    rows.append(("perft 4, start position", "nodes/s", MAKRUK_PERFT[4] / ours, CHESS_PERFT[4] / theirs,
                 "python-chess (chess, depth 4)", 1.0))

    start, moves, text = stored_game()
    t_ours, t_pyffish = best_of(args.runs, lambda: load_makruk(start, moves, text),
                                lambda: load_pyffish(start, moves, text))
    t_push, _ = best_of(args.runs, lambda: load_makruk_trusted(start, moves, text), lambda: None)
    rows.append((f"load {GAME_PLIES}-ply game + 1 move", "loads/s", LOADS_PER_RUN / t_ours,
                 LOADS_PER_RUN / t_pyffish, "pyffish.legal_moves", 5.0))

    print(f"makruk rules core benchmark ({platform.python_implementation()} {platform.python_version()}, "
          f"chess {chess.__version__}, pyffish {'.'.join(map(str, pyffish.version()))}, best of {args.runs})\n")
    print("| measurement | unit | makruk/ | peer | peer is | ratio | goal |")
    print("|---|---|---:|---:|---|---:|---:|")
    for name, unit, mine, peer, who, goal in rows:
        ratio = mine / peer
        mark = "met" if ratio >= goal else "MISSED"
        print(f"| {name} | {unit} | {mine:,.0f} | {peer:,.0f} | {who} | {ratio:.2f}x | {goal:.1f}x ({mark}) |")
    print(f"\nOne load with validation: {t_ours / LOADS_PER_RUN * 1e6:,.0f} us "
          f"(pyffish {t_pyffish / LOADS_PER_RUN * 1e6:,.0f} us); "
          f"pushing the stored moves unchecked: {t_push / LOADS_PER_RUN * 1e6:,.0f} us.")
    if args.perft5:
        started = time.perf_counter()
        nodes = perft(Board(), 5)
        elapsed = time.perf_counter() - started
        assert nodes == MAKRUK_PERFT[5], nodes
        print(f"makruk perft 5 = {nodes:,} in {elapsed:.1f} s ({nodes / elapsed:,.0f} nodes/s)")


def best_of(runs: int, mine: Callable[[], object], peer: Callable[[], object]) -> tuple[float, float]:
    """Best wall time of each, alternating which goes first so that drift hits both."""
    mine_times: list[float] = []
    peer_times: list[float] = []
    for run in range(runs):
        order = [(mine, mine_times), (peer, peer_times)]
        for fn, times in order if run % 2 == 0 else reversed(order):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
    return min(mine_times), min(peer_times)


# --- perft, written the same way for both ---------------------------------------------------

def perft(board: Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def perft_chess_board(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft_chess_board(board, depth - 1)
        board.pop()
    return nodes


def perft_makruk() -> None:
    assert perft(Board(), PERFT_DEPTH) == MAKRUK_PERFT[PERFT_DEPTH]


def perft_chess() -> None:
    assert perft_chess_board(chess.Board(), PERFT_DEPTH) == CHESS_PERFT[PERFT_DEPTH]


# --- the bot's path: a stored game comes back, a player moves -------------------------------

def stored_game() -> tuple[str, list[str], str]:
    """A fixed legal 100-ply game (seeded random mover) and the SAN of a legal next move."""
    rng = random.Random(GAME_SEED)
    while True:
        board = Board()
        for _ in range(GAME_PLIES):
            moves = board.legal_moves()
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.ply == GAME_PLIES and not board.is_game_over():
            break
    text = board.san(sorted(board.legal_moves(), key=Move.uci)[0])
    return makruk.STARTING_FEN, [move.uci() for move in board.move_stack], text


def load_makruk(start: str, moves: list[str], text: str) -> None:
    for _ in range(LOADS_PER_RUN):
        board = Board(start)
        board.replay(moves)  # every move checked as a player's move is
        board.play(board.parse_move(text))


def load_makruk_trusted(start: str, moves: list[str], text: str) -> None:
    """For reference: what loading costs without validating the stored moves (the bot's way)."""
    for _ in range(LOADS_PER_RUN):
        board = Board(start)
        board.replay(moves, trusted=True)  # pushed: they were checked when they were stored
        board.play(board.parse_move(text))


def load_pyffish(start: str, moves: list[str], text: str) -> None:
    uci = Board(start)
    for move in moves:
        uci.push(Move.from_uci(move))
    next_move = uci.parse_move(text).uci()  # pyffish reads no SAN: give it the UCI
    for _ in range(LOADS_PER_RUN):
        legal = pyffish.legal_moves("makruk", start, moves)
        assert next_move in legal


if __name__ == "__main__":
    main()
