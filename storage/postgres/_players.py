"""Players and their ratings in PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .._rows import (
    NATIVE,
    PLAYER_COLUMNS,
    RATING_COLUMNS,
    STANDING_COLUMNS,
    player_from_row,
    rating_from_row,
    standing_from_row,
)
from ..errors import NotFound, VersionConflict
from ..records import INITIAL_RATING, Player, PlayerRating, RatingUpdate, Standing
from ._sql import Connection


async def get_or_create_player(
    conn: Connection, platform: str, user_id: str, display_name: str, now: datetime
) -> Player:
    # Most calls find the player unchanged: answer those without writing.
    found = await find_player(conn, platform, user_id)
    if found is not None and found.display_name == display_name:
        return found
    row = await conn.fetchrow(
        f"""INSERT INTO players (platform, user_id, display_name, created, updated)
            VALUES ($1, $2, $3, $4, $4)
            ON CONFLICT (platform, user_id)
            DO UPDATE SET display_name = excluded.display_name, updated = excluded.updated
            RETURNING {PLAYER_COLUMNS}""",
        platform, user_id, display_name, now,
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


async def get_rating(conn: Connection, player_id: int, variant: str) -> PlayerRating:
    row = await conn.fetchrow(
        f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND variant = $2",
        player_id, variant,
    )
    if row is not None:
        return rating_from_row(row)
    await get_player(conn, player_id)  # NotFound if there is none
    return PlayerRating.initial(player_id, variant)


async def update_ratings(
    conn: Connection, updates: Sequence[RatingUpdate]
) -> list[PlayerRating]:
    async with conn.transaction():
        return await apply_ratings(conn, updates)


async def apply_ratings(
    conn: Connection, updates: Sequence[RatingUpdate]
) -> list[PlayerRating]:
    """Apply rating updates inside the caller's transaction (CAS on the variant's games_played;
    a player's first rated game of a variant adds its row); the ratings in the order of
    `updates`."""
    ratings: dict[int, PlayerRating] = {}
    # Rows are locked in player id order, so two games finishing at once for the same two
    # players cannot deadlock.
    for index in sorted(range(len(updates)), key=lambda i: updates[i].player_id):
        update = updates[index]
        row = await conn.fetchrow(
            f"""UPDATE ratings SET rating = $4, deviation = $5, volatility = $6,
                    games_played = games_played + 1
                WHERE player_id = $1 AND variant = $2 AND games_played = $3
                RETURNING {RATING_COLUMNS}""",
            update.player_id, update.variant, update.expected_games, update.rating,
            update.deviation, update.volatility,
        )
        if row is None and update.expected_games == 0:
            # A first rating of the variant: of two games adding it at once, the second
            # waits for the first's row and then inserts nothing (a conflict below).
            row = await conn.fetchrow(
                f"""INSERT INTO ratings ({RATING_COLUMNS})
                    SELECT id, $2, $3, $4, $5, 1 FROM players WHERE id = $1
                    ON CONFLICT (player_id, variant) DO NOTHING
                    RETURNING {RATING_COLUMNS}""",
                update.player_id, update.variant, update.rating, update.deviation,
                update.volatility,
            )
        if row is None:
            current = await get_rating(conn, update.player_id, update.variant)  # NotFound if no player
            raise VersionConflict(
                f"{update.variant} rating of player {update.player_id}", update.expected_games,
                current.games_played,
            )
        ratings[index] = rating_from_row(row)
    return [ratings[index] for index in range(len(updates))]


async def top_players(
    conn: Connection, platform: str, variant: str, community: str | None, limit: int,
    min_games: int,
) -> list[Standing]:
    rows = await conn.fetch(
        f"""SELECT {STANDING_COLUMNS} FROM players AS p
            LEFT JOIN ratings AS r ON r.player_id = p.id AND r.variant = $2
            WHERE p.platform = $1 AND coalesce(r.games_played, 0) >= $3
              AND ($4::text IS NULL OR EXISTS (
                  SELECT 1 FROM games AS g
                  WHERE g.community = $4 AND g.variant = $2 AND g.status = 'finished'
                    AND (g.white_player = p.id OR g.black_player = p.id)))
            ORDER BY coalesce(r.rating, $6) DESC, p.id
            LIMIT $5""",
        platform, variant, min_games, community, limit, INITIAL_RATING,
    )
    return [standing_from_row(row, NATIVE, variant) for row in rows]


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
