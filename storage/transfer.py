"""Copy a whole database from a SQLite file to PostgreSQL, table by table, keeping every id.

    report = await transfer("makruk.db", "postgresql://bot@db/makruk")
    print(report)

Both databases are first opened with `open_storage`, so both are at the current schema (the
SQLite file is upgraded in place, as the bot would). The tables are read from the SQLite
schema and copied parents first. Each table goes through a temporary staging table in
PostgreSQL and is then merged on its primary key: new rows are inserted, rows that differ are
updated (the source wins), equal rows are left alone. So a second run copies only what
changed meanwhile, and a run with nothing new writes nothing. The whole copy is one
PostgreSQL transaction: a failed transfer leaves the target as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import aiosqlite
import asyncpg

from . import is_database_url, open_storage
from ._transfer_values import CONVERTERS
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
        header = ("table", "source", "new", "updated", "removed", "target")
        numbers = [(t.source, t.inserted, t.updated, t.removed, t.target) for t in self.tables]
        totals = [sum(n[i] for n in numbers) for i in range(5)]
        cells: list[tuple[str, ...]] = [header]
        cells += [(t.table, *map(str, n)) for t, n in zip(self.tables, numbers, strict=True)]
        cells.append(("total", *map(str, totals)))
        widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
        return [
            "  ".join([row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])
            for row in cells
        ]

    def __str__(self) -> str:
        return "\n".join(self.lines())


async def transfer(source: str | os.PathLike[str], target: str, *, batch: int = 1000) -> TransferReport:
    """Copy every table of the SQLite database at `source` into the PostgreSQL database at
    `target` (a postgresql:// URL), `batch` rows at a time, and return the counts.

    Raises TransferError, having copied nothing, when the source is missing
    or not SQLite, when the target lacks a table or column the source has or keys a table
    differently, when a value does not fit its target column, or when afterwards the target
    holds fewer rows than the source in any table.
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
        async with _read_sqlite(location) as sqlite, _connect(target) as pg:
            tables = await _source_tables(sqlite)
            plans = _plan(tables, await _target_tables(pg))
            async with pg.transaction():
                counts = [await _copy(sqlite, pg, plan, batch) for plan in plans]
                await _advance_sequences(pg, plans)
                report = TransferReport(tuple(counts))
                if report.short:
                    names = ", ".join(f"{t.table} ({t.target} of {t.source})" for t in report.short)
                    raise TransferError(f"the target holds fewer rows than the source: {names}", report)
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
        raise TransferError(f"transfer failed: {error}") from error
    return report


# Reading the source


@dataclass(frozen=True, slots=True)
class ForeignKey:
    columns: tuple[str, ...]
    parent: str
    parent_columns: tuple[str, ...]
    cascade: bool  # ON DELETE CASCADE: the row is a part of its parent (a game's moves)


@dataclass(frozen=True, slots=True)
class SourceTable:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # primary key, in key order
    foreign_keys: tuple[ForeignKey, ...]

    @property
    def owner(self) -> ForeignKey | None:
        """The parent this table's rows are parts of: a cascading foreign key that begins the
        primary key. Its rows are copied as a set per parent, so parts deleted in the source
        (the moves a take-back removed) go from the target too."""
        for fk in self.foreign_keys:
            if fk.cascade and self.key[: len(fk.columns)] == fk.columns:
                return fk
        return None


@asynccontextmanager
async def _read_sqlite(location: str) -> AsyncIterator[aiosqlite.Connection]:
    """The source, read in one transaction: every table is read from the same snapshot."""
    db = await aiosqlite.connect(location, isolation_level=None, timeout=5)
    try:
        await db.execute("PRAGMA query_only = ON")
        await db.execute("BEGIN")
        yield db
    finally:
        await db.close()


async def _source_tables(db: aiosqlite.Connection) -> list[SourceTable]:
    """The source's tables (sqlite internals aside; SQLite keeps its migrations in
    user_version, not a table), parents before children."""
    names = [
        row[0]
        for row in await db.execute_fetchall(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
    ]
    info = {name: list(await db.execute_fetchall(f"PRAGMA table_info({_quote(name)})")) for name in names}
    # table_info: (cid, name, type, notnull, default, pk), pk being the place in the key (0: none).
    keys = {name: tuple(str(row[1]) for row in sorted((r for r in rows if r[5]), key=lambda r: r[5]))
            for name, rows in info.items()}
    tables = []
    for name in names:
        foreign = await db.execute_fetchall(f"PRAGMA foreign_key_list({_quote(name)})")
        columns = tuple(str(row[1]) for row in info[name])
        tables.append(SourceTable(name, columns, keys[name], _foreign_keys(foreign, keys)))
    return sort_parents_first(tables)


def _foreign_keys(rows: Iterable[Any], keys: dict[str, tuple[str, ...]]) -> tuple[ForeignKey, ...]:
    """PRAGMA foreign_key_list's rows, (id, seq, table, from, to, on_update, on_delete, match)
    one per column, as foreign keys; a key naming no parent columns means the parent's key."""
    grouped: dict[int, list[Any]] = {}
    for row in rows:
        grouped.setdefault(row[0], []).append(row)
    found = []
    for parts in grouped.values():
        parts.sort(key=lambda row: row[1])
        parent = str(parts[0][2])
        parent_columns = tuple(str(row[4]) for row in parts if row[4] is not None) or keys[parent]
        columns = tuple(str(row[3]) for row in parts)
        found.append(ForeignKey(columns, parent, parent_columns, cascade=parts[0][6] == "CASCADE"))
    return tuple(found)


def sort_parents_first(tables: Sequence[SourceTable]) -> list[SourceTable]:
    """`tables` ordered so that every table comes after the tables its foreign keys name
    (ties by name), so that a child's parent row is always there when the child is copied."""
    by_name = {table.name: table for table in tables}
    done: list[SourceTable] = []
    placed: set[str] = set()
    waiting = sorted(by_name)
    while waiting:
        ready = [
            name for name in waiting
            if all(fk.parent in placed or fk.parent == name or fk.parent not in by_name
                   for fk in by_name[name].foreign_keys)
        ]
        if not ready:
            raise TransferError(f"the foreign keys of {', '.join(waiting)} form a cycle; no copy order exists")
        done.extend(by_name[name] for name in ready)
        placed.update(ready)
        waiting = [name for name in waiting if name not in placed]
    return done


# The target and the plan


@dataclass(frozen=True, slots=True)
class TargetColumn:
    name: str
    type: str  # as SQL names it, without a length: "timestamp with time zone", "bigint"
    kind: str  # the type (a domain's base type) as pg_type names it: "timestamptz", "int8"; "enum"
    sequence: str | None  # the identity or serial sequence behind it


@dataclass(frozen=True, slots=True)
class TargetTable:
    schema: str
    name: str
    columns: dict[str, TargetColumn]
    key: frozenset[str]

    @property
    def qualified(self) -> str:
        return f"{_quote(self.schema)}.{_quote(self.name)}"


_TARGET_COLUMNS: Final = """
SELECT n.nspname AS schema, c.relname AS table, a.attname AS column,
       format_type(a.atttypid, NULL) AS type,
       CASE WHEN t.typtype = 'e' THEN 'enum' WHEN t.typtype = 'd' THEN b.typname ELSE t.typname END AS kind,
       pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence,
       EXISTS (SELECT 1 FROM pg_index i
               WHERE i.indrelid = c.oid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS in_key
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_type b ON b.oid = t.typbasetype
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
ORDER BY c.relname, a.attnum
"""


async def _target_tables(pg: asyncpg.Connection) -> dict[str, TargetTable]:
    """The tables of the target's current schema, with their columns' types and primary keys."""
    by_table: dict[str, list[Any]] = {}
    for row in await pg.fetch(_TARGET_COLUMNS):
        by_table.setdefault(row["table"], []).append(row)
    return {
        name: TargetTable(
            rows[0]["schema"],
            name,
            {r["column"]: TargetColumn(r["column"], r["type"], r["kind"], r["sequence"]) for r in rows},
            frozenset(r["column"] for r in rows if r["in_key"]),
        )
        for name, rows in by_table.items()
    }


@dataclass(frozen=True, slots=True)
class Plan:
    """How one source table is copied into its target table."""

    source: SourceTable
    target: TargetTable
    converters: tuple[Callable[[Any], Any], ...]  # one per source column

    @property
    def name(self) -> str:
        return self.source.name

    def record(self, row: Sequence[Any]) -> tuple[Any, ...]:
        values = []
        for column, convert, value in zip(self.source.columns, self.converters, row, strict=True):
            try:
                values.append(None if value is None else convert(value))
            except (TypeError, ValueError) as error:
                kind = self.target.columns[column].type
                key = ", ".join(f"{k}={row[self.source.columns.index(k)]!r}" for k in self.source.key)
                raise TransferError(f"{self.name}.{column} = {value!r} ({key}) does not fit {kind}: {error}") from error
        return tuple(values)


def _plan(tables: Sequence[SourceTable], targets: dict[str, TargetTable]) -> list[Plan]:
    """A plan per table, or TransferError listing everything the target lacks."""
    problems = []
    plans = []
    for table in tables:
        found = targets.get(table.name)
        if found is None:
            problems.append(f"table {table.name} is missing")
            continue
        missing = [c for c in table.columns if c not in found.columns]
        problems.extend(f"column {table.name}.{c} is missing" for c in missing)
        if not table.key:
            problems.append(f"table {table.name} has no primary key in the source")
        elif found.key != frozenset(table.key):
            problems.append(
                f"table {table.name} is keyed by ({', '.join(sorted(found.key))}) in the target, "
                f"not ({', '.join(table.key)})"
            )
        converters = []
        for column in table.columns:
            target_column = found.columns.get(column)
            if target_column is None:
                continue
            convert = CONVERTERS.get(target_column.kind)
            if convert is None:
                problems.append(f"column {table.name}.{column} has a type this copy cannot fill: {target_column.type}")
            else:
                converters.append(convert)
        if len(converters) == len(table.columns):
            plans.append(Plan(table, found, tuple(converters)))
    if problems:
        raise TransferError("the target cannot take this database: " + "; ".join(problems))
    return plans


# Copying


async def _copy(db: aiosqlite.Connection, pg: asyncpg.Connection, plan: Plan, batch: int) -> TableCount:
    """Stage the source rows in a temporary table, then merge them into the target."""
    table = plan.target.qualified
    stage = f"pg_temp.{_quote(plan.name)}"
    columns = ", ".join(_quote(c) for c in plan.source.columns)
    await pg.execute(
        f"CREATE TEMP TABLE {_quote(plan.name)} ON COMMIT DROP AS SELECT {columns} FROM {table} WITH NO DATA"
    )
    source = 0
    async with db.execute(f"SELECT {columns} FROM {_quote(plan.name)}") as cursor:
        while rows := list(await cursor.fetchmany(batch)):
            records = [plan.record(row) for row in rows]
            await pg.copy_records_to_table(
                plan.name, schema_name="pg_temp", records=records, columns=list(plan.source.columns)
            )
            source += len(rows)
    await pg.execute(f"ANALYZE {stage}")

    before = await _count(pg, table)
    written = _rows(await pg.execute(_merge_sql(plan, stage)))
    inserted = await _count(pg, table) - before
    removed = 0
    owner = plan.source.owner
    if owner is not None:
        removed = _rows(await pg.execute(_prune_sql(plan, owner, stage)))
    return TableCount(plan.name, source, inserted, written - inserted, removed, await _count(pg, table))


def _merge_sql(plan: Plan, stage: str) -> str:
    """Insert what is new, update what differs, leave equal rows alone (no new row versions)."""
    columns = plan.source.columns
    names = ", ".join(_quote(c) for c in columns)
    key = ", ".join(_quote(c) for c in plan.source.key)
    rest = [c for c in columns if c not in plan.source.key]
    sql = (f"INSERT INTO {plan.target.qualified} AS t ({names}) OVERRIDING SYSTEM VALUE "
           f"SELECT {names} FROM {stage} ON CONFLICT ({key}) ")
    if not rest:
        return sql + "DO NOTHING"

    def compared(side: str, column: str) -> str:
        # json has no equality operator; its text does.
        cast = "::text" if plan.target.columns[column].kind == "json" else ""
        return f"{side}.{_quote(column)}{cast}"

    updates = ", ".join(f"{_quote(c)} = EXCLUDED.{_quote(c)}" for c in rest)
    old = ", ".join(compared("t", c) for c in rest)
    new = ", ".join(compared("EXCLUDED", c) for c in rest)
    return sql + f"DO UPDATE SET {updates} WHERE ROW({old}) IS DISTINCT FROM ROW({new})"


def _prune_sql(plan: Plan, owner: ForeignKey, stage: str) -> str:
    """Delete the target's parts of a copied parent that the source no longer has."""
    parent_stage = f"pg_temp.{_quote(owner.parent)}"
    of_parent = " AND ".join(
        f"p.{_quote(pc)} = t.{_quote(c)}" for c, pc in zip(owner.columns, owner.parent_columns, strict=True)
    )
    same_key = " AND ".join(f"s.{_quote(c)} = t.{_quote(c)}" for c in plan.source.key)
    return (f"DELETE FROM {plan.target.qualified} AS t "
            f"WHERE EXISTS (SELECT 1 FROM {parent_stage} AS p WHERE {of_parent}) "
            f"AND NOT EXISTS (SELECT 1 FROM {stage} AS s WHERE {same_key})")


async def _advance_sequences(pg: asyncpg.Connection, plans: Sequence[Plan]) -> None:
    """Move each identity/serial sequence past the largest id copied, so that rows the bot
    adds later do not collide; a sequence already further on is left alone."""
    for plan in plans:
        for column in plan.target.columns.values():
            if column.sequence is None:
                continue
            top = await pg.fetchval(f"SELECT max({_quote(column.name)}) FROM {plan.target.qualified}")
            last, called = await pg.fetchrow(f"SELECT last_value, is_called FROM {column.sequence}")
            following = last + 1 if called else last
            if top is not None and top >= following:
                await pg.execute("SELECT setval($1::regclass, $2)", column.sequence, top)


async def _count(pg: asyncpg.Connection, table: str) -> int:
    count: int = await pg.fetchval(f"SELECT count(*) FROM {table}")
    return count


def _rows(status: str) -> int:
    """The row count of a command tag: "INSERT 0 5" -> 5, "DELETE 2" -> 2."""
    return int(status.rsplit(" ", 1)[-1])


@asynccontextmanager
async def _connect(url: str) -> AsyncIterator[asyncpg.Connection]:
    pg = await asyncpg.connect(url)
    try:
        yield pg
    finally:
        await pg.close()


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
