"""Queries written once for both databases, as plans.

A plan is a generator: it yields the statements of one transaction and gets each one's result
back, so that it holds no connection and awaits nothing. Each database's driver runs it its own
way: SQLite's on its worker thread, the whole transaction in one call (one thread hop); the
PostgreSQL driver statement by statement on a pooled connection.

    def rename(player_id: int, name: str, now: datetime) -> Plan[Player]:
        found = yield rows(f"UPDATE players SET display_name = ?, updated = ? WHERE id = ?"
                           f" RETURNING {PLAYER_COLUMNS}", name, now, player_id)
        if not found:
            raise NotFound(f"no player {player_id}")
        return player_from_row(found[0])

The SQL is what both databases accept: `?` marks a value (the PostgreSQL driver numbers them),
values are Python's own (datetime, date, time, bool; the SQLite driver stores times as text),
and the one word that differs is written `{for_update}` (PostgreSQL's FOR UPDATE; nothing on
SQLite, whose one writer locks the whole file). A value that is
NULL or not is best written into the text by the plan (`AND platform = ?` or nothing), since
PostgreSQL cannot type a bare `? IS NULL`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar

from .errors import StorageError

T = TypeVar("T")

Kind = Literal["rows", "count", "many", "lock"]


@dataclass(frozen=True, slots=True)
class Sql:
    """One step of a plan: a statement and its values, or a lock."""

    kind: Kind
    text: str
    args: Sequence[Any]


Plan: TypeAlias = Generator[Sql, Any, T]


def rows(text: str, *args: Any) -> Sql:
    """A statement whose rows the plan gets back (a list of tuples, indexable by position)."""
    return Sql("rows", text, args)


def count(text: str, *args: Any) -> Sql:
    """A statement whose count of changed rows the plan gets back."""
    return Sql("count", text, args)


def many(text: str, arg_rows: Iterable[Sequence[Any]]) -> Sql:
    """One statement run once per row of values; the plan gets None back."""
    return Sql("many", text, [tuple(values) for values in arg_rows])


def lock(name: str) -> Sql:
    """Until the transaction ends, no other transaction takes the lock `name`. PostgreSQL takes
    an advisory lock; SQLite has nothing to do, its one writer at a time holds them all."""
    return Sql("lock", name, ())


def marks(n: int) -> str:
    """`?, ?, ?` for n values: `id IN ({marks(len(ids))})`."""
    return ", ".join("?" * n)


class Duplicate(StorageError):
    """A row broke a UNIQUE constraint: the transaction was rolled back. Raised by the drivers;
    the method that may meet it says what it means (ChannelBusy, PuzzleAlreadyPosted, ...)."""


