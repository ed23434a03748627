"""Channel settings and processed webhook events in PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._cache import MoveCache
from .._rows import SETTINGS_COLUMNS, settings_from_row
from ..records import ChannelSettings, ChatState, NewNotice, Platform
from ._games import active_game
from ._outbox import add_notices
from ._players import find_player, get_players
from ._sql import Connection, affected


async def chat_state(
    conn: Connection, cache: MoveCache, platform: Platform, channel: str, user_id: str
) -> ChatState:
    # Four statements on one connection, without a transaction of their own (each one sees
    # what is committed when it runs, as the separate calls they replace did).
    game = await active_game(conn, cache, platform, channel)
    players = await get_players(conn, sorted(set(game.player_ids))) if game is not None else {}
    return ChatState(await get_channel_settings(conn, platform, channel), game, players,
                     await find_player(conn, platform, user_id))


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
