"""The game service sets ``Reply.game`` on the replies about a game, whatever the door shows of
it (the console's ``--json`` prints just what a reply carries): the refusal of a command that
plays the game carries the game it was refused in, and answers without a board (history,
export, a declined offer) the game they are about; answers about no game carry none."""

from __future__ import annotations

from .support import Chat


async def test_a_refused_move_carries_the_game_it_was_refused_in(chat: Chat) -> None:
    await chat.ok("alice", "new @bob", "bob")
    game = (await chat.ok("bob", "accept"))[-1].game
    assert game is not None and game.ply == 0
    black = game.black
    refused = await chat.refused(black, "e6e5", "not_your_turn")  # White is to move
    assert refused.game is not None and refused.game.as_dict() == game.as_dict()


async def test_answers_without_a_board_carry_their_game_and_others_none(chat: Chat) -> None:
    await chat.ok("alice", "new @bob", "bob")
    game = (await chat.ok("bob", "accept"))[-1].game
    assert game is not None
    moved = (await chat.ok(game.white, "e3e4"))[-1].game
    assert moved is not None and moved.ply == 1
    for command in ("history", "export"):
        (reply,) = await chat.ok("alice", command)
        assert reply.game is not None and reply.game.as_dict() == moved.as_dict(), command
    assert [r.game for r in await chat.ok("alice", "help")] == [None]
    assert [r.game for r in await chat.ok("cy", "rating")] == [None]
    assert (await chat.refused("cy", "resign", "not_playing")).game is not None  # about the chat's game
    await chat.ok(game.white, "resign")
    (over,) = await chat.ok("cy", "history")  # the chat's last game, over
    assert over.game is not None and (over.game.id, over.game.result) == (game.id, "0-1")
    assert (await Chat(chat.service, channel="c2").refused("cy", "resign", "no_game")).game is None


async def test_a_declined_offer_and_a_pgn_carry_the_game(chat: Chat) -> None:
    await chat.ok("alice", "new @bob", "bob")
    game = (await chat.ok("bob", "accept"))[-1].game
    assert game is not None
    await chat.ok(game.white, "draw")
    (declined,) = await chat.ok(game.black, "decline")
    assert declined.game is not None and declined.game.id == game.id and declined.game.status == "active"
    await chat.ok(game.white, "resign")
    (pgn,) = await chat.ok("cy", f"export #{game.id}")
    assert pgn.game is not None and (pgn.game.id, pgn.game.reason) == (game.id, "resignation")
