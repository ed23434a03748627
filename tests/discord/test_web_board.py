"""The Board button under a Discord game: each presser gets, privately, a link to the game's web
board signed for them alone (HMAC with WEB_SECRET); without a web board set up there is none."""

from __future__ import annotations

import re

import pytest

from bot.config import Settings
from bot.web.tokens import BadToken, read_token

from .payloads import ALICE, BOB, CAROL, CHANNEL_ID

SECRET = "a-test-secret-that-is-long-enough"
LINK = re.compile(r"https://bot\.example/g/(?P<game>\d+)#t=(?P<token>[\w.-]+)")


@pytest.fixture
def settings() -> Settings:
    return Settings(language="en", public_base_url="https://bot.example", web_secret=SECRET)


async def test_each_presser_gets_a_private_link_of_their_own(bot, discord_api, storage, clock):
    api = discord_api
    await api.slash(ALICE, "new", opponent=BOB)
    assert not any(i.startswith("makruk:web:") for i in api.sent[-1].custom_ids)  # a challenge has no board yet
    await api.click(BOB, api.sent[-1], "makruk:btn:accept")
    game = await storage.active_game("discord", str(CHANNEL_ID))
    board = api.boards()[-1]
    assert f"makruk:web:{game.id}" in board.custom_ids
    tokens = {}
    for person in (ALICE, BOB, CAROL):
        api.clear()
        await api.click(person, board, f"makruk:web:{game.id}")
        (answer,) = [s for s in api.sent if LINK.search(s.text)]
        assert answer.ephemeral, "a signed link is for the presser's eyes only"
        link = LINK.search(answer.text)
        assert link is not None
        assert int(link["game"]) == game.id
        bearer = read_token(SECRET, link["token"], game.id, clock.now())
        assert (bearer.platform, bearer.user_id) == ("discord", str(person.id))
        tokens[person.id] = link["token"]
    assert len(set(tokens.values())) == 3
    with pytest.raises(BadToken):
        read_token(SECRET, tokens[ALICE.id], game.id + 1, clock.now())  # not for another game
    assert await storage.active_game("discord", str(CHANNEL_ID)) == game  # pressing changed nothing


async def test_the_board_of_a_finished_game_opens_its_replay(bot, discord_api, storage):
    api = discord_api
    await api.slash(ALICE, "new", opponent=BOB)
    await api.click(BOB, api.sent[-1], "makruk:btn:accept")
    await api.slash(BOB, "resign")
    over = next(s for s in reversed(api.sent) if any(i.startswith("makruk:web:") for i in s.custom_ids))
    api.clear()
    await api.click(CAROL, over, next(i for i in over.custom_ids if i.startswith("makruk:web:")))
    assert any(LINK.search(s.text) and s.ephemeral for s in api.sent)
