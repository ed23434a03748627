"""Players and their ratings in SQLite. Every function runs on the connection's worker thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from ._rows import (
    PLAYER_COLUMNS,
    RATING_COLUMNS,
    STANDING_COLUMNS,
    player_from_row,
    rating_from_row,
    standing_from_row,
)
from ._sql import TEXT, write_tx
from .errors import NotFound, VersionConflict
from .records import (
    INITIAL_RATING,
    Player,
    PlayerRating,
    RatingUpdate,
    Standing,
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
            f"""INSERT INTO players (platform, user_id, display_name, created, updated)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (platform, user_id)
                DO UPDATE SET display_name = excluded.display_name, updated = excluded.updated
                RETURNING {PLAYER_COLUMNS}""",
            (platform, user_id, display_name, now, now),
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


def get_rating(conn: sqlite3.Connection, player_id: int, variant: str) -> PlayerRating:
    row = conn.execute(
        f"""SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ? AND variant = ?""",
        (player_id, variant),
    ).fetchone()
    if row is not None:
        return rating_from_row(row)
    get_player(conn, player_id)  # NotFound if there is none
    return PlayerRating.initial(player_id, variant)


def update_ratings(
    conn: sqlite3.Connection, updates: Sequence[RatingUpdate]
) -> list[PlayerRating]:
    with write_tx(conn):
        return apply_ratings(conn, updates)


def apply_ratings(
    conn: sqlite3.Connection, updates: Sequence[RatingUpdate]
) -> list[PlayerRating]:
    """Apply rating updates inside the caller's transaction (CAS on the variant's games_played;
    a player's first rated game of a variant adds its row)."""
    ratings = []
    for update in updates:
        values = (update.rating, update.deviation, update.volatility)
        row = conn.execute(
            f"""UPDATE ratings SET rating = ?, deviation = ?, volatility = ?,
                    games_played = games_played + 1
                WHERE player_id = ? AND variant = ? AND games_played = ?
                RETURNING {RATING_COLUMNS}""",
            (*values, update.player_id, update.variant, update.expected_games),
        ).fetchone()
        if row is None and update.expected_games == 0:
            row = conn.execute(
                f"""INSERT INTO ratings ({RATING_COLUMNS})
                    SELECT id, ?, ?, ?, ?, 1 FROM players WHERE id = ?
                    ON CONFLICT (player_id, variant) DO NOTHING
                    RETURNING {RATING_COLUMNS}""",
                (update.variant, *values, update.player_id),
            ).fetchone()
        if row is None:
            current = get_rating(conn, update.player_id, update.variant)  # NotFound if no player
            raise VersionConflict(
                f"{update.variant} rating of player {update.player_id}", update.expected_games,
                current.games_played,
            )
        ratings.append(rating_from_row(row))
    return ratings


def top_players(
    conn: sqlite3.Connection,
    platform: str,
    variant: str,
    community: str | None,
    limit: int,
    min_games: int,
) -> list[Standing]:
    rows = conn.execute(
        f"""SELECT {STANDING_COLUMNS} FROM players AS p
            LEFT JOIN ratings AS r ON r.player_id = p.id AND r.variant = :variant
            WHERE p.platform = :platform AND coalesce(r.games_played, 0) >= :min_games
              AND (:community IS NULL OR EXISTS (
                  SELECT 1 FROM games AS g
                  WHERE g.community = :community AND g.variant = :variant
                    AND g.status = 'finished'
                    AND (g.white_player = p.id OR g.black_player = p.id)))
            ORDER BY coalesce(r.rating, :rating) DESC, p.id
            LIMIT :limit""",
        {"platform": platform, "variant": variant, "min_games": min_games,
         "community": community, "limit": limit, "rating": INITIAL_RATING},
    ).fetchall()
    return [standing_from_row(row, TEXT, variant) for row in rows]


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
