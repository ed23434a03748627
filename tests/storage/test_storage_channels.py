"""Channel settings and webhook event de-duplication."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

import asyncpg

from storage import ChannelSettings, ChatState, GameChanges, NewMove, Player, Storage, open_storage
from storage._cache import MoveCache
from storage.postgres import _fast as pg_fast

from .storage_helpers import FakeClock, MakeGame, postgres_only


async def test_settings_default_to_none_everywhere(storage: Storage) -> None:
    expected = ChannelSettings("line", "Cgroup")
    assert await storage.get_channel_settings("line", "Cgroup") == expected
    assert expected.notation is None  # the bot's default


async def test_settings_are_stored_and_replaced(storage: Storage) -> None:
    chosen = ChannelSettings(
        "discord",
        "chan-1",
        language="ja",
        promotion="optional",
        perpetual="draw",
        move_seconds=600,
        coordinates="thai",
        orientation="mover",
        push_notices=True,
        notation="playok",
    )
    await storage.set_channel_settings(chosen)
    assert await storage.get_channel_settings("discord", "chan-1") == chosen
    plain = ChannelSettings("discord", "chan-1", language="th")
    await storage.set_channel_settings(plain)
    assert await storage.get_channel_settings("discord", "chan-1") == plain
    assert await storage.get_channel_settings("discord", "chan-2") == ChannelSettings(
        "discord", "chan-2"
    )


async def test_pushed_notices_can_be_turned_off_and_on(storage: Storage) -> None:
    off = ChannelSettings("line", "Cgroup", "th", push_notices=False)
    await storage.set_channel_settings(off)
    assert await storage.get_channel_settings("line", "Cgroup") == off
    on = ChannelSettings("line", "Cgroup", "th", push_notices=True)
    await storage.set_channel_settings(on)
    assert (await storage.get_channel_settings("line", "Cgroup")).push_notices is True
    await storage.set_channel_settings(ChannelSettings("line", "Cgroup", "th"))
    assert (await storage.get_channel_settings("line", "Cgroup")).push_notices is None


async def test_the_notation_is_stored_changed_and_cleared(storage: Storage) -> None:
    for notation in ("san", "thai", "playok"):
        chosen = ChannelSettings("line", "Cgroup", "th", notation=notation)
        await storage.set_channel_settings(chosen)
        assert await storage.get_channel_settings("line", "Cgroup") == chosen
    assert (await storage.get_channel_settings("line", "Cother")).notation is None  # per chat
    await storage.set_channel_settings(ChannelSettings("line", "Cgroup", "th", push_notices=False))
    assert await storage.get_channel_settings("line", "Cgroup") == ChannelSettings(
        "line", "Cgroup", "th", push_notices=False
    )  # replaced whole: back to the bot's default notation


async def test_event_ids_are_new_once_even_across_restarts(
    storage: Storage, database: str, clock: FakeClock
) -> None:
    assert await storage.mark_event_processed("evt-1") is True
    assert await storage.mark_event_processed("evt-1") is False
    async with await open_storage(database, clock=clock) as restarted:
        assert await restarted.mark_event_processed("evt-1") is False
        assert await restarted.mark_event_processed("evt-2") is True


async def test_prune_events_forgets_old_ids(storage: Storage, clock: FakeClock) -> None:
    await storage.mark_event_processed("old")
    clock.advance(3600)
    await storage.mark_event_processed("new")
    assert await storage.prune_events(clock.now - timedelta(minutes=30)) == 1
    assert await storage.mark_event_processed("old") is True
    assert await storage.mark_event_processed("new") is False


async def test_chat_state_reads_what_a_message_needs_in_one_call(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    # A chat never seen, by a sender never seen: the defaults, nothing else.
    empty = await storage.chat_state("discord", "chan-1", "999")
    assert empty == ChatState(ChannelSettings("discord", "chan-1"), None, {}, None)

    settings = ChannelSettings("discord", "chan-1", language="th", notation="playok")
    await storage.set_channel_settings(settings)
    game = await make_game()
    game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    state = await storage.chat_state("discord", "chan-1", "200")
    assert state.settings == settings
    assert state.game == await storage.active_game("discord", "chan-1")
    assert state.game is not None and [m.uci for m in state.game.moves] == ["e3e4"]
    assert state.players == {alice.id: alice, bob.id: bob}
    assert state.sender == bob

    # Another chat of the same sender: its own (default) settings, no game, the same player.
    elsewhere = await storage.chat_state("discord", "chan-2", "200")
    assert elsewhere == ChatState(ChannelSettings("discord", "chan-2"), None, {}, bob)

    # A finished game is no longer the chat's open game.
    await storage.update_game(game.id, game.version, GameChanges(status="finished", result="1-0", reason="resign"))
    assert (await storage.chat_state("discord", "chan-1", "100")).game is None


@postgres_only
async def test_postgres_reads_the_chat_state_in_one_statement(
    database: str, storage: Storage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    # The function the storage runs, on a connection of the test's own that logs what it sends.
    conn = await asyncpg.connect(database)
    # asyncpg asks the server about the record[] type once per connection, in three statements
    # of its own; a pooled connection has long since done so.
    await conn.fetchval("SELECT ARRAY[ROW(1)]")
    sent: list[str] = []
    conn.add_query_logger(lambda query: sent.append(query.query))
    cache = MoveCache(8)

    async def read(channel: str, user_id: str) -> ChatState:
        before = len(sent)
        state = await pg_fast.chat_state(conn, cache, "discord", channel, user_id)
        await asyncio.sleep(0)  # the logger is called soon after
        assert len(sent) == before + 1, sent[before:]
        assert state == await storage.chat_state("discord", channel, user_id)
        return state

    try:
        assert await read("chan-1", "999") == ChatState(ChannelSettings("discord", "chan-1"), None, {}, None)
        await storage.set_channel_settings(ChannelSettings("discord", "chan-1", language="th"))
        challenge = await make_game(status="challenge", black=None)
        assert (await read("chan-1", "100")).players == {alice.id: alice}
        await storage.update_game(challenge.id, challenge.version,
                                  GameChanges(status="aborted", reason="declined"))
        game = await make_game()
        game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
        cold = await read("chan-1", "200")  # the moves read with the game, and cached
        assert cold.game == game and cold.players == {alice.id: alice, bob.id: bob} and cold.sender == bob
        warm = await read("chan-1", "200")
        assert warm.game is not None and cold.game is not None
        assert warm.game.moves is cold.game.moves  # the moves from the cache
        game = await storage.append_move(game.id, game.version, NewMove("a6a5", "a5", "b"))
        assert (await read("chan-1", "100")).game == game  # a newer version: read again
    finally:
        await conn.close()


async def test_the_move_cache_knows_each_chats_last_game_while_it_holds_its_moves(make_game: MakeGame) -> None:
    cache = MoveCache(2)
    first = await make_game()
    newer = replace(first, id=first.id + 1, version=3)
    elsewhere = replace(first, id=first.id + 2, channel="chan-2")
    cache.put(first)
    cache.put(newer)  # the chat's new game
    assert cache.of_chat("discord", "chan-1") == (newer.id, 3, newer.moves)
    cache.put(elsewhere)  # the cache is full: the oldest, the first game, goes
    assert cache.of_chat("discord", "chan-1") == (newer.id, 3, newer.moves)
    cache.put(first)  # the first game again, now the chat's; newer goes
    assert cache.of_chat("discord", "chan-1") == (first.id, first.version, first.moves)
    cache.put(replace(elsewhere, id=first.id + 3))
    cache.put(replace(elsewhere, id=first.id + 4))
    assert cache.of_chat("discord", "chan-1") is None
    assert cache.of_chat("discord", "chan-2") == (first.id + 4, elsewhere.version, elsewhere.moves)
    assert cache.of_chat("line", "chan-1") is None
