"""``export ID trf`` on Discord: the event as a ``.trf`` file attached whole (a 64-player event of
nine rounds is far beyond an embed's 4,096 characters), shown in the embed too when it is short."""

from __future__ import annotations

from bot.app import open_tournaments
from tests.bot.tournament_support import stored_event

from .payloads import ALICE, BOT_ID, CHANNEL_ID, GUILD_ID, MAKRUK

MENTION = f"<@{BOT_ID}>"


async def test_a_big_events_trf_is_attached_whole(bot, discord_api, service, storage):
    tournaments = open_tournaments(service)
    number = await stored_event(storage, "discord", str(CHANNEL_ID), community=str(GUILD_ID))
    whole = await tournaments.trf(number)
    assert whole is not None and len(whole) > 10_000
    await discord_api.say(ALICE, f"{MENTION} export {number} trf", mentions=(MAKRUK,))
    [posted] = [s for s in discord_api.sent if s.files]
    assert posted.files == [(f"tournament-{number}.trf", whole.encode("utf-8"))]
    assert posted.text == f"The tournament is attached as a FIDE TRF file: tournament-{number}.trf."


async def test_a_small_events_trf_is_attached_and_shown(bot, discord_api, service, storage):
    tournaments = open_tournaments(service)
    number = await stored_event(storage, "discord", str(CHANNEL_ID), community=str(GUILD_ID), players=4, rounds=2)
    whole = await tournaments.trf(number)
    assert whole is not None
    await discord_api.say(ALICE, f"{MENTION} export {number} trf", mentions=(MAKRUK,))
    [posted] = [s for s in discord_api.sent if s.files]
    assert posted.files == [(f"tournament-{number}.trf", whole.encode("utf-8"))]
    assert posted.text == f"```\n{whole}\n```"
