"""``makruk-bot migrate``: the database created or upgraded from the command line, and what was done said."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

from storage import _migrations as history
from storage import migrate as sqlite_migrate

ROOT = Path(__file__).resolve().parents[2]


def migrate(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate", *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_migrate_says_what_it_upgraded_then_that_it_is_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    sqlite_migrate.upgrade(conn, str(path), target=7)
    conn.close()
    latest = history.latest_version()
    names = ", ".join(map(str, history.MIGRATIONS[7:]))

    first = migrate("--db", str(path))
    assert first.returncode == 0, first.stderr
    assert first.stdout == f"upgraded the database {path} from version 7 to {latest} (migrations {names})\n"
    assert names.startswith("0008_ratings, 0009_notation_archive, 0010_inbox_tries")
    again = migrate("--db", str(path))
    assert (again.returncode, again.stdout) == (0, f"the database {path} is up to date at version {latest}\n")


def test_migrate_creates_a_new_postgresql_database(pg_url: str) -> None:
    done = migrate("--db", pg_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"upgraded the database {pg_url} from version 0 to {history.latest_version()}"
                                  " (migrations 0001_core, 0002_puzzles, ")


def test_migrate_refuses_a_newer_database_untouched(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    assert migrate("--db", str(path)).returncode == 0
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {history.latest_version() + 1}")
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    refused = migrate("--db", str(path))
    assert refused.returncode == 1 and refused.stdout == "" and "Traceback" not in refused.stderr
    assert refused.stderr.strip() == (
        f"makruk-bot: refusing to open {path}: its schema version {history.latest_version() + 1} is newer than "
        f"this code knows ({history.latest_version()}); run a newer release of the bot or restore a backup")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
