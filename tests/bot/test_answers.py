"""What an answer carries for the doors: a drawing only for the doors that want PNGs, the
person to move, and the legal moves worked out once per position."""

from __future__ import annotations

import subprocess
import sys

from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService

from .support import Chat

PNG = b"\x89PNG drawn"


def service_drawing(storage, clock) -> GameService:
    return GameService(storage, Settings(), clock=clock, engine=RandomMover(seed=1), render=lambda view: PNG)


async def test_a_door_that_draws_from_the_view_gets_no_png(storage, clock) -> None:
    service = service_drawing(storage, clock)
    chat = Chat(service)
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    drawn = await service.handle(Incoming("console", "c1", User("alice", "alice"), "board"))
    undrawn = await service.handle(Incoming("console", "c1", User("alice", "alice"), "board", pictures=False))
    assert drawn[0].image == PNG and drawn[0].board is not None
    assert undrawn[0].image is None and undrawn[0].board == drawn[0].board  # LINE draws it from the view


async def test_a_game_reply_names_the_person_to_move(storage, clock) -> None:
    chat = Chat(service_drawing(storage, clock))
    await chat.ok("alice", "new @bob", "bob")
    (started,) = await chat.ok("bob", "accept")
    assert started.game is not None and started.game.to_move == "alice"
    (moved,) = await chat.ok("alice", "e3e4")
    assert moved.game is not None and moved.game.to_move == "bob"
    (resigned,) = await chat.ok("bob", "resign")
    assert resigned.game is not None and resigned.game.to_move is None  # finished: nobody


async def test_against_the_bot_the_person_is_to_move_after_its_answer(storage, clock) -> None:
    replies = await Chat(service_drawing(storage, clock)).ok("alice", "new bot 1 black")
    assert replies[-1].game is not None and replies[-1].game.to_move == "alice"


async def test_legal_moves_are_worked_out_once_per_position(storage, clock, monkeypatch) -> None:
    service = service_drawing(storage, clock)
    chat = Chat(service)
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    from makruk import Board

    notated: list[object] = []
    real_san = Board.san

    def counted_san(board: Board, move) -> str:
        notated.append(move)
        return real_san(board, move)

    monkeypatch.setattr(Board, "san", counted_san)
    alice = User("alice", "alice")
    first = await service.move_choices("console", "c1", alice)
    assert first and len(notated) == len(first)
    assert await service.turn_choices("console", "c1") == first
    assert await service.move_choices("console", "c1", alice) == first
    assert len(notated) == len(first)  # asked three times, notated once
    assert await service.move_choices("console", "c1", User("bob", "bob")) == []  # not bob's turn
    assert await service.move_choices("console", "c1", alice, fen="8/8/8/8/8/8/8/8 w - - 0 1") == []
    await chat.ok("alice", "e3e4")
    before = len(notated)
    after = await service.turn_choices("console", "c1")
    assert after and after != first and len(notated) == before + len(after)  # a new position: worked out
    assert await service.move_choices("console", "c1", User("bob", "bob")) == after
    assert len(notated) == before + len(after)


def test_the_bot_keeps_what_start_up_made_out_of_the_collectors_way() -> None:
    # In a process of its own: freezing changes the collector of the process that does it.
    script = ("import gc; from bot.app import settle_memory, GC_YOUNG_THRESHOLD; settle_memory(); "
              "assert gc.get_freeze_count() > 10_000, gc.get_freeze_count(); "
              "assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
