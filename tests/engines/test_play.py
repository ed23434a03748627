"""Whole games: the bot against itself ends legally; the built-in top level beats a random mover."""

from __future__ import annotations

import pytest

from bot.engines import BuiltinEngine
from bot.engines.builtin import wants_count
from makruk import WHITE

from .conftest import TEST_TIME_SCALE
from .support import play_out, random_mover


async def declares(position) -> bool:
    return wants_count(position.board())


async def test_bot_against_bot_reaches_a_legal_end(engine, light_level_5):
    async def builtin_side(position):
        return await engine.best_move(position, level=2)

    async def fairy_side(position):
        return await engine.best_move(position, level=5)

    async def every_count(position) -> bool:
        return True  # both sides declare whatever count they may: Bia-free endings must end

    board, position = await play_out({True: builtin_side, False: fairy_side}, max_plies=400,
                                     declares=every_count)
    outcome = board.outcome()
    assert outcome is not None or (board.can_declare_count() is None and board.count is None), board.fen()
    assert position.board().fen() == board.fen()  # the stored moves and counts replay to the end


@pytest.mark.parametrize("colour", [WHITE, False])
async def test_builtin_top_level_beats_a_random_mover(colour, builtin):
    async def bot(position):
        return await builtin.best_move(position, level=4)

    players = {colour: bot, not colour: random_mover(seed=11 + colour)}
    board, _ = await play_out(players, max_plies=200, declares=declares)
    outcome = board.outcome()
    assert outcome is not None, f"no result in 200 plies: {board.fen()}"
    assert outcome.winner == colour, (outcome, board.fen())


def test_the_test_engine_is_the_top_level_with_less_time(builtin):
    assert isinstance(builtin, BuiltinEngine) and builtin.time_scale == TEST_TIME_SCALE
