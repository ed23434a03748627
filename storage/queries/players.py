"""Players and their ratings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .._plan import Plan, marks, rows
from .._rows import (
    PLAYER_COLUMNS,
    RATING_COLUMNS,
    STANDING_COLUMNS,
    player_from_row,
    rating_from_row,
    standing_from_row,
)
from ..errors import NotFound, VersionConflict
from ..records import INITIAL_RATING, Player, PlayerRating, RatingUpdate, Speed, Standing


def save_player(platform: str, user_id: str, display_name: str, now: datetime) -> Plan[Player]:
    """The player, made or renamed (get_or_create_player writes only when it must)."""
    found = yield rows(
        f"""INSERT INTO players (platform, user_id, display_name, created, updated)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (platform, user_id)
            DO UPDATE SET display_name = excluded.display_name, updated = excluded.updated
            RETURNING {PLAYER_COLUMNS}""",
        platform, user_id, display_name, now, now,
    )
    return player_from_row(found[0])


def get_player(player_id: int) -> Plan[Player]:
    found = yield rows(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", player_id)
    if not found:
        raise NotFound(f"no player {player_id}")
    return player_from_row(found[0])


def get_players(player_ids: Sequence[int]) -> Plan[dict[int, Player]]:
    if not player_ids:
        return {}
    found = yield rows(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id IN ({marks(len(player_ids))})", *player_ids)
    players = [player_from_row(row) for row in found]
    return {player.id: player for player in players}


def find_player(platform: str, user_id: str) -> Plan[Player | None]:
    found = yield rows(f"SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ? AND user_id = ?", platform, user_id)
    return player_from_row(found[0]) if found else None


def update_player(player_id: int, changes: dict[str, Any], now: datetime) -> Plan[Player]:
    assignments = ", ".join(f"{column} = ?" for column in ("updated", *changes))
    found = yield rows(
        f"UPDATE players SET {assignments} WHERE id = ? RETURNING {PLAYER_COLUMNS}",
        now, *changes.values(), player_id,
    )
    if not found:
        raise NotFound(f"no player {player_id}")
    return player_from_row(found[0])


def get_rating(player_id: int, variant: str, speed: Speed) -> Plan[PlayerRating]:
    found = yield rows(f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ? AND variant = ? AND speed = ?",
                       player_id, variant, speed)
    if found:
        return rating_from_row(found[0])
    yield from get_player(player_id)  # NotFound if there is none
    return PlayerRating.initial(player_id, variant, speed)


def apply_ratings(updates: Sequence[RatingUpdate]) -> Plan[list[PlayerRating]]:
    """Rating updates, each a compare-and-set on the variant's games_played (a player's first
    rated game of a variant adds its row); the ratings in the order of `updates`."""
    ratings: dict[int, PlayerRating] = {}
    # Rows are locked in player id order, so two games finishing at once for the same two
    # players cannot deadlock (PostgreSQL).
    for index in sorted(range(len(updates)), key=lambda i: updates[i].player_id):
        update = updates[index]
        values = (update.rating, update.deviation, update.volatility)
        found = yield rows(
            f"""UPDATE ratings SET rating = ?, deviation = ?, volatility = ?,
                    games_played = games_played + 1
                WHERE player_id = ? AND variant = ? AND speed = ? AND games_played = ?
                RETURNING {RATING_COLUMNS}""",
            *values, update.player_id, update.variant, update.speed, update.expected_games,
        )
        if not found and update.expected_games == 0:
            # A first rating of the variant: of two games adding it at once, the second waits
            # for the first's row and then inserts nothing (a conflict below).
            found = yield rows(
                f"""INSERT INTO ratings ({RATING_COLUMNS})
                    SELECT id, ?, ?, ?, ?, 1, ? FROM players WHERE id = ?
                    ON CONFLICT (player_id, variant, speed) DO NOTHING
                    RETURNING {RATING_COLUMNS}""",
                update.variant, *values, update.speed, update.player_id,
            )
        if not found:
            current = yield from get_rating(update.player_id, update.variant, update.speed)  # NotFound if no player
            raise VersionConflict(
                f"{update.variant} rating of player {update.player_id} ({update.speed})", update.expected_games,
                current.games_played,
            )
        ratings[index] = rating_from_row(found[0])
    return [ratings[index] for index in range(len(updates))]


def top_players(platform: str, variant: str, speed: Speed, community: str | None, limit: int,
                min_games: int) -> Plan[list[Standing]]:
    # A game is live when it has a clock; its speed is not a column of its own.
    in_community = "" if community is None else f"""
              AND EXISTS (
                  SELECT 1 FROM games AS g
                  WHERE g.community = ? AND g.variant = ? AND g.status = 'finished'
                    AND g.clock_initial IS {"NOT NULL" if speed == "live" else "NULL"}
                    AND (g.white_player = p.id OR g.black_player = p.id))"""
    found = yield rows(
        f"""SELECT {STANDING_COLUMNS} FROM players AS p
            LEFT JOIN ratings AS r ON r.player_id = p.id AND r.variant = ? AND r.speed = ?
            WHERE p.platform = ? AND coalesce(r.games_played, 0) >= ?{in_community}
            ORDER BY coalesce(r.rating, ?) DESC, p.id
            LIMIT ?""",
        variant, speed, platform, min_games, *(() if community is None else (community, variant)), INITIAL_RATING,
        limit,
    )
    return [standing_from_row(row, variant, speed) for row in found]


def channel_players(platform: str, channel: str) -> Plan[list[Player]]:
    # A seat holds a player or an invitee alike; most recent game first.
    found = yield rows(
        f"""SELECT {PLAYER_COLUMNS} FROM players JOIN (
                SELECT player_id, max(game_id) AS last_game FROM (
                    SELECT white_player AS player_id, id AS game_id FROM games
                    WHERE platform = ? AND channel = ?
                    UNION ALL
                    SELECT black_player, id FROM games
                    WHERE platform = ? AND channel = ?
                ) AS seated
                WHERE player_id IS NOT NULL
                GROUP BY player_id
            ) AS seen ON players.id = seen.player_id
            ORDER BY seen.last_game DESC, players.id""",
        platform, channel, platform, channel,
    )
    return [player_from_row(row) for row in found]
