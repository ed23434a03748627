"""Rows and records, whichever database holds them: the column lists, how a row becomes a
record and how a change becomes column values.

The databases store the same columns but not the same values: SQLite keeps times as ISO text
and flags as 0/1, PostgreSQL has its own types; a row reads the same from either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Final, TypeVar

from .records import (
    ChannelSettings,
    Clocks,
    Game,
    GameChanges,
    MoveRecord,
    OutboxNotice,
    Platform,
    Player,
    PlayerRating,
    Puzzle,
    PuzzleAttempt,
    PuzzlePost,
    PuzzleProgress,
    RatingUpdate,
    Seat,
    Speed,
    Standing,
    Streak,
    Subscription,
    TimeControl,
)

T = TypeVar("T")

GAME_COLUMNS: Final = (
    "id, platform, channel, community, variant, promotion, perpetual, move_seconds,"
    " white_player, white_engine, black_player, black_engine, rated, created_by, start_fen,"
    " status, result, reason, counting, draw_offer, takeback_offer, deadline, remind_at,"
    " reminded, clock_initial, clock_increment, white_ms, black_ms, clock_since, created, updated,"
    " tournament_id, berserk, black_present, version"
)
GAME_VARIANT: Final = [column.strip() for column in GAME_COLUMNS.split(",")].index("variant")
GAME_CLOCK: Final = [column.strip() for column in GAME_COLUMNS.split(",")].index("clock_initial")
# "by" is a keyword in PostgreSQL; SQLite takes the quoted name as well.
MOVE_COLUMNS: Final = 'ply, uci, san, "by", at'


def columns(record: type, skip: int = 0) -> str:
    """The columns holding `record`'s fields (after the first `skip`, which the query knows):
    where a table and its record agree, the record's field names are the column names."""
    return ", ".join(f.name for f in fields(record)[skip:])


PLAYER_COLUMNS: Final = columns(Player)
RATING_COLUMNS: Final = columns(PlayerRating)
# A player (`p`) and their rating (`r`, NULLs without a row), as a rating table reads them.
STANDING_COLUMNS: Final = ", ".join(
    [f"p.{column}" for column in PLAYER_COLUMNS.split(", ")]
    + [f"r.{column}" for column in RATING_COLUMNS.split(", ")]
)
NOTICE_COLUMNS: Final = columns(OutboxNotice)
SETTINGS_COLUMNS: Final = columns(ChannelSettings, skip=2)  # after platform and channel
PUZZLE_COLUMNS: Final = columns(Puzzle)
SUBSCRIPTION_COLUMNS: Final = columns(Subscription)
POST_COLUMNS: Final = columns(PuzzlePost)
ATTEMPT_COLUMNS: Final = columns(PuzzleAttempt)
PROGRESS_COLUMNS: Final = columns(PuzzleProgress)
STREAK_COLUMNS: Final = columns(Streak, skip=3)  # after platform, channel and player_id


def utc(value: datetime) -> datetime:
    """`value` in UTC; a naive time is refused, since storage cannot tell where it was taken."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: storage takes timezone-aware times")
    return value.astimezone(UTC)


# Stored values back to Python's: SQLite holds times as ISO text, PostgreSQL as its own types.

def instant(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def opt_instant(value: Any) -> datetime | None:
    return None if value is None else instant(value)


def day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def opt_day(value: Any) -> date | None:
    return None if value is None else day(value)


def clock(value: Any) -> time:
    return value if isinstance(value, time) else time.fromisoformat(value)


def opt_flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


# How a stored value becomes a field's, by the field's annotation; other values are kept as read.
_READ: Final[dict[str, Callable[[Any], Any]]] = {
    "datetime": instant, "datetime | None": opt_instant, "date": day, "date | None": opt_day,
    "time": clock, "bool": bool, "bool | None": opt_flag,
}


def decoder(record: type[T]) -> Callable[..., T]:
    """How a row of `columns(record, skip)` becomes a `record`: `decode(row, *known)`, with the
    `skip` fields the query knows, each value read by its field's annotation."""
    reads = [_READ.get(str(f.type)) for f in fields(record)]  # type: ignore[arg-type]

    def decode(row: Sequence[Any], *known: Any) -> T:
        values = (*known, *row)
        return record(*(value if read is None else read(value) for read, value in zip(reads, values, strict=True)))
    return decode


def game_from_row(row: Sequence[Any], moves: tuple[MoveRecord, ...]) -> Game:
    (id_, platform, channel, community, variant, promotion, perpetual, move_seconds,
     white_player, white_engine, black_player, black_engine, rated, created_by, start_fen,
     status, result, reason, counting, draw_offer, takeback_offer, deadline, remind_at,
     reminded, clock_initial, clock_increment, white_ms, black_ms, clock_since, created, updated,
     tournament_id, berserk, black_present, version) = row
    return Game(
        id_, platform, channel, community, variant, promotion, perpetual, move_seconds,
        seat(white_player, white_engine), seat(black_player, black_engine), bool(rated),
        created_by, start_fen, status, result, reason, counting, draw_offer, takeback_offer,
        opt_instant(deadline), opt_instant(remind_at), bool(reminded),
        instant(created), instant(updated), version, moves,
        None if clock_initial is None else TimeControl(clock_initial, clock_increment),
        None if clock_since is None else Clocks(white_ms, black_ms, instant(clock_since)),
        tournament_id, berserk, bool(black_present),
    )


def time_control_columns(control: TimeControl | None) -> tuple[int | None, int | None]:
    return (None, None) if control is None else (control.initial, control.increment)


def clock_columns(clocks: Clocks | None) -> tuple[int | None, int | None, datetime | None]:
    return (None, None, None) if clocks is None else (clocks.white_ms, clocks.black_ms, utc(clocks.since))


def speed_of_row(row: Sequence[Any]) -> str:
    """The speed of a game's `GAME_COLUMNS` row (which ratings it moves)."""
    return "correspondence" if row[GAME_CLOCK] is None else "live"


def move_from_row(row: Sequence[Any]) -> MoveRecord:
    ply, uci, san, by, at = row
    return MoveRecord(ply, uci, san, by, instant(at))


def seat(player_id: int | None, engine_level: int | None) -> Seat | None:
    if player_id is None and engine_level is None:
        return None
    return Seat(player_id, engine_level)


def seat_columns(seat: Seat | None) -> tuple[int | None, int | None]:
    return (None, None) if seat is None else (seat.player_id, seat.engine_level)


def change_columns(changes: GameChanges) -> Iterator[tuple[str, Any]]:
    """The games columns `changes` sets, with their values."""
    for name, value in changes.items():
        if name in ("white", "black"):
            player, engine = seat_columns(value)
            yield f"{name}_player", player
            yield f"{name}_engine", engine
        elif name in ("deadline", "remind_at"):
            yield name, None if value is None else utc(value)
        elif name == "clocks":
            yield from zip(("white_ms", "black_ms", "clock_since"), clock_columns(value), strict=True)
        elif name in ("rated", "reminded"):
            yield name, value
        else:
            yield name, value


player_from_row: Final = decoder(Player)
rating_from_row: Final = decoder(PlayerRating)


def standing_from_row(row: Sequence[Any], variant: str, speed: Speed) -> Standing:
    """A `STANDING_COLUMNS` row; a player without a rated game of `variant` at `speed` has its
    starting values."""
    player = player_from_row(row[:7])
    if row[7] is None:
        return Standing(player, PlayerRating.initial(player.id, variant, speed))
    return Standing(player, rating_from_row(row[7:]))


def check_rated_variant(variant: str, speed: str, ratings: Sequence[RatingUpdate]) -> None:
    """A game changes the ratings of its own variant and speed only (a Makruk rating is not a
    Sittuyin one, a live rating not a correspondence one)."""
    for update in ratings:
        if (update.variant, update.speed) != (variant, speed):
            raise ValueError(
                f"a {variant} game cannot change the {update.variant} rating of player {update.player_id}"
                f" ({speed} game, {update.speed} rating)"
            )


notice_from_row: Final = decoder(OutboxNotice)


def settings_from_row(platform: Platform, channel: str, row: Sequence[Any] | None) -> ChannelSettings:
    return ChannelSettings(platform, channel) if row is None else _settings(row, platform, channel)


_settings: Final = decoder(ChannelSettings)


def puzzle_values(puzzle: Puzzle) -> tuple[Any, ...]:
    """A puzzle's PUZZLE_COLUMNS values: moves and themes are stored space-separated."""
    p = puzzle
    return (p.id, p.fen, " ".join(p.solution), p.rating, " ".join(p.themes), p.source, p.variant)


def puzzle_from_row(row: Sequence[Any]) -> Puzzle:
    id_, fen, solution, rating, themes, source, variant = row
    return Puzzle(id_, fen, tuple(solution.split()), rating, tuple(themes.split()), source, variant)


subscription_from_row: Final = decoder(Subscription)
post_from_row: Final = decoder(PuzzlePost)
attempt_from_row: Final = decoder(PuzzleAttempt)
progress_from_row: Final = decoder(PuzzleProgress)


def streak_from_row(platform: Platform, channel: str, player_id: int, row: Sequence[Any] | None) -> Streak:
    return Streak(platform, channel, player_id) if row is None else _streak(row, platform, channel, player_id)


_streak: Final = decoder(Streak)


def extended_streak(streak: Streak, day: date) -> Streak | None:
    """The streak after a first solve of the daily post of `day`: one more day, or a new
    streak after a gap; None when it stays as it is."""
    last = streak.last_date
    if last is not None and day <= last:
        return None  # a late solve of an older puzzle neither extends nor breaks the streak
    current = streak.current + 1 if last == day - timedelta(days=1) else 1
    return replace(streak, current=current, best=max(current, streak.best), last_date=day)
