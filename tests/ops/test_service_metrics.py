"""What the game service counts: messages by outcome, the reply time, moves by who played them."""

from __future__ import annotations

import time

from bot.engines import EngineError
from bot.messages import Incoming, User
from bot.observability.metrics import Metrics

from ..bot.support import Chat, tick


def messages(metrics: Metrics, outcome: str, platform: str = "console") -> float:
    return metrics.value("makruk_messages_total", platform=platform, outcome=outcome)


def moves(metrics: Metrics, by: str, platform: str = "console") -> float:
    return metrics.value("makruk_moves_total", platform=platform, by=by)


async def test_a_game_against_the_bot_counts_both_sides_moves(app, metrics):
    chat = Chat(app.games)
    await chat.ok("alice", "new bot")
    assert moves(metrics, "human") == moves(metrics, "engine") == 0
    await chat.ok("alice", "e3e4")
    assert moves(metrics, "human") == 1 and moves(metrics, "engine") == 1
    await chat.ok("alice", "undo")  # taking moves back plays none
    assert moves(metrics, "human") == 1 and moves(metrics, "engine") == 1
    await chat.ok("alice", "e3e4")
    assert moves(metrics, "human") == 2 and moves(metrics, "engine") == 2
    assert moves(metrics, "human", platform="line") == 0


async def test_the_bots_first_move_as_white_counts_as_the_engines(app, metrics):
    await Chat(app.games).ok("alice", "new bot black")
    assert moves(metrics, "engine") == 1 and moves(metrics, "human") == 0


async def test_two_people_moves_are_human(app, metrics):
    chat = Chat(app.games, platform="discord")
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    await chat.ok("bob", "e6e5")
    assert moves(metrics, "human", platform="discord") == 2
    assert moves(metrics, "engine", platform="discord") == 0


async def test_messages_are_counted_by_outcome_and_timed(app, metrics):
    chat = Chat(app.games)
    started = time.perf_counter()
    await chat.ok("alice", "help")
    await chat.refused("alice", "e3e4", "no_game")
    await chat.refused("alice", "resign", "no_game")
    answering = time.perf_counter() - started  # the three replies' times lie within it
    chatter = Incoming("console", "group", User("bob", "bob"), "hello everyone", addressed=False)
    assert await app.games.handle(chatter) == []  # a group's chatter: no answer
    assert messages(metrics, "ok") == 1
    assert messages(metrics, "refused") == 2
    assert messages(metrics, "ignored") == 1
    assert messages(metrics, "error") == 0
    # Only messages that were answered are timed.
    assert metrics.value("makruk_reply_seconds_count", platform="console") == 3
    assert 0 < metrics.value("makruk_reply_seconds_sum", platform="console") <= answering
    assert metrics.value("makruk_reply_seconds_bucket", platform="console", le="+Inf") == 3


async def test_a_failure_is_counted_as_an_error(app, metrics, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(app.storage, "chat_state", broken)
    await Chat(app.games).refused("alice", "board", "internal")
    assert messages(metrics, "error") == 1


async def test_the_engines_turn_on_the_clock_is_counted_too(app, metrics, monkeypatch):
    chat = Chat(app.games)
    await chat.ok("alice", "new bot")

    async def down(*args, **kwargs):
        raise EngineError("down for a moment")

    monkeypatch.setattr(app.games.table.engine, "best_move", down)
    await chat.ok("alice", "e3e4")  # the bot could not answer: its turn waits for the scheduler
    assert moves(metrics, "engine") == 0
    monkeypatch.undo()
    await tick(app.games, "console")
    assert moves(metrics, "human") == 1 and moves(metrics, "engine") == 1


async def test_apps_do_not_share_counts(app, metrics):
    other = Metrics()
    await Chat(app.games).ok("alice", "help")
    assert messages(metrics, "ok") == 1 and messages(other, "ok") == 0
