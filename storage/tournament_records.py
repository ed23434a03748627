"""The tournament records of the storage API (docs/tournaments.md, section 1): events, their
entrants, rounds, boards and byes, what a round stores, and weekly rotas. Import them from
`storage.records` (or `storage`), which re-exports them with the other records.

Where a record mirrors a table its field names are the column names (`_rows.columns`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # only annotations name them: `storage.records` imports this module
    from .records import GameStatus, NewGame, Platform, Result

PairingSystem = Literal["swiss", "roundrobin", "arena"]
TournamentStatus = Literal["announced", "running", "finished", "cancelled"]
ByeKind = Literal["pairing", "half", "zero"]  # a pairing bye (a point), a requested half, an absence
ForfeitScore = Literal["1-0F", "0-1F", "0-0F"]  # a board decided without a game


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTournament:
    """An event to announce: `rounds` of a round robin is set at its start; `starts` None waits
    for `tournament start`; `salt`, 6 hex characters, makes its outbox keys (chosen by the
    service, random)."""

    platform: Platform
    channel: str
    salt: str
    pairing_system: PairingSystem
    variant: str
    rated: bool
    created_by: int
    community: str | None = None
    status: TournamentStatus = "announced"
    clock_initial: int | None = None  # a live event's clock (seconds), or
    clock_increment: int | None = None
    move_seconds: int | None = None  # a correspondence event's limit per move
    rounds: int | None = None
    cycles: int = 1
    window_seconds: int | None = None
    window_end: Literal["draw", "loss"] | None = None
    arena_minutes: int | None = None
    starts: datetime | None = None
    ends: datetime | None = None
    next_at: datetime | None = None
    role: str | None = None
    rota_id: int | None = None
    rota_date: date | None = None


@dataclass(frozen=True, slots=True)
class Tournament:
    """An event as of `version` (every change moves it: the compare-and-set of change_tournament
    and store_round)."""

    id: int
    platform: Platform
    channel: str
    community: str | None
    salt: str
    pairing_system: PairingSystem
    status: TournamentStatus
    variant: str
    rated: bool
    clock_initial: int | None
    clock_increment: int | None
    move_seconds: int | None
    rounds: int | None
    cycles: int
    window_seconds: int | None
    window_end: str | None
    arena_minutes: int | None
    starts: datetime | None
    ends: datetime | None
    last_round: int
    next_at: datetime | None
    role: str | None
    rota_id: int | None
    rota_date: date | None
    created_by: int
    created: datetime
    updated: datetime
    version: int

    @property
    def is_open(self) -> bool:
        return self.status in ("announced", "running")


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A player entered in an event: also the value change_tournament(entrants=) upserts."""

    player_id: int
    rating: int
    seat: int | None = None
    withdrawn: bool = False
    joined: datetime | None = None  # None when given: the storage clock's now


@dataclass(frozen=True, slots=True)
class TournamentRound:
    """A paired round (an arena's batch); `closed` once the next one is paired."""

    number: int
    paired: datetime
    window_ends: datetime | None
    closed: datetime | None


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A board of a round with its game's state: the result is the game's (`reason` 'forfeit'
    reads as an F score); a board decided without a game has `score` instead."""

    round: int
    board: int
    white: int
    black: int
    game_id: int | None
    score: ForfeitScore | None
    status: GameStatus | None  # the game's
    result: Result | None
    reason: str | None
    plies: int  # the game's ply count (0 without a game)
    berserk: str | None  # 'w', 'b', 'wb'
    finished: datetime | None  # the game's last change once it is no longer open: its end


@dataclass(frozen=True, slots=True)
class Bye:
    """A round a player sat out: `pairing` (the odd one out, a point), `half` (asked for, or a
    late join's missed round), `zero` (an absence)."""

    round: int
    player_id: int
    kind: ByeKind


@dataclass(frozen=True, slots=True)
class TournamentState:
    """One event read in one snapshot: all that pairing or standings need."""

    tournament: Tournament
    entrants: tuple[EntrantRow, ...]  # by player id
    rounds: tuple[TournamentRound, ...]  # by number
    boards: tuple[BoardRow, ...]  # by round, then board
    byes: tuple[Bye, ...]  # by round, then player
    forbidden: tuple[tuple[int, int], ...]  # (low, high) player ids


@dataclass(frozen=True, slots=True)
class NewBoard:
    """A board of a round to store: a game to create (its NewGame gets the event's id and
    `status='active'` from store_round), or a `score` decided without one."""

    board: int
    white: int
    black: int
    game: NewGame | None = None
    score: ForfeitScore | None = None

    def __post_init__(self) -> None:
        if (self.game is None) == (self.score is None):
            raise ValueError("a board has a game or a forfeit score, not both or neither")


@dataclass(frozen=True, slots=True, kw_only=True)
class NewRound:
    """What store_round writes: round `number` (the one after `last_round`) with its boards
    and byes, the players withdrawn with it (two forfeits), and the event's next `next_at`."""

    number: int
    boards: tuple[NewBoard, ...]
    byes: tuple[Bye, ...] = ()
    withdrawn: tuple[int, ...] = ()
    window_ends: datetime | None = None
    next_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Rota:
    """A weekly event in a chat: on `weekday` (Monday 0) at `local_time` in `timezone`, an event
    made from `spec` (JSON text, the options of `tournament new`, the service's)."""

    id: int
    platform: Platform
    channel: str
    community: str | None
    weekday: int
    local_time: time
    timezone: str
    spec: str
    active: bool
    created_by: int
    created: datetime
