"""Leases: claims on scheduled work, shared by the processes of one database."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._plan import Plan, count, marks, rows


def claim(names: Sequence[str], holder: str, until: datetime, now: datetime) -> Plan[set[str]]:
    """Take each name that is free, ran out, or is already `holder`'s; the names now held."""
    # Sorted: every claimer locks the rows in one order, so two cannot deadlock (PostgreSQL).
    names = sorted(set(names))
    if not names:
        return set()
    found = yield rows(
        f"""INSERT INTO leases (name, holder, until) VALUES {", ".join(["(?, ?, ?)"] * len(names))}
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
            WHERE leases.until <= ? OR leases.holder = excluded.holder
            RETURNING name""",
        *(value for name in names for value in (name, holder, until)), now,
    )
    return {name for (name,) in found}


def lease_holders(prefix: str, now: datetime) -> Plan[set[str]]:
    # substr, not LIKE: a holder's name may hold LIKE's wildcards.
    found = yield rows(
        "SELECT DISTINCT holder FROM leases WHERE substr(holder, 1, ?) = ? AND until > ?", len(prefix), prefix, now
    )
    return {holder for (holder,) in found}


def release_holder(holder: str) -> Plan[int]:
    removed: int = yield count("DELETE FROM leases WHERE holder = ?", holder)
    return removed


def release(names: Sequence[str], holder: str) -> Plan[None]:
    names = sorted(set(names))
    if names:
        yield count(f"DELETE FROM leases WHERE holder = ? AND name IN ({marks(len(names))})", holder, *names)
