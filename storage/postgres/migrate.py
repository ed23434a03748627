"""PostgreSQL's side of the one migration history (`.._migrations.py`): the version is kept in
the one-row table `schema_version`, which also marks the database as this project's. A
database that is not ours, or is newer than this code, is refused before anything writes to
it. Every step runs in a transaction holding an advisory lock, so several processes starting
at once apply each migration exactly once; a failed step leaves nothing behind (PostgreSQL's
DDL is transactional).

Before the one history, PostgreSQL had a numbering of its own: its 0001 was the history's 0001
to 0006, so its version v is version v + 5 here. Such a database has no `legacy_version` in
its `schema_version`; it is adopted in a step of its own: the column is added, holding the old
number, and `version` becomes v + 5. A release of the former numbering (which knew 5 at most)
then refuses it as newer than it knows. A database made on the one history has the column,
NULL.
"""

from __future__ import annotations

import json
from typing import Any, Final

from .. import _migrations as history
from .._migrations import LEGACY_POSTGRES_OFFSET, Upgrade
from ..errors import IncompatibleDatabase

APPLICATION: Final = "makruk-bot"
# The advisory lock of schema changes: the SQLite application id, b"MKRK".
MIGRATION_LOCK: Final = 0x4D4B524B
CREATE: Final = f"""
CREATE TABLE schema_version (
    application     text    NOT NULL CHECK (application = '{APPLICATION}'),
    version         integer NOT NULL,
    legacy_version  integer  -- the version in PostgreSQL's former numbering when adopted
);
INSERT INTO schema_version (application, version) VALUES ('{APPLICATION}', 0)"""
ADOPT: Final = f"""
ALTER TABLE schema_version ADD COLUMN legacy_version integer;
UPDATE schema_version SET legacy_version = version, version = version + {LEGACY_POSTGRES_OFFSET:d}"""


async def upgrade(conn: Any, where: str, target: int | None = None) -> Upgrade:
    """Apply every migration above the database's version, up to `target` (default: all),
    one transaction each, having adopted a database of the former numbering; say what was done."""
    goal = history.latest_version() if target is None else target
    before: int | None = None
    adopted: int | None = None
    applied: list[history.Migration] = []
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            version, legacy = await schema_version(conn, where)
            before = version if before is None else before
            if legacy is not None:
                await conn.execute(ADOPT)
                adopted = legacy
                continue
            if version >= goal:
                return history.report(Upgrade(where, before, version, tuple(applied), adopted))
            migration = history.MIGRATIONS[version]
            if version == 0:
                await conn.execute(CREATE)
            await conn.execute(migration.sql_for("postgres"))
            await conn.execute("UPDATE schema_version SET version = $1", migration.version)
            applied.append(migration)


async def schema_version(conn: Any, where: str) -> tuple[int, int | None]:
    """The database's version on the one history (0: empty), and its version in the former
    numbering if it still has that (None: adopted or new). Raises IncompatibleDatabase, having
    changed nothing, if it is another application's or newer than this code."""
    if await conn.fetchval("SELECT to_regclass('schema_version') IS NULL"):
        tables = await conn.fetchval(
            """SELECT count(*) FROM pg_catalog.pg_class AS c
               JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"""
        )
        if tables == 0:
            return 0, None
        raise IncompatibleDatabase(
            where,
            f"it is a database of another application ({tables} tables and no schema_version); "
            "set DATABASE_URL to a new database",
        )
    # As JSON: whatever its columns (adopting adds one), the statement's result type stays.
    rows = [json.loads(text) for text in await conn.fetchval(
        "SELECT array_agg(row_to_json(s)::text) FROM schema_version AS s") or ()]
    if len(rows) != 1 or rows[0].get("application") != APPLICATION:
        raise IncompatibleDatabase(
            where,
            "its schema_version is not this application's; set DATABASE_URL to a new database",
        )
    version: int = rows[0]["version"]
    legacy = None if "legacy_version" in rows[0] else version
    if legacy is not None:
        version += LEGACY_POSTGRES_OFFSET
    history.refuse_newer(version, where)
    return version, legacy
