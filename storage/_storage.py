"""The Storage methods written once: each runs a plan of storage/queries on the database's
driver, which SqliteStorage and PostgresStorage supply (`_write`, `_read`, `_snapshot`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time
from typing import TypeVar

from ._cache import MoveCache
from ._common import Clock
from ._plan import Duplicate, Plan
from ._rows import utc
from .base import Answer, Storage
from .queries import channels, games, inbox, leases, outbox, players, puzzles
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

# upsert_puzzles's argument, named by Storage, hides the module there.
_upsert_puzzles = puzzles.upsert_puzzles


class PlanStorage(Storage):
    """A Storage whose methods are plans; a database supplies how to run one."""

    _clock: Clock
    _moves: MoveCache

    @abstractmethod
    async def _write(self, plan: Plan[T], *, synced: bool = True) -> T:
        """Run `plan` as one write transaction. `synced=False` for bookkeeping that need not
        wait for the disk: a power cut may lose it (the next synced commit writes it out in
        order with itself); a crash of the process loses nothing."""

    @abstractmethod
    async def _read(self, plan: Plan[T]) -> T:
        """Run `plan`, which only reads; each of its statements sees what was committed when it began."""

    @abstractmethod
    async def _snapshot(self, plan: Plan[T]) -> T:
        """Run `plan`, which only reads, in one snapshot of the database."""

    def _time(self) -> datetime:
        return utc(self._clock())

    # Players

    async def get_or_create_player(self, platform: Platform, user_id: str, display_name: str) -> Player:
        # Most calls find the player unchanged: answer those without writing.
        found = await self._read(players.find_player(platform, user_id))
        if found is not None and found.display_name == display_name:
            return found
        return await self._write(players.save_player(platform, user_id, display_name, self._time()))

    async def get_player(self, player_id: int) -> Player:
        return await self._read(players.get_player(player_id))

    async def get_players(self, player_ids: Sequence[int]) -> dict[int, Player]:
        return await self._read(players.get_players(sorted(set(player_ids))))

    async def find_player(self, platform: Platform, user_id: str) -> Player | None:
        return await self._read(players.find_player(platform, user_id))

    async def update_player(self, player_id: int, *, display_name: str | Keep = UNCHANGED,
                            language: str | Keep | None = UNCHANGED) -> Player:
        changes = {"display_name": display_name, "language": language}
        changed = {k: v for k, v in changes.items() if v is not UNCHANGED}
        return await self._write(players.update_player(player_id, changed, self._time()))

    async def get_rating(self, player_id: int, variant: str) -> PlayerRating:
        return await self._read(players.get_rating(player_id, variant))

    async def update_ratings(self, updates: Sequence[RatingUpdate]) -> list[PlayerRating]:
        return await self._write(players.apply_ratings(list(updates)))

    async def channel_players(self, platform: Platform, channel: str) -> list[Player]:
        return await self._read(players.channel_players(platform, channel))

    async def top_players(self, platform: Platform, variant: str, *, community: str | None = None,
                          limit: int = 10, min_games: int = 1) -> list[Standing]:
        return await self._read(players.top_players(platform, variant, community, limit, min_games))

    # Games (storage/queries/games.py)

    async def create_game(self, new: NewGame, *, notices: Sequence[NewNotice] = (),
                          answer: Answer[Game] | None = None) -> Game:
        now = self._time()
        try:
            made = await self._write(_answered(games.create_game(new, list(notices), now), answer, now))
            return self._moves.put(made)
        except Duplicate as error:  # the chat's one open game
            raise await self._read(games.channel_busy(new.platform, new.channel)) from error

    async def get_game(self, game_id: int) -> Game:
        return await self._read(games.get_game(self._moves, game_id))

    async def active_game(self, platform: Platform, channel: str) -> Game | None:
        return await self._read(games.open_game(self._moves, platform, channel))

    async def last_game(self, platform: Platform, channel: str) -> Game | None:
        return await self._read(games.last_game(self._moves, platform, channel))

    async def append_move(self, game_id: int, expected_version: int, move: NewMove, changes: GameChanges = NO_CHANGES,
                          *, ratings: Sequence[RatingUpdate] = (), notices: Sequence[NewNotice] = ()) -> Game:
        return await self._change(game_id, expected_version, move, changes, list(ratings), list(notices))

    async def update_game(self, game_id: int, expected_version: int, changes: GameChanges, *,
                          ratings: Sequence[RatingUpdate] = (), notices: Sequence[NewNotice] = ()) -> Game:
        return await self._change(game_id, expected_version, None, changes, list(ratings), list(notices))

    async def _change(self, game_id: int, expected_version: int, move: NewMove | None, changes: GameChanges,
                      ratings: list[RatingUpdate], notices: list[NewNotice]) -> Game:
        plan = games.change_game(self._moves, game_id, expected_version, move, changes, ratings, notices, self._time())
        return await self._changing(game_id, plan)

    async def _changing(self, game_id: int, plan: Plan[Game]) -> Game:
        """Runs a write to game `game_id`; the chat's one open game refusing it is ChannelBusy."""
        try:
            # Cached once committed: a version that never committed must not be served.
            return self._moves.put(await self._write(plan))
        except Duplicate as error:
            raise await self._read(games.channel_busy("", "", game_id)) from error

    async def undo_moves(self, game_id: int, expected_version: int, count: int, changes: GameChanges = NO_CHANGES,
                         *, notices: Sequence[NewNotice] = ()) -> Game:
        return await self._changing(game_id, games.undo_moves(game_id, expected_version, count, changes,
                                                              list(notices), self._time()))

    async def due_deadlines(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._snapshot(games.due_deadlines(utc(now), platform))

    async def due_reminders(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._snapshot(games.due_reminders(utc(now), platform))

    async def engine_games(self, platform: Platform | None = None) -> list[Game]:
        return await self._snapshot(games.engine_games(platform))

    async def due_challenges(self, before: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._snapshot(games.due_challenges(utc(before), platform))

    async def expire_challenges(self, before: datetime, *, platform: Platform | None = None) -> list[Game]:
        return await self._write(games.expire_challenges(utc(before), self._time(), platform))

    async def finished_games(self, player_id: int, *, limit: int = 20, before_id: int | None = None) -> list[Game]:
        return await self._snapshot(games.finished_games(player_id, limit, before_id))

    async def channel_games(self, platform: Platform, channel: str, *, limit: int = 10,
                            before_id: int | None = None) -> list[Game]:
        return await self._snapshot(games.channel_games(platform, channel, limit, before_id))

    # Channels (storage/queries/channels.py)

    async def chat_state(self, platform: Platform, channel: str, user_id: str) -> ChatState:
        return await self._snapshot(channels.chat_state(self._moves, platform, channel, user_id))

    async def get_channel_settings(self, platform: Platform, channel: str) -> ChannelSettings:
        return await self._read(channels.get_channel_settings(platform, channel))

    async def set_channel_settings(self, settings: ChannelSettings, *, notices: Sequence[NewNotice] = ()) -> None:
        await self._write(channels.set_channel_settings(settings, list(notices), self._time()))

    async def mark_event_processed(self, event_id: str) -> bool:
        return await self._write(channels.mark_event_processed(event_id, self._time()))

    async def prune_events(self, before: datetime) -> int:
        return await self._write(channels.prune_events(utc(before)))

    # Puzzles (storage/queries/puzzles.py)

    async def upsert_puzzles(self, puzzles: Iterable[Puzzle]) -> int:
        return await self._write(_upsert_puzzles(list(puzzles)))

    async def get_puzzle(self, puzzle_id: str) -> Puzzle:
        return await self._read(puzzles.get_puzzle(puzzle_id))

    async def pick_puzzle(self, platform: Platform, channel: str, *, min_rating: int | None = None,
                          max_rating: int | None = None) -> Puzzle | None:
        return await self._read(puzzles.pick_puzzle(platform, channel, min_rating, max_rating))

    async def subscribe(self, platform: Platform, channel: str, local_time: time, timezone: str,
                        language: str | None = None, *, answer: Answer[Subscription] | None = None) -> Subscription:
        now = self._time()
        return await self._write(_answered(puzzles.subscribe(platform, channel, local_time, timezone, language, now),
                                           answer, now))

    async def unsubscribe(self, platform: Platform, channel: str, *, answer: Answer[bool] | None = None) -> bool:
        return await self._write(_answered(puzzles.unsubscribe(platform, channel), answer, self._time()))

    async def get_subscription(self, platform: Platform, channel: str) -> Subscription | None:
        return await self._read(puzzles.get_subscription(platform, channel))

    async def subscriptions(self) -> list[Subscription]:
        return await self._read(puzzles.subscriptions())

    async def record_post(self, subscription_id: int, local_date: date, puzzle_id: str, *,
                          notices: Sequence[NewNotice] = ()) -> PuzzlePost | None:
        return await self._write(puzzles.record_post(subscription_id, local_date, puzzle_id, list(notices),
                                                     self._time()))

    async def record_extra_post(self, platform: Platform, channel: str, puzzle_id: str, *,
                                answer: Answer[PuzzlePost] | None = None) -> PuzzlePost:
        now = self._time()
        return await self._write(_answered(puzzles.record_extra_post(platform, channel, puzzle_id, now), answer, now))

    async def get_post(self, post_id: int) -> PuzzlePost:
        return await self._read(puzzles.get_post(post_id))

    async def latest_post(self, platform: Platform, channel: str) -> PuzzlePost | None:
        return await self._read(puzzles.latest_post(platform, channel))

    async def posted_puzzle_ids(self, platform: Platform, channel: str) -> set[str]:
        return await self._read(puzzles.posted_puzzle_ids(platform, channel))

    async def record_attempt(self, post_id: int, player_id: int, solved: bool, *, progress: int | None = None,
                             answer: Answer[PuzzleAttempt] | None = None) -> PuzzleAttempt:
        now = self._time()
        return await self._write(_answered(puzzles.record_attempt(post_id, player_id, solved, now, progress),
                                           answer, now))

    async def get_attempt(self, post_id: int, player_id: int) -> PuzzleAttempt | None:
        return await self._read(puzzles.get_attempt(post_id, player_id))

    async def get_streak(self, platform: Platform, channel: str, player_id: int) -> Streak:
        return await self._read(puzzles.get_streak(platform, channel, player_id))

    async def puzzle_leaderboard(self, platform: Platform, channel: str, *, local_date: date | None = None,
                                 limit: int = 10) -> list[PuzzleScore]:
        return await self._read(puzzles.puzzle_leaderboard(platform, channel, local_date, limit))

    async def recent_posts(self, platform: Platform, channel: str, *, limit: int = 10) -> list[PuzzlePost]:
        return await self._read(puzzles.recent_posts(platform, channel, limit))

    async def get_progress(self, post_id: int, player_id: int) -> PuzzleProgress | None:
        return await self._read(puzzles.get_progress(post_id, player_id))

    async def save_progress(self, post_id: int, player_id: int, ply: int, *, gave_up: bool = False,
                            answer: Answer[PuzzleProgress] | None = None) -> PuzzleProgress:
        now = self._time()
        return await self._write(_answered(puzzles.save_progress(post_id, player_id, ply, gave_up, now), answer, now))

    # Outbox (storage/queries/outbox.py)

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        if notices:
            await self._write(outbox.insert_notices(list(notices), self._time()))

    async def due_notices(self, platform: Platform, now: datetime, *, limit: int = 100) -> list[OutboxNotice]:
        return await self._read(outbox.due_notices(platform, utc(now), limit))

    async def notices_with_keys(self, keys: Sequence[str]) -> list[OutboxNotice]:
        return await self._read(outbox.notices_with_keys(list(keys)))

    async def pending_notices(self, platform: Platform, channel: str) -> list[OutboxNotice]:
        return await self._read(outbox.pending_notices(platform, channel))

    async def mark_notices_sent(self, keys: Sequence[str]) -> None:
        if keys:
            await self._write(outbox.mark_sent(list(keys), self._time()))

    async def retry_notice(self, key: str, *, due: datetime, error: str, count: bool = True) -> None:
        await self._write(outbox.retry_notice(key, utc(due), error, count))

    async def bury_notice(self, key: str, *, error: str) -> None:
        await self._write(outbox.bury_notice(key, error, self._time()))

    async def notice_counts(self, platform: Platform | None = None) -> NoticeCounts:
        return await self._read(outbox.notice_counts(platform))

    async def prune_notices(self, before: datetime) -> int:
        return await self._write(outbox.prune_notices(utc(before)))

    # Inbox (storage/queries/inbox.py)

    async def receive_events(self, events: Sequence[NewEvent]) -> list[str]:
        return await self._write(inbox.receive_events(list(events), self._time()))

    async def take_event(
        self, platform: Platform, channel: str, holder: str, *, finished: int | None = None,
        shown: Sequence[str] = (), stale_before: datetime,
    ) -> Taken:
        # Bookkeeping: unsynced (see inbox.take_event).
        return await self._write(
            inbox.take_event(platform, channel, holder, finished, list(shown), utc(stale_before), self._time()),
            synced=False,
        )

    async def event_holders(self, prefix: str) -> set[str]:
        return await self._read(inbox.event_holders(prefix))

    async def release_started_events(self, holder: str) -> list[str]:
        return await self._write(inbox.release_started_events(holder))

    async def give_back_event(self, event: int, holder: str) -> None:
        await self._write(inbox.give_back_event(event, holder), synced=False)

    async def waiting_chats(
        self, platform: Platform, *, received_before: datetime, stale_before: datetime, limit: int = 100
    ) -> list[str]:
        return await self._read(inbox.waiting_chats(platform, utc(received_before), utc(stale_before), limit))

    # Leases (storage/queries/leases.py)

    async def claim(self, names: Sequence[str], holder: str, *, until: datetime) -> set[str]:
        return await self._write(leases.claim(names, holder, utc(until), self._time()))

    async def release(self, names: Sequence[str], holder: str) -> None:
        if names:
            await self._write(leases.release(names, holder))

    async def lease_holders(self, prefix: str) -> set[str]:
        return await self._read(leases.lease_holders(prefix, self._time()))

    async def release_holder(self, holder: str) -> int:
        return await self._write(leases.release_holder(holder))


def _answered(plan: Plan[T], answer: Answer[T] | None, now: datetime) -> Plan[T]:
    """`plan`, then the notices `answer` makes from what it returns, in the same transaction."""
    result = yield from plan
    if answer is not None:
        yield from outbox.insert_notices(list(answer(result)), now)
    return result
