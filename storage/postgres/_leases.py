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


async def lease_holders(conn: Connection, prefix: str, now: datetime) -> set[str]:
    # left(), not LIKE: a holder's name may hold LIKE's wildcards.
    rows = await conn.fetch(
        "SELECT DISTINCT holder FROM leases WHERE left(holder, $1) = $2 AND until > $3",
        len(prefix), prefix, now,
    )
    return {holder for (holder,) in rows}


async def release_holder(conn: Connection, holder: str) -> int:
    status = await conn.execute("DELETE FROM leases WHERE holder = $1", holder)
    return int(status.split()[-1])  # "DELETE n"


async def release(conn: Connection, names: Sequence[str], holder: str) -> None:
    if names:
        await conn.execute(
            "DELETE FROM leases WHERE name = ANY($1::text[]) AND holder = $2", sorted(set(names)), holder
        )
