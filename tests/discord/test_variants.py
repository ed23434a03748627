"""The family through the Discord door: ``/makruk new variant:...``, tap-to-move of Sittuyin's
drops, the setup button and ``/makruk setup``."""

from __future__ import annotations

from .fakes import FakeDiscord
from .payloads import ALICE, BOB, CHANNEL_ID


async def start(api: FakeDiscord, variant: str) -> None:
    await api.slash(ALICE, "new", opponent=BOB, variant=variant)
    await api.click(BOB, api.sent[-1], "makruk:btn:accept")


async def test_new_with_a_variant_starts_it(bot, discord_api, storage):
    await start(discord_api, "cambodian")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert game.variant == "cambodian" and game.start_fen.split()[2] == "DEde"
    [board] = discord_api.boards()
    assert "Ouk Chatrang" in board.text


async def test_sittuyin_drops_by_tap_to_move_and_the_setup_button(bot, discord_api, storage):
    api = discord_api
    await start(api, "sittuyin")
    [board] = api.boards()
    squares = {o["value"] for o in board.component("makruk:pick:piece")["options"]}
    assert "a1" in squares and "e4" not in squares  # the empty squares of White's camp
    api.clear()
    await api.click(ALICE, board, "makruk:pick:piece", values=["a1"])
    picker = api.sent[-1]
    options = {o["value"] for o in picker.component("makruk:dest:a1")["options"]}
    assert options == {"K@a1", "F@a1", "R@a1", "S@a1", "N@a1"}
    api.clear()
    await api.click(ALICE, picker, "makruk:dest:a1", values=["R@a1"])
    played = next(iter(api.boards()))
    assert "alice played R@a1" in played.text and "makruk:btn:setup" in played.custom_ids
    api.clear()
    await api.click(BOB, played, "makruk:btn:setup")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert [m.uci[:2] for m in game.moves] == ["R@", "K@"]  # bob's first piece was placed at once
    await api.slash(ALICE, "setup")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    assert len(game.moves) == 16 and not any("@" not in m.uci for m in game.moves)
