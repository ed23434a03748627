"""What the bot loads: the verified banks of the family, then the legacy Makruk puzzles that the
verified bank does not replace (docs/puzzles.md, "The bank")."""

from __future__ import annotations

from pathlib import Path

from bot.puzzles.bank import BankPuzzle, append_records, load_family, load_shipped


def _puzzle(id: str, variant: str = "makruk") -> BankPuzzle:
    return BankPuzzle(id, "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ("a1a8",), "mate", 1, 700, ("mate",), variant=variant)


def test_verified_puzzles_come_first_and_replace_legacy_ones_of_the_same_id(tmp_path: Path) -> None:
    append_records(tmp_path / "bank.jsonl", [_puzzle("mk1"), _puzzle("mk2")])
    append_records(tmp_path / "bank-makpong.jsonl", [_puzzle("mp1", "makpong")])
    append_records(tmp_path / "legacy.jsonl", [_puzzle("mk2"), _puzzle("mk9")])
    shipped = load_shipped(tmp_path)
    assert [(p.id, p.variant) for p in shipped] == [("mk1", "makruk"), ("mk2", "makruk"), ("mp1", "makpong"),
                                                   ("mk9", "makruk")]
    assert [p.to_record().variant for p in shipped] == ["makruk", "makruk", "makpong", "makruk"]


def test_the_shipped_files_hold_every_verified_puzzle_and_the_legacy_ones() -> None:
    shipped = load_shipped()
    ids = [p.id for p in shipped]
    assert len(ids) == len(set(ids))
    assert {p.id for p in load_family()} <= set(ids)
    assert sum(p.variant == "makruk" for p in shipped) >= 420  # daily posts go on while the verified bank grows
