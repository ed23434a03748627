"""A database's schema as comparable data: what two databases built different ways must share.

SQLite: the header (application_id, user_version), every schema object's SQL (comments, quotes
around identifiers and spacing aside: SQLite keeps the text as it was written), and what the
pragmas say of each table (columns with their types, defaults and keys, indexes with their
columns and whether unique or partial, foreign keys). PostgreSQL: `pg_dump --schema-only`,
which lists every table, column, type, default, constraint (with its name), index, sequence
and identity in a fixed order, less its comments and session settings.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from ..pgserver import find_bindir


def sqlite_catalog(path: str | Path) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        catalog: dict[str, Any] = {
            "header": [conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("application_id", "user_version")],
            "objects": sorted((kind, name, table, normalized_sql(sql or "")) for kind, name, table, sql
                              in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema")),
        }
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        for table in sorted(tables):
            indexes = conn.execute(f"PRAGMA index_list({table})").fetchall()
            catalog[table] = {
                "columns": conn.execute(f"PRAGMA table_xinfo({table})").fetchall(),
                "indexes": sorted((name, unique, origin, partial,
                                   conn.execute(f"PRAGMA index_xinfo({name})").fetchall())
                                  for _, name, unique, origin, partial in indexes),
                "foreign_keys": conn.execute(f"PRAGMA foreign_key_list({table})").fetchall(),
            }
        return catalog
    finally:
        conn.close()


def normalized_sql(sql: str) -> str:
    """`sql` without comments, identifier quotes and the spacing that does not matter."""
    sql = re.sub(r"--[^\n]*", " ", sql).replace('"', "")
    return re.sub(r"\s*([(),])\s*", r"\1", re.sub(r"\s+", " ", sql)).strip()


def postgres_catalog(url: str) -> list[str]:
    dump = subprocess.run([str(find_bindir() / "pg_dump"), "--schema-only", "--no-owner", "--no-privileges",
                           "--restrict-key=catalog", "-d", url], capture_output=True, text=True, check=True)
    skipped = ("--", "SET ", "SELECT pg_catalog.set_config", "\\restrict", "\\unrestrict")
    return [line for line in dump.stdout.splitlines() if line.strip() and not line.startswith(skipped)]


def restore(url: str, dump: Path) -> None:
    """Load a plain `pg_dump` into the (empty) database at `url` with psql."""
    psql = find_bindir() / "psql"
    load = subprocess.run([str(psql if psql.exists() else "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1",
                           "-d", url, "-f", str(dump)], capture_output=True, text=True)
    assert load.returncode == 0, load.stderr
