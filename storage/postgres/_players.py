"""Players and their ratings in PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .._rows import NATIVE, PLAYER_COLUMNS, player_from_row
from ..errors import NotFound, VersionConflict
from ..records import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY, Player, RatingUpdate
from ._sql import Connection


async def get_or_create_player(
    conn: Connection, platform: str, user_id: str, display_name: str, now: datetime
) -> Player:
    # Most calls find the player unchanged: answer those without writing.
    found = await find_player(conn, platform, user_id)
    if found is not None and found.display_name == display_name:
        return found
    row = await conn.fetchrow(
        f"""INSERT INTO players (platform, user_id, display_name, rating, deviation, volatility,
                created, updated)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
            ON CONFLICT (platform, user_id)
            DO UPDATE SET display_name = excluded.display_name, updated = excluded.updated
            RETURNING {PLAYER_COLUMNS}""",
        platform, user_id, display_name, INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY,
        now,
    )
    return player_from_row(row, NATIVE)


async def get_player(conn: Connection, player_id: int) -> Player:
    row = await conn.fetchrow(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1", player_id)
    if row is None:
        raise NotFound(f"no player {player_id}")
    return player_from_row(row, NATIVE)


async def get_players(conn: Connection, player_ids: list[int]) -> dict[int, Player]:
    rows = await conn.fetch(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ANY($1::bigint[])", player_ids)
    players = [player_from_row(row, NATIVE) for row in rows]
    return {player.id: player for player in players}


async def find_player(conn: Connection, platform: str, user_id: str) -> Player | None:
    row = await conn.fetchrow(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = $1 AND user_id = $2",
        platform, user_id,
    )
    return None if row is None else player_from_row(row, NATIVE)


async def update_player(
    conn: Connection, player_id: int, changes: dict[str, Any], now: datetime
) -> Player:
    columns = ("updated", *changes)
    assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(columns, start=2))
    row = await conn.fetchrow(
        f"UPDATE players SET {assignments} WHERE id = $1 RETURNING {PLAYER_COLUMNS}",
        player_id, now, *changes.values(),
    )
    if row is None:
        raise NotFound(f"no player {player_id}")
    return player_from_row(row, NATIVE)


async def update_ratings(
    conn: Connection, updates: Sequence[RatingUpdate], now: datetime
) -> list[Player]:
    async with conn.transaction():
        return await apply_ratings(conn, updates, now)


async def apply_ratings(
    conn: Connection, updates: Sequence[RatingUpdate], now: datetime
) -> list[Player]:
    """Apply rating updates inside the caller's transaction (CAS on games_played); the
    players in the order of `updates`."""
    players: dict[int, Player] = {}
    # Rows are locked in player id order, so two games finishing at once for the same two
    # players cannot deadlock.
    for index in sorted(range(len(updates)), key=lambda i: updates[i].player_id):
        update = updates[index]
        row = await conn.fetchrow(
            f"""UPDATE players SET rating = $3, deviation = $4, volatility = $5,
                    games_played = games_played + 1, updated = $6
                WHERE id = $1 AND games_played = $2
                RETURNING {PLAYER_COLUMNS}""",
            update.player_id, update.expected_games, update.rating, update.deviation,
            update.volatility, now,
        )
        if row is None:
            current = await get_player(conn, update.player_id)  # NotFound if there is none
            raise VersionConflict(
                f"rating of player {update.player_id}", update.expected_games,
                current.games_played,
            )
        players[index] = player_from_row(row, NATIVE)
    return [players[index] for index in range(len(updates))]


async def top_players(
    conn: Connection, platform: str, community: str | None, limit: int, min_games: int
) -> list[Player]:
    rows = await conn.fetch(
        f"""SELECT {PLAYER_COLUMNS} FROM players AS p
            WHERE platform = $1 AND games_played >= $2
              AND ($3::text IS NULL OR EXISTS (
                  SELECT 1 FROM games AS g
                  WHERE g.community = $3 AND g.status = 'finished'
                    AND (g.white_player = p.id OR g.black_player = p.id)))
            ORDER BY rating DESC, id
            LIMIT $4""",
        platform, min_games, community, limit,
    )
    return [player_from_row(row, NATIVE) for row in rows]


async def channel_players(conn: Connection, platform: str, channel: str) -> list[Player]:
    # A seat holds a player or an invitee alike; most recent game first.
    rows = await conn.fetch(
        f"""SELECT {PLAYER_COLUMNS} FROM players JOIN (
                SELECT player_id, max(game_id) AS last_game FROM (
                    SELECT white_player AS player_id, id AS game_id FROM games
                    WHERE platform = $1 AND channel = $2
                    UNION ALL
                    SELECT black_player, id FROM games
                    WHERE platform = $1 AND channel = $2
                ) AS seated
                WHERE player_id IS NOT NULL
                GROUP BY player_id
            ) AS seen ON players.id = seen.player_id
            ORDER BY seen.last_game DESC, players.id""",
        platform, channel,
    )
    return [player_from_row(row, NATIVE) for row in rows]
