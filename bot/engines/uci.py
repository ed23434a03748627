"""Fairy-Stockfish over UCI: the project's one client of the protocol, for the bot and the puzzle tools.

One long-lived subprocess, one search at a time, every exchange timed. The process starts on
first use and again after it dies; a search that does not answer in time is stopped, and if it
still does not answer the process is killed. Failures raise ``EngineError`` (the bot asks once
more, then the built-in engine answers). Fairy-Stockfish plays by its own rules (perpetual check
allowed, its own counting), so callers check its moves with ours (and may ask again with
``searchmoves``: our legal moves only). Code without an event loop (the puzzle
generator) uses ``SyncUciEngine`` in ``uci_sync``, which runs these same calls.

Variants: each position names its own (``EnginePosition.variant``), and one process plays them
all. Before a position of another variant than the last, the process is switched to it
(``setoption name UCI_Variant``, then ``ucinewgame`` and ``isready``, so that no hash entry of
the other variant is taken for this one's); the FEN and the moves go as the rules core writes
them (Sittuyin's pocket ``[...]`` and drops ``R@a1``, Ouk's ``DEde`` flags).

Bound scores: when a search falls out of its aspiration window, the engine reports a score that
only bounds the truth (``score cp 35 lowerbound``: 35 or more; ``upperbound``: 35 or less) with
an unfinished line. The parser keeps such a score and records its bound. A search's result
takes, for each MultiPV line, the last exact report, and a bound one only when the search gave
nothing exact for that line (``InfoLine.bound`` then says so). So a bound never stands in for an
exact score: hints and reviews show these scores, and the puzzle generator ranks moves by them to
prove that a solution is the only one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .base import Analysis, EngineError, EnginePosition

log = logging.getLogger(__name__)

DEBIAN_PATH = "/usr/games/fairy-stockfish"
START_SECONDS = 10.0  # the handshake, and "isready" after a new game
DEPTH_SECONDS = 10.0  # a search limited by depth alone is stopped after this, unless told otherwise
STOP_GRACE_SECONDS = 1.0  # after "stop", the answer comes within this or the process is killed
WRITE_SECONDS = 5.0  # an engine that does not read its input for this long is taken for hung
QUIT_SECONDS = 2.0
NODES_PER_SECOND_FLOOR = 100_000  # for the timeout of a node-limited search on a slow machine
LINE_LIMIT = 1 << 20  # bytes in one line of output (long MultiPV lines)
START_VARIANT = "makruk"  # set in the handshake; a position of another variant switches the process

Bound = Literal["lower", "upper"]
_BOUNDS: dict[str, Bound] = {"lowerbound": "lower", "upperbound": "upper"}


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
class InfoLine:
    """One ``info`` report with a score, for the side to move (as UCI engines report it).

    ``mate`` counts moves: positive when the side to move mates, negative when it is mated.
    ``bound`` is None for an exact score, else which side of the truth the score bounds.
    """

    score_cp: int | None
    mate: int | None
    pv: tuple[str, ...] = ()
    depth: int = 0
    nodes: int = 0
    multipv: int = 1
    bound: Bound | None = None

    @property
    def exact(self) -> bool:
        return self.bound is None

    @property
    def best(self) -> str | None:
        """The line's first move."""
        return self.pv[0] if self.pv else None

    @property
    def mates(self) -> bool:
        """The side to move forces mate."""
        return self.mate is not None and self.mate > 0

    def value(self) -> int:
        """One number to compare lines by: a mate in n counts as MATE_VALUE - n centipawns."""
        return self.analysis().value()

    def analysis(self) -> Analysis:
        return Analysis(self.score_cp, self.mate, self.pv, self.depth, self.nodes)


@dataclass(frozen=True)
class UciResult:
    """What one ``go`` brought back."""

    bestmove: str | None  # None when the engine saw no move ("bestmove (none)")
    lines: tuple[InfoLine, ...] = ()  # each MultiPV line's final report, in MultiPV order
    infos: tuple[InfoLine, ...] = ()  # every report with a score, as they came
    stopped: bool = False  # the search overran its time and was stopped: its lines are what it had

    @property
    def analysis(self) -> Analysis:
        """The main line (MultiPV 1) as the bot reads it; a score of 0 and no line if none came."""
        main = next((line for line in self.lines if line.multipv == 1), None)
        return main.analysis() if main is not None else Analysis(0, None, ())


class UciEngine:
    """Fairy-Stockfish, with ``options`` sent once per process and each position's variant."""

    name = "fairy-stockfish"

    def __init__(self, path: str, *, options: dict[str, object] | None = None, margin: float = 2.0) -> None:
        self.path = path
        self.options = {"Threads": 1, "Hash": 32, **(options or {})}
        self.margin = margin  # seconds a timed search may overrun its limit before it is stopped
        self.searching = False  # a "go" is running (tests watch this to kill the process mid-search)
        self.id_name: str | None = None  # the engine's own name ("id name"), once started
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._sent_options: dict[str, object] = {}
        self._dying: set[asyncio.subprocess.Process] = set()  # killed, not yet reaped

    @property
    def pid(self) -> int | None:
        """The running process's id (None before the first search and after it died)."""
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def go(self, position: EnginePosition, *, skill: int = 20, nodes: int | None = None,
                 movetime: int | None = None, depth: int | None = None, multipv: int = 1,
                 timeout: float | None = None, searchmoves: Sequence[str] = ()) -> UciResult:
        """Searches ``position`` within the given limits (milliseconds for ``movetime``), among
        ``searchmoves`` only when given.

        The search is stopped after ``timeout`` seconds (by default its movetime or node count
        at a slow machine's speed, plus ``margin``; ``DEPTH_SECONDS`` for depth alone).
        """
        limits = go_command(nodes=nodes, movetime=movetime, depth=depth, searchmoves=searchmoves)
        if timeout is None:
            timeout = self._timeout(nodes=nodes, movetime=movetime)
        async with self._conversation():
            await self._use_variant(position.variant)
            await self._set_option("Skill Level", skill)
            await self._set_option("MultiPV", multipv)
            await self._send(position_command(position))
            await self._send(limits)
            self.searching = True
            return await self._read_result(timeout)

    async def new_game(self) -> None:
        """Forgets earlier searches (clears the hash)."""
        async with self._conversation():
            await self._send("ucinewgame")
            await self._ready()

    async def start(self) -> None:
        """Starts the process now rather than on the first search."""
        async with self._conversation():
            pass

    async def aclose(self) -> None:
        async with self._lock:
            process = self._process
            if process is not None and process.returncode is None:
                try:
                    await self._send("quit")
                    await asyncio.wait_for(process.wait(), QUIT_SECONDS)
                except (TimeoutError, OSError, EngineError):
                    pass
            await self._kill()

    # --- the conversation -------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _conversation(self) -> AsyncIterator[None]:
        """One exchange with a running engine; on any failure the process goes (the next starts it again)."""
        async with self._lock:
            try:
                await self._ensure_started()
                yield
            except EngineError:
                await self._kill()
                raise
            except (OSError, EOFError) as error:  # a broken pipe, a closed stream
                await self._kill()
                raise EngineError(f"Fairy-Stockfish failed: {error}") from error
            except Exception:
                await self._kill()  # mid-conversation: its next lines would be taken for the next search's
                raise
            except asyncio.CancelledError:
                self._kill_now()  # its answer would otherwise be read as the next search's
                raise
            finally:
                self.searching = False

    def _timeout(self, *, nodes: int | None, movetime: int | None) -> float:
        if movetime is not None:
            return movetime / 1000 + self.margin
        if nodes is not None:
            return nodes / NODES_PER_SECOND_FLOOR + self.margin
        return DEPTH_SECONDS

    async def _ensure_started(self) -> None:
        if self._process is not None and self._process.returncode is None:
            return
        if self._process is not None:
            log.warning("Fairy-Stockfish exited (code %s); starting it again", self._process.returncode)
            await self._kill()
        self._process = await asyncio.create_subprocess_exec(
            self.path, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, limit=LINE_LIMIT,
        )
        self._sent_options = {}
        await self._send("uci")
        for line in await self._read_until("uciok", START_SECONDS):
            if line.startswith("id name "):
                self.id_name = line.removeprefix("id name ").strip()
        for name, value in self.options.items():
            await self._set_option(name, value)
        await self._set_option("UCI_Variant", START_VARIANT)
        await self._ready()
        log.info("Fairy-Stockfish started (pid %d, %s)", self._process.pid, self.path)

    async def _ready(self) -> None:
        await self._send("isready")
        await self._read_until("readyok", START_SECONDS)

    async def _use_variant(self, variant: str) -> None:
        """Switches the process to ``variant`` unless it plays it already."""
        if self._sent_options.get("UCI_Variant") == variant:
            return
        await self._set_option("UCI_Variant", variant)
        await self._send("ucinewgame")  # the hash holds the other variant's positions
        await self._ready()

    async def _set_option(self, name: str, value: object) -> None:
        if self._sent_options.get(name) != value:
            await self._send(f"setoption name {name} value {value}")
            self._sent_options[name] = value

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise EngineError("Fairy-Stockfish is not running")
        process.stdin.write((line + "\n").encode())
        try:
            async with asyncio.timeout(WRITE_SECONDS):
                await process.stdin.drain()
        except TimeoutError:
            raise EngineError(f"Fairy-Stockfish did not read {line.split()[0]!r} in {WRITE_SECONDS:.0f} s") from None

    async def _readline(self) -> str:
        """The next line; the caller bounds the wait (one timer for a whole reply: a timer and a
        task per line, as ``wait_for`` makes, cost a generator's game a quarter of its CPU)."""
        process = self._process
        if process is None or process.stdout is None:
            raise EngineError("Fairy-Stockfish is not running")
        raw = await process.stdout.readline()
        if not raw:
            raise EngineError("Fairy-Stockfish exited")
        return raw.decode(errors="replace").strip()

    async def _read_until(self, word: str, timeout: float) -> list[str]:
        """The lines before ``word``, which must come within ``timeout`` seconds."""
        lines = []
        try:
            async with asyncio.timeout(timeout):
                while (line := await self._readline()) != word:
                    lines.append(line)
        except TimeoutError:
            raise EngineError(f"Fairy-Stockfish did not answer {word!r} in {timeout:.0f} s") from None
        return lines

    async def _read_result(self, timeout: float) -> UciResult:
        """The search's reports up to its ``bestmove``; stopped after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        infos: list[InfoLine] = []
        stopped = False
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    while not (line := await self._readline()).startswith("bestmove"):
                        if line.startswith("info ") and (info := parse_info_line(line)) is not None:
                            infos.append(info)
            except TimeoutError:
                if stopped:
                    raise EngineError("Fairy-Stockfish did not stop") from None
                await self._send("stop")  # it answers with what it has so far
                stopped = True
                deadline = loop.time() + min(STOP_GRACE_SECONDS, self.margin)
                continue
            words = line.split()
            move = words[1] if len(words) > 1 and words[1] not in ("(none)", "0000") else None
            return UciResult(move, final_lines(infos), tuple(infos), stopped)

    def _kill_now(self) -> None:
        """Kills the process without waiting; the next ``_kill`` (or ``aclose``) reaps it."""
        process, self._process = self._process, None
        if process is None:
            return
        self._dying.add(process)
        if process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass

    async def _kill(self) -> None:
        """Kills the process and reaps it and any killed before, closing their pipes (so that
        no transport is left for the garbage collector after the event loop is gone)."""
        self._kill_now()
        for process in list(self._dying):
            try:
                await asyncio.wait_for(process.wait(), QUIT_SECONDS)
            except TimeoutError:
                continue
            if process.stdin is not None:
                process.stdin.close()
            self._dying.discard(process)


# --- the protocol's text ------------------------------------------------------------------

def position_command(position: EnginePosition) -> str:
    """
    >>> position_command(EnginePosition("8/8/8/8/8/8/8/K6k w - - 0 1", ("a1a2",)))
    'position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2'
    """
    moves = " moves " + " ".join(position.moves) if position.moves else ""
    return f"position fen {position.start_fen}{moves}"


def go_command(*, nodes: int | None = None, movetime: int | None = None, depth: int | None = None,
               searchmoves: Sequence[str] = ()) -> str:
    """
    >>> go_command(nodes=1000, depth=8), go_command(movetime=50, searchmoves=["a3a4", "b3b4"])
    ('go nodes 1000 depth 8', 'go movetime 50 searchmoves a3a4 b3b4')
    """
    limits = [f"{name} {value}" for name, value in (("nodes", nodes), ("movetime", movetime), ("depth", depth))
              if value is not None]
    if not limits:
        raise ValueError("give the search a limit: nodes, movetime or depth")
    if searchmoves:
        limits.append("searchmoves " + " ".join(searchmoves))  # last: engines read moves to the end of the line
    return "go " + " ".join(limits)


def parse_info_line(line: str) -> InfoLine | None:
    """The score and line of an ``info`` report; None for reports without a score.

    >>> parse_info_line("info depth 9 seldepth 12 multipv 2 score cp 35 lowerbound nodes 900 pv g1e2 b8d7")
    InfoLine(score_cp=35, mate=None, pv=('g1e2', 'b8d7'), depth=9, nodes=900, multipv=2, bound='lower')
    """
    words = line.split()
    if not words or words[0] != "info":
        return None
    numbers: dict[str, int] = {}
    score: tuple[str, int] | None = None
    bound: Bound | None = None
    pv: tuple[str, ...] = ()
    i = 1
    try:
        while i < len(words):
            word = words[i]
            if word in ("string", "refutation", "currline"):
                break  # the rest of the line is text or moves of another kind
            if word == "pv":
                pv = tuple(words[i + 1:])
                break
            if word == "score":
                score = (words[i + 1], int(words[i + 2]))
                i += 3
                while i < len(words) and words[i] in _BOUNDS:
                    bound = _BOUNDS[words[i]]
                    i += 1
                continue
            if word in ("depth", "nodes", "multipv") and i + 1 < len(words):
                numbers[word] = int(words[i + 1])
            i += 2  # every other field is a name and one value
    except (IndexError, ValueError):
        log.debug("unreadable info line: %s", line)
        return None
    if score is None or score[0] not in ("cp", "mate"):
        return None
    cp, mate = (score[1], None) if score[0] == "cp" else (None, score[1])
    return InfoLine(cp, mate, pv, numbers.get("depth", 0), numbers.get("nodes", 0), numbers.get("multipv", 1), bound)


def final_lines(infos: Iterable[InfoLine]) -> tuple[InfoLine, ...]:
    """Each MultiPV line's last exact report, or its last bound one if none was exact.

    >>> exact, bound = InfoLine(20, None, ("a3a4",), depth=5), InfoLine(60, None, ("b3b4",), depth=6, bound="lower")
    >>> final_lines([exact, bound]) == (exact,), final_lines([bound]) == (bound,)
    (True, True)
    """
    latest: dict[int, InfoLine] = {}
    for info in infos:
        held = latest.get(info.multipv)
        if held is None or info.exact or not held.exact:
            latest[info.multipv] = info
    return tuple(latest[index] for index in sorted(latest))


def parse_info(line: str) -> Analysis | None:
    """The main line's (MultiPV 1) analysis in an ``info`` report; None for other reports.

    >>> parse_info("info depth 9 seldepth 11 multipv 1 score cp 52 nodes 12115 pv g1e2 b8d7")
    Analysis(score_cp=52, mate=None, pv=('g1e2', 'b8d7'), depth=9, nodes=12115)
    """
    info = parse_info_line(line)
    return info.analysis() if info is not None and info.multipv == 1 else None
