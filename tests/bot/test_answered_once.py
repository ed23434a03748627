"""A new challenge or game is stored with its answer, which shows the id it was given (issue 27):
a message handled again after its process died finds both and makes no second game."""

from __future__ import annotations

from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService
from bot.services.outbox import event_keys

from .support import no_image


def service(storage, clock) -> GameService:
    return GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1), render=no_image)


def message(text: str, event: str, *, retried: bool = False) -> Incoming:
    return Incoming("discord", "c1", User("1", "alice"), text, event=event, retried=retried)


async def test_a_challenge_is_stored_with_its_answer_and_made_once(storage, clock) -> None:
    games = service(storage, clock)
    shown = await games.handle(message("new", "m-1"))
    game = await storage.active_game("discord", "c1")
    assert game is not None and [r.kind for r in shown] == ["challenge"]
    assert shown[0].game is not None and shown[0].game.id == game.id
    (row,) = await storage.notices_with_keys(event_keys("discord", "m-1"))
    assert row.kind == "answer" and f'"id":{game.id}' in row.payload  # the answer names the game it made

    again = await games.handle(message("new", "m-1", retried=True))
    assert [r.text for r in again] == [r.text for r in shown]  # its answer, not "a game is on already"
    assert (await storage.active_game("discord", "c1")).id == game.id


async def test_a_game_against_the_bot_is_stored_with_its_answer(storage, clock) -> None:
    games = service(storage, clock)
    shown = await games.handle(message("new bot white", "m-2"))
    game = await storage.active_game("discord", "c1")
    assert game is not None and shown[0].game is not None and shown[0].game.id == game.id
    rows = await storage.notices_with_keys(event_keys("discord", "m-2"))
    assert rows and rows[0].kind == "answer" and f'"id":{game.id}' in rows[0].payload
    again = await games.handle(message("new bot white", "m-2", retried=True))
    assert again and again[0].text == shown[0].text
    assert (await storage.active_game("discord", "c1")).id == game.id
