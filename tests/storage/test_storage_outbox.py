"""The outbox: notices stored with the change that causes them (or not at all), delivery
order per chat, retries, undeliverable notices, counts and pruning."""

from __future__ import annotations

from datetime import UTC, date, time, timedelta, timezone

import pytest

from storage import (
    ChannelBusy,
    ChannelSettings,
    GameChanges,
    NewGame,
    NewMove,
    NewNotice,
    NoticeCounts,
    Player,
    Puzzle,
    PuzzleAlreadyPosted,
    Seat,
    Storage,
    StorageError,
    VersionConflict,
)

from .storage_helpers import NOT_JSON, START_FEN, FakeClock, MakeGame


def notice(key: str, channel: str = "chan-1", **fields: object) -> NewNotice:
    values: dict[str, object] = {"platform": "discord", "channel": channel, "key": key,
                                 "kind": "bot_move", "payload": f'{{"text":"{key}"}}'}
    values.update(fields)
    return NewNotice(**values)  # type: ignore[arg-type]


async def keys_due(storage: Storage, clock: FakeClock, platform: str = "discord") -> list[str]:
    return [n.key for n in await storage.due_notices(platform, clock.now)]  # type: ignore[arg-type]


async def pending_keys(storage: Storage, channel: str = "chan-1") -> list[str]:
    return [n.key for n in await storage.pending_notices("discord", channel)]


def test_a_notice_key_has_one_to_25_characters() -> None:
    assert notice("k" * 25).key == "k" * 25
    with pytest.raises(ValueError, match="key"):
        notice("k" * 26)
    with pytest.raises(ValueError, match="key"):
        notice("")
    with pytest.raises(ValueError, match="kind"):
        notice("k", kind="")


# Stored with the change, or not at all


async def test_a_notice_is_stored_with_its_fields(storage: Storage, clock: FakeClock) -> None:
    bangkok = timezone(timedelta(hours=7))
    later = (clock.now + timedelta(minutes=5)).astimezone(bangkok)
    await storage.add_notices([notice("now"), notice("later", kind="reminder", due=later, push=False)])
    now_row, later_row = await storage.pending_notices("discord", "chan-1")
    assert (now_row.key, now_row.platform, now_row.channel, now_row.kind, now_row.payload) == (
        "now", "discord", "chan-1", "bot_move", '{"text":"now"}'
    )
    assert now_row.push and now_row.created == now_row.due == clock.now
    assert (now_row.attempts, now_row.last_error, now_row.sent, now_row.dead) == (0, None, None, None)
    assert later_row.id > now_row.id and not later_row.push and later_row.kind == "reminder"
    assert later_row.due == later and later_row.due.tzinfo == UTC


async def test_create_game_stores_its_notices_and_none_when_the_channel_is_busy(
    storage: Storage, alice: Player, bob: Player
) -> None:
    new = NewGame(platform="discord", channel="chan-2", white=Seat.human(alice.id),
                  black=Seat.human(bob.id), start_fen=START_FEN, promotion="forced",
                  perpetual="forbid", move_seconds=60, status="active")
    await storage.create_game(new, notices=[notice("started", "chan-2")])
    assert await pending_keys(storage, "chan-2") == ["started"]
    with pytest.raises(ChannelBusy):
        await storage.create_game(new, notices=[notice("refused", "chan-2")])
    assert await pending_keys(storage, "chan-2") == ["started"]


async def test_append_move_stores_notices_and_none_when_the_cas_fails(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    moved = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                                      notices=[notice("m1"), notice("m1b")])
    assert await pending_keys(storage) == ["m1", "m1b"]
    with pytest.raises(VersionConflict):
        await storage.append_move(game.id, game.version, NewMove("d3d4", "d4", "w"),
                                  notices=[notice("lost")])
    assert await pending_keys(storage) == ["m1", "m1b"]
    assert await storage.get_game(game.id) == moved


async def test_update_game_stores_notices_and_none_when_the_cas_fails(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    ended = await storage.update_game(
        game.id, game.version, GameChanges(status="finished", result="1-0", reason="timeout"),
        notices=[notice("timeout", kind="timeout")],
    )
    with pytest.raises(VersionConflict):
        await storage.update_game(game.id, game.version, GameChanges(status="aborted"),
                                  notices=[notice("stale")])
    assert await pending_keys(storage) == ["timeout"]
    assert await storage.get_game(game.id) == ended


async def test_update_game_refused_by_the_channel_index_stores_no_notice(
    storage: Storage, make_game: MakeGame
) -> None:
    ended = await make_game(channel="chan-1")
    ended = await storage.update_game(ended.id, ended.version, GameChanges(status="aborted"))
    await make_game(channel="chan-1")
    with pytest.raises(ChannelBusy):
        await storage.update_game(ended.id, ended.version, GameChanges(status="active"),
                                  notices=[notice("reopened")])
    assert await pending_keys(storage) == []


async def test_undo_moves_stores_notices_and_none_when_the_cas_fails(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    game = await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"))
    undone = await storage.undo_moves(game.id, game.version, 1, notices=[notice("takeback")])
    with pytest.raises(VersionConflict):
        await storage.undo_moves(game.id, game.version, 1, notices=[notice("stale")])
    assert await pending_keys(storage) == ["takeback"]
    assert undone.moves == ()


async def test_a_notice_that_cannot_be_stored_takes_its_move_with_it(
    storage: Storage, make_game: MakeGame
) -> None:
    game = await make_game()
    with pytest.raises(StorageError, match=NOT_JSON):
        await storage.append_move(game.id, game.version, NewMove("e3e4", "e4", "w"),
                                  notices=[notice("ok"), notice("bad", payload="{not json")])
    assert await storage.get_game(game.id) == game
    assert await pending_keys(storage) == []


async def test_record_post_stores_notices_only_when_the_post_is_recorded(
    storage: Storage,
) -> None:
    day = date(2026, 11, 30)
    await storage.upsert_puzzles([Puzzle("p1", "fen", ("e3e4",)), Puzzle("p2", "fen", ("e3e4",))])
    daily = await storage.subscribe("discord", "chan-1", time(8, 30), "Asia/Bangkok")
    assert await storage.record_post(daily.id, day, "p1", notices=[notice("daily-1")]) is not None
    assert await storage.record_post(daily.id, day, "p2", notices=[notice("same-day")]) is None
    with pytest.raises(PuzzleAlreadyPosted):
        await storage.record_post(daily.id, day + timedelta(days=1), "p1",
                                  notices=[notice("seen")])
    assert await pending_keys(storage) == ["daily-1"]


async def test_add_notices_ignores_a_key_it_has(storage: Storage, make_game: MakeGame) -> None:
    await storage.add_notices([notice("reply-1", payload='{"v":1}')])
    await storage.add_notices([notice("reply-1", payload='{"v":2}'), notice("reply-2")])
    game = await make_game()
    await storage.update_game(game.id, game.version, GameChanges(reminded=True),
                              notices=[notice("reply-2", payload='{"v":3}')])
    rows = await storage.pending_notices("discord", "chan-1")
    assert [(n.key, n.payload) for n in rows] == [("reply-1", '{"v":1}'), ("reply-2", '{"text":"reply-2"}')]
    await storage.add_notices([])
    assert await storage.notice_counts() == NoticeCounts(pending=2, dead=0)


# Delivery


async def test_due_notices_are_pushed_notices_whose_time_has_come(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([
        notice("a", "A"),
        notice("quiet", "B", push=False),
        notice("soon", "C", due=clock.now + timedelta(seconds=60)),
        notice("line", "A", platform="line"),
        notice("b", "D"),
    ])
    assert await keys_due(storage, clock) == ["a", "b"]
    assert await keys_due(storage, clock, "line") == ["line"]
    assert [n.key for n in await storage.due_notices("discord", clock.now, limit=1)] == ["a"]
    clock.advance(60)
    assert await keys_due(storage, clock) == ["a", "soon", "b"]


async def test_a_later_notice_never_overtakes_an_earlier_one_of_its_chat(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([notice("a1", "A"), notice("b1", "B"), notice("a2", "A")])
    assert await keys_due(storage, clock) == ["a1", "b1"]

    await storage.retry_notice("a1", due=clock.now + timedelta(seconds=30), error="HTTP 500")
    assert await keys_due(storage, clock) == ["b1"]  # a2 waits behind a1
    await storage.mark_notices_sent(["b1"])
    assert await keys_due(storage, clock) == []

    clock.advance(30)
    assert await keys_due(storage, clock) == ["a1"]
    await storage.mark_notices_sent(["a1"])
    assert await keys_due(storage, clock) == ["a2"]


async def test_only_waiting_pushed_notices_hold_a_chat_back(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([
        notice("reply-only", "A", push=False),
        notice("buried", "A"),
        notice("a", "A"),
        notice("later", "B", due=clock.now + timedelta(hours=1)),
        notice("b", "B"),
        notice("other-platform", "A", platform="line", due=clock.now + timedelta(hours=1)),
    ])
    await storage.bury_notice("buried", error="bot removed")
    # Not yet due still holds its chat back: the chat's order is the order of creation.
    assert await keys_due(storage, clock) == ["a"]


async def test_pending_notices_are_a_chats_unsent_live_notices_whatever_push_and_due(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([
        notice("sent"),
        notice("dead"),
        notice("quiet", push=False),
        notice("later", due=clock.now + timedelta(hours=1)),
        notice("elsewhere", "chan-2"),
        notice("line", platform="line"),
    ])
    await storage.mark_notices_sent(["sent"])
    await storage.bury_notice("dead", error="gone")
    assert await pending_keys(storage) == ["quiet", "later"]


async def test_mark_notices_sent_is_idempotent_and_ignores_unknown_keys(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([notice("a"), notice("b")])
    await storage.mark_notices_sent(["a", "nobody"])
    first = clock.now
    clock.advance(10)
    await storage.mark_notices_sent(["a"])
    await storage.mark_notices_sent([])
    assert await pending_keys(storage) == ["b"]
    assert await storage.prune_notices(first) == 0  # sent at `first`, not before it
    assert await storage.prune_notices(first + timedelta(microseconds=1)) == 1


async def test_retry_counts_tries_unless_told_not_to(storage: Storage, clock: FakeClock) -> None:
    await storage.add_notices([notice("a")])
    await storage.retry_notice("a", due=clock.now + timedelta(seconds=5), error="timeout")
    await storage.retry_notice("a", due=clock.now + timedelta(seconds=10), error="HTTP 500")
    await storage.retry_notice("a", due=clock.now + timedelta(hours=1), error="quota", count=False)
    (row,) = await storage.pending_notices("discord", "chan-1")
    assert (row.attempts, row.last_error, row.due) == (2, "quota", clock.now + timedelta(hours=1))
    await storage.retry_notice("unknown", due=clock.now, error="x")  # ignored


async def test_a_buried_notice_is_kept_counted_and_never_pushed(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([notice("a"), notice("b"), notice("c", platform="line")])
    await storage.retry_notice("a", due=clock.now, error="HTTP 500")
    clock.advance(5)
    await storage.bury_notice("a", error="HTTP 403")
    await storage.bury_notice("a", error="again")  # already dead: ignored
    await storage.retry_notice("a", due=clock.now, error="revived?")  # dead: ignored
    assert await storage.notice_counts() == NoticeCounts(pending=2, dead=1)
    assert await storage.notice_counts("discord") == NoticeCounts(pending=1, dead=1)
    assert await storage.notice_counts("line") == NoticeCounts(pending=1, dead=0)
    assert await keys_due(storage, clock) == ["b"]
    assert await pending_keys(storage) == ["b"]

    assert await storage.prune_notices(clock.now + timedelta(days=365)) == 0
    await storage.mark_notices_sent(["b"])
    clock.advance(5)
    await storage.bury_notice("b", error="too late")  # already sent: ignored
    assert await storage.notice_counts("discord") == NoticeCounts(pending=0, dead=1)


async def test_a_dead_notice_delivered_after_all_counts_as_sent(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([notice("a")])
    (carried,) = await storage.pending_notices("discord", "chan-1")  # a reply takes it along
    await storage.bury_notice("a", error="push failed")  # while the deliverer gives up
    await storage.mark_notices_sent([carried.key])  # and the reply arrives
    assert await storage.notice_counts() == NoticeCounts(pending=0, dead=0)


async def test_prune_deletes_only_notices_sent_before_the_time(
    storage: Storage, clock: FakeClock
) -> None:
    await storage.add_notices([notice("old"), notice("new"), notice("pending"), notice("dead")])
    await storage.mark_notices_sent(["old"])
    clock.advance(3600)
    await storage.mark_notices_sent(["new"])
    await storage.bury_notice("dead", error="gone")
    assert await storage.prune_notices(clock.now - timedelta(minutes=30)) == 1
    assert await storage.prune_notices(clock.now - timedelta(minutes=30)) == 0
    assert await pending_keys(storage) == ["pending"]
    assert await storage.notice_counts() == NoticeCounts(pending=1, dead=1)
    # A pruned key is free again; a kept one is not.
    await storage.add_notices([notice("old"), notice("new")])
    assert await pending_keys(storage) == ["pending", "old"]


async def test_notices_are_found_by_their_keys_sent_or_not(storage: Storage) -> None:
    await storage.add_notices([notice("ev-00"), notice("other"), notice("ev-01")])
    await storage.mark_notices_sent(["ev-00"])
    found = await storage.notices_with_keys(["ev-00", "ev-01", "ev-02"])
    assert [n.key for n in found] == ["ev-00", "ev-01"]  # in outbox order, the missing one left out
    assert found[0].sent is not None and found[1].sent is None
    assert await storage.notices_with_keys([]) == []


async def test_a_settings_change_stores_its_notices_with_it(storage: Storage) -> None:
    await storage.set_channel_settings(ChannelSettings("discord", "chan-1", language="en"),
                                       notices=[notice("lang-00")])
    assert (await storage.get_channel_settings("discord", "chan-1")).language == "en"
    assert await pending_keys(storage) == ["lang-00"]
    with pytest.raises(StorageError, match=NOT_JSON):  # a notice that cannot be stored takes the change with it
        await storage.set_channel_settings(ChannelSettings("discord", "chan-1", language="th"),
                                           notices=[notice("lang-01", payload="{not json")])
    assert (await storage.get_channel_settings("discord", "chan-1")).language == "en"
    assert await pending_keys(storage) == ["lang-00"]
