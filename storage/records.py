"""The values the storage layer accepts and returns: small frozen dataclasses.

All times are timezone-aware UTC datetimes; storage refuses naive ones. The puzzle records
are written in `storage.puzzle_records` and imported from here like the rest.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Any, Final, Literal

from .clock_records import FIRST_MOVE_SECONDS as FIRST_MOVE_SECONDS
from .clock_records import SPEEDS as SPEEDS
from .clock_records import Clocks as Clocks
from .clock_records import ClockState as ClockState
from .clock_records import Speed as Speed
from .clock_records import TimeControl as TimeControl
from .clock_records import clock_state as clock_state
from .puzzle_records import Puzzle as Puzzle
from .puzzle_records import PuzzleAttempt as PuzzleAttempt
from .puzzle_records import PuzzlePost as PuzzlePost
from .puzzle_records import PuzzleProgress as PuzzleProgress
from .puzzle_records import PuzzleScore as PuzzleScore
from .puzzle_records import Streak as Streak
from .puzzle_records import Subscription as Subscription
from .tournament_records import BoardRow as BoardRow
from .tournament_records import Bye as Bye
from .tournament_records import EntrantRow as EntrantRow
from .tournament_records import NewBoard as NewBoard
from .tournament_records import NewRound as NewRound
from .tournament_records import NewTournament as NewTournament
from .tournament_records import Rota as Rota
from .tournament_records import Tournament as Tournament
from .tournament_records import TournamentRound as TournamentRound
from .tournament_records import TournamentState as TournamentState
from .training_records import Glicko2Rating as Glicko2Rating
from .training_records import ModeScore as ModeScore
from .training_records import PlayerPuzzleRating as PlayerPuzzleRating
from .training_records import PlayResult as PlayResult
from .training_records import PuzzlePlay as PuzzlePlay
from .training_records import PuzzleRun as PuzzleRun
from .training_records import RaceScore as RaceScore
from .training_records import RatedPuzzle as RatedPuzzle
from .training_records import RunMode as RunMode

Platform = Literal["discord", "line", "console"]
Color = Literal["w", "b"]
GameStatus = Literal["challenge", "active", "finished", "aborted"]
Result = Literal["1-0", "0-1", "1/2-1/2"]
Promotion = Literal["forced", "optional"]
Perpetual = Literal["forbid", "draw"]

# A channel holds at most one game in these states outside events (a unique index enforces
# it), and any number of tournament games.
OPEN_STATUSES: Final[tuple[GameStatus, ...]] = ("challenge", "active")

# Glicko-2 starting values of a player new to a variant.
INITIAL_RATING: Final = 1500.0
INITIAL_DEVIATION: Final = 350.0
INITIAL_VOLATILITY: Final = 0.06


class Unchanged(enum.Enum):
    """Marks a field that a change leaves alone (None is a real value there)."""

    UNCHANGED = "unchanged"

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Final = Unchanged.UNCHANGED
Keep = Literal[Unchanged.UNCHANGED]


@dataclass(frozen=True, slots=True)
class Seat:
    """One side of a game: a player by id, or the engine at a level.

    >>> Seat.human(7), Seat.engine(3).is_engine
    (Seat(player_id=7, engine_level=None), True)
    """

    player_id: int | None = None
    engine_level: int | None = None

    def __post_init__(self) -> None:
        if (self.player_id is None) == (self.engine_level is None):
            raise ValueError("a seat holds exactly one of player_id and engine_level")

    @classmethod
    def human(cls, player_id: int) -> Seat:
        return cls(player_id=player_id)

    @classmethod
    def engine(cls, level: int) -> Seat:
        return cls(engine_level=level)

    @property
    def is_engine(self) -> bool:
        return self.engine_level is not None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One stored ply of a game; ply 1 is the first move."""

    ply: int
    uci: str
    san: str
    by: Color
    at: datetime


@dataclass(frozen=True, slots=True)
class NewMove:
    """A move to append; storage numbers the ply and stamps the time."""

    uci: str
    san: str
    by: Color


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGame:
    """What a new challenge or game starts with.

    A seat may be None while the game is a challenge nobody has accepted yet.
    """

    platform: Platform
    channel: str
    white: Seat | None
    black: Seat | None
    start_fen: str
    promotion: Promotion
    perpetual: Perpetual
    move_seconds: int
    community: str | None = None
    variant: str = "makruk"
    rated: bool = False
    created_by: int | None = None
    status: GameStatus = "challenge"
    deadline: datetime | None = None
    remind_at: datetime | None = None
    time_control: TimeControl | None = None  # a live game's clock; None: correspondence
    clocks: Clocks | None = None
    tournament_id: int | None = None  # the event it is a round's game of

    def __post_init__(self) -> None:
        if self.status not in OPEN_STATUSES:
            raise ValueError(f"a new game is a challenge or active, not {self.status!r}")


@dataclass(frozen=True, slots=True)
class Game:
    """A game in a channel with its full move list, as of `version`."""

    id: int
    platform: Platform
    channel: str
    community: str | None
    variant: str
    promotion: Promotion
    perpetual: Perpetual
    move_seconds: int
    white: Seat | None
    black: Seat | None
    rated: bool
    created_by: int | None
    start_fen: str
    status: GameStatus
    result: Result | None
    reason: str | None
    counting: str | None  # JSON text; the game service owns its meaning
    draw_offer: Color | None
    takeback_offer: Color | None
    deadline: datetime | None
    remind_at: datetime | None
    reminded: bool
    created: datetime
    updated: datetime
    version: int
    moves: tuple[MoveRecord, ...]
    time_control: TimeControl | None = None  # a live game's clock; None: correspondence
    clocks: Clocks | None = None  # a live game's clocks as of its last move
    tournament_id: int | None = None  # the event it belongs to (many per chat)
    berserk: str | None = None  # an arena game's sides that went berserk: 'w', 'b', 'wb'
    black_present: bool = False  # a tournament game's Black wrote to it before White's first move

    @property
    def speed(self) -> Speed:
        """Which ratings the game moves: live games' or correspondence games'."""
        return "correspondence" if self.time_control is None else "live"

    def seat(self, color: Color) -> Seat | None:
        return self.white if color == "w" else self.black

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The ids of the human players seated, White first."""
        seats = (self.white, self.black)
        return tuple(s.player_id for s in seats if s is not None and s.player_id is not None)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def after(self, changes: GameChanges, *, move: NewMove | None = None, at: datetime) -> Game:
        """The game as storage returns it after `append_move` (with `move`) or `update_game`
        with `changes`, at time `at` (the storage clock's now): one version on, `changes`
        applied, the move appended at the next ply, `updated` set to `at`.

        It lets a service build what it sends (a notice written in the same transaction)
        from the game as it will be, before storing it.

        >>> t = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
        >>> game = Game(1, "console", "c", None, "makruk", "forced", "forbid", 60,
        ...             Seat.human(1), Seat.engine(3), False, 1, "fen", "active", None, None,
        ...             None, None, None, None, None, False, t, t, 4, ())
        >>> later = game.after(GameChanges(draw_offer="w"), move=NewMove("e3e4", "e4", "w"), at=t)
        >>> later.version, later.draw_offer, later.moves[0].ply, later.moves[0].uci
        (5, 'w', 1, 'e3e4')
        """
        if at.tzinfo is None or at.utcoffset() is None:
            raise ValueError(f"naive datetime {at!r}: storage takes timezone-aware times")
        at = at.astimezone(UTC)
        moves = self.moves
        if move is not None:
            ply = moves[-1].ply + 1 if moves else 1
            moves = (*moves, MoveRecord(ply, move.uci, move.san, move.by, at))
        return replace(self, **dict(changes.items()), version=self.version + 1, updated=at, moves=moves)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameChanges:
    """Fields to change on a game; every field left out stays as it is.

    >>> [name for name, _ in GameChanges(status="finished", draw_offer=None).items()]
    ['status', 'draw_offer']
    """

    white: Seat | Keep | None = UNCHANGED
    black: Seat | Keep | None = UNCHANGED
    rated: bool | Keep = UNCHANGED
    status: GameStatus | Keep = UNCHANGED
    result: Result | Keep | None = UNCHANGED
    reason: str | Keep | None = UNCHANGED
    counting: str | Keep | None = UNCHANGED
    draw_offer: Color | Keep | None = UNCHANGED
    takeback_offer: Color | Keep | None = UNCHANGED
    deadline: datetime | Keep | None = UNCHANGED
    remind_at: datetime | Keep | None = UNCHANGED
    reminded: bool | Keep = UNCHANGED
    clocks: Clocks | Keep | None = UNCHANGED
    berserk: str | Keep | None = UNCHANGED
    black_present: bool | Keep = UNCHANGED

    def items(self) -> Iterator[tuple[str, Any]]:
        """The changed fields as (name, new value), in declaration order."""
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not UNCHANGED:
                yield f.name, value


NO_CHANGES: Final = GameChanges()


@dataclass(frozen=True, slots=True)
class Player:
    """A person on one platform; their ratings are kept per variant (PlayerRating)."""

    id: int
    platform: Platform
    user_id: str
    display_name: str
    language: str | None  # None: follow the channel's language
    created: datetime
    updated: datetime


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's Glicko-2 rating in one variant at one speed (a Makruk rating is not a
    Sittuyin rating, a live rating not a correspondence one).

    >>> PlayerRating.initial(7, "sittuyin", "live")  # doctest: +NORMALIZE_WHITESPACE
    PlayerRating(player_id=7, variant='sittuyin', rating=1500.0, deviation=350.0, volatility=0.06,
                 games_played=0, speed='live')
    """

    player_id: int
    variant: str
    rating: float
    deviation: float
    volatility: float
    games_played: int  # rated games of this variant; it also versions the rating (see RatingUpdate)
    speed: Speed = "correspondence"

    @classmethod
    def initial(cls, player_id: int, variant: str, speed: Speed = "correspondence") -> PlayerRating:
        """The rating of a player who has not finished a rated game of `variant` at `speed` yet."""
        return cls(player_id, variant, INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY, 0, speed)


@dataclass(frozen=True, slots=True)
class Standing:
    """A row of a variant's rating table: the player and their rating in it."""

    player: Player
    rating: PlayerRating


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """New Glicko-2 values for one player in one variant after one rated game of it.

    `expected_games` is the games_played the values were computed from: the update is a
    compare-and-set on it, so two games finishing at once cannot lose a rating change.
    """

    player_id: int
    variant: str
    expected_games: int
    rating: float
    deviation: float
    volatility: float
    speed: Speed = "correspondence"

    @classmethod
    def after_game(
        cls, current: PlayerRating, rating: float, deviation: float, volatility: float
    ) -> RatingUpdate:
        """The update of `current` (as read before the game was scored) to the new values."""
        return cls(current.player_id, current.variant, current.games_played, rating, deviation,
                   volatility, current.speed)


@dataclass(frozen=True, slots=True)
class ChannelSettings:
    """A channel's preferences; None means "use the bot's default"."""

    platform: Platform
    channel: str
    language: str | None = None
    promotion: Promotion | None = None
    perpetual: Perpetual | None = None
    move_seconds: int | None = None
    coordinates: str | None = None  # coordinate style, owned by the renderers
    orientation: str | None = None  # board orientation preference
    push_notices: bool | None = None  # pushed notices (reminders, daily puzzle); None: on
    notation: str | None = None  # how moves are written back: "san", "thai", "playok"


# The longest notice key: a door passes it to the platform's de-duplication.
NOTICE_KEY_LENGTH: Final = 25


@dataclass(frozen=True, slots=True)
class NewNotice:
    """Something the bot owes a chat, written to the outbox with the change that causes it.

    `key` is unique (at most 25 characters), chosen by the service; a door hands it to the
    platform's de-duplication. `payload` is JSON text whose meaning the services own.
    `due`: not to be sent before then (None: at once, the storage clock's now). `push`:
    False for a notice that is never pushed and only rides along on a reply in that chat.
    """

    platform: Platform
    channel: str
    key: str
    kind: str  # "bot_move", "timeout", "reminder", "challenge_expired", "daily_puzzle", "reply", ...
    payload: str
    due: datetime | None = None
    push: bool = True

    def __post_init__(self) -> None:
        if not 1 <= len(self.key) <= NOTICE_KEY_LENGTH:
            raise ValueError(f"a notice key has 1 to {NOTICE_KEY_LENGTH} characters, not {self.key!r}")
        if not self.kind:
            raise ValueError("a notice has a kind")


@dataclass(frozen=True, slots=True)
class OutboxNotice:
    """A notice in the outbox. Pending while neither `sent` nor `dead` is set."""

    id: int  # outbox order: a chat's notices are delivered in id order
    key: str
    platform: Platform
    channel: str
    kind: str
    payload: str
    push: bool
    created: datetime
    due: datetime
    attempts: int  # failed tries so far
    last_error: str | None
    sent: datetime | None
    dead: datetime | None  # when it was given up as undeliverable (kept, not deleted)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """A platform's event, accepted from its webhook, to be stored before it is acknowledged."""

    platform: Platform
    channel: str
    event_id: str  # the platform's id of the event (LINE's webhookEventId): redeliveries repeat it
    sent: datetime  # when the platform says it happened: a chat's events are handled in this order
    body: str  # the event as JSON, as the platform sent it


@dataclass(frozen=True, slots=True)
class InboxEvent:
    """An accepted event, taken by one process to be handled now."""

    id: int  # arrival order, after `sent`
    platform: Platform
    channel: str
    event_id: str
    sent: datetime
    body: str
    tries: int = 1  # how many times it was taken, this time included: more than 1 after a crash

    @property
    def retried(self) -> bool:
        """Whether a process took it before and did not finish it (it died): the change it
        causes may be stored already."""
        return self.tries > 1


@dataclass(frozen=True, slots=True)
class Taken:
    """What `Storage.take_event` found: the chat's next event (now this holder's), or none,
    and whether another process is handling one of the chat's events right now."""

    event: InboxEvent | None
    busy: bool = False


@dataclass(frozen=True, slots=True)
class NoticeCounts:
    """How many notices are waiting and how many were given up."""

    pending: int  # not sent, not dead
    dead: int  # kept as undeliverable


@dataclass(frozen=True, slots=True)
class ChatState:
    """What answering a message starts from, read in one round trip: the chat's settings, its
    open game (a challenge or a game being played) with that game's players, and the sender's
    player record (None when the sender was never seen)."""

    settings: ChannelSettings
    game: Game | None
    players: Mapping[int, Player]
    sender: Player | None
