"""Copy a whole database from a SQLite file to PostgreSQL, table by table, keeping every id.

    report = await transfer("makruk.db", "postgresql://bot@db/makruk")
    print(report)

Both databases are first opened with `open_storage`, so both are at the current schema (the
SQLite file is upgraded in place, as the bot would): the one migration history gives them the
same tables and columns, and only the values' types differ. The tables are read from the SQLite
schema and copied parents first; each value is converted by its PostgreSQL column's type. Each
table goes through a temporary staging table in PostgreSQL and is then merged on its primary
key: new rows are inserted, rows that differ are updated (the source wins), equal rows are left
alone. So a second run copies only what changed meanwhile, and a run with nothing new writes
nothing. The whole copy is one PostgreSQL transaction: a failed transfer leaves the target as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Any, Final

import aiosqlite
import asyncpg

from . import is_database_url, open_storage
from .errors import StorageError


class TransferError(StorageError):
    """The copy was refused or failed; the target is left as it was."""

    def __init__(self, message: str, report: TransferReport | None = None) -> None:
        super().__init__(message)
        self.report = report


@dataclass(frozen=True, slots=True)
class TableCount:
    """One table of a transfer: rows in the source, what this run did, rows in the target."""

    table: str
    source: int
    inserted: int  # new in the target
    updated: int  # were there, differed from the source, now equal it
    removed: int  # parts of a copied row the source no longer has (a take-back's moves)
    target: int

    @property
    def copied(self) -> int:
        return self.inserted + self.updated


@dataclass(frozen=True, slots=True)
class TransferReport:
    """Per table, in copy order: what the source held, what this run wrote, what the target holds.

    >>> print(TransferReport((TableCount("games", 3, 1, 1, 0, 3),)))
    table  source  new  updated  removed  target
    games       3    1        1        0       3
    total       3    1        1        0       3
    """

    tables: tuple[TableCount, ...]

    @property
    def copied(self) -> int:
        return sum(t.copied for t in self.tables)

    @property
    def short(self) -> tuple[TableCount, ...]:
        """The tables whose target holds fewer rows than the source: a failed copy."""
        return tuple(t for t in self.tables if t.target < t.source)

    def lines(self) -> list[str]:
        """The counts as a small table, one line per table and a total."""
        numbers = [(t.source, t.inserted, t.updated, t.removed, t.target) for t in self.tables]
        cells: list[tuple[str, ...]] = [("table", "source", "new", "updated", "removed", "target")]
        cells += [(t.table, *map(str, n)) for t, n in zip(self.tables, numbers, strict=True)]
        cells.append(("total", *(str(sum(n[i] for n in numbers)) for i in range(5))))
        widths = [max(len(row[i]) for row in cells) for i in range(6)]
        return ["  ".join([row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])
                for row in cells]

    def __str__(self) -> str:
        return "\n".join(self.lines())


async def transfer(source: str | os.PathLike[str], target: str, *, batch: int = 1000) -> TransferReport:
    """Copy every table of the SQLite database at `source` into the PostgreSQL database at
    `target` (a postgresql:// URL), `batch` rows at a time, and return the counts.

    Raises TransferError, having copied nothing, when the source is missing or not SQLite,
    when the target lacks a table or column the source has, when PostgreSQL refuses the rows
    (a value that does not fit its column is named with its row), or when afterwards the
    target holds fewer rows than the source in any table.
    """
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    location = os.fspath(source)
    if is_database_url(location):
        raise TransferError("the source must be a SQLite file; to copy between PostgreSQL servers use pg_dump")
    if not is_database_url(target):
        raise TransferError(f"the target must be a postgresql:// URL, not {target!r}")
    if not Path(location).is_file():
        raise TransferError(f"no SQLite database at {location}")
    for place in (location, target):  # create or upgrade each to the current schema
        opened = await open_storage(place)
        await opened.close()
    try:
        async with aiosqlite.connect(location, isolation_level=None, timeout=5) as db:
            await db.execute("PRAGMA query_only = ON")
            await db.execute("BEGIN")  # one snapshot: every table is read as of the same moment
            tables = await _source_tables(db)
            pg = await asyncpg.connect(target)
            try:
                columns = await _target_types(pg, tables)
                async with pg.transaction():
                    report = TransferReport(tuple([
                        await _copy(db, pg, t, [columns[t.name, c][0] for c in t.columns], batch) for t in tables]))
                    await _advance_sequences(pg, columns)
                    if report.short:
                        names = ", ".join(f"{t.table} ({t.target} of {t.source})" for t in report.short)
                        raise TransferError(f"the target holds fewer rows than the source: {names}", report)
            finally:
                await pg.close()
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        raise TransferError(f"transfer failed: {error}") from error
    return report


@dataclass(frozen=True, slots=True)
class Table:
    """A source table; `owner` is the parent its rows are parts of (a cascading foreign key that
    begins the primary key: a game's moves) and how a part `t` finds its parent `p`."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    owner: tuple[str, str] | None


_IN_SQLITE: Final = "FROM sqlite_schema m JOIN pragma_{}(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%'"


async def _source_tables(db: aiosqlite.Connection) -> list[Table]:
    """The source's tables (SQLite keeps its schema version in user_version, not a table), each
    after the tables its foreign keys name, ties by name."""
    columns: dict[str, list[tuple[str, int]]] = {}
    for table, column, pk in await db.execute_fetchall(f"SELECT m.name, p.name, p.pk {_IN_SQLITE.format('table_info')}"
                                                       " ORDER BY m.name, p.cid"):
        columns.setdefault(table, []).append((column, pk))
    keys = {t: tuple(c for c, pk in sorted(cs, key=lambda c: c[1]) if pk) for t, cs in columns.items()}
    foreign: dict[tuple[str, int], list[Any]] = {}
    for row in await db.execute_fetchall('SELECT m.name, p.id, p."table", p."from", p."to", p.on_delete '
                                         f"{_IN_SQLITE.format('foreign_key_list')} ORDER BY m.name, p.id, p.seq"):
        foreign.setdefault(row[:2], []).append(row[2:])
    parents: dict[str, set[str]] = {t: set() for t in columns}
    owners: dict[str, tuple[str, str]] = {}
    for (table, _), parts in foreign.items():
        parent, on_delete = parts[0][0], parts[0][3]
        parents[table] |= {parent} - {table}  # a row may name another of its table
        pairs = zip((p[1] for p in parts), [p[2] for p in parts if p[2] is not None] or keys[parent], strict=True)
        if on_delete == "CASCADE" and keys[table][: len(parts)] == tuple(p[1] for p in parts):
            owners[table] = (parent, " AND ".join(f"p.{_quote(pc)} = t.{_quote(c)}" for c, pc in pairs))
    sorter, order = TopologicalSorter(parents), []
    try:
        sorter.prepare()
    except CycleError as error:
        raise TransferError(f"the foreign keys of {', '.join(error.args[1])} form a cycle; no copy order") from None
    while sorter.is_active():  # layer by layer, each by name
        ready: list[str] = sorted(sorter.get_ready())
        order += [t for t in ready if t in columns]
        sorter.done(*ready)
    return [Table(t, tuple(c for c, _ in columns[t]), keys[t], owners.get(t)) for t in order]


async def _target_types(pg: asyncpg.Connection, tables: list[Table]) -> dict[tuple[str, str], tuple[str, str | None]]:
    """The target's columns by (table, column): information_schema's data_type ("timestamp with
    time zone", "boolean", "json") and the identity sequence behind it, if any; TransferError
    listing everything the source has and the target lacks."""
    found = {(r[0], r[1]): (r[2], r[3]) for r in await pg.fetch(
        "SELECT table_name, column_name, data_type, pg_get_serial_sequence(quote_ident(table_name), column_name)"
        " FROM information_schema.columns WHERE table_schema = current_schema()")}
    names = {table for table, _ in found}
    problems = [f"table {t.name} is missing" for t in tables if t.name not in names]
    problems += [f"column {t.name}.{c} is missing" for t in tables if t.name in names
                 for c in t.columns if (t.name, c) not in found]
    if problems:
        raise TransferError("the target cannot take this database: " + "; ".join(problems))
    return found


def _instant(value: str) -> datetime:
    moment = datetime.fromisoformat(value)  # storage writes UTC ("...Z"); a bare time is UTC too
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


def _flag(value: int) -> bool:
    if value in (0, 1) and not isinstance(value, float):
        return bool(value)
    raise ValueError("a flag is 0 or 1")


# SQLite's values as PostgreSQL's column types want them; the rest (numbers, text, JSON text) go as they are.
_CONVERT: Final[dict[str, Callable[[Any], Any]]] = {
    "timestamp with time zone": _instant, "date": date.fromisoformat,
    "time without time zone": time.fromisoformat, "boolean": _flag,
}


def _record(table: Table, types: list[str], row: Any) -> list[Any]:
    """A source row as the target's columns want it, or TransferError naming the value and its row."""
    record = list(row)
    for i, (kind, value) in enumerate(zip(types, row, strict=True)):
        if value is not None and kind in _CONVERT:
            try:
                record[i] = _CONVERT[kind](value)
            except (TypeError, ValueError) as error:
                key = ", ".join(f"{k}={row[table.columns.index(k)]!r}" for k in table.key)
                raise TransferError(f"{table.name}.{table.columns[i]} = {value!r} ({key}) "
                                    f"does not fit {kind}: {error}") from error
    return record


async def _copy(db: aiosqlite.Connection, pg: asyncpg.Connection, table: Table, types: list[str],
                batch: int) -> TableCount:
    """Stage the source rows in a temporary table, then merge them into the target."""
    name, names, stage = _quote(table.name), ", ".join(map(_quote, table.columns)), _stage(table.name)
    count = f"SELECT count(*) FROM {name}"
    await pg.execute(f"CREATE TEMP TABLE {stage} ON COMMIT DROP AS SELECT {names} FROM {name} WITH NO DATA")
    source = 0
    async with db.execute(f"SELECT {names} FROM {name}") as cursor:
        while rows := list(await cursor.fetchmany(batch)):
            await pg.copy_records_to_table(f"transfer_{table.name}", schema_name="pg_temp", columns=table.columns,
                                           records=[_record(table, types, row) for row in rows])
            source += len(rows)
    await pg.execute(f"ANALYZE {stage}")
    before = await pg.fetchval(count)
    written = _rows(await pg.execute(_merge_sql(table, types)))
    inserted = await pg.fetchval(count) - before
    removed = 0
    if table.owner is not None:  # its parts the source no longer has, of the parents it has
        parent, of_parent = table.owner
        same_key = " AND ".join(f"s.{_quote(c)} = t.{_quote(c)}" for c in table.key)
        removed = _rows(await pg.execute(
            f"DELETE FROM {name} AS t WHERE EXISTS (SELECT 1 FROM {_stage(parent)} AS p WHERE {of_parent})"
            f" AND NOT EXISTS (SELECT 1 FROM {stage} AS s WHERE {same_key})"))
    return TableCount(table.name, source, inserted, written - inserted, removed, await pg.fetchval(count))


def _merge_sql(table: Table, types: list[str]) -> str:
    """Insert what is new, update what differs, leave equal rows alone (no new row versions)."""
    names = ", ".join(map(_quote, table.columns))
    sql = (f"INSERT INTO {_quote(table.name)} AS t ({names}) OVERRIDING SYSTEM VALUE SELECT {names} "
           f"FROM {_stage(table.name)} ON CONFLICT ({', '.join(map(_quote, table.key))}) ")
    rest = [(_quote(c), "::text" if kind == "json" else "")  # json has no equality operator; its text does
            for c, kind in zip(table.columns, types, strict=True) if c not in table.key]
    if not rest:
        return sql + "DO NOTHING"
    old, new = (", ".join(f"{side}.{c}{cast}" for c, cast in rest) for side in ("t", "EXCLUDED"))
    return sql + (f"DO UPDATE SET {', '.join(f'{c} = EXCLUDED.{c}' for c, _ in rest)} "
                  f"WHERE ROW({old}) IS DISTINCT FROM ROW({new})")


async def _advance_sequences(pg: asyncpg.Connection, columns: dict[tuple[str, str], tuple[str, str | None]]) -> None:
    """Move each identity sequence past the largest id copied, so that rows the bot adds later
    do not collide; a sequence already further on is left alone."""
    for (table, column), (_, sequence) in columns.items():
        if sequence is not None:  # the next id it gives is last_value, or last_value + 1 once called
            await pg.execute(f"SELECT setval($1::regclass, top) FROM (SELECT max({_quote(column)}) AS top FROM "
                             f"{_quote(table)}) m WHERE top >= (SELECT last_value + is_called::int FROM {sequence})",
                             sequence)


def _rows(status: str) -> int:
    """The row count of a command tag: "INSERT 0 5" -> 5, "DELETE 2" -> 2."""
    return int(status.rsplit(" ", 1)[-1])


def _stage(table: str) -> str:
    """The temporary table a table's rows wait in until they are merged (dropped at the commit)."""
    return f"pg_temp.{_quote('transfer_' + table)}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
