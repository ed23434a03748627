"""The state JSON's pieces that need no server: clocks, hands, coordinates, legal moves."""

from __future__ import annotations

import pytest

from bot.services.games.queries import MoveChoice
from bot.web import state
from bot.web.tokens import Bearer

from .conftest import Site


async def test_clocks_are_shown_whenever_the_game_has_them(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await site.new_game()
    assert (await (await site.client.get(f"/g/{game_id}/state")).json())["clocks"] is None  # correspondence
    monkeypatch.setattr(state, "clocks_of", lambda game, now: (180_000, 175_500, "w"))
    shown = await (await site.client.get(f"/g/{game_id}/state")).json()
    assert shown["clocks"] == {"white": 180_000, "black": 175_500, "running": "w"}


def test_a_drop_has_no_from_square_but_its_piece() -> None:
    drop = MoveChoice("R@a1", "R@a1", "R@a1", 0, 0, "rua")
    move = MoveChoice("e3e4", "e4", "จ4", 20, 28, "bia")
    assert state.legal_move(drop) == {"uci": "R@a1", "from": None, "to": "a1", "drop": "R", "san": "R@a1"}
    assert state.legal_move(move)["from"] == "e3" and state.legal_move(move)["to"] == "e4"


def test_coordinates_in_the_chats_script() -> None:
    assert state.coordinates("thai")["files"] == list("กขคงจฉชญ")
    assert state.coordinates("latin")["ranks"] == list("12345678")


async def test_a_player_of_another_platform_is_a_watcher(site: Site) -> None:
    game_id = await site.new_game()
    record = await site.games.game_record(game_id)
    assert record is not None
    assert state.side_of(record, Bearer("console", "ann")) == "w"
    assert state.side_of(record, Bearer("discord", "ann")) is None and state.side_of(record, None) is None


async def test_a_challenge_and_a_withdrawn_one_say_so(site: Site) -> None:
    await site.chat.ok("ann", "new @bob", "bob")
    game = await site.games.channel_game("console", "c1")
    assert game is not None and game.status == "challenge"
    waiting = await (await site.client.get(f"/g/{game.id}/state")).json()
    assert waiting["statusText"] == "Waiting for the challenge to be accepted." and waiting["legal"] == []
