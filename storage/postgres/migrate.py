"""Schema migrations of a PostgreSQL database: numbered SQL files applied in order, the version
kept in the one-row table `schema_version` (which also marks the database as this project's).

A database that is not ours, or is newer than this code, is refused before anything writes to
it. Every step runs in a transaction holding an advisory lock, so several processes starting
at once on a new database apply each migration exactly once; a failed migration leaves nothing
behind (PostgreSQL's DDL is transactional).
"""

from __future__ import annotations

from typing import Any, Final

from .._migrations import Migration as Migration
from .._migrations import load_migrations
from ..errors import IncompatibleDatabase

APPLICATION: Final = "makruk-bot"
# The advisory lock of schema changes: the SQLite application id, b"MKRK".
MIGRATION_LOCK: Final = 0x4D4B524B


async def upgrade(conn: Any, where: str, target: int | None = None) -> int:
    """Apply every migration above the database's version, up to `target` (default: all),
    one transaction each; the version reached."""
    goal = latest_version() if target is None else target
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            version = await schema_version(conn, where)
            if version >= goal:
                return version
            migration = MIGRATIONS[version]
            await conn.execute(migration.sql)
            await conn.execute("UPDATE schema_version SET version = $1", migration.version)


async def schema_version(conn: Any, where: str) -> int:
    """The version of the database (0: empty); raises IncompatibleDatabase, having changed
    nothing, if it is another application's or newer than this code."""
    if await conn.fetchval("SELECT to_regclass('schema_version') IS NULL"):
        tables = await conn.fetchval(
            """SELECT count(*) FROM pg_catalog.pg_class AS c
               JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"""
        )
        if tables == 0:
            return 0
        raise IncompatibleDatabase(
            where,
            f"it is a database of another application ({tables} tables and no schema_version); "
            "set DATABASE_URL to a new database",
        )
    rows = await conn.fetch("SELECT application, version FROM schema_version")
    if len(rows) != 1 or rows[0][0] != APPLICATION:
        raise IncompatibleDatabase(
            where,
            "its schema_version is not this application's; set DATABASE_URL to a new database",
        )
    version: int = rows[0][1]
    if version > latest_version():
        raise IncompatibleDatabase(
            where,
            f"its schema version {version} is newer than this code knows "
            f"({latest_version()}); run a newer release of the bot or restore a backup",
        )
    return version


def latest_version() -> int:
    return len(MIGRATIONS)


MIGRATIONS: Final = load_migrations(__package__)
