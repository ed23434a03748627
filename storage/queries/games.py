"""Games and their moves.

Every write to a game is a compare-and-set: `UPDATE games ... WHERE id = ? AND version = ?`.
SQLite's one writer makes it atomic; under PostgreSQL's READ COMMITTED an UPDATE that waited
for another transaction's row lock checks the row again as that one committed it, so of two
writers holding the same version exactly one finds its row, and the other gets
VersionConflict. The compare-and-set holds the game's row (and SQLite's write lock) and moved
its version, so no other writer can add a ply before this transaction ends.

A game's moves come from the move cache when it holds them at the row's version (the usual
case: Storage puts the game every write returns, once it is committed), else from the
moves table.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from .._cache import MoveCache
from .._plan import Plan, count, marks, rows
from .._rows import (
    GAME_COLUMNS,
    GAME_VARIANT,
    MOVE_COLUMNS,
    change_columns,
    check_rated_variant,
    clock_columns,
    game_from_row,
    move_from_row,
    opt_instant,
    seat_columns,
    speed_of_row,
    time_control_columns,
)
from ..errors import ChannelBusy, NotFound, VersionConflict
from ..records import Game, GameChanges, MoveRecord, NewGame, NewMove, NewNotice, RatingUpdate
from .outbox import insert_notices
from .players import apply_ratings

OPEN: Final = "status IN ('challenge', 'active')"
# A chat holds one open game outside events (a unique index) and any number of event games.
CASUAL: Final = "tournament_id IS NULL"
_NO_ID: Final = 2**63 - 1  # "before no id": every game


def create_game(new: NewGame, notices: Sequence[NewNotice], now: datetime) -> Plan[Game]:
    """The new game (a Duplicate when the chat has an open one already: see channel_busy)."""
    white_player, white_engine = seat_columns(new.white)
    black_player, black_engine = seat_columns(new.black)
    found = yield rows(
        f"""INSERT INTO games (platform, channel, community, variant, promotion,
                perpetual, move_seconds, white_player, white_engine, black_player,
                black_engine, rated, created_by, start_fen, status, deadline,
                remind_at, clock_initial, clock_increment, white_ms, black_ms, clock_since,
                tournament_id, created, updated)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING {GAME_COLUMNS}""",
        new.platform, new.channel, new.community, new.variant, new.promotion, new.perpetual,
        new.move_seconds, white_player, white_engine, black_player, black_engine, new.rated,
        new.created_by, new.start_fen, new.status, new.deadline, new.remind_at,
        *time_control_columns(new.time_control), *clock_columns(new.clocks), new.tournament_id, now, now,
    )
    yield from insert_notices(notices, now)
    return game_from_row(found[0], ())


def channel_busy(platform: str, channel: str, game_id: int | None = None) -> Plan[ChannelBusy]:
    """What the one-open-game-per-chat index refusing a write (a new game in the chat, or a
    change to `game_id`) means: the chat's open game outside events, read after the
    transaction ended."""
    if game_id is not None:
        found = yield rows("SELECT platform, channel FROM games WHERE id = ?", game_id)
        platform, channel = found[0]
    held = yield rows(f"SELECT id FROM games WHERE platform = ? AND channel = ? AND {OPEN} AND {CASUAL}",
                      platform, channel)
    return ChannelBusy(platform, channel, held[0][0] if held else None)


def get_game(cache: MoveCache, game_id: int) -> Plan[Game]:
    found = yield from _games(cache, "id = ?", game_id)
    if not found:
        raise NotFound(f"no game {game_id}")
    return found[0]


def open_game(cache: MoveCache, platform: str, channel: str, user_id: str | None = None,
              game_id: int | None = None) -> Plan[Game | None]:
    """The open game a message from `user_id` in the chat is about: the game it names
    (`game_id`, if open there), else the sender's game of the chat's event, else the chat's
    casual game (a spectator's, or without a sender)."""
    named, sender = game_id is not None, user_id is not None
    values = [game_id] * named + [platform, user_id] * 2 * sender + [game_id] * named
    found = yield from _games(cache, f"platform = ? AND channel = ? AND {OPEN} AND {sender_game(named, sender)}",
                              platform, channel, *values)
    return found[0] if found else None


def sender_game(named: bool, sender: bool, platform: str = "?", user: str = "?", game: str = "?") -> str:
    """open_game's condition and order after the chat's (of `games` columns): the named game,
    the sender's event game, the casual game, in that order. The terms naming the game are
    written only when one is named (PostgreSQL cannot type a bare `? IS NULL`); PostgreSQL's
    one statement (postgres/_fast.py) gives its parameters' numbers."""
    ways = [CASUAL] + [f"id = {game}"] * named
    if sender:
        player = f"(SELECT id FROM players WHERE platform = {platform} AND user_id = {user})"
        ways += [f"white_player IN {player}", f"black_player IN {player}"]
    first = f"(id = {game}) DESC, " if named else ""
    return f"({' OR '.join(ways)}) ORDER BY {first}({CASUAL}), id LIMIT 1"


def last_game(cache: MoveCache, platform: str, channel: str) -> Plan[Game | None]:
    found = yield from _games(cache, "platform = ? AND channel = ? ORDER BY id DESC LIMIT 1", platform, channel)
    return found[0] if found else None


def change_game(cache: MoveCache, game_id: int, expected_version: int, move: NewMove | None,
                changes: GameChanges, ratings: Sequence[RatingUpdate], notices: Sequence[NewNotice],
                now: datetime) -> Plan[Game]:
    """append_move (with `move`) and update_game (without)."""
    row = yield from _compare_and_set(game_id, expected_version, changes, now)
    before = cache.get(game_id, expected_version)
    moves: tuple[MoveRecord, ...] | None = before
    if move is not None:
        added = yield rows(
            """INSERT INTO moves (game_id, ply, uci, san, "by", at)
               SELECT ?, coalesce(max(ply), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?
               RETURNING ply""",
            game_id, move.uci, move.san, move.by, now, game_id,
        )
        ply = added[0][0]
        fits = before is not None and len(before) == ply - 1
        moves = (*before, MoveRecord(ply, move.uci, move.san, move.by, now)) if fits and before is not None else None
    check_rated_variant(row[GAME_VARIANT], speed_of_row(row), ratings)
    yield from apply_ratings(ratings)
    yield from insert_notices(notices, now)
    if moves is None:
        moves = yield from load_moves(game_id)
    return game_from_row(row, moves)


def undo_moves(game_id: int, expected_version: int, plies: int, changes: GameChanges,
               notices: Sequence[NewNotice], now: datetime) -> Plan[Game]:
    if plies < 1:
        raise ValueError(f"undo at least one ply, not {plies}")
    row = yield from _compare_and_set(game_id, expected_version, changes, now)
    deleted = yield count(
        """DELETE FROM moves WHERE game_id = ?
           AND ply > (SELECT coalesce(max(ply), 0) FROM moves WHERE game_id = ?) - ?""",
        game_id, game_id, plies,
    )
    if deleted != plies:
        raise ValueError(f"game {game_id} has {deleted} plies, cannot undo {plies}")
    yield from insert_notices(notices, now)
    moves = yield from load_moves(game_id)
    return game_from_row(row, moves)


def due_deadlines(now: datetime, platform: str | None) -> Plan[list[Game]]:
    return (yield from _games(None, f"status = 'active' AND deadline <= ?{_on(platform)} ORDER BY deadline, id",
                              now, *_platform(platform)))


def next_deadline(after: datetime | None, platform: str | None) -> Plan[datetime | None]:
    """The earliest deadline of an active game (a flag, a first move, a move's limit) or of an
    open event (its `next_at`: a start, a round's window, an arena's batch), later than `after`
    if given."""
    later = "" if after is None else " AND {0} > ?"
    when = (() if after is None else (after,)) + _platform(platform)
    found = yield rows(
        f"""SELECT min(at) FROM (
                SELECT deadline AS at FROM games WHERE status = 'active'{later.format("deadline")}{_on(platform)}
                UNION ALL
                SELECT next_at FROM tournaments WHERE status IN ('announced', 'running')
                    {later.format("next_at")}{_on(platform)}) AS due""",
        *when, *when)
    return opt_instant(found[0][0]) if found else None


def due_reminders(now: datetime, platform: str | None) -> Plan[list[Game]]:
    return (yield from _games(
        None,
        f"""status = 'active' AND reminded = FALSE AND remind_at <= ?
            AND (deadline IS NULL OR deadline > ?){_on(platform)} ORDER BY remind_at, id""",
        now, now, *_platform(platform),
    ))


def engine_games(platform: str | None) -> Plan[list[Game]]:
    return (yield from _games(
        None,
        f"""status = 'active' AND (white_engine IS NOT NULL OR black_engine IS NOT NULL){_on(platform)}
            ORDER BY updated, id""",
        *_platform(platform),
    ))


def due_challenges(before: datetime, platform: str | None) -> Plan[list[Game]]:
    return (yield from _games(None, f"status = 'challenge' AND created < ?{_on(platform)} ORDER BY created, id",
                              before, *_platform(platform)))


def expire_challenges(before: datetime, now: datetime, platform: str | None) -> Plan[list[Game]]:
    found = yield rows(
        f"""UPDATE games SET status = 'aborted', reason = 'expired', version = version + 1, updated = ?
            WHERE status = 'challenge' AND created < ?{_on(platform)}
            RETURNING {GAME_COLUMNS}""",
        now, before, *_platform(platform),
    )
    return (yield from _with_moves(sorted(found, key=lambda row: row[0])))


def finished_games(player_id: int, limit: int, before_id: int | None) -> Plan[list[Game]]:
    return (yield from _games(
        None,
        """status = 'finished' AND (white_player = ? OR black_player = ?) AND id < ?
           ORDER BY id DESC LIMIT ?""",
        player_id, player_id, _NO_ID if before_id is None else before_id, limit,
    ))


def channel_games(platform: str, channel: str, limit: int, before_id: int | None) -> Plan[list[Game]]:
    # `status = 'finished'` as written here is what lets SQLite use games_finished_per_channel.
    return (yield from _games(
        None,
        "platform = ? AND channel = ? AND status = 'finished' AND id < ? ORDER BY id DESC LIMIT ?",
        platform, channel, _NO_ID if before_id is None else before_id, limit,
    ))


def finished_games_after(after_id: int, limit: int) -> Plan[list[Game]]:
    return (yield from _games(None, "status = 'finished' AND id > ? ORDER BY id LIMIT ?", after_id, limit))


def game_versions(game_ids: Sequence[int]) -> Plan[dict[int, int]]:
    if not game_ids:
        return {}
    found = yield rows(f"SELECT id, version FROM games WHERE id IN ({marks(len(game_ids))})", *game_ids)
    return dict(found)


def load_moves(game_id: int) -> Plan[tuple[MoveRecord, ...]]:
    found = yield rows(f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    return tuple(move_from_row(row) for row in found)


# --- helpers ------------------------------------------------------------------------------------

def _on(platform: str | None) -> str:
    return "" if platform is None else " AND platform = ?"


def _platform(platform: str | None) -> tuple[str, ...]:
    return () if platform is None else (platform,)


def _compare_and_set(game_id: int, expected_version: int, changes: GameChanges, now: datetime) -> Plan[Any]:
    """Bump the version and apply `changes` if still at `expected_version`; the new row."""
    assignments = ["version = version + 1", "updated = ?"]
    values: list[Any] = [now]
    for column, value in change_columns(changes):
        assignments.append(f"{column} = ?")
        values.append(value)
    found = yield rows(
        f"""UPDATE games SET {", ".join(assignments)} WHERE id = ? AND version = ?
            RETURNING {GAME_COLUMNS}""",
        *values, game_id, expected_version,
    )
    if found:
        return found[0]
    current = yield rows("SELECT version FROM games WHERE id = ?", game_id)
    if not current:
        raise NotFound(f"no game {game_id}")
    raise VersionConflict(f"game {game_id}", expected_version, current[0][0])


def _games(cache: MoveCache | None, where: str, *values: Any) -> Plan[list[Game]]:
    """The games `where` picks, with their moves: a single game's from `cache` when it holds
    them at the row's version (else read, and cached), several games' read in one query (run
    those in a snapshot)."""
    found = yield rows(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", *values)
    if cache is None or len(found) != 1:
        return (yield from _with_moves(found))
    row = found[0]
    game_id, version = row[0], row[len(row) - 1]
    moves = cache.get(game_id, version)
    if moves is not None:
        return [game_from_row(row, moves)]
    # Outside a snapshot (PostgreSQL runs this without a transaction, so that the usual call is
    # one statement) the moves are those of the row's version if the version did not move
    # while they were read: a write changes both in one transaction, and versions never repeat.
    while True:
        moves = yield from load_moves(game_id)
        now = yield rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)
        if now and now[0][len(row) - 1] == version:
            return [cache.put(game_from_row(row, moves))]
        if not now:
            return []
        row, version = now[0], now[0][len(row) - 1]


def _with_moves(found: Sequence[Any]) -> Plan[list[Game]]:
    """Games from rows, all their moves read in one query."""
    if not found:
        return []
    ids = [row[0] for row in found]
    moves: dict[int, list[MoveRecord]] = {game_id: [] for game_id in ids}
    for row in (yield rows(f"SELECT game_id, {MOVE_COLUMNS} FROM moves WHERE game_id IN ({marks(len(ids))})"
                           " ORDER BY game_id, ply", *ids)):
        moves[row[0]].append(move_from_row(row[1:]))
    return [game_from_row(row, tuple(moves[row[0]])) for row in found]
