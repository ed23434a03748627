"""SQLite's side of the one migration history (`_migrations.py`): the version is PRAGMA
user_version, and PRAGMA application_id, stamped with the first migration, marks the file as
this project's database. A file is probed read-only first, so one that is not ours, or is
newer than this code, is refused before anything writes to it.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Final

from . import _migrations as history
from ._migrations import LOGGER as LOGGER
from ._migrations import Upgrade
from ._migrations import latest_version as latest_version
from .errors import IncompatibleDatabase

APPLICATION_ID: Final = 0x4D4B524B  # b"MKRK"
SQLITE_MAGIC: Final = b"SQLite format 3\x00"


def check_file(path: str) -> int:
    """Return the schema version of the file at `path` (0: new or empty) without writing.

    Raises IncompatibleDatabase for a file that is not a SQLite database, a database of
    some other application, or one whose schema is newer than this code knows.
    """
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return 0
    with open(path, "rb") as f:
        if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
            raise IncompatibleDatabase(
                path, "it is not a SQLite database; set DATABASE_PATH to another file"
            )
    # Read-only: probing must not change a file that may turn out to be foreign.
    conn = sqlite3.connect(f"file:{_uri_path(path)}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("BEGIN")  # one snapshot, should another process be creating the file
        return schema_version(conn, path)
    finally:
        conn.close()


def schema_version(conn: sqlite3.Connection, path: str) -> int:
    """The version of an open database of ours (0 when empty); raises if it is not ours."""
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    objects = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if application_id == 0 and version == 0 and objects == 0:
        return 0
    if application_id != APPLICATION_ID or version < 1:
        raise IncompatibleDatabase(
            path,
            f"it is a SQLite database of another application (application_id "
            f"{application_id}, user_version {version}, {objects} schema objects); "
            "set DATABASE_PATH to a new file",
        )
    history.refuse_newer(version, path)
    return version


def upgrade(conn: sqlite3.Connection, path: str, target: int | None = None) -> Upgrade:
    """Apply every migration above the file's version, up to `target` (default: all), and
    say what was done.

    Each migration runs in its own IMMEDIATE transaction that re-reads the version first,
    so two processes starting at once apply each migration exactly once, and a failed one
    leaves nothing behind.
    """
    goal = history.latest_version() if target is None else target
    before: int | None = None
    applied: list[history.Migration] = []
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = schema_version(conn, path)
            before = version if before is None else before
            if version < goal:
                migration = history.MIGRATIONS[version]
                for statement in split_statements(migration.sql_for("sqlite")):
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
                conn.execute(f"PRAGMA user_version = {migration.version:d}")
                applied.append(migration)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if version >= goal:
            return history.report(Upgrade(path, before, version, tuple(applied)))


def split_statements(script: str) -> list[str]:
    """Split SQL into statements; trigger bodies with inner semicolons stay whole."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    leftover = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if leftover:
        raise ValueError(f"unterminated SQL statement: {leftover[:60]!r}")
    return statements


def _uri_path(path: str) -> str:
    # "?" and "#" would end the path part of a file: URI.
    return os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
