"""PostgreSQL's one-statement forms of the two calls every chat message makes, where the plans
of storage/queries would take several round trips: a chat's state, and a move (or other
change) to a game whose moves the cache holds. Everything else runs the plans."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

import asyncpg

from .._cache import MoveCache
from .._plan import Duplicate
from .._rows import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    PLAYER_COLUMNS,
    SETTINGS_COLUMNS,
    change_columns,
    game_from_row,
    move_from_row,
    player_from_row,
    settings_from_row,
    utc,
)
from ..errors import NotFound, VersionConflict
from ..queries.games import OPEN, sender_game
from ..records import ChatState, Game, GameChanges, MoveRecord, NewMove, NewNotice, Platform
from ._sql import Connection


def moves_of(games: str) -> str:
    """A game's moves as one array value, read in the same statement (one snapshot) as its row."""
    return f"(SELECT array_agg(ROW({MOVE_COLUMNS}) ORDER BY ply) FROM moves WHERE game_id = {games}.id)"


# The chat's settings, the sender, and the open game the sender's message is about (as
# queries.games.open_game: $6 the game named, if one is) with its players and (unless the cache
# holds them: $4, $5 are the id and version it holds for the chat) its moves.
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
        FROM games WHERE platform = $1 AND channel = $2 AND {OPEN} AND {{sender_game}}
    ) AS open_game ON true"""
_CHAT_STATES: Final = tuple(_CHAT_STATE.format(sender_game=sender_game(named, True, "$1", "$3", "$6"))
                            for named in (False, True))


async def chat_state(conn: Connection, cache: MoveCache, platform: Platform, channel: str, user_id: str,
                     game_id: int | None = None) -> ChatState:
    """One statement, so one round trip and one snapshot."""
    held = cache.of_chat(platform, channel)
    named = () if game_id is None else (game_id,)
    row = await conn.fetchrow(_CHAT_STATES[bool(named)], platform, channel, user_id,
                              *(held[:2] if held else (None, None)), *named)
    game = None
    if row["game"] is not None and held is not None and row["cached"]:
        game = game_from_row(row["game"], held[2])
    elif row["game"] is not None:
        moves = tuple(move_from_row(m) for m in row["moves"] or ())
        game = cache.put(game_from_row(row["game"], moves))
    players = (player_from_row(p) for p in row["players"] or ())
    sender = None if row["sender"] is None else player_from_row(row["sender"])
    return ChatState(settings_from_row(platform, channel, row["settings"]), game,
                     {player.id: player for player in players}, sender)


async def change_game(conn: Connection, before: tuple[MoveRecord, ...], game_id: int,
                      expected_version: int, move: NewMove | None, changes: GameChanges,
                      notices: Sequence[NewNotice], now: datetime) -> Game:
    """queries.games.change_game without ratings, for a game whose moves at `expected_version`
    are `before` (from the cache): the compare-and-set, the move at the next ply and the
    notices, in one statement."""
    values: list[Any] = [game_id, expected_version, now]
    assignments = ["version = version + 1", "updated = $3"]
    for column, value in change_columns(changes):
        values.append(value)
        assignments.append(f"{column} = ${len(values)}")
    sql = f"""UPDATE games SET {", ".join(assignments)} WHERE id = $1 AND version = $2
              RETURNING {GAME_COLUMNS}"""
    added = None
    if move is not None or notices:
        steps = [f"game AS ({sql})"]
        if move is not None:
            added = MoveRecord(before[-1].ply + 1 if before else 1, move.uci, move.san, move.by, now)
            values += [added.ply, move.uci, move.san, move.by]
            ply, uci, san, by = (f"${len(values) - i}" for i in (3, 2, 1, 0))
            steps.append(f"""move AS (INSERT INTO moves (game_id, ply, uci, san, "by", at)
                              SELECT id, {ply}, {uci}, {san}, {by}, updated FROM game)""")
        if notices:
            steps.append(f"notices AS ({insert_sql(len(values) + 1, 'EXISTS (SELECT FROM game)')})")
            values += notice_values(notices, now)
        sql = f"WITH {', '.join(steps)} SELECT * FROM game"
    try:
        row = await conn.fetchrow(sql, *values)
    except asyncpg.UniqueViolationError as error:
        raise Duplicate(str(error)) from error
    if row is None:
        current = await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
        if current is None:
            raise NotFound(f"no game {game_id}")
        raise VersionConflict(f"game {game_id}", expected_version, current)
    return game_from_row(row, before if added is None else (*before, added))


# The outbox insert inside the move's statement: the notices as one array per column, and the
# locks queries/outbox.insert_notices takes (one per chat, in the same sorted order).

# How many parameters notice_values() gives and insert_sql() takes.
NOTICE_PARAMETERS: Final = 9


def insert_sql(first: int, when: str = "TRUE") -> str:
    """INSERT of the notices in parameters $first.. (notice_values()), when `when` holds;
    a key that exists already is ignored."""
    key, platform, channel, kind, payload, push, due, chats, now = (
        f"${first + i}" for i in range(NOTICE_PARAMETERS)
    )
    return f"""INSERT INTO outbox (key, platform, channel, kind, payload, push, created, due)
        SELECT n.key, n.platform, n.channel, n.kind, n.payload::json, n.push, {now},
               coalesce(n.due, {now})
        FROM unnest({key}::text[], {platform}::text[], {channel}::text[], {kind}::text[],
                    {payload}::text[], {push}::boolean[], {due}::timestamptz[])
             WITH ORDINALITY AS n (key, platform, channel, kind, payload, push, due, ord)
        CROSS JOIN (SELECT count(*) FROM (
            SELECT pg_advisory_xact_lock(hashtextextended(chat, 0))
            FROM unnest({chats}::text[]) AS chat) AS each_chat) AS locked
        WHERE {when}
        ORDER BY n.ord
        ON CONFLICT (key) DO NOTHING"""


def notice_values(notices: Sequence[NewNotice], now: datetime) -> list[Any]:
    """The parameters of insert_sql(): one array per column, the chats to lock, the time."""
    chats = sorted({f"{n.platform}:{n.channel}" for n in notices})
    return [
        [n.key for n in notices],
        [n.platform for n in notices],
        [n.channel for n in notices],
        [n.kind for n in notices],
        [n.payload for n in notices],
        [n.push for n in notices],
        [None if n.due is None else utc(n.due) for n in notices],
        chats,
        now,
    ]
