"""Streak, Storm and Race, end to end through the console (private) and a group chat, with a
fake clock (no sleeps) and seeded choices; each mode's leaderboard."""

from __future__ import annotations

from itertools import pairwise

from bot.clock import FakeClock
from bot.services.games import GameService
from bot.services.puzzles.runs import combo_bonus
from storage.records import Puzzle

from .test_puzzle_training import MATE1_FEN, console, games, say

__all__ = ["games"]  # the fixture, shared with test_puzzle_training


async def test_a_streak_gets_harder_and_ends_at_the_first_mistake(games: GameService) -> None:
    records = await console(games, ["puzzle streak", "Ra8", "Ra8", "puzzle skip", "puzzle skip", "Ra8", "Ra2",
                                    "puzzletop streak"])
    start, one, two, skipped, no_skip, three, over, top = records
    assert start["kind"] == "puzzle" and "Puzzle Streak" in start["text"]
    ratings = [r["puzzle"]["rating"] for r in (start, one, two, skipped, three)]
    assert ratings[0] < 800 and ratings[-1] > ratings[0]  # harder as it goes
    assert "Streak: 1." in one["text"] and "Streak: 2." in two["text"]
    assert skipped["kind"] == "puzzle" and "Skipped." in skipped["text"]
    assert no_skip["error"] == "no_skip"
    assert over["kind"] == "puzzle_run_over" and over["puzzle_run"] == {"mode": "streak", "score": 3, "best": 3}
    assert "The solution: 1. Ra8#" in over["text"]
    assert top["leaderboard"] == {"mode": "streak", "rows": [{"player": "you", "best": 3, "runs": 1}]}
    ids = [r["puzzle"]["id"] for r in (start, one, two, skipped, three)]
    assert len(set(ids)) == 5  # a run never repeats a puzzle


async def test_a_streak_mixes_the_kinds_of_puzzle(games: GameService, storage) -> None:
    # Counting races at every level a streak goes through, beside the bank's other mates.
    await storage.upsert_puzzles([Puzzle(f"race-{rating}", MATE1_FEN, ("a1a8",), rating, ("mate", "countingRace"),
                                         "test") for rating in range(600, 1200, 10)])
    records = await console(games, ["puzzle streak", *["Ra8"] * 6])
    races = [r["puzzle"]["id"].startswith("race-") for r in records if r["kind"] == "puzzle"]
    assert len(races) == 7 and races.count(True) >= 3
    assert not any(a and b for a, b in pairwise(races))  # never two races running


async def test_one_run_at_a_time_and_a_stop(games: GameService) -> None:
    records = await console(games, ["puzzle streak", "puzzle streak", "puzzle stop", "puzzle stop"])
    assert records[1]["error"] == "run_going"
    assert records[2]["kind"] == "puzzle_run_over" and records[2]["puzzle_run"]["score"] == 0
    assert records[3]["error"] == "no_run"


async def test_a_storm_lasts_three_minutes_with_penalties_and_combo_bonuses(games: GameService,
                                                                            clock: FakeClock) -> None:
    steps: list = ["puzzle storm"]
    steps += ["Ra8"] * 5  # a combo of 5: +3 s
    steps += ["Ra2"]  # a mistake: -10 s and the next puzzle
    steps += [lambda: clock.advance(seconds=120), "Ra8", lambda: clock.advance(seconds=60), "Ra8",
              "puzzletop storm"]
    records = await console(games, steps)
    start, *solved, bonus_solve = records[:6]
    assert "Puzzle Storm" in start["text"]
    assert all(r["kind"] == "puzzle" for r in [*solved, bonus_solve])
    assert "Combo 5: +3 s!" in bonus_solve["text"] and "3:03 left" in bonus_solve["text"]
    missed = records[6]
    assert missed["kind"] == "puzzle" and "-10 s; 2:53 left" in missed["text"]
    assert "0:53 left" in records[7]["text"] and "Solved: 6" in records[7]["text"]
    # 3:00 + 3 - 10 = 2:53 after the start: over at the next answer, which does not count.
    over = records[8]
    assert over["kind"] == "puzzle_run_over" and "Time is up!" in over["text"]
    assert over["puzzle_run"] == {"mode": "storm", "score": 6, "best": 6}
    assert records[9]["leaderboard"]["rows"] == [{"player": "you", "best": 6, "runs": 1}]


async def test_a_storm_is_private_and_a_stale_one_ends_when_another_starts(games: GameService,
                                                                          clock: FakeClock) -> None:
    assert (await say(games, "alice", "puzzle storm"))[0].error == "storm_private"
    records = await console(games, ["puzzle storm", lambda: clock.advance(seconds=600), "puzzle storm",
                                    "puzzletop storm"])
    assert records[1]["kind"] == "puzzle" and "Puzzle Storm" in records[1]["text"]
    assert records[2]["leaderboard"]["rows"] == [{"player": "you", "best": 0, "runs": 1}]


def test_combo_bonuses() -> None:
    assert [combo_bonus(n) for n in range(1, 13) if combo_bonus(n)] == [3, 5]
    assert combo_bonus(50) == 10


async def test_a_race_scores_the_first_right_answer_and_brings_the_next_puzzle(games: GameService) -> None:
    start = (await say(games, "alice", "puzzle race"))[0]
    assert start.kind == "puzzle" and start.data is not None and "Puzzle Race" in start.text
    assert (await say(games, "bob", "puzzle race"))[0].error == "race_going"
    wrong = (await say(games, "carol", "Ra2"))[0]
    assert wrong.kind == "puzzle_wrong" and "carol: Ra2 is not it." in wrong.text
    scored = await say(games, "bob", "Ra8")
    assert len(scored) == 1 and scored[0].kind == "puzzle"  # the point and the next puzzle, one reply
    assert scored[0].data is not None and scored[0].data["puzzle"]["id"] != start.data["puzzle"]["id"]
    assert "bob scores with Ra8#!" in scored[0].text and "1. bob: 1" in scored[0].text
    for who in ("alice", "bob", "alice"):
        await say(games, who, "Ra8")
    stopped = (await say(games, "carol", "puzzle race stop"))[0]
    assert stopped.kind == "puzzle_run_over" and "1. alice: 2\n2. bob: 2" in stopped.text
    top = (await say(games, "carol", "puzzletop race"))[0]
    assert top.data is not None
    assert [(row["player"], row["best"]) for row in top.data["leaderboard"]["rows"]] == [("alice", 2), ("bob", 2)]


async def test_a_race_ends_after_ten_puzzles(games: GameService) -> None:
    await say(games, "alice", "puzzle race")
    for _ in range(9):
        assert (await say(games, "alice", "Ra8"))[0].kind == "puzzle"
    over = (await say(games, "alice", "Ra8"))[0]
    assert over.kind == "puzzle_run_over" and over.data == {"puzzle_run": {"mode": "race", "score": 10, "best": 10}}
    assert all(reply.kind != "puzzle" for reply in await say(games, "alice", "Ra8"))  # no race any more


async def test_a_run_does_not_take_the_chats_puzzle(games: GameService) -> None:
    records = await console(games, ["puzzle", "puzzle streak", "Ra8", "puzzle stop", "Ra8"])
    served, streak, one, stopped, solved = records
    assert stopped["kind"] == "puzzle_run_over"
    assert streak["puzzle"]["id"] != served["puzzle"]["id"] and "Streak: 1." in one["text"]
    # With the run over, a move answers the chat's puzzle again (and is rated).
    assert solved["kind"] == "puzzle_solved" and "puzzle_rating" in solved


async def test_a_modes_word_alone_to_the_bot_means_the_puzzle_command(games: GameService) -> None:
    # "storm" as lichess's players say it, "skip" in a Streak; in a group only when the bot is
    # spoken to, so the words in chatter start nothing.
    storm, no_skip, stop, streak, skipped = await console(games, ["storm", "skip", "puzzle stop", "puzzle streak",
                                                                  "skip"])
    assert storm["kind"] == "puzzle" and "Puzzle Storm" in storm["text"]
    assert streak["kind"] == "puzzle" and "Puzzle Streak" in streak["text"]
    assert no_skip["error"] == "storm_no_skip" and "10 s" in no_skip["text"]  # not "no skip left"
    assert stop["puzzle_run"]["mode"] == "storm"
    assert skipped["kind"] == "puzzle" and "Skipped." in skipped["text"]
    assert await say(games, "alice", "race", addressed=False) == []
    started = (await say(games, "alice", "!race", addressed=False))[0]
    assert started.kind == "puzzle" and "Puzzle Race" in started.text


async def test_a_race_stopped_before_any_point_shows_no_empty_standings(games: GameService) -> None:
    await say(games, "alice", "puzzle race")
    stopped = (await say(games, "alice", "puzzle race stop"))[0]
    assert stopped.kind == "puzzle_run_over" and "\n\n" not in stopped.text
    assert stopped.text.splitlines() == ["Race stopped.", "Race over! Puzzles played: 0."]


async def test_no_hint_or_solution_during_a_run_even_with_the_chats_puzzle_open(games: GameService,
                                                                               clock: FakeClock) -> None:
    # The chat's puzzle stays open beside the run; its hint would describe another position.
    served, streak, hint, giveup, stop, after = await console(
        games, ["puzzle", "puzzle streak", "hint", "giveup", "puzzle stop", "hint"])
    assert streak["puzzle"]["id"] != served["puzzle"]["id"]
    assert hint["error"] == giveup["error"] == "run_no_help" and "Streak" in hint["text"]
    assert stop["kind"] == "puzzle_run_over" and after["kind"] == "puzzle_hint"  # the chat's puzzle again
    storm, storm_hint, timed_out_hint = await console(
        games, ["puzzle storm", "hint", lambda: clock.advance(seconds=181), "hint"])
    assert storm["kind"] == "puzzle" and "Puzzle Storm" in storm["text"]
    assert storm_hint["error"] == "run_no_help" and "Storm" in storm_hint["text"]
    assert timed_out_hint.get("error") != "run_no_help"  # a Storm past its time no longer counts
    await say(games, "alice", "puzzle race")
    refused = (await say(games, "bob", "giveup"))[0]
    assert refused.error == "race_no_help"
    assert refused.text == "No hints or solutions in a Race: the first right answer scores."


async def test_board_with_no_game_shows_the_puzzle_being_solved_again(games: GameService) -> None:
    nothing = (await say(games, "alice", "board", private=True, channel="dm:alice"))[0]
    assert nothing.error == "no_game"
    posed = (await say(games, "alice", "puzzle", private=True, channel="dm:alice"))[0]
    again = (await say(games, "alice", "board", private=True, channel="dm:alice"))[0]
    assert again.kind == "puzzle_board" and again.private and again.image == posed.image
    assert again.board is not None and posed.board is not None and again.board.fen == posed.board.fen
    assert again.text == posed.text.splitlines()[-2]  # the caption: "White to move, mate in 1"
    assert [a.command for a in again.actions] == ["hint", "giveup"]
    streak = (await say(games, "alice", "puzzle streak", private=True, channel="dm:alice"))[0]
    shown = (await say(games, "alice", "board", private=True, channel="dm:alice"))[0]
    assert shown.kind == "puzzle_board" and shown.actions == ()  # a run's puzzle: no hint, no solution
    assert shown.board is not None and streak.board is not None and shown.board.fen == streak.board.fen
