"""The console chat as a newcomer uses it: a real process, stdin in, stdout out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_console(lines: list[str], *args: str, env_db: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "console", "--db", str(env_db), *args],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )


def test_json_replies_follow_the_contract_and_a_new_process_continues(tmp_path):
    db = tmp_path / "console.db"
    done = run_console(["new @bob", "bob: accept", "e3e4", "d3d4", "garbage!!"], "--json", env_db=db)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["kind"] for r in records] == ["challenge", "game", "game", "error", "error"]
    for record in records:
        assert set(record) == {"kind", "text", "error", "image", "game"}
    assert records[3]["error"] == "not_your_turn" and records[4]["error"] == "unknown_command"
    game = records[2]["game"]
    assert set(game) == {"id", "fen", "turn", "ply", "result", "reason", "white", "black"}
    assert game["ply"] == 1 and game["turn"] == "b" and game["white"] == "you" and game["black"] == "bob"
    assert records[3]["game"] == game  # an error reply still shows the channel's game, unchanged

    again = run_console(["bob: e6e5", "resign"], "--json", env_db=db)
    assert again.returncode == 0, again.stderr
    records = [json.loads(line) for line in again.stdout.splitlines()]
    assert records[0]["game"]["ply"] == 2
    assert records[1]["game"]["result"] == "0-1" and records[1]["game"]["reason"] == "resignation"


def test_plain_text_replies_images_and_thai(tmp_path):
    images = tmp_path / "img"
    done = run_console(["เริ่ม บอท", "จ๔"], "--lang", "th", "--images", str(images), env_db=tmp_path / "th.db")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(line.startswith("bot: ") for line in lines)
    assert any("เริ่มเกม" in line for line in lines)
    pngs = [line.split("] ", 1)[1] for line in lines if line.startswith("bot: [board] ")]
    assert pngs and all(Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_end_of_input_ends_with_status_zero_and_no_traceback(tmp_path):
    done = run_console(["\x00\x1b[2J", "@@@@", "new bot 99"], env_db=tmp_path / "x.db")
    assert done.returncode == 0 and "Traceback" not in done.stderr + done.stdout
