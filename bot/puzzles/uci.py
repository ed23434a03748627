"""A small blocking UCI client for Fairy-Stockfish, enough for generating puzzles offline.

(The bot's own engine players live in ``bot.engines``; this one serves the command-line tool.)
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

MATE_SCORE = 100_000


@dataclass(frozen=True)
class Line:
    """One principal variation: its first move and the score for the side to move."""

    move: str
    cp: int | None
    mate: int | None  # moves to mate: positive when the side to move mates, negative when mated
    pv: tuple[str, ...]
    depth: int

    @property
    def value(self) -> int:
        """A single number to compare lines by: mates beyond any centipawn score."""
        if self.mate is not None:
            return MATE_SCORE - self.mate if self.mate > 0 else -MATE_SCORE - self.mate
        return self.cp or 0

    @property
    def mates(self) -> bool:
        return self.mate is not None and self.mate > 0


class UciEngine:
    """Fairy-Stockfish over UCI, set to Makruk."""

    def __init__(self, path: str, *, threads: int = 1, hash_mb: int = 64, variant: str = "makruk") -> None:
        self._process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        self.name = "?"
        self._send("uci")
        for line in self._lines_until("uciok"):
            if line.startswith("id name "):
                self.name = line.removeprefix("id name ").strip()
        self._multipv = 1
        for name, value in (("Threads", threads), ("Hash", hash_mb), ("UCI_Variant", variant)):
            self._send(f"setoption name {name} value {value}")
        self._ready()

    def analyse(
        self,
        fen: str,
        moves: Sequence[str] = (),
        *,
        depth: int | None = None,
        nodes: int | None = None,
        multipv: int = 1,
    ) -> list[Line]:
        """The engine's best lines, best first (at most ``multipv`` of them)."""
        if multipv != self._multipv:
            self._send(f"setoption name MultiPV value {multipv}")
            self._multipv = multipv
        position = f"position fen {fen}"
        if moves:
            position += " moves " + " ".join(moves)
        self._send(position)
        limit = f"depth {depth}" if depth is not None else f"nodes {nodes or 1000}"
        self._send(f"go {limit}")
        latest: dict[int, Line] = {}
        for text in self._lines_until("bestmove"):
            line = _parse_info(text)
            if line is not None:
                index, found = line
                latest[index] = found
        return [latest[i] for i in sorted(latest)]

    def best_by_depth(self, fen: str, *, depth: int) -> dict[int, str]:
        """The first move of the main line after each completed depth of one search."""
        if self._multipv != 1:
            self._send("setoption name MultiPV value 1")
            self._multipv = 1
        self._send(f"position fen {fen}")
        self._send(f"go depth {depth}")
        found: dict[int, str] = {}
        for text in self._lines_until("bestmove"):
            line = _parse_info(text)
            if line is not None and line[0] == 1:
                found[line[1].depth] = line[1].move
        return found

    def new_game(self) -> None:
        """Forget earlier searches (clears the hash)."""
        self._send("ucinewgame")
        self._ready()

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._send("quit")
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ready(self) -> None:
        self._send("isready")
        for _ in self._lines_until("readyok"):
            pass

    def _send(self, text: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(text + "\n")
        self._process.stdin.flush()

    def _lines_until(self, prefix: str):
        assert self._process.stdout is not None
        while True:
            text = self._process.stdout.readline()
            if not text:
                raise RuntimeError("the engine stopped")
            yield text
            if text.startswith(prefix):
                return


def _parse_info(text: str) -> tuple[int, Line] | None:
    """``info depth 9 ... multipv 2 score mate 3 ... pv a b c`` as (2, Line); None for others."""
    words = text.split()
    if not words or words[0] != "info" or "pv" not in words or "score" not in words:
        return None
    if "lowerbound" in words or "upperbound" in words:
        return None
    at = words.index("score")
    kind, amount = words[at + 1], int(words[at + 2])
    pv = tuple(words[words.index("pv") + 1:])
    if not pv:
        return None
    index = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
    depth = int(words[words.index("depth") + 1]) if "depth" in words else 0
    if kind == "mate":
        return index, Line(pv[0], None, amount, pv, depth)
    return index, Line(pv[0], amount, None, pv, depth)
