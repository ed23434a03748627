"""The storage interface the bot's services call; PlanStorage implements it once for SQLite
and PostgreSQL (_storage.py).

It speaks only in records (records.py) and errors (errors.py), never in SQL.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, time
from types import TracebackType
from typing import Self, TypeAlias, TypeVar

from .records import (
    NO_CHANGES,
    UNCHANGED,
    ChannelSettings,
    ChatState,
    Game,
    GameChanges,
    Keep,
    NewEvent,
    NewGame,
    NewMove,
    NewNotice,
    NoticeCounts,
    OutboxNotice,
    Platform,
    Player,
    PlayerRating,
    Puzzle,
    PuzzleAttempt,
    PuzzlePost,
    PuzzleProgress,
    PuzzleScore,
    RatingUpdate,
    Standing,
    Streak,
    Subscription,
    Taken,
)

T = TypeVar("T")

# The answer to the message that makes a change, as outbox rows made from what the change
# returns (a new game's answer shows its id): the storage stores them in the change's own
# transaction, so that a message handled again after a crash finds both or neither. It runs
# inside the transaction (on SQLite's worker thread): quick, pure, no I/O.
Answer: TypeAlias = Callable[[T], Sequence[NewNotice]]


class Storage(ABC):
    """Durable games, players, ratings, puzzles and the outbox of notices.

    A method returns only after its change is committed to disk. Every write that
    depends on what the caller read is a compare-and-set and raises VersionConflict
    when it lost. Any method raises StorageBusy, having changed nothing, when the
    database stays locked by another writer longer than the busy timeout.

    Writes that change state take `notices=[NewNotice, ...]`: what the bot owes a chat
    because of that change, written to the outbox in the same transaction, so either
    both are stored or neither is (nothing when the compare-and-set loses or the write
    is refused). A notice whose key exists already is ignored, here as in add_notices.
    """

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def close(self) -> None:
        """Close the database; the storage cannot be used afterwards."""

    # Players

    @abstractmethod
    async def get_or_create_player(
        self, platform: Platform, user_id: str, display_name: str
    ) -> Player:
        """The player with that platform user id, created if new; keeps the name current."""

    @abstractmethod
    async def get_player(self, player_id: int) -> Player:
        """The player with that id; NotFound if there is none."""

    @abstractmethod
    async def get_players(self, player_ids: Sequence[int]) -> dict[int, Player]:
        """The players with these ids, by id, in one query (ids with no player are left out)."""

    @abstractmethod
    async def find_player(self, platform: Platform, user_id: str) -> Player | None:
        """The player with that platform user id, if known."""

    @abstractmethod
    async def update_player(
        self,
        player_id: int,
        *,
        display_name: str | Keep = UNCHANGED,
        language: str | Keep | None = UNCHANGED,
    ) -> Player:
        """Change a player's name or language (None: follow the channel's)."""

    @abstractmethod
    async def get_rating(self, player_id: int, variant: str) -> PlayerRating:
        """The player's rating in `variant` (the starting values before their first rated game
        of it); NotFound if there is no such player."""

    @abstractmethod
    async def update_ratings(self, updates: Sequence[RatingUpdate]) -> list[PlayerRating]:
        """Apply several rating updates at once, all or none (VersionConflict if stale): the
        new ratings, in the order of `updates`."""

    @abstractmethod
    async def channel_players(self, platform: Platform, channel: str) -> list[Player]:
        """The players seated (or invited) in any game ever played in the channel, in any
        status, most recent game first, each once: the people the chat knows."""

    @abstractmethod
    async def top_players(
        self,
        platform: Platform,
        variant: str,
        *,
        community: str | None = None,
        limit: int = 10,
        min_games: int = 1,
    ) -> list[Standing]:
        """The best-rated players of `variant` with at least `min_games` rated games of it, best
        first; with `community`, only those who finished a game of `variant` there."""

    # Games

    @abstractmethod
    async def create_game(self, new: NewGame, *, notices: Sequence[NewNotice] = (),
                          answer: Answer[Game] | None = None) -> Game:
        """Store a new challenge or game (and `notices`); ChannelBusy if the channel
        already has one open, and then nothing is stored. `answer(game)` makes the notices
        that answer the message that made it (they show its id); they are stored in the same
        transaction (see Answer)."""

    @abstractmethod
    async def get_game(self, game_id: int) -> Game:
        """The game with its moves; NotFound if there is none."""

    @abstractmethod
    async def active_game(self, platform: Platform, channel: str) -> Game | None:
        """The channel's open challenge or active game, with its moves."""

    @abstractmethod
    async def last_game(self, platform: Platform, channel: str) -> Game | None:
        """The channel's most recent game in any status (e.g. to export a finished one)."""

    @abstractmethod
    async def append_move(
        self,
        game_id: int,
        expected_version: int,
        move: NewMove,
        changes: GameChanges = NO_CHANGES,
        *,
        ratings: Sequence[RatingUpdate] = (),
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        """Append one ply and apply `changes` (and `ratings` and `notices`) in one transaction.

        Raises VersionConflict when the game is no longer at `expected_version` (then
        nothing is stored). The game returned equals `game.after(changes, move=move, at=now)`.
        `ratings` are of the game's variant (ValueError otherwise, and nothing is stored).
        """

    @abstractmethod
    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        changes: GameChanges,
        *,
        ratings: Sequence[RatingUpdate] = (),
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        """Apply `changes` (and `ratings` and `notices`) if the game is still at
        `expected_version`, else VersionConflict and nothing is stored. The game returned
        equals `game.after(changes, at=now)`; `ratings` are of the game's variant, as for
        append_move."""

    @abstractmethod
    async def undo_moves(
        self,
        game_id: int,
        expected_version: int,
        count: int,
        changes: GameChanges = NO_CHANGES,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> Game:
        """Take back the last `count` plies (a takeback) and apply `changes` (and
        `notices`), as one CAS."""

    @abstractmethod
    async def due_deadlines(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        """Active games whose move deadline is at or before `now`, earliest first. Only `platform`'s, if given."""

    @abstractmethod
    async def due_reminders(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        """Active games not yet reminded whose reminder time has come, deadline not passed.
        Only `platform`'s, if given."""

    @abstractmethod
    async def engine_games(self, platform: Platform | None = None) -> list[Game]:
        """Every active game with at least one engine seat, with its moves, least recently
        updated first. Only `platform`'s, if given. (Whose turn it is is the caller's call.)"""

    @abstractmethod
    async def due_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        """Open challenges created before `before`, oldest first; changes nothing.
        Only `platform`'s, if given. (The caller aborts each with update_game.)"""

    @abstractmethod
    async def expire_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        """Abort (reason "expired") every challenge created before `before`; return them.
        Only `platform`'s, if given."""

    @abstractmethod
    async def finished_games(
        self, player_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[Game]:
        """A player's finished games, newest first; page with `before_id`."""

    @abstractmethod
    async def channel_games(
        self, platform: Platform, channel: str, *, limit: int = 10, before_id: int | None = None
    ) -> list[Game]:
        """The chat's finished games with their moves, newest (highest id) first, at most `limit`;
        the next page is `before_id=` the last id of this one (only games with a smaller id)."""

    # Channel settings

    @abstractmethod
    async def chat_state(self, platform: Platform, channel: str, user_id: str) -> ChatState:
        """The chat's settings, its open game with the game's players, and the sender's player
        record (None if never seen), in one round trip: what a message needs before it is
        answered (a move then needs only one more, its commit)."""

    @abstractmethod
    async def get_channel_settings(self, platform: Platform, channel: str) -> ChannelSettings:
        """The channel's settings; all None (bot defaults) if never set."""

    @abstractmethod
    async def set_channel_settings(self, settings: ChannelSettings, *, notices: Sequence[NewNotice] = ()) -> None:
        """Replace the channel's settings (and store `notices`), in one transaction."""

    # Puzzles

    @abstractmethod
    async def upsert_puzzles(self, puzzles: Iterable[Puzzle]) -> int:
        """Insert or replace puzzles by id; returns how many were given."""

    @abstractmethod
    async def get_puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with that id; NotFound if there is none."""

    @abstractmethod
    async def pick_puzzle(
        self,
        platform: Platform,
        channel: str,
        *,
        min_rating: int | None = None,
        max_rating: int | None = None,
    ) -> Puzzle | None:
        """A random puzzle this chat has not been shown, within the rating range."""

    @abstractmethod
    async def subscribe(
        self,
        platform: Platform,
        channel: str,
        local_time: time,
        timezone: str,
        language: str | None = None,
        *,
        answer: Answer[Subscription] | None = None,
    ) -> Subscription:
        """Start (or change) a chat's daily puzzle at `local_time` in `timezone` (and store
        `answer`'s notices with it)."""

    @abstractmethod
    async def unsubscribe(self, platform: Platform, channel: str, *, answer: Answer[bool] | None = None) -> bool:
        """Stop a chat's daily puzzle; False if it was not subscribed (`answer` as create_game's)."""

    @abstractmethod
    async def get_subscription(self, platform: Platform, channel: str) -> Subscription | None:
        """The chat's active subscription, if any."""

    @abstractmethod
    async def subscriptions(self) -> list[Subscription]:
        """Every active subscription."""

    @abstractmethod
    async def record_post(
        self,
        subscription_id: int,
        local_date: date,
        puzzle_id: str,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> PuzzlePost | None:
        """Claim the day's daily post for a subscription, with its `notices`.

        Returns the new post, or None when that subscription already has a post for
        `local_date` (then nothing is written, notices neither, and nothing should be
        sent). Raises PuzzleAlreadyPosted if the chat has seen that puzzle before (and
        writes nothing).
        """

    @abstractmethod
    async def record_extra_post(
        self, platform: Platform, channel: str, puzzle_id: str, *, answer: Answer[PuzzlePost] | None = None
    ) -> PuzzlePost:
        """Record a puzzle shown on demand (not the daily one; `answer` as create_game's)."""

    @abstractmethod
    async def get_post(self, post_id: int) -> PuzzlePost:
        """The post with that id; NotFound if there is none."""

    @abstractmethod
    async def latest_post(self, platform: Platform, channel: str) -> PuzzlePost | None:
        """The chat's most recent puzzle post: the one answers refer to."""

    @abstractmethod
    async def posted_puzzle_ids(self, platform: Platform, channel: str) -> set[str]:
        """Ids of every puzzle the chat has been shown."""

    @abstractmethod
    async def record_attempt(self, post_id: int, player_id: int, solved: bool, *, progress: int | None = None,
                             answer: Answer[PuzzleAttempt] | None = None) -> PuzzleAttempt:
        """Count one try at a post; the first solve of a daily post extends the streak.

        Tries after the post is solved change nothing. With `progress`, the player's place
        in the solution is saved in the same transaction (`answer` as create_game's).
        """

    @abstractmethod
    async def get_attempt(self, post_id: int, player_id: int) -> PuzzleAttempt | None:
        """A player's attempt at a post, if any."""

    @abstractmethod
    async def get_streak(self, platform: Platform, channel: str, player_id: int) -> Streak:
        """A player's daily-puzzle streak in a chat (zeros if none)."""

    @abstractmethod
    async def puzzle_leaderboard(
        self,
        platform: Platform,
        channel: str,
        *,
        local_date: date | None = None,
        limit: int = 10,
    ) -> list[PuzzleScore]:
        """Who solved most in the chat (fewest tries first); one day's daily post if dated."""

    @abstractmethod
    async def recent_posts(
        self, platform: Platform, channel: str, *, limit: int = 10
    ) -> list[PuzzlePost]:
        """The chat's latest puzzle posts, newest first."""

    @abstractmethod
    async def get_progress(self, post_id: int, player_id: int) -> PuzzleProgress | None:
        """How far a player has got through a post's solution, if they started."""

    @abstractmethod
    async def save_progress(
        self, post_id: int, player_id: int, ply: int, *, gave_up: bool = False,
        answer: Answer[PuzzleProgress] | None = None,
    ) -> PuzzleProgress:
        """Record a player's place in a post's solution (and whether they gave up; `answer`
        as create_game's)."""

    # Webhook de-duplication

    @abstractmethod
    async def mark_event_processed(self, event_id: str) -> bool:
        """Record a webhook event id; True if it is new, False if it was seen before."""

    @abstractmethod
    async def prune_events(self, before: datetime) -> int:
        """Forget event ids recorded before `before`; returns how many."""

    # The inbox: webhook events stored before they are acknowledged

    @abstractmethod
    async def receive_events(self, events: Sequence[NewEvent]) -> list[str]:
        """Store accepted events, in one transaction, before the webhook answers: from then on
        none is lost, whichever process handles it. An event whose id was recorded before (a
        redelivery, to this process or another, or an id `mark_event_processed` saw) is
        dropped. Returns the ids of the events stored."""

    @abstractmethod
    async def take_event(
        self, platform: Platform, channel: str, holder: str, *, finished: int | None = None,
        shown: Sequence[str] = (), stale_before: datetime,
    ) -> Taken:
        """The chat's next event for `holder` to handle, in the order of `sent` (then arrival),
        marked as started by it; after removing `finished`, the one `holder` has just handled,
        and marking the notices `shown` (its answers, which the door showed) sent.

        One process at a time handles a chat's events: while another holder has one started
        since `stale_before`, nothing is taken and `busy` is set (ask again soon). An event
        started before `stale_before` and not finished (its process died or went quiet) is
        taken again, with `tries` counting each take: the game service recognises a change
        it had committed already, so nothing is applied twice and nothing is lost.
        """

    @abstractmethod
    async def event_holders(self, prefix: str) -> set[str]:
        """The holders whose names start with `prefix` that have an event started."""

    @abstractmethod
    async def release_started_events(self, holder: str) -> list[str]:
        """Release the events `holder` started (a process known to be dead), so the next
        taker of each chat takes them again at once; returns those chats."""

    @abstractmethod
    async def give_back_event(self, event: int, holder: str) -> None:
        """Undo `take_event` for an event `holder` took and did not act on (it was cut short
        first): the chat's next taker handles it."""

    @abstractmethod
    async def waiting_chats(
        self, platform: Platform, *, received_before: datetime, stale_before: datetime, limit: int = 100
    ) -> list[str]:
        """Chats with an event received by `received_before` that nobody started, or
        started before `stale_before` and not finished: what a process that died left behind."""

    # Leases on scheduled work

    @abstractmethod
    async def claim(self, names: Sequence[str], holder: str, *, until: datetime) -> set[str]:
        """Claim the work each of `names` stands for, for `holder` (one process), until `until`.

        A name is taken when nobody holds it, its holder's claim ran out (the process died or
        stalled), or `holder` holds it already (the claim is extended). Returns the names
        `holder` now holds; the others are another process's to do.
        """

    @abstractmethod
    async def release(self, names: Sequence[str], holder: str) -> None:
        """Give back claims `holder` holds (names it does not hold are left alone)."""

    @abstractmethod
    async def lease_holders(self, prefix: str) -> set[str]:
        """The holders whose names start with `prefix` and who hold a claim that has not run out."""

    @abstractmethod
    async def release_holder(self, holder: str) -> int:
        """Give back every claim `holder` holds (a process known to be dead); returns how many."""

    # The outbox

    @abstractmethod
    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        """Put notices in the outbox on their own (e.g. a reply a door could not deliver).

        A notice whose key exists already is ignored, so adding twice is harmless.
        """

    @abstractmethod
    async def due_notices(
        self, platform: Platform, now: datetime, *, limit: int = 100
    ) -> list[OutboxNotice]:
        """Notices to push now: not sent, not dead, `push` set, `due` at or before `now`,
        oldest (lowest id) first, at most `limit`.

        A notice is withheld while an older notice of the same chat (platform and channel)
        is neither sent nor dead and has `push` set, whatever that one's `due`: a chat's
        notices arrive in order, and a later one never overtakes one waiting for a retry.
        """

    @abstractmethod
    async def notices_with_keys(self, keys: Sequence[str]) -> list[OutboxNotice]:
        """The notices with these keys that exist (sent, dead or waiting), in outbox order:
        the rows one event caused, whose keys the service derives from the event."""

    @abstractmethod
    async def pending_notices(self, platform: Platform, channel: str) -> list[OutboxNotice]:
        """The chat's notices neither sent nor dead, whatever their `push` and `due`,
        oldest first: what a door replying to a person in that chat may carry along."""

    @abstractmethod
    async def mark_notices_sent(self, keys: Sequence[str]) -> None:
        """Stamp the notices with these keys sent (now). Idempotent: the first time stays;
        unknown keys are ignored. A dead notice that was delivered after all counts as sent."""

    @abstractmethod
    async def retry_notice(
        self, key: str, *, due: datetime, error: str, count: bool = True
    ) -> None:
        """A try failed: not before `due` again, with `error` kept as `last_error`;
        `attempts` goes up by one when `count` (not for a wait the platform imposed, such
        as a used-up quota). Ignored for an unknown key or a notice already sent or dead."""

    @abstractmethod
    async def bury_notice(self, key: str, *, error: str) -> None:
        """Give a notice up as undeliverable: `dead` is set (now), `last_error` kept,
        `attempts` up by one. It is kept, never deleted by prune_notices, and counted.
        Ignored for an unknown key or a notice already sent or dead."""

    @abstractmethod
    async def notice_counts(self, platform: Platform | None = None) -> NoticeCounts:
        """How many notices wait (neither sent nor dead) and how many are dead and unsent;
        only `platform`'s, if given."""

    @abstractmethod
    async def prune_notices(self, before: datetime) -> int:
        """Delete notices sent before `before` (never pending or dead unsent ones);
        returns how many."""
