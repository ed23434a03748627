"""``makruk-bot console --web PORT --json``: a real process whose replies link each player to
the web board it serves, and whose links sign the player in."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_console_replies_carry_each_players_link_and_the_watch_link(tmp_path: Path) -> None:
    port = free_port()
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "c.db"), "--json", "--web", str(port)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write("new @bob white\nbob: accept\nboard\n")
        process.stdin.flush()
        records = [json.loads(process.stdout.readline()) for _ in range(3)]
        assert [r["kind"] for r in records] == ["challenge", "game", "game"]
        assert "links" not in records[0]
        started, board = records[1], records[2]
        game_id = started["game"]["id"]
        for record in (started, board):
            assert set(record["links"]) == {"you", "bob"}
            assert record["watch"] == f"http://127.0.0.1:{port}/g/{game_id}"
            assert record["links"]["you"].startswith(f"http://127.0.0.1:{port}/g/{game_id}#t=")
        token = board["links"]["you"].split("#t=", 1)[1]
        request = urllib.request.Request(f"http://127.0.0.1:{port}/g/{game_id}/state",
                                         headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            state = json.load(response)
        assert state["viewer"]["side"] == "w" and state["viewer"]["canMove"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{game_id}", timeout=10) as response:
            assert b"data-board" in response.read()
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
