"""The LINE door's server carries the web board too: a game played in LINE, seen on its page."""

from __future__ import annotations

from .support import ALICE


async def test_the_line_server_serves_the_board_of_a_line_game(line):
    await line.say(ALICE, "เริ่ม บอท")
    game = await line.app.games.channel_game("line", f"user:{ALICE}")
    assert game is not None
    async with line.http.get(f"{line.base_url}/g/{game.id}") as page:
        assert page.status == 200 and '<html lang="th">' in await page.text()
    async with line.http.get(f"{line.base_url}/g/{game.id}/state") as response:
        state = await response.json()
    assert state["game"] == game.id and state["viewer"]["side"] is None and state["coords"]["files"][0] == "ก"
    async with line.http.get(f"{line.base_url}/g/{game.id + 100}") as missing:
        assert missing.status == 404
