"""Bounded memory: chatter and games from 50,000 distinct chats leave no per-chat trace in
the process (locks go with their last user, boards of open games are an LRU, finished and
declined games are forgotten); Python's own allocations level off."""

from __future__ import annotations

import gc
import tracemalloc

from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService, table
from storage import open_storage

from .support import no_image

CHATS = 50_000
GAME_EVERY = 50  # one chat in 50 also plays (and declines) a game


async def test_memory_levels_off_over_fifty_thousand_chats(db_path, clock, monkeypatch) -> None:
    # A smaller board cache, so that it is full long before half of the games were played.
    monkeypatch.setattr(table, "BOARDS_KEPT", 64)
    # On SQLite alone: what is measured is this process's memory, the same whichever database
    # holds the games (and traced allocations make 50,000 chats slow on either).
    storage = await open_storage(db_path, clock=clock.now)
    service = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                          render=no_image)
    tracemalloc.start()
    try:
        halfway = 0
        for i in range(CHATS):
            chat = f"group:{i}"
            user = User(f"u{i % 977}", f"user {i % 977}")
            await service.handle(Incoming("line", chat, user, "hello everyone", addressed=False))
            if i % GAME_EVERY == 0:
                await service.handle(Incoming("line", chat, user, "new bot 1"))
                await service.handle(Incoming("line", chat, user, "e3e4"))
                if i % (2 * GAME_EVERY) == 0:
                    await service.handle(Incoming("line", chat, user, "resign"))  # finished: forgotten
            if i == CHATS // 2:
                gc.collect()
                halfway = tracemalloc.get_traced_memory()[0]
        gc.collect()
        end = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        await storage.close()
    sizes = service.table.sizes()
    assert sizes["locks"] == 0
    assert sizes["boards"] <= 64 and sizes["choices"] <= 64
    # The second 25,000 chats add less than 2 MB of Python objects (the first half fills the
    # bounded caches; a per-chat leak of even 100 bytes would add 2.5 MB).
    assert end - halfway < 2_000_000, (halfway, end)
