"""Puzzles served by rating, rated first tries, reports and ratings, end to end through the
console (its ``--json`` contract) and a group chat, with a fake clock and seeded choices."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import AsyncIterator, Callable
from itertools import pairwise
from pathlib import Path

import pytest

from bot.adapters.console import ConsoleChat
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.i18n import LANGUAGES, Catalog
from bot.messages import Incoming, Reply, User
from bot.services.games import GameService
from bot.services.puzzles import PuzzleService
from storage.records import Puzzle

from .support import no_image

# A mate in 1 for White: Ra8#; copies of it at every rating make a bank of many puzzles.
MATE1_FEN = "7k/8/4p2K/8/8/4P3/8/R7 w - - 0 1"
# A mate in 2 for Black: Rh2+ Kg3 Rg1#.
MATE2 = Puzzle("t-mate2", "8/8/3mspk1/4ppNp/3m~2nP/5R1K/2r5/r7 b - - 0 61", ("c2h2", "h3g3", "a1g1"), 1500,
               ("mate", "mateIn2", "check", "rua"), "test")


def bank() -> list[Puzzle]:
    puzzles = [Puzzle(f"m1-{rating}", MATE1_FEN, ("a1a8",), rating, ("mate", "mateIn1", "rua"), "test")
               for rating in range(600, 3000, 50)]
    puzzles.append(Puzzle("pong-1", MATE1_FEN, ("a1a8",), 1500, ("mate", "mateIn1", "fork"), "test",
                          variant="makpong"))
    return puzzles


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def games(storage, clock) -> GameService:
    await storage.upsert_puzzles(bank())
    settings = Settings(language="en", line_language="en")
    puzzles = PuzzleService(storage, settings, clock=clock, render=no_image, rng=random.Random(7))
    return GameService(storage, settings, clock=clock, engine=RandomMover(seed=1), render=no_image, puzzles=puzzles,
                       rng=random.Random(3))


Step = str | Callable[[], object]


async def console(games: GameService, steps: list[Step]) -> list[dict]:
    """The console's --json lines for ``steps``: lines typed, or callables run between them."""
    out = io.StringIO()

    async def lines() -> AsyncIterator[str]:
        for step in steps:
            if isinstance(step, str):
                yield step
            else:
                step()

    await ConsoleChat(games, out=out, as_json=True).run(lines(), interval=3600)
    return [json.loads(line) for line in out.getvalue().splitlines()]


async def say(games: GameService, user: str, text: str, *, channel: str = "group:g", private: bool = False,
              platform: str = "line", addressed: bool = True) -> list[Reply]:
    mentions = tuple(User(name, name) for name in re.findall(r"@(\w+)", text))
    msg = Incoming(platform, channel, User(user, user), text, community=channel, mentions=mentions,  # type: ignore[arg-type]
                   private=private, addressed=addressed)
    replies = await games.handle(msg)
    await games.delivered(replies)
    return replies


async def test_a_private_puzzle_is_rated_once_and_shows_the_rating_change(games: GameService) -> None:
    records = await console(games, ["puzzle", "Ra2", "Ra8", "puzzle", "Ra8", "puzzlerating"])
    posed, failed, solved_late, posed_again, solved, rating = records
    assert posed["kind"] == "puzzle" and posed["error"] is None
    assert set(posed["puzzle"]) == {"id", "rating", "variant"}
    # Near the new player's 1500: one of the five nearest.
    assert 1400 <= posed["puzzle"]["rating"] <= 1600
    assert "Rated" in posed["text"]
    assert failed["kind"] == "puzzle_wrong" and failed["puzzle_rating"]["before"] == 1500
    assert failed["puzzle_rating"]["after"] < 1500
    assert "The solution: 1. Ra8#" in failed["text"]
    # A later try at the same puzzle solves it but is not rated again.
    assert solved_late["kind"] == "puzzle_solved" and "puzzle_rating" not in solved_late
    assert posed_again["puzzle"]["id"] != posed["puzzle"]["id"]
    after_failure = failed["puzzle_rating"]["after"]
    assert solved["puzzle_rating"]["before"] == after_failure < solved["puzzle_rating"]["after"]
    assert rating["kind"] == "puzzle_rating" and rating["puzzle_rating"]["rating"] == solved["puzzle_rating"]["after"]
    assert "rated puzzles: 2, solved: 1" in rating["text"]


async def test_the_next_puzzle_follows_the_rating(games: GameService) -> None:
    steps: list[Step] = []
    for _ in range(6):
        steps += ["puzzle", "Ra8"]
    records = await console(games, steps)
    served = [r["puzzle"]["rating"] for r in records if r["kind"] == "puzzle"]
    after = [r["puzzle_rating"]["after"] for r in records if r["kind"] == "puzzle_solved"]
    assert len(served) == 6 and len(after) == 6
    assert after == sorted(after) and after[-1] > 1700
    # Each puzzle is served near the rating the player had then, which rose.
    assert all(abs(rating - mine) <= 200 for rating, mine in zip(served[1:], after, strict=False))
    assert served[-1] > served[0]
    ids = [r["puzzle"]["id"] for r in records if r["kind"] == "puzzle"]
    assert len(set(ids)) == 6  # never the same puzzle twice


async def test_a_variant_or_a_theme_is_served_on_request(games: GameService) -> None:
    records = await console(games, ["puzzle makpong", "puzzle fork", "puzzle bogus!", "puzzle FORK", "puzzle xyz"])
    assert records[0]["puzzle"] == {"id": "pong-1", "rating": 1500, "variant": "makpong"}
    assert records[1]["error"] == "puzzle_bank_empty"  # the only fork was served already
    assert records[2]["error"] == "bad_puzzle_filter"
    assert records[3]["error"] == "puzzle_bank_empty"  # a theme in any case is the theme
    assert records[4]["error"] == "bad_puzzle_filter"  # neither a variant nor a theme: said so


async def test_puzzles_come_in_a_mix_of_kinds_unless_a_theme_is_asked(games: GameService, storage) -> None:
    # Counting races nearest the player's 1500, as in the bank (most of it is races).
    await storage.upsert_puzzles([Puzzle(f"race-{n}", MATE1_FEN, ("a1a8",), 1495 + n, ("mate", "countingRace"), "test")
                                  for n in range(10)])
    steps: list[Step] = []
    for _ in range(6):
        steps += ["puzzle", "Ra8"]
    steps += ["puzzle countingRace", "Ra8", "puzzle countingRace"]
    served = [r["puzzle"]["id"] for r in await console(games, steps) if r["kind"] == "puzzle"]
    races = [puzzle_id.startswith("race-") for puzzle_id in served]
    assert not any(a and b for a, b in pairwise(races[:6]))  # never two races running
    assert races[:6].count(True) >= 2  # the nearest still come: every other one
    assert races[6:] == [True, True]  # asked for: races only


async def test_a_group_puzzle_is_unrated(games: GameService, storage) -> None:
    posed = (await say(games, "alice", "puzzle"))[0]
    assert posed.data is not None and "Unrated here" in posed.text
    assert (await say(games, "bob", "Ra2"))[0].data is None
    solved = (await say(games, "alice", "Ra8"))[0]
    assert solved.kind == "puzzle_solved" and solved.data is None
    alice = await storage.find_player("line", "alice")
    assert (await storage.player_puzzle_rating(alice.id)).rating is None
    # Bob saw it answering: not served to him later.
    play = await storage.get_play((await storage.find_player("line", "bob")).id, posed.data["puzzle"]["id"])
    assert play is not None and play.result == "failed" and not play.rated


async def test_a_wrong_move_is_refuted_from_the_bank_line(games: GameService, storage) -> None:
    await storage.upsert_puzzles([Puzzle("t-mate2", MATE2.fen, MATE2.solution, 5000, MATE2.themes)])
    records = await console(games, ["puzzle mateIn2", "Rc3"])
    assert records[0]["puzzle"]["id"] == "t-mate2"
    assert "The answer to that: Kg3." in records[1]["text"]
    assert "The solution: 61... Rh2+ 62. Kg3 Rg1#" in records[1]["text"]


async def test_giving_up_fails_a_rated_puzzle(games: GameService) -> None:
    records = await console(games, ["puzzle", "giveup", "Ra8"])
    assert records[1]["kind"] == "puzzle_solution" and records[1]["puzzle_rating"]["after"] < 1500
    assert records[2]["error"] == "puzzle_given_up"


async def test_three_reports_withhold_a_puzzle(games: GameService, storage) -> None:
    posed = (await say(games, "alice", "puzzle"))[0]
    assert posed.data is not None
    puzzle_id = posed.data["puzzle"]["id"]
    for who in ("alice", "bob", "carol"):
        reply = (await say(games, who, "puzzle report two answers win"))[0]
        assert reply.kind == "puzzle_report" and puzzle_id in reply.text
    assert await storage.withheld_puzzles() == [(puzzle_id, ["two answers win"] * 3)]
    candidates = await storage.puzzle_candidates(None, "line", "elsewhere", posed.data["puzzle"]["rating"], limit=99)
    assert puzzle_id not in [c.puzzle.id for c in candidates]


async def test_the_next_puzzle_repeats_a_solution_only_to_who_has_not_seen_it(games: GameService) -> None:
    async def bob(text: str) -> Reply:  # alone with the bot
        return (await say(games, "bob", text, channel="user:bob", private=True))[0]

    await bob("puzzle")
    await bob("giveup")
    after_giving_up = await bob("puzzle")
    assert after_giving_up.kind == "puzzle" and "Solution of the previous puzzle" not in after_giving_up.text
    assert "Solution of the previous puzzle" in (await bob("puzzle")).text  # the one left unsolved
    # In a group the next puzzle shows it to everyone, whoever gave up.
    await say(games, "alice", "puzzle")
    await say(games, "alice", "giveup")
    assert "Solution of the previous puzzle" in (await say(games, "alice", "puzzle"))[0].text


async def test_puzzlerating_of_another_player(games: GameService) -> None:
    await say(games, "bob", "puzzle", channel="user:bob", private=True)
    await say(games, "bob", "Ra8", channel="user:bob", private=True)
    reply = (await say(games, "alice", "puzzlerating @bob"))[0]
    assert reply.data is not None and reply.data["puzzle_rating"]["rating"] > 1500
    assert (await say(games, "alice", "puzzlerating @nobody"))[0].error == "unknown_player"
    none = (await say(games, "alice", "puzzlerating"))[0]
    assert none.text.startswith("You have no puzzle rating yet")  # one's own, in the second person
    await say(games, "carol", "puzzle")  # in the group: known, and unrated
    assert (await say(games, "alice", "puzzlerating @carol"))[0].text.startswith("carol has no puzzle rating yet")


def test_every_training_text_the_code_uses_is_in_every_catalogue() -> None:
    catalog = Catalog.load()
    source = "\n".join(p.read_text("utf-8") for p in (Path(__file__).parents[2] / "bot/services/puzzles").glob("*.py"))
    keys = set(re.findall(r'"((?:training|puzzle)\.[a-z_.]+)"', source))
    keys |= {f"training.{mode}.{what}" for mode in ("streak", "storm") for what in ("start", "solved", "over")}
    keys |= {"training.race.start", "training.race.solved"}
    keys |= {f"training.mode.{mode}" for mode in ("streak", "storm", "race")}
    # A variant's name is the rest of the bot's (variant.*), not a second set of names.
    keys |= {f"variant.{variant}" for variant in ("makruk", "makpong", "cambodian", "asean", "sittuyin")}
    assert not any(key.startswith("training.variant.") for language in LANGUAGES for key in catalog.keys(language))
    assert len(keys) > 40
    for language in LANGUAGES:
        missing = sorted(key for key in keys if key not in catalog.keys(language))
        assert not missing, (language, missing)
    for word in ("puzzle_report", "puzzle_streak", "puzzle_storm", "puzzle_race", "puzzle_skip", "puzzle_stop"):
        assert catalog.word_for(word.removeprefix("puzzle_")) == word
    assert catalog.command_for("puzzlerating") == "puzzlerating"


def test_the_console_process_keeps_the_puzzle_contract(tmp_path: Path) -> None:
    """The real ``makruk-bot console --json`` with the shipped bank: the console is private, so
    a legal move that is not the solution is a rated failure."""
    from makruk import Move, board_class

    from .test_console import run_console

    db = tmp_path / "console.db"
    posed = run_console(["puzzle"], "--json", env_db=db)
    assert posed.returncode == 0, posed.stderr
    puzzle = json.loads(posed.stdout.splitlines()[0])["puzzle"]
    assert set(puzzle) == {"id", "rating", "variant"} and isinstance(puzzle["rating"], int)
    shelf = Path(__file__).parents[2] / "bot/puzzles"
    banks = sorted(shelf.glob("bank*.jsonl"))  # each variant's file
    shipped = {row["id"]: row for path in banks for row in map(json.loads, path.read_text("utf-8").splitlines())
               if "id" in row}
    row = shipped[puzzle["id"]]
    board = board_class(puzzle["variant"])(row["fen"])
    solution = Move.from_uci(row["moves"][0])
    wrong = next(m for m in board.legal_moves() if m != solution and not _mates(board, m))
    answered = run_console([wrong.uci()], "--json", env_db=db)
    assert answered.returncode == 0, answered.stderr
    record = json.loads(answered.stdout.splitlines()[0])
    assert record["kind"] == "puzzle_wrong"
    assert record["puzzle_rating"]["before"] == 1500 and record["puzzle_rating"]["after"] < 1500


def _mates(board, move) -> bool:
    after = board.copy()
    after.push(move)
    return after.is_checkmate()


async def test_puzzle_review_lists_and_releases_a_withheld_puzzle(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``makruk-bot puzzle-review`` (its module's main, as bot/__main__.py calls a subcommand)."""
    import argparse

    from bot import puzzle_review
    from storage import open_storage

    db = str(tmp_path / "review.db")
    async with await open_storage(db) as storage:
        await storage.upsert_puzzles(bank()[:1])
        for name in ("a", "b", "c"):
            player = await storage.get_or_create_player("line", name, name)
            await storage.report_puzzle("m1-600", player.id, f"wrong, says {name}")

    async def review(serve: str | None = None, withhold: str | None = None) -> int:
        return await puzzle_review.main(Settings(), argparse.Namespace(db=db, serve=serve, withhold=withhold))

    assert await review() == 0
    assert capsys.readouterr().out.splitlines() == [
        "m1-600: 3 reports", "  - wrong, says a", "  - wrong, says b", "  - wrong, says c"]
    assert await review(serve="m1-600") == 0
    assert capsys.readouterr().out == "m1-600: served again\n"
    assert await review() == 0 and capsys.readouterr().out == ""
    assert await review(withhold="nope") == 1
