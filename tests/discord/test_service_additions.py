"""``GameService.turn_choices``, added for the piece select shown to everyone under a board."""

from __future__ import annotations

from datetime import timedelta

from bot.messages import Incoming, User
from makruk import Board
from storage.records import NewGame, Seat

ALICE, BOB = User("a", "alice"), User("b", "bob")


async def say(service, user, text, *mentions):
    return await service.handle(Incoming("discord", "c", user, text, mentions=mentions))


async def test_turn_choices_are_the_moves_of_whoever_is_to_move(service):
    assert await service.turn_choices("discord", "c") == []
    await say(service, ALICE, "new @bob", BOB)
    assert await service.turn_choices("discord", "c") == []  # a challenge: nobody moves yet
    await say(service, BOB, "accept")
    assert await service.turn_choices("discord", "c") == await service.move_choices("discord", "c", ALICE)
    await say(service, ALICE, "e3e4")
    black = await service.turn_choices("discord", "c")
    assert black == await service.move_choices("discord", "c", BOB) and black
    assert await service.move_choices("discord", "c", ALICE) == []


async def test_no_choices_while_the_engine_is_to_move_or_after_the_game(service, storage, clock):
    person = await storage.get_or_create_player("discord", "a", "alice")
    await storage.create_game(NewGame(
        platform="discord", channel="e", community="g", white=Seat.engine(1), black=Seat.human(person.id),
        start_fen=Board.starting_fen, promotion="forced", perpetual="forbid", move_seconds=3600, rated=False,
        created_by=person.id, status="active", deadline=clock.now() + timedelta(hours=1)))
    assert await service.turn_choices("discord", "e") == []

    await say(service, ALICE, "new bot")
    assert await service.turn_choices("discord", "c") == await service.move_choices("discord", "c", ALICE)
    await say(service, ALICE, "resign")
    assert await service.turn_choices("discord", "c") == []
