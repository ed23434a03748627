"""Why storage/ runs plans of its own rather than SQLAlchemy Core: append-a-move, measured.

    .venv/bin/python bench/bench_storage_layers.py [--rounds 12] [--block 40] [--dir DIR]

Every side appends moves to one game of a SQLite file made by this project's migrations
(WAL, synchronous=FULL, one commit per move), in the same transaction shape: a compare-and-set
on the game's version, then the move at the next ply.

- raw sqlite3 (the peer): the two statements and COMMIT on one connection;
- this project's storage (`Storage.append_move`, the plans of storage/queries run by the SQLite
  driver on aiosqlite's worker thread: one thread hop per transaction);
- SQLAlchemy Core 2, async engine over aiosqlite (`engine.begin()`, one hop per statement);
- SQLAlchemy Core 2, sync engine with the whole transaction in a worker thread
  (`asyncio.to_thread`), the way this project runs SQLite.

The sides alternate in blocks, each round in another order, so that a drifting disk slows all
alike; prints commits/s and the ratio to raw sqlite3.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from storage import NewGame, NewMove, Seat, open_storage

START_FEN = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w 0 1"
UPDATE = "UPDATE games SET version = version + 1, updated = ? WHERE id = ? AND version = ? RETURNING version"
INSERT = """INSERT INTO moves (game_id, ply, uci, san, "by", at)
            SELECT ?, coalesce(max(ply), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?"""

META = sa.MetaData()
GAMES = sa.Table("games", META, sa.Column("id", sa.Integer, primary_key=True), sa.Column("version", sa.Integer),
                 sa.Column("updated", sa.Text))
MOVES = sa.Table("moves", META, sa.Column("game_id", sa.Integer), sa.Column("ply", sa.Integer),
                 sa.Column("uci", sa.Text), sa.Column("san", sa.Text), sa.Column("by", sa.Text),
                 sa.Column("at", sa.Text))


def now_text() -> str:
    return datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def sa_statements(game_id: int, version: int) -> tuple[Any, Any]:
    at = now_text()
    cas = (sa.update(GAMES).where(GAMES.c.id == game_id, GAMES.c.version == version)
           .values(version=GAMES.c.version + 1, updated=at).returning(GAMES.c.version))
    next_ply = sa.select(sa.literal(game_id), sa.func.coalesce(sa.func.max(MOVES.c.ply), 0) + 1,
                         sa.literal("a3a4"), sa.literal("a4"), sa.literal("w"), sa.literal(at)
                         ).where(MOVES.c.game_id == game_id)
    move = sa.insert(MOVES).from_select(["game_id", "ply", "uci", "san", "by", "at"], next_ply)
    return cas, move


async def new_database(directory: Path, name: str) -> tuple[str, int]:
    """A database made by this project (its migrations), with one game in play."""
    path = str(directory / f"{name}.db")
    async with await open_storage(path) as storage:
        me = await storage.get_or_create_player("console", "me", "Me")
        game = await storage.create_game(NewGame(
            platform="console", channel=name, white=Seat.human(me.id), black=Seat.engine(1), start_fen=START_FEN,
            promotion="forced", perpetual="forbid", move_seconds=0, status="active"))
    return path, game.id


def durable(conn: Any) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--block", type=int, default=40, help="commits per block")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        sides: dict[str, Callable[[], Awaitable[None]]] = {}

        path, raw_game = await new_database(directory, "raw")
        raw = sqlite3.connect(path, isolation_level=None)
        durable(raw)
        raw_version = [1]

        async def raw_append() -> None:
            raw.execute("BEGIN IMMEDIATE")
            (raw_version[0],) = raw.execute(UPDATE, (now_text(), raw_game, raw_version[0])).fetchone()
            raw.execute(INSERT, (raw_game, "a3a4", "a4", "w", now_text(), raw_game))
            raw.execute("COMMIT")
        sides["raw sqlite3"] = raw_append

        path, ours_game = await new_database(directory, "ours")
        ours = await open_storage(path)
        game = await ours.get_game(ours_game)
        held = [game]

        async def ours_append() -> None:
            held[0] = await ours.append_move(held[0].id, held[0].version, NewMove("a3a4", "a4", "w"))
        sides["this project's storage (plans)"] = ours_append

        path, async_game = await new_database(directory, "sa_async")
        engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
        sa.event.listen(engine.sync_engine, "connect", lambda conn, _: durable(conn))
        async_version = [1]

        async def sa_async_append() -> None:
            cas, move = sa_statements(async_game, async_version[0])
            async with engine.begin() as conn:
                async_version[0] = (await conn.execute(cas)).scalar_one()
                await conn.execute(move)
        sides["SQLAlchemy Core, async engine (aiosqlite)"] = sa_async_append

        path, sync_game = await new_database(directory, "sa_sync")
        sync_engine = sa.create_engine(f"sqlite:///{path}")
        sa.event.listen(sync_engine, "connect", lambda conn, _: durable(conn))
        sync_version = [1]

        def sa_sync_transaction() -> None:
            cas, move = sa_statements(sync_game, sync_version[0])
            with sync_engine.begin() as conn:
                sync_version[0] = conn.execute(cas).scalar_one()
                conn.execute(move)

        async def sa_sync_append() -> None:
            await asyncio.to_thread(sa_sync_transaction)
        sides["SQLAlchemy Core, sync engine in a thread"] = sa_sync_append

        for append in sides.values():  # warm up: connections made, statements compiled and cached
            for _ in range(5):
                await append()
        times: dict[str, list[float]] = {name: [] for name in sides}
        names = list(sides)
        for round_ in range(args.rounds):
            order = names[round_ % len(names):] + names[:round_ % len(names)]
            for name in order:
                started = time.perf_counter()
                for _ in range(args.block):
                    await sides[name]()
                times[name].append(args.block / (time.perf_counter() - started))
        raw.close()
        await ours.close()
        await engine.dispose()
        sync_engine.dispose()

    base = statistics.median(times["raw sqlite3"])
    print(f"append a move, {args.rounds} rounds of {args.block} commits per side (WAL, synchronous=FULL)\n")
    print("| side | commits/s (median of blocks) | ratio to raw sqlite3 |")
    print("| --- | ---: | ---: |")
    for name in names:
        rate = statistics.median(times[name])
        print(f"| {name} | {rate:,.0f} | {rate / base:.2f}x |")


if __name__ == "__main__":
    asyncio.run(main())
