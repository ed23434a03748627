"""A stand-in UCI engine for the client's tests (the other side of the protocol): ``fake_uci.py MODE LOG``.

Every command it reads is appended to the file LOG. On ``go``, MODE decides:
``ok`` answers a line and ``a6a5``; ``illegal`` answers a move our rules forbid; ``hang`` never
answers, not even ``stop``; ``slow`` reports a line, then answers only when stopped; ``bounds``
reports an exact line, then a deeper bound one; ``die`` exits; ``die-once`` exits on the first
``go`` the log has seen and answers as ``ok`` after; ``mute`` never answers the handshake.
"""

from __future__ import annotations

import sys
from pathlib import Path


def fake_engine(directory: Path, mode: str) -> tuple[str, Path]:
    """An executable that runs this fake in ``mode``, and the file its commands are logged to."""
    script = directory / f"fake-{mode}"
    log = directory / f"fake-{mode}.log"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {Path(__file__).resolve()} {mode} {log}\n")
    script.chmod(0o755)
    return str(script), log


def commands(log: Path) -> list[str]:
    """The commands the fake engines of ``log`` have read, in order."""
    return log.read_text().splitlines() if log.exists() else []


def main(mode: str, log: Path) -> None:
    for line in sys.stdin:
        with log.open("a") as out:
            out.write(line)
        command = line.split()
        if not command:
            continue
        if command[0] == "uci" and mode != "mute":
            say("id name Fake 1.0", "uciok")
        elif command[0] == "isready":
            say("readyok")
        elif command[0] == "go":
            go(mode, log)
        elif command[0] == "stop" and mode == "slow":
            say("bestmove a6a5")
        elif command[0] == "quit":
            return


def go(mode: str, log: Path) -> None:
    if mode == "die" or (mode == "die-once" and sum(c.startswith("go") for c in commands(log)) == 1):
        sys.exit(3)
    if mode in ("ok", "die-once"):
        say("info depth 1 seldepth 1 multipv 1 score cp 5 nodes 20 pv a6a5 e4e5", "bestmove a6a5")
    elif mode == "illegal":
        say("info depth 1 score cp 5 nodes 1 pv a1a8 a8a1", "bestmove a1a8")
    elif mode == "slow":
        say("info depth 1 multipv 1 score cp 12 nodes 30 pv a6a5", "info depth 2 currmove a6a5 currmovenumber 1")
    elif mode == "bounds":
        say("info depth 1 multipv 1 score cp 12 nodes 30 pv a6a5 e4e5",
            "info depth 1 multipv 2 score cp 3 upperbound nodes 30 pv h6h5",
            "info depth 2 multipv 1 score cp 80 lowerbound nodes 90 pv b6b5",
            "bestmove b6b5")


def say(*lines: str) -> None:
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
