"""Channel settings and processed webhook events in PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from .._cache import MoveCache
from .._rows import (
    GAME_COLUMNS,
    NATIVE,
    PLAYER_COLUMNS,
    SETTINGS_COLUMNS,
    game_from_row,
    player_from_row,
    settings_from_row,
)
from ..records import ChannelSettings, ChatState, NewNotice, Platform
from ._games import OPEN, moves_from_array, moves_of
from ._outbox import add_notices
from ._sql import Connection, affected

# The chat's settings, the sender, and the chat's open game with its players and (unless the
# cache holds them: $4, $5 are the id and version it holds for the chat) its moves.
_CHAT_STATE: Final = f"""
    SELECT (SELECT ROW({SETTINGS_COLUMNS}) FROM channel_settings
            WHERE platform = $1 AND channel = $2) AS settings,
           (SELECT ROW({PLAYER_COLUMNS}) FROM players WHERE platform = $1 AND user_id = $3) AS sender,
           open_game.*
    FROM (SELECT) AS chat LEFT JOIN LATERAL (
        SELECT ROW({GAME_COLUMNS}) AS game,
               coalesce(id = $4 AND version = $5, false) AS cached,
               CASE WHEN id = $4 AND version = $5 THEN NULL ELSE {moves_of("games")} END AS moves,
               (SELECT array_agg(ROW({PLAYER_COLUMNS})) FROM players
                WHERE players.id IN (games.white_player, games.black_player)) AS players
        FROM games WHERE platform = $1 AND channel = $2 AND {OPEN}
    ) AS open_game ON true"""


async def chat_state(
    conn: Connection, cache: MoveCache, platform: Platform, channel: str, user_id: str
) -> ChatState:
    """One statement, so one round trip and one snapshot."""
    held = cache.of_chat(platform, channel)
    row = await conn.fetchrow(_CHAT_STATE, platform, channel, user_id, *(held[:2] if held else (None, None)))
    game = None
    if row["game"] is not None and held is not None and row["cached"]:
        game = game_from_row(row["game"], held[2], NATIVE)
    elif row["game"] is not None:
        game = cache.put(game_from_row(row["game"], moves_from_array(row["moves"]), NATIVE))
    players = (player_from_row(p, NATIVE) for p in row["players"] or ())
    sender = None if row["sender"] is None else player_from_row(row["sender"], NATIVE)
    return ChatState(settings_from_row(platform, channel, row["settings"]), game,
                     {player.id: player for player in players}, sender)


async def get_channel_settings(conn: Connection, platform: Platform, channel: str) -> ChannelSettings:
    row = await conn.fetchrow(
        f"SELECT {SETTINGS_COLUMNS} FROM channel_settings WHERE platform = $1 AND channel = $2",
        platform, channel,
    )
    return settings_from_row(platform, channel, row)


async def set_channel_settings(
    conn: Connection, settings: ChannelSettings, notices: Sequence[NewNotice], now: datetime
) -> None:
    s = settings
    async with conn.transaction():
        if notices:
            await add_notices(conn, notices, now)
        await conn.execute(
            """INSERT INTO channel_settings (platform, channel, language, promotion, perpetual,
                   move_seconds, coordinates, orientation, push_notices, notation, updated)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
               ON CONFLICT (platform, channel) DO UPDATE SET
                   language = excluded.language, promotion = excluded.promotion,
                   perpetual = excluded.perpetual, move_seconds = excluded.move_seconds,
                   coordinates = excluded.coordinates, orientation = excluded.orientation,
                   push_notices = excluded.push_notices, notation = excluded.notation,
                   updated = excluded.updated""",
            s.platform, s.channel, s.language, s.promotion, s.perpetual, s.move_seconds,
            s.coordinates, s.orientation, s.push_notices, s.notation, now,
        )


async def mark_event_processed(conn: Connection, event_id: str, now: datetime) -> bool:
    # One statement: of several processes recording the same id, exactly one inserts it.
    inserted = await conn.fetchval(
        """INSERT INTO processed_events (event_id, at) VALUES ($1, $2)
           ON CONFLICT DO NOTHING RETURNING event_id""",
        event_id, now,
    )
    return inserted is not None


async def prune_events(conn: Connection, before: datetime) -> int:
    return affected(await conn.execute("DELETE FROM processed_events WHERE at < $1", before))
