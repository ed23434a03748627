"""Glicko-2 against Glickman's worked example, and the puzzle trainer's parameters."""

from __future__ import annotations

import pytest

from bot.glicko2 import (
    PUZZLE_MAX_CHANGE,
    Glicko,
    expected_score,
    puzzle_start,
    rate_attempt,
    update,
)

# "Example of the Glicko-2 system" (Glickman, 2013): a 1500/200/0.06 player beats a 1400/30,
# loses to a 1550/100 and to a 1700/300, with tau 0.5.
EXAMPLE_PLAYER = Glicko(1500, 200, 0.06)
EXAMPLE_GAMES = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]


def test_glickmans_worked_example() -> None:
    after = update(EXAMPLE_PLAYER, EXAMPLE_GAMES, tau=0.5)
    # The paper rounds its intermediate steps: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(EXAMPLE_PLAYER, [], tau=0.5)
    assert after.rating == 1500
    assert after.deviation == pytest.approx(200.27, abs=0.01)  # sqrt(phi^2 + sigma^2), on the Glicko scale


def test_a_solve_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Glicko(), puzzle_start(1500)
    assert puzzle == Glicko(1500, 250, 0.06)
    solved_player, solved_puzzle = rate_attempt(player, puzzle, solved=True)
    failed_player, failed_puzzle = rate_attempt(player, puzzle, solved=False)
    assert solved_player.rating > 1500 > failed_player.rating
    assert solved_puzzle.rating < 1500 < failed_puzzle.rating
    # Symmetric around an even match; the new player's rating moves more than the puzzle's.
    assert solved_player.rating - 1500 == pytest.approx(1500 - failed_player.rating)
    assert solved_player.rating - 1500 > 1500 - solved_puzzle.rating
    assert solved_player.deviation < 350


def test_a_puzzle_moves_at_most_200_points() -> None:
    # A near-certain player failing a puzzle rated far below them would move it further.
    player = Glicko(2800, 350, 0.06)
    puzzle = Glicko(600, 350, 0.06)
    _, after = rate_attempt(player, puzzle, solved=False)
    assert after.rating == 600 + PUZZLE_MAX_CHANGE


def test_the_expected_score_follows_the_rating_gap() -> None:
    assert expected_score(Glicko(1500), Glicko(1500)) == pytest.approx(0.5)
    assert expected_score(Glicko(1900, 60), Glicko(1500, 60)) > 0.85
