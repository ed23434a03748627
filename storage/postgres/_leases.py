"""Leases in PostgreSQL: claims on scheduled work, shared by the processes of one database."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ._sql import Connection


async def claim(
    conn: Connection, names: Sequence[str], holder: str, until: datetime, now: datetime
) -> set[str]:
    """Take each name that is free, ran out, or is already `holder`'s; the names now held."""
    # Sorted: every claimer locks the rows in one order, so two cannot deadlock.
    rows = await conn.fetch(
        """INSERT INTO leases (name, holder, until)
           SELECT name, $2, $3 FROM unnest($1::text[]) AS name
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
           WHERE leases.until <= $4 OR leases.holder = excluded.holder
           RETURNING name""",
        sorted(set(names)), holder, until, now,
    )
    return {name for (name,) in rows}


async def release(conn: Connection, names: Sequence[str], holder: str) -> None:
    if names:
        await conn.execute(
            "DELETE FROM leases WHERE name = ANY($1::text[]) AND holder = $2", sorted(set(names)), holder
        )
