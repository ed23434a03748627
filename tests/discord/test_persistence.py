"""Components keep working after a restart: stable custom_ids, dynamic items registered at start-up."""

from __future__ import annotations

import discord

from bot.adapters.discord.views import BUTTON_STYLES, DYNAMIC_ITEMS
from makruk import SQUARE_NAMES

from .conftest import offline_bot
from .fakes import FakeDiscord
from .payloads import ALICE, BOB, CHANNEL_ID
from .test_play import start_game


def registered_patterns(bot: discord.Client) -> list:
    return list(bot._connection._view_store._dynamic_items)


async def play_a_session(api: FakeDiscord) -> set[str]:
    """A challenge, a game, a pick, a move, a draw offer and a resignation; every custom_id sent."""
    await start_game(api)
    board = api.boards()[-1]
    await api.click(ALICE, board, "makruk:pick:piece", values=["b1"])
    picker = api.sent[-1]
    await api.click(ALICE, picker, "makruk:dest:b1", values=["b1d2"])
    await api.click(BOB, api.boards()[-1], "makruk:btn:draw")
    await api.click(BOB, api.boards()[-1], "makruk:btn:flip")
    await api.click(ALICE, api.boards()[-1], "makruk:btn:resign")
    return {custom_id for sent in api.sent for custom_id in sent.custom_ids}


async def test_a_fresh_bot_dispatches_every_custom_id_the_adapter_sends(bot, discord_api, service, settings):
    sent_ids = await play_a_session(discord_api)
    assert {"makruk:btn:accept", "makruk:pick:piece", "makruk:dest:b1", "makruk:btn:resign"} <= sent_ids
    assert not any(i.startswith("makruk:web:") for i in sent_ids)  # no web board without PUBLIC_BASE_URL
    every_id = sent_ids | {f"makruk:btn:{c}" for c in BUTTON_STYLES} | {f"makruk:dest:{s}" for s in SQUARE_NAMES}
    every_id |= {"makruk:web:1", "makruk:web:123456789"}
    async with offline_bot(service, settings) as fresh:
        patterns = registered_patterns(fresh)
        assert {p.pattern for p in patterns} == {item.__discord_ui_compiled_template__.pattern
                                                for item in DYNAMIC_ITEMS}
        for custom_id in every_id:
            assert sum(bool(p.fullmatch(custom_id)) for p in patterns) == 1, custom_id
        assert not any(p.fullmatch("makruk:btn:frobnicate") for p in patterns)


async def test_sent_views_leave_no_per_message_state_that_could_expire(bot, discord_api):
    before = registered_patterns(bot)
    await play_a_session(discord_api)  # ephemeral pickers included: discord.py times those out after 15 min
    store = bot._connection._view_store
    assert store._views == {} and store._synced_message_views == {} and bot.persistent_views == []
    assert registered_patterns(bot) == before


async def test_buttons_and_selects_of_old_messages_work_after_a_restart(bot, discord_api, service, settings,
                                                                       storage):
    await start_game(discord_api)
    board = discord_api.boards()[-1]
    await discord_api.click(ALICE, board, "makruk:pick:piece", values=["g1"])
    picker = discord_api.sent[-1]
    await bot.close()

    async with offline_bot(service, settings) as restarted:
        api = FakeDiscord(restarted)
        api.install()
        api.channels.update(discord_api.channels)
        await api.click(ALICE, picker, "makruk:dest:g1", values=["g1e2"])
        assert "alice played Ne2" in api.boards()[-1].text
        await api.click(BOB, board, "makruk:btn:resign")
        over = api.boards()[-1]
        assert "alice (White) wins" in over.text and over.channel == board.channel
    game = await storage.last_game("discord", str(CHANNEL_ID))
    assert game.result == "1-0" and [m.uci for m in game.moves] == ["g1e2"]
