"""Games and their moves in SQLite. Every function runs on the connection's worker thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Final

from ._cache import MoveCache
from ._outbox import insert_notices
from ._rows import (
    GAME_COLUMNS,
    GAME_VARIANT,
    MOVE_COLUMNS,
    change_columns,
    check_rated_variant,
    game_from_row,
    move_from_row,
    seat_columns,
)
from ._sql import TEXT, decode_time, encode_opt_time, is_unique_violation, read_tx, within, write_tx
from .errors import ChannelBusy, NotFound, VersionConflict
from .queries.players import apply_ratings
from .records import (
    Game,
    GameChanges,
    MoveRecord,
    NewGame,
    NewMove,
    NewNotice,
    RatingUpdate,
)

_OPEN_CHANNEL_INDEX: Final = "games.platform, games.channel"


def create_game(
    conn: sqlite3.Connection,
    cache: MoveCache,
    new: NewGame,
    notices: Sequence[NewNotice],
    now: str,
) -> Game:
    white_player, white_engine = seat_columns(new.white)
    black_player, black_engine = seat_columns(new.black)
    with write_tx(conn):
        try:
            row = conn.execute(
                f"""INSERT INTO games (platform, channel, community, variant, promotion,
                        perpetual, move_seconds, white_player, white_engine, black_player,
                        black_engine, rated, created_by, start_fen, status, deadline,
                        remind_at, created, updated)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    RETURNING {GAME_COLUMNS}""",
                (new.platform, new.channel, new.community, new.variant, new.promotion,
                 new.perpetual, new.move_seconds, white_player, white_engine, black_player,
                 black_engine, int(new.rated), new.created_by, new.start_fen, new.status,
                 encode_opt_time(new.deadline), encode_opt_time(new.remind_at), now, now),
            ).fetchall()[0]
        except sqlite3.IntegrityError as error:
            busy = _channel_busy(conn, error, new.platform, new.channel)
            if busy is None:
                raise
            raise busy from error
        insert_notices(conn, notices, now)
    return cache.put(game_from_row(row, (), TEXT))


def get_game(conn: sqlite3.Connection, cache: MoveCache, game_id: int) -> Game:
    with read_tx(conn):
        rows = conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchall()
        if not rows:
            raise NotFound(f"no game {game_id}")
        return _game_with_moves(conn, cache, rows[0])


def active_game(
    conn: sqlite3.Connection, cache: MoveCache, platform: str, channel: str
) -> Game | None:
    with read_tx(conn):
        return open_game(conn, cache, platform, channel)


def open_game(
    conn: sqlite3.Connection, cache: MoveCache, platform: str, channel: str
) -> Game | None:
    """The chat's challenge or game being played, inside the caller's read transaction."""
    rows = conn.execute(
        f"""SELECT {GAME_COLUMNS} FROM games
            WHERE platform = ? AND channel = ? AND status IN ('challenge', 'active')""",
        (platform, channel),
    ).fetchall()
    return _game_with_moves(conn, cache, rows[0]) if rows else None


def last_game(
    conn: sqlite3.Connection, cache: MoveCache, platform: str, channel: str
) -> Game | None:
    with read_tx(conn):
        rows = conn.execute(
            f"""SELECT {GAME_COLUMNS} FROM games WHERE platform = ? AND channel = ?
                ORDER BY id DESC LIMIT 1""",
            (platform, channel),
        ).fetchall()
        return _game_with_moves(conn, cache, rows[0]) if rows else None


def append_move(
    conn: sqlite3.Connection,
    cache: MoveCache,
    game_id: int,
    expected_version: int,
    move: NewMove,
    changes: GameChanges,
    ratings: Sequence[RatingUpdate],
    notices: Sequence[NewNotice],
    now: str,
) -> Game:
    with write_tx(conn):
        row = _compare_and_set(conn, game_id, expected_version, changes, now)
        # The CAS above holds the write lock and moved the version, so max(ply) is ours.
        (ply,) = conn.execute(
            """INSERT INTO moves (game_id, ply, uci, san, by, at)
               SELECT ?, coalesce(max(ply), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?
               RETURNING ply""",
            (game_id, move.uci, move.san, move.by, now, game_id),
        ).fetchall()[0]
        check_rated_variant(row[GAME_VARIANT], ratings)
        within(conn, apply_ratings(ratings))
        insert_notices(conn, notices, now)
        before = cache.get(game_id, expected_version)
        if before is not None and len(before) == ply - 1:
            moves = (*before, MoveRecord(ply, move.uci, move.san, move.by, decode_time(now)))
        else:
            moves = load_moves(conn, game_id)
    return cache.put(game_from_row(row, moves, TEXT))


def update_game(
    conn: sqlite3.Connection,
    cache: MoveCache,
    game_id: int,
    expected_version: int,
    changes: GameChanges,
    ratings: Sequence[RatingUpdate],
    notices: Sequence[NewNotice],
    now: str,
) -> Game:
    with write_tx(conn):
        row = _compare_and_set(conn, game_id, expected_version, changes, now)
        check_rated_variant(row[GAME_VARIANT], ratings)
        within(conn, apply_ratings(ratings))
        insert_notices(conn, notices, now)
        moves = cache.get(game_id, expected_version)
        if moves is None:
            moves = load_moves(conn, game_id)
    return cache.put(game_from_row(row, moves, TEXT))


def undo_moves(
    conn: sqlite3.Connection,
    cache: MoveCache,
    game_id: int,
    expected_version: int,
    count: int,
    changes: GameChanges,
    notices: Sequence[NewNotice],
    now: str,
) -> Game:
    if count < 1:
        raise ValueError(f"undo at least one ply, not {count}")
    with write_tx(conn):
        row = _compare_and_set(conn, game_id, expected_version, changes, now)
        deleted = conn.execute(
            """DELETE FROM moves WHERE game_id = ?
               AND ply > (SELECT coalesce(max(ply), 0) FROM moves WHERE game_id = ?) - ?""",
            (game_id, game_id, count),
        ).rowcount
        if deleted != count:
            raise ValueError(f"game {game_id} has {deleted} plies, cannot undo {count}")
        insert_notices(conn, notices, now)
        moves = load_moves(conn, game_id)
    return cache.put(game_from_row(row, moves, TEXT))


def due_deadlines(conn: sqlite3.Connection, now: str, platform: str | None) -> list[Game]:
    return _select_games(
        conn,
        "status = 'active' AND deadline <= ? AND (? IS NULL OR platform = ?) ORDER BY deadline, id",
        (now, platform, platform),
    )


def due_reminders(conn: sqlite3.Connection, now: str, platform: str | None) -> list[Game]:
    return _select_games(
        conn,
        """status = 'active' AND reminded = 0 AND remind_at <= ?
           AND (deadline IS NULL OR deadline > ?) AND (? IS NULL OR platform = ?)
           ORDER BY remind_at, id""",
        (now, now, platform, platform),
    )


def engine_games(conn: sqlite3.Connection, platform: str | None) -> list[Game]:
    return _select_games(
        conn,
        """status = 'active' AND (white_engine IS NOT NULL OR black_engine IS NOT NULL)
           AND (? IS NULL OR platform = ?) ORDER BY updated, id""",
        (platform, platform),
    )


def due_challenges(conn: sqlite3.Connection, before: str, platform: str | None) -> list[Game]:
    return _select_games(
        conn,
        "status = 'challenge' AND created < ? AND (? IS NULL OR platform = ?) ORDER BY created, id",
        (before, platform, platform),
    )


def expire_challenges(
    conn: sqlite3.Connection, before: str, now: str, platform: str | None
) -> list[Game]:
    with write_tx(conn):
        rows = conn.execute(
            f"""UPDATE games SET status = 'aborted', reason = 'expired',
                    version = version + 1, updated = ?
                WHERE status = 'challenge' AND created < ? AND (? IS NULL OR platform = ?)
                RETURNING {GAME_COLUMNS}""",
            (now, before, platform, platform),
        ).fetchall()
        return _with_moves(conn, sorted(rows, key=lambda r: r[0]))


def finished_games(
    conn: sqlite3.Connection, player_id: int, limit: int, before_id: int | None
) -> list[Game]:
    return _select_games(
        conn,
        """status = 'finished' AND (white_player = ? OR black_player = ?)
           AND id < ? ORDER BY id DESC LIMIT ?""",
        (player_id, player_id, before_id if before_id is not None else 2**63 - 1, limit),
    )


def channel_games(
    conn: sqlite3.Connection, platform: str, channel: str, limit: int, before_id: int | None
) -> list[Game]:
    # `status = 'finished'` as written here is what lets SQLite use games_finished_per_channel.
    return _select_games(
        conn,
        """platform = ? AND channel = ? AND status = 'finished' AND id < ?
           ORDER BY id DESC LIMIT ?""",
        (platform, channel, before_id if before_id is not None else 2**63 - 1, limit),
    )


def _game_with_moves(conn: sqlite3.Connection, cache: MoveCache, row: Sequence[Any]) -> Game:
    moves = cache.get(row[0], row[-1])
    if moves is None:
        return cache.put(game_from_row(row, load_moves(conn, row[0]), TEXT))
    return game_from_row(row, moves, TEXT)


def load_moves(conn: sqlite3.Connection, game_id: int) -> tuple[MoveRecord, ...]:
    rows = conn.execute(
        f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    ).fetchall()
    return tuple(move_from_row(row, TEXT) for row in rows)


def _compare_and_set(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    changes: GameChanges,
    now: str,
) -> Sequence[Any]:
    """Bump the version and apply `changes` if still at `expected_version`; the new row."""
    assignments = ["version = version + 1", "updated = ?"]
    params: list[Any] = [now]
    for column, value in change_columns(changes, TEXT):
        assignments.append(f"{column} = ?")
        params.append(value)
    try:
        rows = conn.execute(
            f"""UPDATE games SET {", ".join(assignments)} WHERE id = ? AND version = ?
                RETURNING {GAME_COLUMNS}""",
            (*params, game_id, expected_version),
        ).fetchall()
    except sqlite3.IntegrityError as error:
        key = conn.execute("SELECT platform, channel FROM games WHERE id = ?", (game_id,))
        busy = _channel_busy(conn, error, *key.fetchone())
        if busy is None:
            raise
        raise busy from error
    if rows:
        row: Sequence[Any] = rows[0]
        return row
    current = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    if current is None:
        raise NotFound(f"no game {game_id}")
    raise VersionConflict(f"game {game_id}", expected_version, current[0])


def _channel_busy(
    conn: sqlite3.Connection, error: sqlite3.IntegrityError, platform: str, channel: str
) -> ChannelBusy | None:
    """ChannelBusy when `error` is the one-open-game-per-channel index, else None."""
    if not is_unique_violation(error, _OPEN_CHANNEL_INDEX):
        return None
    held = conn.execute(
        """SELECT id FROM games
           WHERE platform = ? AND channel = ? AND status IN ('challenge', 'active')""",
        (platform, channel),
    ).fetchone()
    return ChannelBusy(platform, channel, held[0] if held else None)


def _select_games(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[Game]:
    with read_tx(conn):
        rows = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", params).fetchall()
        return _with_moves(conn, rows)


def _with_moves(conn: sqlite3.Connection, rows: list[Any]) -> list[Game]:
    """Games from rows, loading all their moves in one query."""
    if not rows:
        return []
    ids = [row[0] for row in rows]
    moves: dict[int, list[MoveRecord]] = {game_id: [] for game_id in ids}
    for game_id, *move in conn.execute(
        f"""SELECT game_id, {MOVE_COLUMNS} FROM moves
            WHERE game_id IN ({", ".join("?" * len(ids))}) ORDER BY game_id, ply""",
        ids,
    ):
        moves[game_id].append(move_from_row(move, TEXT))
    return [game_from_row(row, tuple(moves[row[0]]), TEXT) for row in rows]
