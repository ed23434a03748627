"""A lock per chat that exists only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class ChatLocks:
    """``async with locks.hold(channel):`` one holder per chat at a time.

    The table keeps weak references: a chat's lock goes away with its last holder, so chats
    seen once cost nothing afterwards.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    @asynccontextmanager
    async def hold(self, channel: str) -> AsyncIterator[None]:
        lock = self._locks.get(channel)
        if lock is None:
            lock = self._locks[channel] = asyncio.Lock()
        async with lock:
            yield

    def __len__(self) -> int:
        return len(self._locks)
