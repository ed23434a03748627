"""Players and their ratings in SQLite. Every function runs on the connection's worker thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ._rows import PLAYER_COLUMNS, player_from_row
from ._sql import TEXT, write_tx
from .errors import NotFound, VersionConflict
from .records import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    Player,
    RatingUpdate,
)


def get_or_create_player(
    conn: sqlite3.Connection, platform: str, user_id: str, display_name: str, now: str
) -> Player:
    # Most calls find the player unchanged: answer those without taking the write lock.
    found = find_player(conn, platform, user_id)
    if found is not None and found.display_name == display_name:
        return found
    with write_tx(conn):
        row = conn.execute(
            f"""INSERT INTO players (platform, user_id, display_name, rating, deviation,
                    volatility, created, updated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (platform, user_id)
                DO UPDATE SET display_name = excluded.display_name, updated = excluded.updated
                RETURNING {PLAYER_COLUMNS}""",
            (platform, user_id, display_name, INITIAL_RATING, INITIAL_DEVIATION,
             INITIAL_VOLATILITY, now, now),
        ).fetchall()[0]
    return player_from_row(row, TEXT)


def get_player(conn: sqlite3.Connection, player_id: int) -> Player:
    row = conn.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no player {player_id}")
    return player_from_row(row, TEXT)


def get_players(conn: sqlite3.Connection, player_ids: list[int]) -> dict[int, Player]:
    if not player_ids:
        return {}
    marks = ", ".join("?" * len(player_ids))
    rows = conn.execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id IN ({marks})", player_ids).fetchall()
    players = [player_from_row(row, TEXT) for row in rows]
    return {player.id: player for player in players}


def find_player(conn: sqlite3.Connection, platform: str, user_id: str) -> Player | None:
    row = conn.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?",
        (platform, user_id),
    ).fetchone()
    return None if row is None else player_from_row(row, TEXT)


def update_player(
    conn: sqlite3.Connection, player_id: int, changes: dict[str, Any], now: str
) -> Player:
    assignments = ", ".join(f"{column} = ?" for column in ("updated", *changes))
    with write_tx(conn):
        rows = conn.execute(
            f"UPDATE players SET {assignments} WHERE id = ? RETURNING {PLAYER_COLUMNS}",
            (now, *changes.values(), player_id),
        ).fetchall()
    if not rows:
        raise NotFound(f"no player {player_id}")
    return player_from_row(rows[0], TEXT)


def update_ratings(
    conn: sqlite3.Connection, updates: Sequence[RatingUpdate], now: str
) -> list[Player]:
    with write_tx(conn):
        return apply_ratings(conn, updates, now)


def apply_ratings(
    conn: sqlite3.Connection, updates: Sequence[RatingUpdate], now: str
) -> list[Player]:
    """Apply rating updates inside the caller's transaction (CAS on games_played)."""
    players = []
    for update in updates:
        rows = conn.execute(
            f"""UPDATE players SET rating = ?, deviation = ?, volatility = ?,
                    games_played = games_played + 1, updated = ?
                WHERE id = ? AND games_played = ?
                RETURNING {PLAYER_COLUMNS}""",
            (update.rating, update.deviation, update.volatility, now, update.player_id,
             update.expected_games),
        ).fetchall()
        if not rows:
            current = get_player(conn, update.player_id)  # NotFound if there is none
            raise VersionConflict(
                f"rating of player {update.player_id}", update.expected_games,
                current.games_played,
            )
        players.append(player_from_row(rows[0], TEXT))
    return players


def top_players(
    conn: sqlite3.Connection,
    platform: str,
    community: str | None,
    limit: int,
    min_games: int,
) -> list[Player]:
    rows = conn.execute(
        f"""SELECT {PLAYER_COLUMNS} FROM players AS p
            WHERE platform = :platform AND games_played >= :min_games
              AND (:community IS NULL OR EXISTS (
                  SELECT 1 FROM games AS g
                  WHERE g.community = :community AND g.status = 'finished'
                    AND (g.white_player = p.id OR g.black_player = p.id)))
            ORDER BY rating DESC, id
            LIMIT :limit""",
        {"platform": platform, "min_games": min_games, "community": community, "limit": limit},
    ).fetchall()
    return [player_from_row(row, TEXT) for row in rows]


def channel_players(conn: sqlite3.Connection, platform: str, channel: str) -> list[Player]:
    # A seat holds a player or an invitee alike; most recent game first.
    rows = conn.execute(
        f"""SELECT {PLAYER_COLUMNS} FROM players JOIN (
                SELECT player_id, max(game_id) AS last_game FROM (
                    SELECT white_player AS player_id, id AS game_id FROM games
                    WHERE platform = :platform AND channel = :channel
                    UNION ALL
                    SELECT black_player, id FROM games
                    WHERE platform = :platform AND channel = :channel
                ) AS seated
                WHERE player_id IS NOT NULL
                GROUP BY player_id
            ) AS seen ON players.id = seen.player_id
            ORDER BY seen.last_game DESC, players.id""",
        {"platform": platform, "channel": channel},
    ).fetchall()
    return [player_from_row(row, TEXT) for row in rows]
