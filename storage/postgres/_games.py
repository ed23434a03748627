"""Games and their moves in PostgreSQL.

Every write to a game is a compare-and-set: `UPDATE games ... WHERE id = $1 AND version = $2`.
Under READ COMMITTED an UPDATE that waited for another transaction's row lock checks the
row again as that one committed it, so of two writers holding the same version exactly one
finds its row, and the other gets VersionConflict.

A move on a game whose moves are in the cache at that version (the usual case) is one
statement, so one round trip: the compare-and-set, the move at the ply the cached list
gives, and its notices. Otherwise (no cached list, ratings to apply, a takeback) the steps
are statements of one transaction, and the next ply is read after the compare-and-set
holds the game's row.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Final

import asyncpg

from .._cache import MoveCache
from .._rows import (
    GAME_COLUMNS,
    GAME_VARIANT,
    MOVE_COLUMNS,
    NATIVE,
    change_columns,
    check_rated_variant,
    game_from_row,
    move_from_row,
    seat_columns,
)
from ..errors import ChannelBusy, NotFound, VersionConflict
from ..queries.players import apply_ratings
from ..records import Game, GameChanges, MoveRecord, NewGame, NewMove, NewNotice, RatingUpdate
from ._outbox import add_notices, insert_sql, notice_values
from ._sql import Connection, affected, drive

_OPEN_CHANNEL_INDEX: Final = "games_open_per_channel"
OPEN: Final = "status IN ('challenge', 'active')"


def moves_of(games: str) -> str:
    """A game's moves as one array value, read in the same statement (one snapshot) as its row."""
    return f"(SELECT array_agg(ROW({MOVE_COLUMNS}) ORDER BY ply) FROM moves WHERE game_id = {games}.id)"


async def create_game(
    conn: Connection, cache: MoveCache, new: NewGame, notices: Sequence[NewNotice], now: datetime
) -> Game:
    white_player, white_engine = seat_columns(new.white)
    black_player, black_engine = seat_columns(new.black)
    values = [new.platform, new.channel, new.community, new.variant, new.promotion,
              new.perpetual, new.move_seconds, white_player, white_engine, black_player,
              black_engine, new.rated, new.created_by, new.start_fen, new.status,
              NATIVE.store_opt_instant(new.deadline), NATIVE.store_opt_instant(new.remind_at), now]
    sql = f"""INSERT INTO games (platform, channel, community, variant, promotion, perpetual,
                  move_seconds, white_player, white_engine, black_player, black_engine, rated,
                  created_by, start_fen, status, deadline, remind_at, created, updated)
              VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                  $18, $18)
              RETURNING {GAME_COLUMNS}"""
    if notices:
        sql = f"WITH game AS ({sql}), notices AS ({insert_sql(len(values) + 1)}) SELECT * FROM game"
        values += notice_values(notices, now)
    async with _one_open_game(conn, (new.platform, new.channel)):
        row = await conn.fetchrow(sql, *values)
    return cache.put(game_from_row(row, (), NATIVE))


async def get_game(conn: Connection, cache: MoveCache, game_id: int) -> Game:
    game = await _one_game(conn, cache, "id = $1", game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


async def active_game(
    conn: Connection, cache: MoveCache, platform: str, channel: str
) -> Game | None:
    return await _one_game(conn, cache, f"platform = $1 AND channel = $2 AND {OPEN}", platform, channel)


async def last_game(
    conn: Connection, cache: MoveCache, platform: str, channel: str
) -> Game | None:
    return await _one_game(
        conn, cache, "platform = $1 AND channel = $2 ORDER BY id DESC LIMIT 1", platform, channel
    )


async def change_game(
    conn: Connection,
    cache: MoveCache,
    game_id: int,
    expected_version: int,
    move: NewMove | None,
    changes: GameChanges,
    ratings: Sequence[RatingUpdate],
    notices: Sequence[NewNotice],
    now: datetime,
) -> Game:
    """append_move (with `move`) and update_game (without)."""
    before = cache.get(game_id, expected_version)
    if before is not None and not ratings:
        added = None
        if move is not None:
            ply = before[-1].ply + 1 if before else 1
            added = MoveRecord(ply, move.uci, move.san, move.by, now)
        async with _one_open_game(conn, game_id):
            row = await _compare_and_set(
                conn, game_id, expected_version, changes, now, move=added, notices=notices
            )
        return cache.put(game_from_row(row, before if added is None else (*before, added), NATIVE))
    async with _one_open_game(conn, game_id), conn.transaction():
        row = await _compare_and_set(conn, game_id, expected_version, changes, now)
        if move is not None:
            # The compare-and-set holds the game's row and moved its version: no other
            # writer can add a ply now, and this statement sees every committed one.
            await conn.execute(
                """INSERT INTO moves (game_id, ply, uci, san, "by", at)
                   SELECT $1, coalesce(max(ply), 0) + 1, $2, $3, $4, $5 FROM moves WHERE game_id = $1""",
                game_id, move.uci, move.san, move.by, now,
            )
        check_rated_variant(row[GAME_VARIANT], ratings)
        await drive(conn, apply_ratings(ratings))
        await add_notices(conn, notices, now)
        moves = await load_moves(conn, game_id)
    return cache.put(game_from_row(row, moves, NATIVE))


async def undo_moves(
    conn: Connection,
    cache: MoveCache,
    game_id: int,
    expected_version: int,
    count: int,
    changes: GameChanges,
    notices: Sequence[NewNotice],
    now: datetime,
) -> Game:
    if count < 1:
        raise ValueError(f"undo at least one ply, not {count}")
    async with _one_open_game(conn, game_id), conn.transaction():
        row = await _compare_and_set(conn, game_id, expected_version, changes, now)
        deleted = affected(await conn.execute(
            """DELETE FROM moves WHERE game_id = $1
               AND ply > (SELECT coalesce(max(ply), 0) FROM moves WHERE game_id = $1) - $2""",
            game_id, count,
        ))
        if deleted != count:
            raise ValueError(f"game {game_id} has {deleted} plies, cannot undo {count}")
        await add_notices(conn, notices, now)
        moves = await load_moves(conn, game_id)
    return cache.put(game_from_row(row, moves, NATIVE))


async def due_deadlines(conn: Connection, now: datetime, platform: str | None) -> list[Game]:
    return await _select_games(
        conn,
        """status = 'active' AND deadline <= $1 AND ($2::text IS NULL OR platform = $2)
           ORDER BY deadline, id""",
        now, platform,
    )


async def due_reminders(conn: Connection, now: datetime, platform: str | None) -> list[Game]:
    return await _select_games(
        conn,
        """status = 'active' AND NOT reminded AND remind_at <= $1
           AND (deadline IS NULL OR deadline > $1) AND ($2::text IS NULL OR platform = $2)
           ORDER BY remind_at, id""",
        now, platform,
    )


async def engine_games(conn: Connection, platform: str | None) -> list[Game]:
    return await _select_games(
        conn,
        """status = 'active' AND (white_engine IS NOT NULL OR black_engine IS NOT NULL)
           AND ($1::text IS NULL OR platform = $1) ORDER BY updated, id""",
        platform,
    )


async def due_challenges(conn: Connection, before: datetime, platform: str | None) -> list[Game]:
    return await _select_games(
        conn,
        """status = 'challenge' AND created < $1 AND ($2::text IS NULL OR platform = $2)
           ORDER BY created, id""",
        before, platform,
    )


async def expire_challenges(
    conn: Connection, before: datetime, now: datetime, platform: str | None
) -> list[Game]:
    rows = await conn.fetch(
        f"""WITH expired AS (
                UPDATE games SET status = 'aborted', reason = 'expired',
                    version = version + 1, updated = $2
                WHERE status = 'challenge' AND created < $1 AND ($3::text IS NULL OR platform = $3)
                RETURNING {GAME_COLUMNS})
            SELECT expired.*, {moves_of("expired")} AS moves
            FROM expired ORDER BY id""",
        before, now, platform,
    )
    return [_game_with_its_moves(row) for row in rows]


async def finished_games(
    conn: Connection, player_id: int, limit: int, before_id: int | None
) -> list[Game]:
    return await _select_games(
        conn,
        """status = 'finished' AND (white_player = $1 OR black_player = $1)
           AND id < $2 ORDER BY id DESC LIMIT $3""",
        player_id, before_id if before_id is not None else 2**63 - 1, limit,
    )


async def channel_games(
    conn: Connection, platform: str, channel: str, limit: int, before_id: int | None
) -> list[Game]:
    return await _select_games(
        conn,
        """platform = $1 AND channel = $2 AND status = 'finished' AND id < $3
           ORDER BY id DESC LIMIT $4""",
        platform, channel, before_id if before_id is not None else 2**63 - 1, limit,
    )


async def load_moves(conn: Connection, game_id: int) -> tuple[MoveRecord, ...]:
    rows = await conn.fetch(
        f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY ply", game_id
    )
    return tuple(move_from_row(row, NATIVE) for row in rows)


async def _one_game(conn: Connection, cache: MoveCache, where: str, *params: Any) -> Game | None:
    """The game `where` picks: its row alone when the cache has its moves at that version,
    else (a second round trip) its row and moves together."""
    row = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", *params)
    if row is None:
        return None
    moves = cache.get(row[0], row[-1])
    if moves is not None:
        return game_from_row(row, moves, NATIVE)
    row = await conn.fetchrow(f"SELECT {GAME_COLUMNS}, {moves_of('games')} AS moves FROM games WHERE {where}",
                              *params)
    return None if row is None else cache.put(_game_with_its_moves(row))


async def _select_games(conn: Connection, where: str, *params: Any) -> list[Game]:
    rows = await conn.fetch(f"SELECT {GAME_COLUMNS}, {moves_of('games')} AS moves FROM games WHERE {where}",
                            *params)
    return [_game_with_its_moves(row) for row in rows]


def _game_with_its_moves(row: Sequence[Any]) -> Game:
    *columns, moves = row
    return game_from_row(columns, moves_from_array(moves), NATIVE)


def moves_from_array(moves: Sequence[Any] | None) -> tuple[MoveRecord, ...]:
    """The moves of a `moves_of` value (NULL: none)."""
    return tuple(move_from_row(m, NATIVE) for m in moves or ())


async def _compare_and_set(
    conn: Connection,
    game_id: int,
    expected_version: int,
    changes: GameChanges,
    now: datetime,
    *,
    move: MoveRecord | None = None,
    notices: Sequence[NewNotice] = (),
) -> Sequence[Any]:
    """Bump the version and apply `changes` if still at `expected_version`; the new row.

    With `move` and `notices`, the same statement writes them, if the compare-and-set won.
    """
    values: list[Any] = [game_id, expected_version, now]
    assignments = ["version = version + 1", "updated = $3"]
    for column, value in change_columns(changes, NATIVE):
        values.append(value)
        assignments.append(f"{column} = ${len(values)}")
    sql = f"""UPDATE games SET {", ".join(assignments)} WHERE id = $1 AND version = $2
              RETURNING {GAME_COLUMNS}"""
    if move is not None or notices:
        steps = [f"game AS ({sql})"]
        if move is not None:
            values += [move.ply, move.uci, move.san, move.by]
            ply, uci, san, by = (f"${len(values) - i}" for i in (3, 2, 1, 0))
            steps.append(f"""move AS (INSERT INTO moves (game_id, ply, uci, san, "by", at)
                              SELECT id, {ply}, {uci}, {san}, {by}, updated FROM game)""")
        if notices:
            steps.append(f"notices AS ({insert_sql(len(values) + 1, 'EXISTS (SELECT FROM game)')})")
            values += notice_values(notices, now)
        sql = f"WITH {', '.join(steps)} SELECT * FROM game"
    row = await conn.fetchrow(sql, *values)
    if row is not None:
        found: Sequence[Any] = row
        return found
    current = await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
    if current is None:
        raise NotFound(f"no game {game_id}")
    raise VersionConflict(f"game {game_id}", expected_version, current)


@asynccontextmanager
async def _one_open_game(conn: Connection, game: int | tuple[str, str]) -> AsyncIterator[None]:
    """Turns the one-open-game-per-channel index refusing a write (to `game`, an id, or a
    new game in a (platform, channel)) into ChannelBusy, read after the transaction ended."""
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name != _OPEN_CHANNEL_INDEX:
            raise
        if isinstance(game, int):
            game = tuple(await conn.fetchrow("SELECT platform, channel FROM games WHERE id = $1", game))
        platform, channel = game
        held = await conn.fetchval(
            f"SELECT id FROM games WHERE platform = $1 AND channel = $2 AND {OPEN}", platform, channel
        )
        raise ChannelBusy(platform, channel, held) from error
