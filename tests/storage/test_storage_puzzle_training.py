"""The puzzle trainer's storage: serving near a rating, rated first tries, reports, runs and
their leaderboards, on SQLite and on PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from storage import (
    Glicko2Rating,
    NotFound,
    Player,
    Puzzle,
    PuzzleAlreadyPosted,
    Storage,
    VersionConflict,
)

from .storage_helpers import FakeClock

FEN = "8/8/8/8/8/8/8/8 w 0 1"
PUZZLES = [
    Puzzle("easy", FEN, ("e3e4",), 800, ("mate", "mateIn1")),
    Puzzle("mid", FEN, ("e3e4",), 1450, ("fork", "material")),
    Puzzle("hard", FEN, ("e3e4",), 1900, ("mate", "mateIn3")),
    Puzzle("pong", FEN, ("e3e4",), 1500, ("fork",), variant="makpong"),
]


def rate(player: Glicko2Rating | None, puzzle: Glicko2Rating | None, estimate: int | None,
         solved: bool) -> tuple[Glicko2Rating, Glicko2Rating, Glicko2Rating]:
    """A stand-in for Glicko-2: +-100 to the player, -+50 to the puzzle."""
    before = player or Glicko2Rating(1500, 350, 0.06)
    puzzle = puzzle or Glicko2Rating(float(estimate or 1500), 250, 0.06)
    sign = 1 if solved else -1
    return (before, Glicko2Rating(before.rating + 100 * sign, 300, 0.06),
            Glicko2Rating(puzzle.rating - 50 * sign, 240, 0.06))


@pytest.fixture
async def bank(storage: Storage) -> None:
    await storage.upsert_puzzles(PUZZLES)


async def test_candidates_are_nearest_the_rating_and_filtered(storage: Storage, bank: None, alice: Player) -> None:
    found = await storage.puzzle_candidates(alice.id, "line", "user:a", 1500)
    assert [c.puzzle.id for c in found] == ["pong", "mid", "hard", "easy"]
    assert found[0].puzzle.variant == "makpong" and found[0].rating == 1500
    makruk = await storage.puzzle_candidates(alice.id, "line", "user:a", 1500, variant="makruk", limit=2)
    assert [c.puzzle.id for c in makruk] == ["mid", "hard"]
    forks = await storage.puzzle_candidates(alice.id, "line", "user:a", 900, theme="fork")
    assert [c.puzzle.id for c in forks] == ["mid", "pong"]
    assert await storage.puzzle_candidates(alice.id, "line", "user:a", 900, theme="for") == []


async def test_a_served_puzzle_is_not_served_again(storage: Storage, bank: None, alice: Player, bob: Player) -> None:
    post = await storage.serve_puzzle("line", "user:a", alice.id, "mid", rated=True)
    assert post.puzzle_id == "mid" and post.subscription_id is None
    assert (await storage.latest_post("line", "user:a")) == post
    play = await storage.get_play(alice.id, "mid")
    assert play is not None and play.rated and play.result is None
    unseen = await storage.puzzle_candidates(alice.id, "line", "user:b", 1450, variant="makruk")
    assert "mid" not in [c.puzzle.id for c in unseen]
    # Bob has not seen it, but this chat has.
    in_chat = await storage.puzzle_candidates(bob.id, "line", "user:a", 1450, variant="makruk")
    assert "mid" not in [c.puzzle.id for c in in_chat]
    assert "mid" in [c.puzzle.id for c in await storage.puzzle_candidates(bob.id, "line", "c2", 1450)]
    with pytest.raises(PuzzleAlreadyPosted):
        await storage.serve_puzzle("line", "user:a", bob.id, "mid", rated=True)
    stale = await storage.puzzle_candidates(alice.id, "line", "user:a", 1450, fresh=False, limit=1)
    assert [c.puzzle.id for c in stale] == ["mid"]


async def test_only_the_first_try_is_rated(storage: Storage, bank: None, alice: Player) -> None:
    assert (await storage.player_puzzle_rating(alice.id)).rating is None
    await storage.serve_puzzle("line", "user:a", alice.id, "mid", rated=True)
    play, first = await storage.settle_play(alice.id, "mid", "line", "user:a", solved=False, rate=rate)
    assert first and play.result == "failed" and (play.rating_before, play.rating_after) == (1500, 1400)
    again, first = await storage.settle_play(alice.id, "mid", "line", "user:a", solved=True, rate=rate)
    assert not first and again == play
    mine = await storage.player_puzzle_rating(alice.id)
    assert mine.rating == Glicko2Rating(1400, 300, 0.06, 1) and mine.solved == 0
    assert (await storage.rated_puzzle("mid")).rating == 1500  # the estimate 1450, +50 for the failed try
    await storage.serve_puzzle("line", "user:a", alice.id, "hard", rated=True)
    play, _ = await storage.settle_play(alice.id, "hard", "line", "user:a", solved=True, rate=rate)
    assert (play.rating_before, play.rating_after) == (1400, 1500)
    mine = await storage.player_puzzle_rating(alice.id)
    assert mine.rating is not None and mine.rating.count == 2 and mine.solved == 1


async def test_unrated_plays_change_no_rating(storage: Storage, bank: None, alice: Player, bob: Player) -> None:
    await storage.serve_puzzle("line", "group:g", alice.id, "easy", rated=False)
    play, first = await storage.settle_play(alice.id, "easy", "line", "group:g", solved=True, rate=rate)
    assert first and not play.rated and play.result == "solved" and play.rating_after is None
    # Bob answers the puzzle served to Alice: seen by him, never rated.
    theirs, first = await storage.settle_play(bob.id, "easy", "line", "group:g", solved=False, rate=rate)
    assert first and not theirs.rated and theirs.result == "failed"
    assert (await storage.player_puzzle_rating(alice.id)).rating is None
    assert (await storage.rated_puzzle("easy")).rating == 800
    assert "easy" not in [c.puzzle.id for c in await storage.puzzle_candidates(bob.id, "line", "c9", 800)]


async def test_three_reports_withhold_a_puzzle_until_reviewed(storage: Storage, bank: None) -> None:
    players = [await storage.get_or_create_player("line", f"U{i}", f"P{i}") for i in range(3)]
    assert not await storage.report_puzzle("mid", players[0].id, "two answers")
    assert not await storage.report_puzzle("mid", players[0].id, "again, the same player")
    assert not await storage.report_puzzle("mid", players[1].id, "")
    assert await storage.report_puzzle("mid", players[2].id, "ends too early")
    assert "mid" not in [c.puzzle.id for c in await storage.puzzle_candidates(None, "line", "x", 1450)]
    assert await storage.pick_puzzle("line", "x", min_rating=1400, max_rating=1460) is None
    assert await storage.withheld_puzzles() == [("mid", ["again, the same player", "", "ends too early"])]
    await storage.review_puzzle("mid", withhold=False)
    assert await storage.withheld_puzzles() == []
    assert "mid" in [c.puzzle.id for c in await storage.puzzle_candidates(None, "line", "x", 1450)]
    # Reviewed reports no longer count: one new report does not withhold it again.
    assert not await storage.report_puzzle("mid", players[0].id, "still wrong")
    with pytest.raises(NotFound):
        await storage.report_puzzle("nope", players[0].id, "")


async def test_a_run_is_changed_by_compare_and_set_and_scores_its_best(
    storage: Storage, bank: None, alice: Player, clock: FakeClock
) -> None:
    run = await storage.start_run("storm", "line", "user:a", alice.id, "easy",
                                  deadline=clock.now + timedelta(minutes=3))
    assert run is not None and run.seen == ("easy",) and run.score == 0 and run.deadline is not None
    assert await storage.start_run("streak", "line", "user:a", alice.id, "mid") is None  # one at a time
    assert await storage.going_runs("line", "user:a", alice.id) == [run]
    moved = await storage.save_run(replace(run, puzzle_id="mid", seen=("easy", "mid"), score=1, combo=1),
                                   expected_version=run.version)
    assert moved.version == run.version + 1 and moved.seen == ("easy", "mid")
    with pytest.raises(VersionConflict):
        await storage.save_run(replace(run, score=5), expected_version=run.version)
    clock.advance(60)
    await storage.save_run(replace(moved, score=7, ended=clock.now), expected_version=moved.version)
    assert await storage.going_runs("line", "user:a", alice.id) == []
    best = await storage.mode_best(alice.id, "storm")
    assert best is not None and (best.best, best.runs) == (7, 1)
    again = await storage.start_run("storm", "line", "user:a", alice.id, "hard")
    assert again is not None
    await storage.save_run(replace(again, score=3, ended=clock.now), expected_version=again.version)
    board = await storage.mode_leaderboard("storm")
    assert [(row.display_name, row.best, row.runs) for row in board] == [("Alice", 7, 2)]


async def test_a_race_scores_each_racer(storage: Storage, bank: None, alice: Player, bob: Player) -> None:
    race = await storage.start_run("race", "line", "group:g", None, "easy")
    assert race is not None and race.player_id is None
    assert await storage.start_run("race", "line", "group:g", None, "mid") is None
    mine = await storage.start_run("streak", "line", "group:g", alice.id, "mid")  # a streak beside the race
    assert mine is not None
    assert [r.mode for r in await storage.going_runs("line", "group:g", alice.id)] == ["streak", "race"]
    assert [r.mode for r in await storage.going_runs("line", "group:g", None)] == ["race"]
    race = await storage.save_run(replace(race, puzzle_id="mid"), expected_version=race.version, point_to=bob.id)
    race = await storage.save_run(replace(race, puzzle_id="hard"), expected_version=race.version, point_to=alice.id)
    race = await storage.save_run(race, expected_version=race.version, point_to=bob.id)
    assert [(s.display_name, s.score) for s in await storage.race_scores(race.id)] == [("Bob", 2), ("Alice", 1)]
    await storage.save_run(replace(race, ended=race.started), expected_version=race.version)
    board = await storage.mode_leaderboard("race")
    assert [(row.display_name, row.best) for row in board] == [("Bob", 2), ("Alice", 1)]


async def test_a_history_is_imported_in_bulk(storage: Storage, bank: None, alice: Player, bob: Player) -> None:
    written = await storage.import_puzzle_history(
        [(alice.id, Glicko2Rating(1720, 80, 0.06), [("easy", True), ("mid", False)]),
         (bob.id, Glicko2Rating(1300, 90, 0.06), [("easy", True)])],
        [("hard", Glicko2Rating(2100, 70, 0.06, 9))],
    )
    assert written == 3
    mine = await storage.player_puzzle_rating(alice.id)
    assert mine.rating == Glicko2Rating(1720, 80, 0.06, 2) and mine.solved == 1
    play = await storage.get_play(alice.id, "mid")
    assert play is not None and play.rated and play.result == "failed"
    assert (await storage.rated_puzzle("hard")).rating == 2100
    left = await storage.puzzle_candidates(alice.id, "line", "c", 1500, variant="makruk")
    assert [c.puzzle.id for c in left] == ["hard"]


async def test_two_tries_at_once_are_first_once(storage: Storage, bank: None, alice: Player) -> None:
    import asyncio

    await storage.serve_puzzle("line", "user:a", alice.id, "mid", rated=True)
    results = await asyncio.gather(*(storage.settle_play(alice.id, "mid", "line", "user:a", solved=solved, rate=rate)
                                     for solved in (True, False, True, False)))
    assert sum(first for _, first in results) == 1
    mine = await storage.player_puzzle_rating(alice.id)
    assert mine.rating is not None and mine.rating.count == 1
