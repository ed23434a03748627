"""When Discord or the bot fails: nobody is left with "This interaction failed"."""

from __future__ import annotations

import logging

from .payloads import ALICE, CHANNEL_ID
from .test_play import start_game


async def test_a_deleted_game_thread_sends_the_board_back_to_the_channel(bot, discord_api, caplog):
    api = discord_api
    thread = await start_game(api)
    api.gone.add(int(thread["id"]))
    api.clear()
    await api.slash(ALICE, "move", move="e3e4")  # in the parent channel
    assert "refused" in api.kinds()
    [board] = api.boards()
    assert board.channel == CHANNEL_ID and "alice played e4" in board.text
    assert any("could not post in thread" in r.getMessage() for r in caplog.records)


async def test_a_failing_button_tells_the_user(bot, discord_api, service, monkeypatch, caplog):
    api = discord_api
    await start_game(api)
    [board] = api.boards()

    async def broken(msg):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "handle", broken)
    api.clear()
    await api.click(ALICE, board, "makruk:btn:resign")
    assert api.kinds() == ["defer", "followup"] and api.sent[-1].ephemeral
    assert "Something went wrong" in api.sent[-1].text
    assert any(r.levelno == logging.ERROR for r in caplog.records)
    caplog.clear()


async def test_a_failing_command_tells_the_user(bot, discord_api, service, monkeypatch, caplog):
    async def broken(msg):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "handle", broken)
    await discord_api.slash(ALICE, "board", locale="th")
    [answer] = discord_api.sent
    assert answer.kind == "respond" and answer.ephemeral and "ข้อผิดพลาด" in answer.text
    caplog.clear()
