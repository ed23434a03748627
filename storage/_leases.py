"""Leases in SQLite: claims on scheduled work, shared by the processes of one database."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ._sql import write_tx


def claim(conn: sqlite3.Connection, names: Sequence[str], holder: str, until: str, now: str) -> set[str]:
    """Take each name that is free, ran out, or is already `holder`'s; the names now held."""
    held = set()
    with write_tx(conn):
        for name in names:
            row = conn.execute(
                """INSERT INTO leases (name, holder, until) VALUES (?, ?, ?)
                   ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
                   WHERE leases.until <= ? OR leases.holder = excluded.holder
                   RETURNING name""",
                (name, holder, until, now),
            ).fetchone()
            if row is not None:
                held.add(name)
    return held


def lease_holders(conn: sqlite3.Connection, prefix: str, now: str) -> set[str]:
    # substr, not LIKE: a holder's name may hold LIKE's wildcards.
    rows = conn.execute(
        "SELECT DISTINCT holder FROM leases WHERE substr(holder, 1, ?) = ? AND until > ?",
        (len(prefix), prefix, now),
    ).fetchall()
    return {holder for (holder,) in rows}


def release_holder(conn: sqlite3.Connection, holder: str) -> int:
    with write_tx(conn):
        return conn.execute("DELETE FROM leases WHERE holder = ?", (holder,)).rowcount


def release(conn: sqlite3.Connection, names: Sequence[str], holder: str) -> None:
    if names:
        with write_tx(conn):
            conn.executemany(
                "DELETE FROM leases WHERE name = ? AND holder = ?", [(name, holder) for name in names]
            )
