"""Lint and types run with the tests: a new ruff or mypy error fails the suite (settings in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The tools installed next to the interpreter running the tests (the project's .venv).
BIN = Path(sys.executable).parent


def test_ruff_finds_nothing() -> None:
    _assert_clean([str(_tool("ruff")), "check", "--output-format", "concise", "."])


def test_mypy_finds_nothing() -> None:
    # No file arguments: mypy checks the `files` of its configuration, with its incremental cache.
    _assert_clean([str(_tool("mypy"))])


def _assert_clean(command: list[str]) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    output = (result.stdout + result.stderr).strip()
    shown = " ".join([Path(command[0]).name, *command[1:]])
    assert result.returncode == 0, f"`{shown}` exited with {result.returncode}:\n{output}"


def _tool(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed next to {sys.executable}; run ./test.sh (it installs the test extras)")
    return path
