"""A change's answer made from what the change returns (`answer=`), stored in the change's own
transaction on both databases: both are there, or neither."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, time

import pytest

from storage import Game, NewNotice, Player, PuzzleAttempt, Storage, StorageError
from storage.records import Puzzle

from .storage_helpers import challenge

PUZZLE = Puzzle("p1", "7k/8/4p2K/8/8/4P3/8/R7 w - - 0 1", ("a1a8",), 700, ("mate",), "test")


def answer_naming(game: Game) -> Sequence[NewNotice]:
    return [NewNotice(game.platform, game.channel, f"made-{game.id}", "answer", f'{{"game": {game.id}}}')]


def broken(result: object) -> Sequence[NewNotice]:
    raise RuntimeError("the answer could not be made")


async def test_a_new_games_answer_shows_its_id_and_is_stored_with_it(storage: Storage, alice: Player) -> None:
    game = await storage.create_game(challenge(alice), answer=answer_naming)
    (row,) = await storage.notices_with_keys([f"made-{game.id}"])
    assert row.payload == f'{{"game": {game.id}}}' and row.channel == game.channel


async def test_a_new_game_whose_answer_fails_is_not_stored(storage: Storage, alice: Player) -> None:
    with pytest.raises(RuntimeError):
        await storage.create_game(challenge(alice), answer=broken)
    assert await storage.active_game("discord", "chan-1") is None
    await storage.create_game(challenge(alice))  # the chat is free


async def test_a_solve_its_progress_and_its_answer_are_one_transaction(storage: Storage, alice: Player) -> None:
    await storage.upsert_puzzles([PUZZLE])
    sub = await storage.subscribe("discord", "chan-1", time(8, 0), "UTC")
    post = await storage.record_post(sub.id, date(2026, 11, 30), PUZZLE.id)
    assert post is not None

    def solved(attempt: PuzzleAttempt) -> Sequence[NewNotice]:
        return [NewNotice("discord", "chan-1", "solved", "answer", f'{{"tries": {attempt.tries}}}')]

    with pytest.raises((RuntimeError, StorageError)):
        await storage.record_attempt(post.id, alice.id, True, progress=1, answer=broken)
    assert await storage.get_attempt(post.id, alice.id) is None
    assert await storage.get_progress(post.id, alice.id) is None
    assert (await storage.get_streak("discord", "chan-1", alice.id)).current == 0

    attempt = await storage.record_attempt(post.id, alice.id, True, progress=1, answer=solved)
    assert attempt.solved and attempt.tries == 1
    progress = await storage.get_progress(post.id, alice.id)
    assert progress is not None and progress.ply == 1
    assert [row.payload for row in await storage.notices_with_keys(["solved"])] == ['{"tries": 1}']
    assert (await storage.get_streak("discord", "chan-1", alice.id)).current == 1
