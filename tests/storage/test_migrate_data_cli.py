"""``makruk-bot migrate-data``: a community's SQLite database moved to PostgreSQL from the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from storage import NewGame, Seat, open_storage

ROOT = Path(__file__).resolve().parents[2]
START_FEN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


def migrate(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-data", *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


async def test_migrate_data_copies_once_and_reports_counts(tmp_path: Path, pg_url: str) -> None:
    db = tmp_path / "bot.db"
    async with await open_storage(db) as storage:
        alice = await storage.get_or_create_player("line", "U1", "Alice")
        bob = await storage.get_or_create_player("line", "U2", "Bob")
        await storage.create_game(NewGame(platform="line", channel="C1", white=Seat.human(alice.id),
                                          black=Seat.human(bob.id), start_fen=START_FEN, promotion="forced",
                                          perpetual="forbid", move_seconds=600, status="active"))
    first = migrate("--from", str(db), "--to", pg_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0].split() == ["table", "source", "new", "updated", "removed", "target"]
    counts = {line.split()[0]: line.split()[1:] for line in first.stdout.splitlines()[1:-1]}
    assert counts["players"] == ["2", "2", "0", "0", "2"] and counts["games"] == ["1", "1", "0", "0", "1"]
    again = migrate("--from", str(db), "--to", pg_url)
    assert again.returncode == 0 and "copied 0 rows" in again.stdout
    async with await open_storage(pg_url) as moved:
        game = await moved.active_game("line", "C1")
        assert game is not None and game.white == Seat.human(alice.id)


def test_migrate_data_refuses_a_missing_file_with_one_line(tmp_path: Path) -> None:
    done = migrate("--from", str(tmp_path / "none.db"), "--to", "postgresql://nobody@127.0.0.1:1/x")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"makruk-bot: no SQLite database at {tmp_path / 'none.db'}"
