"""Helpers the rules tests share."""

from __future__ import annotations

import json
import subprocess
import sys

from makruk import Board, Count, Outcome


def run(*args: str) -> subprocess.CompletedProcess:
    """``python -m makruk ARGS``, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "makruk", *args], capture_output=True, text=True, encoding="utf-8", timeout=60
    )


def ok(*args: str) -> str:
    """The output of a command line that must succeed, saying nothing on stderr."""
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def refused(*args: str, says: str) -> None:
    """A command line refused: exit 2, nothing on stdout, one line on stderr saying ``says``."""
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n"), result.stderr
    assert "Traceback" not in result.stderr
    assert says.lower() in result.stderr.lower(), result.stderr


def status(*args: str) -> dict:
    """``python -m makruk status ARGS``: one JSON object on one line."""
    out = ok("status", *args)
    assert out.count("\n") == 1 and out.endswith("\n"), "one JSON object on one line"
    return json.loads(out)


def ended(board: Board) -> Outcome:
    """The outcome of a game that has ended."""
    outcome = board.outcome()
    assert outcome is not None, board.fen()
    return outcome


def running_count(board: Board) -> Count:
    """The count that runs."""
    assert board.count is not None, board.fen()
    return board.count
