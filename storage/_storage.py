"""The Storage methods written once: each runs a plan of storage/queries on the database's
driver, which SqliteStorage and PostgresStorage supply (`_write`, `_read`, `_snapshot`)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from ._cache import MoveCache
from ._common import Clock
from ._plan import Plan
from ._rows import utc
from .base import Storage
from .queries import inbox, leases, outbox, players
from .records import (
    UNCHANGED,
    Keep,
    NewEvent,
    NewNotice,
    NoticeCounts,
    OutboxNotice,
    Platform,
    Player,
    PlayerRating,
    RatingUpdate,
    Standing,
    Taken,
)

T = TypeVar("T")


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
