"""Channel settings and processed webhook events in SQLite (run on the worker thread)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ._cache import MoveCache
from ._games import open_game
from ._outbox import insert_notices
from ._rows import SETTINGS_COLUMNS, settings_from_row
from ._sql import read_tx, within, write_tx
from .queries.players import find_player, get_players
from .records import ChannelSettings, ChatState, NewNotice, Platform


def chat_state(
    conn: sqlite3.Connection, cache: MoveCache, platform: Platform, channel: str, user_id: str
) -> ChatState:
    with read_tx(conn):  # one snapshot
        game = open_game(conn, cache, platform, channel)
        players = within(conn, get_players(sorted(set(game.player_ids)))) if game is not None else {}
        return ChatState(get_channel_settings(conn, platform, channel), game, players,
                         within(conn, find_player(platform, user_id)))


def get_channel_settings(
    conn: sqlite3.Connection, platform: Platform, channel: str
) -> ChannelSettings:
    row = conn.execute(
        f"SELECT {SETTINGS_COLUMNS} FROM channel_settings WHERE platform = ? AND channel = ?",
        (platform, channel),
    ).fetchone()
    return settings_from_row(platform, channel, row)


def set_channel_settings(
    conn: sqlite3.Connection, settings: ChannelSettings, notices: Sequence[NewNotice], now: str
) -> None:
    with write_tx(conn):
        _upsert_settings(conn, settings, now)
        insert_notices(conn, notices, now)


def _upsert_settings(conn: sqlite3.Connection, settings: ChannelSettings, now: str) -> None:
    s = settings
    push_notices = None if s.push_notices is None else int(s.push_notices)
    conn.execute(
        """INSERT INTO channel_settings (platform, channel, language, promotion, perpetual,
               move_seconds, coordinates, orientation, push_notices, notation, updated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (platform, channel) DO UPDATE SET
               language = excluded.language, promotion = excluded.promotion,
               perpetual = excluded.perpetual, move_seconds = excluded.move_seconds,
               coordinates = excluded.coordinates, orientation = excluded.orientation,
               push_notices = excluded.push_notices, notation = excluded.notation,
               updated = excluded.updated""",
        (s.platform, s.channel, s.language, s.promotion, s.perpetual, s.move_seconds,
         s.coordinates, s.orientation, push_notices, s.notation, now),
    )


def mark_event_processed(conn: sqlite3.Connection, event_id: str, now: str) -> bool:
    cursor = conn.execute(
        "INSERT INTO processed_events (event_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (event_id, now),
    )
    return cursor.rowcount == 1


def prune_events(conn: sqlite3.Connection, before: str) -> int:
    return conn.execute("DELETE FROM processed_events WHERE at < ?", (before,)).rowcount
