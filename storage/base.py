"""Storage: the interface the bot's services call, each method written once for SQLite and PostgreSQL.

It speaks only in records (records.py) and errors (errors.py), never in SQL: each method runs a plan
of storage/queries on the driver (`_write`, `_read`, `_snapshot`, in _driver.py) that SqliteStorage and
PostgresStorage supply. The puzzle methods are in _puzzle_methods.py, the inbox, lease and outbox ones
in _queue_methods.py, the tournament ones in _tournament_methods.py.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Sequence
from datetime import datetime
from types import TracebackType
from typing import Self

from ._driver import Answer, answered
from ._plan import Duplicate
from ._puzzle_methods import PuzzleMethods
from ._queue_methods import QueueMethods
from ._rows import utc
from ._tournament_methods import TournamentMethods
from .queries import channels, games, players
from .records import (
    NO_CHANGES,
    UNCHANGED,
    ChannelSettings,
    ChatState,
    Game,
    GameChanges,
    Keep,
    NewGame,
    NewMove,
    NewNotice,
    Platform,
    Player,
    PlayerRating,
    RatingUpdate,
    Speed,
    Standing,
)

__all__ = ["Answer", "Storage"]


class Storage(PuzzleMethods, QueueMethods, TournamentMethods):
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

    # Players (storage/queries/players.py)

    async def get_or_create_player(
        self, platform: Platform, user_id: str, display_name: str
    ) -> Player:
        """The player with that platform user id, created if new; keeps the name current."""
        # Most calls find the player unchanged: answer those without writing.
        found = await self._read(players.find_player(platform, user_id))
        if found is not None and found.display_name == display_name:
            return found
        return await self._write(players.save_player(platform, user_id, display_name, self._time()))

    async def get_player(self, player_id: int) -> Player:
        """The player with that id; NotFound if there is none."""
        return await self._read(players.get_player(player_id))

    async def get_players(self, player_ids: Sequence[int]) -> dict[int, Player]:
        """The players with these ids, by id, in one query (ids with no player are left out)."""
        return await self._read(players.get_players(sorted(set(player_ids))))

    async def find_player(self, platform: Platform, user_id: str) -> Player | None:
        """The player with that platform user id, if known."""
        return await self._read(players.find_player(platform, user_id))

    async def update_player(
        self,
        player_id: int,
        *,
        display_name: str | Keep = UNCHANGED,
        language: str | Keep | None = UNCHANGED,
    ) -> Player:
        """Change a player's name or language (None: follow the channel's)."""
        changes = {"display_name": display_name, "language": language}
        changed = {k: v for k, v in changes.items() if v is not UNCHANGED}
        return await self._write(players.update_player(player_id, changed, self._time()))

    async def get_rating(self, player_id: int, variant: str, speed: Speed = "correspondence") -> PlayerRating:
        """The player's rating in `variant` at `speed` (the starting values before their first
        rated game of it); NotFound if there is no such player."""
        return await self._read(players.get_rating(player_id, variant, speed))

    async def update_ratings(self, updates: Sequence[RatingUpdate]) -> list[PlayerRating]:
        """Apply several rating updates at once, all or none (VersionConflict if stale): the
        new ratings, in the order of `updates`."""
        return await self._write(players.apply_ratings(list(updates)))

    async def channel_players(self, platform: Platform, channel: str) -> list[Player]:
        """The players seated (or invited) in any game ever played in the channel, in any
        status, most recent game first, each once: the people the chat knows."""
        return await self._read(players.channel_players(platform, channel))

    async def top_players(
        self,
        platform: Platform,
        variant: str,
        *,
        speed: Speed = "correspondence",
        community: str | None = None,
        limit: int = 10,
        min_games: int = 1,
    ) -> list[Standing]:
        """The best-rated players of `variant` at `speed` with at least `min_games` rated games
        of it, best first; with `community`, only those who finished such a game there."""
        return await self._read(players.top_players(platform, variant, speed, community, limit, min_games))

    # Games (storage/queries/games.py)

    async def create_game(self, new: NewGame, *, notices: Sequence[NewNotice] = (),
                          answer: Answer[Game] | None = None) -> Game:
        """Store a new challenge or game (and `notices`); ChannelBusy if the channel
        already has one open, and then nothing is stored. `answer(game)` makes the notices
        that answer the message that made it (they show its id); they are stored in the same
        transaction (see Answer)."""
        now = self._time()
        try:
            made = await self._write(answered(games.create_game(new, list(notices), now), answer, now))
            return self._moves.put(made)
        except Duplicate as error:  # the chat's one open game
            raise await self._read(games.channel_busy(new.platform, new.channel)) from error

    async def get_game(self, game_id: int) -> Game:
        """The game with its moves; NotFound if there is none."""
        return await self._read(games.get_game(self._moves, game_id))

    async def active_game(self, platform: Platform, channel: str, *, user_id: str | None = None,
                          game_id: int | None = None) -> Game | None:
        """The channel's open challenge or active game outside events, with its moves; with
        `user_id` or `game_id`, the one a message of theirs is about, as chat_state's."""
        return await self._read(games.open_game(self._moves, platform, channel, user_id, game_id))

    async def last_game(self, platform: Platform, channel: str) -> Game | None:
        """The channel's most recent game in any status (e.g. to export a finished one)."""
        return await self._read(games.last_game(self._moves, platform, channel))

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The versions of these games by id, in one query (ids of no game are left out): a cheap
        look at which of many games changed."""
        return await self._read(games.game_versions(sorted(set(game_ids))))

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
        return await self._change(game_id, expected_version, move, changes, list(ratings), list(notices))

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
        return await self._change(game_id, expected_version, None, changes, list(ratings), list(notices))

    async def _change(self, game_id: int, expected_version: int, move: NewMove | None, changes: GameChanges,
                      ratings: list[RatingUpdate], notices: list[NewNotice]) -> Game:
        plan = games.change_game(self._moves, game_id, expected_version, move, changes, ratings, notices, self._time())
        return await self._changing(game_id, self._write(plan))

    async def _changing(self, game_id: int, write: Awaitable[Game]) -> Game:
        """Awaits `write`, a write to game `game_id`; the chat's one open game refusing it is
        ChannelBusy."""
        try:
            # Cached once committed: a version that never committed must not be served.
            return self._moves.put(await write)
        except Duplicate as error:
            raise await self._read(games.channel_busy("", "", game_id)) from error

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
        return await self._changing(game_id, self._write(games.undo_moves(game_id, expected_version, count, changes,
                                                                          list(notices), self._time())))

    async def due_deadlines(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        """Active games whose move deadline is at or before `now`, earliest first. Only `platform`'s, if given."""
        return await self._snapshot(games.due_deadlines(utc(now), platform))

    async def next_deadline(
        self, *, after: datetime | None = None, platform: Platform | None = None
    ) -> datetime | None:
        """The earliest deadline of an active game, later than `after` if given (None: no game
        has one): when the clock has something to do next. Only `platform`'s, if given."""
        return await self._read(games.next_deadline(None if after is None else utc(after), platform))

    async def due_reminders(self, now: datetime, *, platform: Platform | None = None) -> list[Game]:
        """Active games not yet reminded whose reminder time has come, deadline not passed.
        Only `platform`'s, if given."""
        return await self._snapshot(games.due_reminders(utc(now), platform))

    async def engine_games(self, platform: Platform | None = None) -> list[Game]:
        """Every active game with at least one engine seat, with its moves, least recently
        updated first. Only `platform`'s, if given. (Whose turn it is is the caller's call.)"""
        return await self._snapshot(games.engine_games(platform))

    async def due_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        """Open challenges created before `before`, oldest first; changes nothing.
        Only `platform`'s, if given. (The caller aborts each with update_game.)"""
        return await self._snapshot(games.due_challenges(utc(before), platform))

    async def expire_challenges(
        self, before: datetime, *, platform: Platform | None = None
    ) -> list[Game]:
        """Abort (reason "expired") every challenge created before `before`; return them.
        Only `platform`'s, if given."""
        return await self._write(games.expire_challenges(utc(before), self._time(), platform))

    async def finished_games(
        self, player_id: int, *, limit: int = 20, before_id: int | None = None
    ) -> list[Game]:
        """A player's finished games, newest first; page with `before_id`."""
        return await self._snapshot(games.finished_games(player_id, limit, before_id))

    async def channel_games(
        self, platform: Platform, channel: str, *, limit: int = 10, before_id: int | None = None
    ) -> list[Game]:
        """The chat's finished games with their moves, newest (highest id) first, at most `limit`;
        the next page is `before_id=` the last id of this one (only games with a smaller id)."""
        return await self._snapshot(games.channel_games(platform, channel, limit, before_id))

    async def finished_games_after(self, after_id: int = 0, *, limit: int = 200) -> list[Game]:
        """Every chat's finished games with their moves, oldest (lowest id) first, only those
        with an id above `after_id`, at most `limit`: the next page is after this one's last id."""
        return await self._snapshot(games.finished_games_after(after_id, limit))

    # Channel settings (storage/queries/channels.py)

    async def chat_state(self, platform: Platform, channel: str, user_id: str, game_id: int | None = None) -> ChatState:
        """The chat's settings, the open game the sender's message is about with the game's
        players, and the sender's player record (None if never seen), in one round trip: what a
        message needs before it is answered (a move then needs only one more, its commit). The
        game is `game_id` if it is open in the chat (the door knows the message is about it),
        else the sender's game of the chat's event, else the chat's casual game."""
        return await self._snapshot(channels.chat_state(self._moves, platform, channel, user_id, game_id))

    async def get_channel_settings(self, platform: Platform, channel: str) -> ChannelSettings:
        """The channel's settings; all None (bot defaults) if never set."""
        return await self._read(channels.get_channel_settings(platform, channel))

    async def set_channel_settings(self, settings: ChannelSettings, *, notices: Sequence[NewNotice] = ()) -> None:
        """Replace the channel's settings (and store `notices`), in one transaction."""
        await self._write(channels.set_channel_settings(settings, list(notices), self._time()))

    # Webhook de-duplication

    async def mark_event_processed(self, event_id: str) -> bool:
        """Record a webhook event id; True if it is new, False if it was seen before."""
        return await self._write(channels.mark_event_processed(event_id, self._time()))

    async def prune_events(self, before: datetime) -> int:
        """Forget event ids recorded before `before`; returns how many."""
        return await self._write(channels.prune_events(utc(before)))
