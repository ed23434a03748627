"""A chat: its settings, what a message to it needs to know, and processed webhook event ids."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .._cache import MoveCache
from .._plan import Plan, count, rows
from .._rows import SETTINGS_COLUMNS, settings_from_row
from ..records import ChannelSettings, ChatState, NewNotice, Platform
from .games import open_game
from .outbox import insert_notices
from .players import find_player, get_players


def chat_state(cache: MoveCache, platform: Platform, channel: str, user_id: str,
               game_id: int | None = None) -> Plan[ChatState]:
    """Run as one snapshot (PostgreSQL has it as one statement: postgres/_fast.py)."""
    game = yield from open_game(cache, platform, channel, user_id, game_id)
    players = (yield from get_players(sorted(set(game.player_ids)))) if game is not None else {}
    settings = yield from get_channel_settings(platform, channel)
    sender = yield from find_player(platform, user_id)
    return ChatState(settings, game, players, sender)


def get_channel_settings(platform: Platform, channel: str) -> Plan[ChannelSettings]:
    found = yield rows(
        f"SELECT {SETTINGS_COLUMNS} FROM channel_settings WHERE platform = ? AND channel = ?", platform, channel
    )
    return settings_from_row(platform, channel, found[0] if found else None)


def set_channel_settings(settings: ChannelSettings, notices: Sequence[NewNotice], now: datetime) -> Plan[None]:
    yield from insert_notices(notices, now)  # first: its lock before the settings row's (PostgreSQL)
    s = settings
    yield rows(
        """INSERT INTO channel_settings (platform, channel, language, promotion, perpetual,
               move_seconds, coordinates, orientation, push_notices, notation, updated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (platform, channel) DO UPDATE SET
               language = excluded.language, promotion = excluded.promotion,
               perpetual = excluded.perpetual, move_seconds = excluded.move_seconds,
               coordinates = excluded.coordinates, orientation = excluded.orientation,
               push_notices = excluded.push_notices, notation = excluded.notation,
               updated = excluded.updated""",
        s.platform, s.channel, s.language, s.promotion, s.perpetual, s.move_seconds,
        s.coordinates, s.orientation, s.push_notices, s.notation, now,
    )


def mark_event_processed(event_id: str, now: datetime) -> Plan[bool]:
    # One statement: of several processes recording the same id, exactly one inserts it.
    inserted = yield rows(
        "INSERT INTO processed_events (event_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING event_id",
        event_id, now,
    )
    return bool(inserted)


def prune_events(before: datetime) -> Plan[int]:
    deleted: int = yield count("DELETE FROM processed_events WHERE at < ?", before)
    return deleted
