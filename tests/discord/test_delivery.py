"""Nothing stalls, nothing is lost: notices through the outbox under Discord's failures, replies that
could not be shown, pushed notices turned off, and the door's bounded memory.

Every test steps the outbox by hand (``bot.outbox.drain()``) on the fake clock and looks at what the
fake Discord received: every attempt, its nonce, and the messages Discord really made.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, cast

import discord

from bot.adapters.discord.threads import GameThreads
from bot.i18n import Catalog
from bot.services.games.table import ANSWER_GRACE

from .fakes import RETRY_AFTER, FakeDiscord, Fault
from .payloads import ALICE, BOB, CHANNEL_ID, GUILD_ID, MAKRUK, dm_channel, thread_channel
from .test_play import start_game
from .test_text import MENTION

if TYPE_CHECKING:
    from discord.types import threads as thread_types

TEXTS = Catalog.load()
MANAGER = discord.Permissions(manage_guild=True, use_application_commands=True).value
REMINDER = "alice, it is your move"


async def owe_a_reminder(api: FakeDiscord, service, clock) -> dict:
    """A game whose player to move is owed a reminder (in the outbox, not yet sent); its thread."""
    thread = await start_game(api)
    clock.advance(hours=20)
    await service.tick("discord")
    api.clear()
    return thread


async def test_a_notice_is_shown_once_after_a_500_a_429_and_a_timeout(bot, discord_api, service, storage, clock):
    api = discord_api
    thread = await owe_a_reminder(api, service, clock)
    [owed] = await storage.pending_notices("discord", str(CHANNEL_ID))
    outbox = bot.outbox
    api.fail_posts(Fault.SERVER_ERROR, Fault.RATE_LIMITED, Fault.TIMEOUT)

    assert await outbox.drain() == 0  # 500
    base = outbox.base_delay
    # the growing pause; Discord's Retry-After when it is longer; the pause again
    for wait, delivered in ((base, 0), (max(2 * base, RETRY_AFTER), 0), (4 * base, 1)):
        clock.advance(seconds=wait - 1)
        tried = len(api.posts())
        assert await outbox.drain() == 0 and len(api.posts()) == tried  # not before its time
        clock.advance(seconds=1)
        assert await outbox.drain() == delivered

    posts = api.posts()
    assert [p.kind for p in posts] == ["failed", "failed", "failed", "message"]
    assert [p.nonce for p in posts] == [owed.key] * 4 and all(p.json["enforce_nonce"] for p in posts)
    assert {p.channel for p in posts} == {int(thread["id"])}
    [shown] = api.messages_sent()
    assert REMINDER in shown.text and shown.json["content"] == f"<@{ALICE.id}>"
    assert await storage.pending_notices("discord", str(CHANNEL_ID)) == []
    clock.advance(hours=1)
    assert await outbox.drain() == 0 and len(api.posts()) == 4  # sent is sent


async def test_two_drains_at_once_send_a_notice_once(bot, discord_api, service, storage, clock):
    """A move on the web board starts a drain while the scheduler's may be running: the process's
    claims are its own, so only the outbox's turn keeps the two from both sending."""
    api = discord_api
    await owe_a_reminder(api, service, clock)
    assert sorted(await asyncio.gather(bot.outbox.drain(), bot.outbox.drain())) == [0, 1]
    assert [p.kind for p in api.posts()] == ["message"]
    assert await storage.pending_notices("discord", str(CHANNEL_ID)) == []


async def test_a_message_made_whose_answer_was_lost_is_not_shown_twice(bot, discord_api, service, storage, clock):
    api = discord_api
    await owe_a_reminder(api, service, clock)
    api.fail_posts(Fault.LOST_ANSWER)  # Discord made the message; the bot never heard back
    assert await bot.outbox.drain() == 0
    clock.advance(seconds=bot.outbox.base_delay)
    assert await bot.outbox.drain() == 1
    first, again = api.posts()
    assert (first.kind, again.kind) == ("message", "duplicate") and first.nonce == again.nonce
    assert again.message == first.message  # Discord answered with the first message
    [shown] = api.messages_sent()
    assert REMINDER in shown.text
    assert await storage.pending_notices("discord", str(CHANNEL_ID)) == []


async def test_a_notice_refused_for_good_is_kept_as_undeliverable(bot, discord_api, service, storage, clock, caplog):
    api = discord_api
    thread = await owe_a_reminder(api, service, clock)
    api.fail_posts(Fault.FORBIDDEN, Fault.FORBIDDEN)  # the game's thread, then its channel
    assert await bot.outbox.drain() == 0
    assert [(p.kind, p.channel) for p in api.posts()] == [("failed", int(thread["id"])), ("failed", CHANNEL_ID)]
    counts = await storage.notice_counts("discord")
    assert (counts.pending, counts.dead) == (0, 1)  # kept, and counted
    assert any("undeliverable" in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)
    clock.advance(days=1)
    assert await bot.outbox.drain() == 0 and len(api.posts()) == 2  # never tried again
    caplog.clear()  # the error above is the expected one


async def test_a_notice_for_a_deleted_channel_is_kept_as_undeliverable(bot, discord_api, storage, clock, caplog):
    api = discord_api
    await api.slash(ALICE, "new", opponent=BOB)
    clock.advance(minutes=20)
    await bot.door.games.tick("discord")  # the challenge expires: the channel is told
    api.gone.add(CHANNEL_ID)
    api.clear()
    assert await bot.outbox.drain() == 0
    assert api.kinds() == ["refused"]  # Discord: Unknown Channel
    assert (await storage.notice_counts("discord")).dead == 1
    caplog.clear()


async def test_a_move_whose_answer_expired_is_posted_by_the_outbox(bot, discord_api, storage, clock, caplog):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    api.expire(after=1)  # the "thinking…" gets through; the answer comes too late
    await api.slash(ALICE, "move", channel=thread, move="e3e4")
    assert api.kinds() == ["defer", "expired"]
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci for m in game.moves] == ["e3e4"]  # played once, and owed to the chat
    assert any("the outbox posts them later" in r.getMessage() for r in caplog.records)

    api.clear()
    assert await bot.outbox.drain() == 1
    [board] = api.boards()
    assert board.kind == "message" and board.channel == int(thread["id"]) and board.nonce
    assert "alice played e4" in board.text and "makruk:pick:piece" in board.custom_ids
    assert await bot.outbox.drain() == 0 and len(api.boards()) == 1


async def test_the_bots_move_that_could_not_be_shown_is_posted_once(bot, discord_api, storage, clock):
    api = discord_api
    dm = dm_channel(ALICE)
    api.expire(after=1)
    await api.slash(ALICE, "new", bot=2, colour="black", dm=True)
    assert api.kinds() == ["defer", "expired"]
    clock.advance(seconds=ANSWER_GRACE.total_seconds())  # the time a door has to show the bot's move itself
    # the game's start (handed over by the door) and the bot's move; a chat's notices one at a time
    assert await bot.outbox.drain() + await bot.outbox.drain() == 2
    texts = [s.text for s in api.messages_sent()]
    assert len(texts) == 2 and {s.channel for s in api.messages_sent()} == {int(dm["id"])}
    assert sum("The game begins" in t for t in texts) == 1 and sum("Bot (2) played" in t for t in texts) == 1
    assert await storage.pending_notices("discord", dm["id"]) == []


async def test_the_bots_move_shown_in_the_answer_is_not_posted_again(bot, discord_api, storage, clock):
    api = discord_api
    dm = dm_channel(ALICE)
    await api.slash(ALICE, "new", bot=2, colour="black", dm=True)
    assert sum("Bot (2) played" in s.text for s in api.messages_sent()) == 1
    assert await storage.pending_notices("discord", dm["id"]) == []  # the door told the service
    clock.advance(seconds=ANSWER_GRACE.total_seconds())
    api.clear()
    assert await bot.outbox.drain() == 0 and api.sent == []


async def test_a_board_discord_failed_to_take_is_posted_later(bot, discord_api, storage, caplog):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    api.fail_posts(Fault.SERVER_ERROR)
    await api.say(ALICE, f"{MENTION} e3e4", channel=thread, mentions=(MAKRUK,))
    assert [p.kind for p in api.posts()] == ["failed"]
    assert await bot.outbox.drain() == 1
    [board] = api.boards()
    assert board.channel == int(thread["id"]) and "alice played e4" in board.text


async def test_notices_off_needs_manage_server_and_then_rides_on_the_next_answer(bot, discord_api, service,
                                                                                 storage, clock):
    api = discord_api
    await api.slash(ALICE, "notices", group="makruk-server", state="off")
    assert api.sent[-1].ephemeral and "Manage Server" in api.sent[-1].text
    await api.say(ALICE, f"{MENTION} notices off", mentions=(MAKRUK,))
    assert "Manage Server" in api.sent[-1].text
    assert (await storage.get_channel_settings("discord", str(CHANNEL_ID))).push_notices is not False

    await api.slash(ALICE, "notices", group="makruk-server", state="off", permissions=MANAGER)
    assert api.sent[-1].text == TEXTS.text("en", "notices.off")
    assert (await storage.get_channel_settings("discord", str(CHANNEL_ID))).push_notices is False

    await owe_a_reminder(api, service, clock)
    assert await bot.outbox.drain() == 0 and api.sent == []  # not pushed ...
    await api.slash(BOB, "board")  # ... but shown with the bot's next answer in the channel
    [reminder] = [s for s in api.sent if s.kind == "message" and REMINDER in s.text]
    assert reminder.nonce and await storage.pending_notices("discord", str(CHANNEL_ID)) == []

    await api.slash(ALICE, "notices", group="makruk-server", state="on", permissions=MANAGER)
    assert (await storage.get_channel_settings("discord", str(CHANNEL_ID))).push_notices is True


async def test_the_thread_map_keeps_the_most_recent_games_only(bot):
    threads = GameThreads(bot, limit=3)
    made = {game: game_thread(bot, game) for game in range(1, 6)}
    for game, thread in made.items():
        threads.remember(game, thread)
    assert len(threads) == 3
    assert threads.parent_of(made[1].id) is None and threads.parent_of(made[5].id) == CHANNEL_ID
    for game in range(10, 20):
        threads.forget(game)  # games whose thread is gone
    assert len(threads) == 6  # three threads, three known absences
    threads.retire(5)
    assert len(threads) == 5 and threads.parent_of(made[5].id) is None


async def test_a_finished_games_thread_is_forgotten(bot, discord_api):
    api = discord_api
    await start_game(api)
    assert len(bot.door.threads) == 1
    await api.click(ALICE, api.boards()[-1], "makruk:btn:resign")
    assert len(bot.door.threads) == 0


def game_thread(bot: discord.Client, game: int) -> discord.Thread:
    state = bot._connection
    guild = state._get_or_create_unavailable_guild(GUILD_ID)
    data = thread_channel(600000000000000000 + game, CHANNEL_ID, f"Makruk #{game} alice vs bob")
    return discord.Thread(guild=guild, state=state, data=cast("thread_types.Thread", data))


async def test_a_move_whose_process_died_before_its_answer_is_answered_by_the_outbox(
        bot, discord_api, storage, clock, monkeypatch):
    api = discord_api
    thread = await start_game(api)
    api.clear()

    async def died(*args, **kwargs) -> None:  # the process died after the commit, before showing
        pass

    with monkeypatch.context() as patch:
        patch.setattr(bot.door, "deliver", died)
        await api.say(ALICE, f"{MENTION} e3e4", channel=thread, mentions=(MAKRUK,))
    assert api.messages_sent() == []
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game is not None and [m.uci for m in game.moves] == ["e3e4"]
    assert await bot.outbox.drain() == 0  # not yet: a door that is alive shows its answer itself
    clock.advance(seconds=ANSWER_GRACE.total_seconds())
    assert await bot.outbox.drain() == 1
    [answer] = api.messages_sent()
    assert "alice played e4" in answer.text and answer.channel == int(thread["id"]) and answer.nonce
    assert await bot.outbox.drain() == 0 and len(api.messages_sent()) == 1
