"""Reminders and losses on time, sent through the outbox to the game's thread."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.discord.client import MakrukBot
from bot.messages import Incoming, Notice, Reply, User
from bot.services.outbox import DeliveryError

from .conftest import offline_bot
from .fakes import FakeDiscord, log_in
from .payloads import ALICE, BOB, CHANNEL_ID
from .test_play import start_game


async def deliver_due(bot, service) -> int:
    """One tick of the bot's scheduler: the games' clock, then the outbox."""
    await service.tick("discord")
    return await bot.outbox.drain()


async def test_a_reminder_mentions_the_player_in_the_game_thread(bot, discord_api, service, clock):
    api = discord_api
    thread = await start_game(api)
    api.clear()
    clock.advance(hours=20)
    await deliver_due(bot, service)
    assert api.kinds() == ["fetch_channel", "message"]  # the channel by id; the thread it remembers
    reminder = api.sent[-1]
    assert reminder.channel == int(thread["id"])
    assert reminder.json["content"] == f"<@{ALICE.id}>"
    assert reminder.json["allowed_mentions"]["users"] == [ALICE.id]
    assert "alice, it is your move" in reminder.text


async def test_a_loss_on_time_is_announced_in_the_thread_after_a_restart(bot, discord_api, service, settings,
                                                                        clock):
    thread = await start_game(discord_api)
    await bot.close()
    async with offline_bot(service, settings) as restarted:  # it has never seen the thread
        api = FakeDiscord(restarted)
        api.install()
        api.archived[CHANNEL_ID] = [thread]
        clock.advance(days=2)
        await deliver_due(restarted, service)
        assert api.kinds() == ["fetch_channel", "archived_threads", "message"]
        [result] = api.boards()
        assert result.channel == int(thread["id"]) and "bob (Black) wins" in result.text
        assert "On time" in result.text and result.custom_ids == []


async def test_an_expired_challenge_is_announced_in_its_channel(bot, discord_api, service, clock):
    api = discord_api
    await api.slash(ALICE, "new", opponent=BOB)
    api.clear()
    clock.advance(minutes=20)
    await deliver_due(bot, service)
    [expired] = api.sent[-1:]
    assert expired.channel == CHANNEL_ID and "expired" in expired.text


async def test_notices_of_other_platforms_are_not_for_this_bot(bot, discord_api):
    with pytest.raises(DeliveryError) as refused:
        await bot.door.send(Notice("line", "C123", Reply(kind="info", text="hello", language="en"), key="k1"))
    assert refused.value.permanent and discord_api.sent == []


async def test_setup_hook_starts_the_scheduler_and_close_stops_it(service, settings, clock):
    alice, bob = User(str(ALICE.id), ALICE.name), User(str(BOB.id), BOB.name)
    await service.handle(Incoming("discord", str(CHANNEL_ID), alice, "new @bob", mentions=(bob,)))
    clock.advance(minutes=20)
    async with MakrukBot(service, settings, scheduler_seconds=0.01) as bot:
        log_in(bot)
        api = FakeDiscord(bot)
        api.install()
        await bot.setup_hook()
        for _ in range(200):
            if "message" in api.kinds():
                break
            await asyncio.sleep(0.01)
        await bot.close()
        assert bot.scheduler is not None and not bot.scheduler.running
    assert "expired" in api.sent[-1].text and api.sent[-1].channel == CHANNEL_ID
