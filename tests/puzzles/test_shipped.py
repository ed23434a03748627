"""What the bot serves: the verified banks of the family and nothing else; a stored puzzle the
banks no longer hold is retired at start-up (docs/puzzles.md, "The bank")."""

from __future__ import annotations

from pathlib import Path

from bot.app import open_puzzles
from bot.config import Settings
from bot.puzzles.bank import BankPuzzle, append_records, load_family
from storage import Puzzle, open_storage


def _puzzle(id: str, variant: str = "makruk") -> BankPuzzle:
    return BankPuzzle(id, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ("a1a8",), "mate", 1, 700, ("mate",), variant=variant)


def test_the_family_is_read_from_the_bank_files_only(tmp_path: Path) -> None:
    append_records(tmp_path / "bank.jsonl", [_puzzle("mk1"), _puzzle("mk2")])
    append_records(tmp_path / "bank-makpong.jsonl", [_puzzle("mp1", "makpong")])
    append_records(tmp_path / "legacy.jsonl", [_puzzle("mk9")])  # not a bank: never read
    family = load_family(tmp_path)
    assert [(p.id, p.to_record().variant) for p in family] == [("mk1", "makruk"), ("mk2", "makruk"),
                                                               ("mp1", "makpong")]


def test_the_shipped_banks_have_unique_ids_and_a_year_of_daily_posts() -> None:
    ids = [p.id for p in load_family()]
    assert len(ids) == len(set(ids))
    assert sum(p.variant == "makruk" for p in load_family()) >= 366  # the daily post is Makruk's


async def test_start_up_retires_stored_puzzles_the_banks_no_longer_hold(tmp_path: Path, clock) -> None:
    append_records(tmp_path / "bank.jsonl", [_puzzle("mk1")])
    storage = await open_storage(tmp_path / "bot.db")
    try:
        await storage.upsert_puzzles([Puzzle("old1", "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ("a1a8",), 900)])
        await open_puzzles(storage, Settings(language="en"), clock=clock, bank=tmp_path / "bank.jsonl")
        assert (await storage.get_puzzle("old1")).id == "old1"  # kept for what names it
        for _ in range(3):
            picked = await storage.pick_puzzle("line", "Cgroup")
            assert picked is not None and picked.id == "mk1"
        found = await storage.puzzle_candidates(None, "line", "Cgroup", 900, fresh=False)
        assert [c.puzzle.id for c in found] == ["mk1"]
    finally:
        await storage.close()


async def test_a_bank_not_found_retires_nothing(tmp_path: Path, clock) -> None:
    storage = await open_storage(tmp_path / "bot.db")
    try:
        await storage.upsert_puzzles([Puzzle("old1", "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ("a1a8",), 900)])
        await open_puzzles(storage, Settings(language="en"), clock=clock, bank=tmp_path / "missing" / "bank.jsonl")
        picked = await storage.pick_puzzle("line", "Cgroup")
        assert picked is not None and picked.id == "old1"
    finally:
        await storage.close()
