"""Nothing stalls, nothing is lost: the engine's turn is always played, every notice goes
through the outbox with the change that causes it, failures are retried, and bad input under
faults gets a clear answer. (Killing the whole bot: test_crash_resume.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import EngineError, EnginePosition, RandomMover
from bot.i18n import LANGUAGES
from bot.messages import Notice
from bot.services.games import GameService
from bot.services.outbox import DeliveryError
from storage import Storage, open_storage

from .support import Chat, no_image, tick


class Flaky(RandomMover):
    """A random mover whose first ``failures`` moves fail."""

    def __init__(self, failures: int) -> None:
        super().__init__(seed=3)
        self.failures = failures

    async def best_move(self, position: EnginePosition, *, level: int) -> str:
        if self.failures > 0:
            self.failures -= 1
            raise EngineError("the engine died")
        return await super().best_move(position, level=level)


class Door:
    """A door's ``send`` that fails while ``failing`` holds the chat, and records what arrived."""

    def __init__(self) -> None:
        self.sent: list[Notice] = []
        self.failing: dict[str, DeliveryError] = {}
        self.tries: list[str] = []

    async def send(self, notice: Notice) -> None:
        assert notice.key
        self.tries.append(notice.key)
        if notice.channel in self.failing:
            raise self.failing[notice.channel]
        self.sent.append(notice)


def service_with(storage: Storage, clock: FakeClock, engine: RandomMover) -> GameService:
    return GameService(storage, Settings(language="en"), clock=clock, engine=engine, render=no_image)


async def test_the_engines_turn_is_played_by_the_clock_when_the_engine_failed(storage, clock) -> None:
    service = service_with(storage, clock, Flaky(failures=1))
    chat = Chat(service)
    await chat.ok("alice", "new bot 1 white")
    replies = await chat.ok("alice", "e3e4")
    assert len(replies) == 1  # the person's move stands; the engine did not answer yet
    game = await storage.active_game("console", "c1")
    assert game is not None and len(game.moves) == 1
    notices = await tick(service)
    assert [n.reply.kind for n in notices] == ["game"] and "Bot (1)" in notices[0].reply.text
    game = await storage.active_game("console", "c1")
    assert game is not None and len(game.moves) == 2 and game.moves[1].by == "b"
    assert await tick(service) == []  # once


async def test_a_restarted_bot_plays_the_engines_waiting_turn_at_once(storage, clock, database: str) -> None:
    service = service_with(storage, clock, Flaky(failures=5))
    await Chat(service).ok("alice", "new bot 2 black")  # the engine, White, fails to start
    game = await storage.active_game("console", "c1")
    assert game is not None and game.moves == ()
    async with await open_storage(database, clock=clock.now) as again:  # a restart
        restarted = service_with(again, clock, RandomMover(seed=4))
        notices = await tick(restarted)
        assert len(notices) == 1 and notices[0].reply.game is not None and notices[0].reply.game.ply == 1


async def test_the_bots_move_shown_by_the_door_is_not_pushed_again(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    chat = Chat(service)  # reports what it showed, as a door does
    await chat.ok("alice", "new bot 1 white")
    replies = await chat.ok("alice", "e3e4")
    assert replies[1].outbox_key is not None
    clock.advance(minutes=5)
    assert await tick(service) == []


async def test_the_bots_move_a_door_never_showed_is_pushed_after_a_while(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    await Chat(service).ok("alice", "new bot 1 white")
    from bot.messages import Incoming, User

    replies = await service.handle(Incoming("console", "c1", User("alice", "alice"), "e3e4"))  # the door crashed
    assert await tick(service) == []  # not yet: the door had its chance to show it
    clock.advance(minutes=2)
    notices = await tick(service)
    assert [n.key for n in notices] == [replies[1].outbox_key]
    assert notices[0].reply.text == replies[1].text


async def test_a_loss_on_time_is_delivered_after_a_crash_between_commit_and_send(storage, clock, database) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    chat = Chat(service)
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    clock.advance(days=2)
    await service.tick("console")  # committed with its notice; the process dies before sending
    async with await open_storage(database, clock=clock.now) as again:
        restarted = service_with(again, clock, RandomMover(seed=1))
        door = Door()
        assert await restarted.outbox("console", door.send).drain() == 1
        assert door.sent[0].reply.game is not None and door.sent[0].reply.game.reason == "timeout"
        assert await restarted.outbox("console", door.send).drain() == 0


async def expired_challenges(service: GameService, clock: FakeClock, *channels: str) -> None:
    """An open challenge in each channel, expired: the outbox owes each channel a notice."""
    for channel in channels:
        await Chat(service, channel).ok("alice", "new")
    clock.advance(minutes=16)
    await service.tick("console")


async def test_one_failing_chat_neither_blocks_nor_loses_the_others(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    await expired_challenges(service, clock, "a", "b")
    door = Door()
    door.failing["a"] = DeliveryError("HTTP 500")
    outbox = service.outbox("console", door.send)
    assert await outbox.drain() == 1 and [n.channel for n in door.sent] == ["b"]
    assert await outbox.drain() == 0  # "a" waits for its retry
    del door.failing["a"]
    clock.advance(minutes=1)
    assert await outbox.drain() == 1 and [n.channel for n in door.sent] == ["b", "a"]
    assert door.tries.count(door.sent[1].key or "") == 2  # the same key on every try


async def test_an_undeliverable_notice_is_kept_and_counted(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    await expired_challenges(service, clock, "gone")
    door = Door()
    door.failing["gone"] = DeliveryError("the bot was removed", permanent=True)
    assert await service.outbox("console", door.send).drain() == 0
    counts = await storage.notice_counts("console")
    assert (counts.pending, counts.dead) == (0, 1)


async def test_retries_back_off_then_give_up_without_dropping(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    await expired_challenges(service, clock, "flaky")
    door = Door()
    door.failing["flaky"] = DeliveryError("timeout")
    outbox = service.outbox("console", door.send)
    for _ in range(40):
        await outbox.drain()
        clock.advance(hours=1)
    assert len(door.tries) == outbox.max_attempts
    assert (await storage.notice_counts("console")).dead == 1


async def test_a_used_up_quota_pauses_pushes_until_it_allows(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    await expired_challenges(service, clock, "a", "b")
    door = Door()
    door.failing["a"] = DeliveryError("monthly limit", quota=True)
    outbox = service.outbox("console", door.send)
    assert await outbox.drain() == 0 and door.tries and len(door.tries) == 1  # the rest wait too
    del door.failing["a"]
    clock.advance(minutes=10)
    assert await outbox.drain() == 0  # still paused
    clock.advance(hours=2)
    assert await outbox.drain() == 2
    assert (await storage.notice_counts("console")).pending == 0


async def test_pushed_notices_off_keeps_reminders_for_the_next_reply(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    chat = Chat(service)
    await chat.ok("alice", "notices off")
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    clock.advance(hours=20)
    assert await tick(service) == []  # the reminder is not pushed...
    pending = await service.outbox("console", Door().send).pending_for("c1")
    assert [n.reply.text for n in pending] == [pending[0].reply.text] and "alice" in pending[0].reply.text
    await chat.ok("alice", "notices on")


async def test_a_typed_name_is_matched_to_a_known_player_or_refused(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    line = Chat(service, "group:G1", "line")
    await line.refused("somchai", "new @Malee", "unknown_mention")
    assert await storage.find_player("line", "Malee") is None  # no phantom player
    await line.ok("malee-id", "new")  # Malee played here before (under her LINE id)
    await line.ok("malee-id", "decline")
    player = await storage.find_player("line", "malee-id")
    assert player is not None
    await line.ok("somchai", f"new @{player.display_name}")
    game = await storage.active_game("line", "group:G1")
    assert game is not None and player.id in game.player_ids


async def test_a_busy_database_gets_its_own_answer_and_changes_nothing(tmp_path: Path, clock) -> None:
    path = tmp_path / "busy.db"
    async with await open_storage(path, clock=clock.now, busy_timeout_ms=50) as storage:
        service = service_with(storage, clock, RandomMover(seed=1))
        chat = Chat(service)
        await chat.ok("alice", "new @bob", "bob")
        blocker = sqlite3.connect(path, isolation_level=None)
        try:
            blocker.execute("BEGIN EXCLUSIVE")
            reply = await chat.refused("bob", "accept", "busy")
            assert "try again" in reply.text
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        game = await storage.active_game("console", "c1")
        assert game is not None and game.status == "challenge"
        await chat.ok("bob", "accept")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_busy_answer_is_localized(language: str) -> None:
    from bot.i18n import Catalog

    assert Catalog.load().text(language, "error.busy")


async def test_a_chat_owed_several_notices_gets_them_in_order_in_one_round(storage, clock) -> None:
    from bot.messages import Reply
    from bot.services.outbox import new_notice

    service = service_with(storage, clock, RandomMover(seed=1))
    texts = ["first", "second", "third"]
    await storage.add_notices([new_notice("console", "x", "reply", Reply("info", t, "en"))[0] for t in texts])
    door = Door()
    assert await service.outbox("console", door.send).drain() == 3
    assert [n.reply.text for n in door.sent] == texts


async def test_a_reminder_waiting_for_the_next_answer_is_dropped_once_the_player_moved(storage, clock) -> None:
    service = service_with(storage, clock, RandomMover(seed=1))
    chat = Chat(service)
    await chat.ok("alice", "notices off")
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    clock.advance(hours=20)
    await service.tick("console")
    outbox = service.outbox("console", Door().send)
    assert [n.reply.kind for n in await outbox.pending_for("c1")] == ["info"]
    await chat.ok("alice", "e3e4")
    assert await outbox.pending_for("c1") == []


async def test_replies_a_door_could_not_show_come_later_in_their_order(storage, clock) -> None:
    from bot.messages import Incoming, User

    service = service_with(storage, clock, RandomMover(seed=1))
    await Chat(service).ok("alice", "new bot 1 white")
    replies = await service.handle(Incoming("console", "c1", User("alice", "alice"), "e3e4"))
    await service.undelivered("console", "c1", replies)  # the door's reply failed
    door = Door()
    assert await service.outbox("console", door.send).drain() == 2
    assert [n.reply.text for n in door.sent] == [r.text for r in replies]
    clock.advance(minutes=5)
    assert await service.outbox("console", door.send).drain() == 0  # the bot's move once
