"""Fairy-Stockfish over UCI: one long-lived subprocess, one search at a time, every call timed.

The process starts on first use and again after it dies; a search that does not answer in
time is stopped, and if it still does not answer the process is killed. Failures raise
``EngineError`` (the caller falls back to the built-in engine). Fairy-Stockfish plays by its
own rules (perpetual check allowed, its own counting), so the caller checks its moves.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .base import Analysis, EngineError, EnginePosition

log = logging.getLogger(__name__)

DEBIAN_PATH = "/usr/games/fairy-stockfish"
START_SECONDS = 10.0
STOP_GRACE_SECONDS = 1.0
NODES_PER_SECOND_FLOOR = 100_000  # for the timeout of a node-limited search on a slow machine


def find_fairy_stockfish(configured: str | None = None) -> str | None:
    """The engine's path: ``configured`` (FAIRY_STOCKFISH), the Debian package's, or on PATH."""
    if configured:
        if os.access(configured, os.X_OK) and Path(configured).is_file():
            return configured
        found = shutil.which(configured)
        if found:
            return found
        log.warning("FAIRY_STOCKFISH=%s is not an executable file; looking elsewhere", configured)
    if os.access(DEBIAN_PATH, os.X_OK):
        return DEBIAN_PATH
    return shutil.which("fairy-stockfish")


@dataclass(frozen=True)
class UciResult:
    bestmove: str | None  # None when the engine saw no move ("bestmove (none)")
    analysis: Analysis


class UciEngine:
    name = "fairy-stockfish"

    def __init__(self, path: str, *, variant: str = "makruk", options: dict[str, object] | None = None,
                 margin: float = 2.0) -> None:
        self.path = path
        self.variant = variant
        self.options = {"Threads": 1, "Hash": 32, **(options or {})}
        self.margin = margin  # seconds a search may overrun its limit before it is stopped
        self.searching = False  # a "go" is running (tests watch this to kill the process mid-search)
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._sent_options: dict[str, object] = {}

    @property
    def pid(self) -> int | None:
        """The running process's id (None before the first search and after it died)."""
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def go(self, position: EnginePosition, *, skill: int = 20, nodes: int | None = None,
                 movetime: int | None = None, depth: int | None = None) -> UciResult:
        """Searches ``position`` within the given limits (milliseconds for ``movetime``)."""
        limits = []
        if nodes is not None:
            limits.append(f"nodes {nodes}")
        if movetime is not None:
            limits.append(f"movetime {movetime}")
        if depth is not None:
            limits.append(f"depth {depth}")
        if not limits:
            raise ValueError("give the search a limit: nodes, movetime or depth")
        timeout = START_SECONDS
        if movetime is not None:
            timeout = movetime / 1000 + self.margin
        elif nodes is not None:
            timeout = nodes / NODES_PER_SECOND_FLOOR + self.margin
        async with self._lock:
            try:
                await self._ensure_started()
                await self._set_option("Skill Level", skill)
                await self._send(f"position fen {position.start_fen}" +
                                 (" moves " + " ".join(position.moves) if position.moves else ""))
                await self._send("go " + " ".join(limits))
                self.searching = True
                return await self._read_result(timeout)
            except EngineError:
                await self._kill()
                raise
            except (OSError, ConnectionError, asyncio.IncompleteReadError) as error:
                await self._kill()
                raise EngineError(f"Fairy-Stockfish failed: {error}") from error
            except asyncio.CancelledError:
                self._kill_now()  # its answer would otherwise be read as the next search's
                raise
            finally:
                self.searching = False

    async def start(self) -> None:
        async with self._lock:
            try:
                await self._ensure_started()
            except (OSError, ConnectionError) as error:
                await self._kill()
                raise EngineError(f"Fairy-Stockfish could not start: {error}") from error

    async def aclose(self) -> None:
        async with self._lock:
            process = self._process
            if process is not None and process.returncode is None:
                try:
                    await self._send("quit")
                    await asyncio.wait_for(process.wait(), 2.0)
                except (TimeoutError, OSError, ConnectionError):
                    pass
            await self._kill()

    # --- the conversation -------------------------------------------------------------

    async def _ensure_started(self) -> None:
        if self._process is not None and self._process.returncode is None:
            return
        if self._process is not None:
            log.warning("Fairy-Stockfish exited (code %s); starting it again", self._process.returncode)
            await self._kill()
        self._process = await asyncio.create_subprocess_exec(
            self.path, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        self._sent_options = {}
        await self._send("uci")
        await self._expect("uciok", START_SECONDS)
        for name, value in self.options.items():
            await self._set_option(name, value)
        await self._send(f"setoption name UCI_Variant value {self.variant}")
        await self._send("isready")
        await self._expect("readyok", START_SECONDS)
        log.info("Fairy-Stockfish started (pid %d, %s)", self._process.pid, self.path)

    async def _set_option(self, name: str, value: object) -> None:
        if self._sent_options.get(name) != value:
            await self._send(f"setoption name {name} value {value}")
            self._sent_options[name] = value

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise EngineError("Fairy-Stockfish is not running")
        process.stdin.write((line + "\n").encode())
        await process.stdin.drain()

    async def _readline(self, timeout: float) -> str:
        process = self._process
        if process is None or process.stdout is None:
            raise EngineError("Fairy-Stockfish is not running")
        raw = await asyncio.wait_for(process.stdout.readline(), timeout)
        if not raw:
            raise EngineError("Fairy-Stockfish exited")
        return raw.decode(errors="replace").strip()

    async def _expect(self, word: str, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while (await self._readline(max(0.0, deadline - loop.time()))) != word:
                pass
        except TimeoutError:
            raise EngineError(f"Fairy-Stockfish did not answer {word!r} in {timeout:.0f} s") from None

    async def _read_result(self, timeout: float) -> UciResult:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        info: Analysis = Analysis(0, None, ())
        stopped = False
        while True:
            try:
                line = await self._readline(max(0.0, deadline - loop.time()))
            except TimeoutError:
                if stopped:
                    raise EngineError("Fairy-Stockfish did not stop") from None
                await self._send("stop")  # answer with what it has so far
                stopped = True
                deadline = loop.time() + min(STOP_GRACE_SECONDS, self.margin)
                continue
            if line.startswith("info ") and " pv " in line and " score " in line:
                parsed = parse_info(line)
                if parsed is not None:
                    info = parsed
            elif line.startswith("bestmove"):
                parts = line.split()
                move = parts[1] if len(parts) > 1 and parts[1] not in ("(none)", "0000") else None
                return UciResult(move, info)

    def _kill_now(self) -> asyncio.subprocess.Process | None:
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass
        return process

    async def _kill(self) -> None:
        process = self._kill_now()
        if process is not None:
            try:
                await asyncio.wait_for(process.wait(), 2.0)
            except TimeoutError:
                pass


def parse_info(line: str) -> Analysis | None:
    """The score and principal variation of a UCI ``info`` line (multipv 1 only).

    >>> parse_info("info depth 9 seldepth 11 multipv 1 score cp 52 nodes 12115 pv g1e2 b8d7")
    Analysis(score_cp=52, mate=None, pv=('g1e2', 'b8d7'), depth=9, nodes=12115)
    """
    words = line.split()
    fields: dict[str, str] = {}
    score_cp = mate = None
    pv: tuple[str, ...] = ()
    i = 1
    while i < len(words):
        word = words[i]
        if word == "score" and i + 2 < len(words):
            if words[i + 1] == "cp":
                score_cp = int(words[i + 2])
            elif words[i + 1] == "mate":
                mate = int(words[i + 2])
            i += 3
            while i < len(words) and words[i] in ("lowerbound", "upperbound"):
                i += 1
            continue
        if word == "pv":
            pv = tuple(words[i + 1:])
            break
        if word == "string":
            return None
        if i + 1 < len(words):
            fields[word] = words[i + 1]
        i += 2
    if fields.get("multipv", "1") != "1" or (score_cp is None and mate is None):
        return None
    return Analysis(score_cp, mate, pv, int(fields.get("depth", 0)), int(fields.get("nodes", 0)))
