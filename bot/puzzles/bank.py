"""The puzzle bank: a JSONL file shipped with the bot, one record per line.

Two kinds of record: a run header ``{"run": id, "engine": ..., "settings": {...}, ...}``
written when ``puzzles generate`` starts, and a puzzle::

    {"id": "mk1a2b3c4d", "fen": ..., "moves": ["e5e6", ...], "kind": "mate", "mate_in": 2,
     "rating": 1150, "themes": ["mate", "mateIn2", "rua"], "run": "20261130-1"}

Generation appends to the file over several runs; every line is written whole and flushed.
A puzzle names its member of the family in ``"variant"`` (absent: Makruk). Makruk's puzzles
live in ``bank.jsonl``, the other variants' in ``bank-<variant>.jsonl`` beside it.

The bot serves these files and nothing else (``load_family``): the 420 Makruk puzzles made
before the lichess-style acceptance were re-verified by it, the one that passed is in
``bank.jsonl``, and storage retires the others (docs/puzzles.md, "The shipped bank, measured").

>>> p = BankPuzzle("mk1", "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", ("a1a8",), "mate", 1, 700, ("mate", "mateIn1"))
>>> BankPuzzle.from_json(p.to_json()) == p
True
>>> sorted(p.listing())
['fen', 'id', 'kind', 'mate_in', 'moves', 'rating', 'themes', 'variant']
>>> bank_path("asean").name
'bank-asean.jsonl'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from storage.records import Puzzle

BANK_PATH = Path(__file__).with_name("bank.jsonl")
DEFAULT_VARIANT = "makruk"
# The members of the family with puzzles, in the order they are listed.
PUZZLE_VARIANTS = ("makruk", "asean", "cambodian", "makpong", "sittuyin")
Kind = Literal["mate", "material"]

KNOWN_THEMES = frozenset({
    "mate", "mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5", "material",
    "short", "long", "quietMove", "check", "capture", "promotion", "fork", "sacrifice",
    "khun", "met", "khon", "ma", "rua", "bia", "biaNgai",
    "opening", "middlegame", "endgame",
    "forkMa", "forkKhon", "forkMet", "forkBia", "pin", "skewer", "discoveredAttack",
    "ruaMaMate", "twoRuaMate", "metMate", "khonMate", "smotheredMate",
    "makpongCheck", "oukLeap", "sittuyinPromotion", "oneMove", "veryLong",
    "countingRace", "piecesHonour", "boardHonour",
})


@dataclass(frozen=True)
class BankPuzzle:
    """One puzzle of the bank: ``moves`` start with the solver's move and end with one."""

    id: str
    fen: str
    moves: tuple[str, ...]
    kind: Kind
    mate_in: int | None
    rating: int
    themes: tuple[str, ...]
    run: str | None = None
    variant: str = DEFAULT_VARIANT
    extra: dict = field(default_factory=dict, compare=False)  # generation details kept as found

    def listing(self) -> dict:
        """Exactly the fields of ``puzzles list --json``."""
        return {
            "id": self.id,
            "variant": self.variant,
            "fen": self.fen,
            "moves": list(self.moves),
            "kind": self.kind,
            "mate_in": self.mate_in,
            "rating": self.rating,
            "themes": list(self.themes),
        }

    def to_json(self) -> str:
        record = self.listing()
        if self.run is not None:
            record["run"] = self.run
        record.update(self.extra)
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | dict) -> BankPuzzle:
        data = json.loads(text) if isinstance(text, str) else dict(text)
        known = {"id", "fen", "moves", "kind", "mate_in", "rating", "themes", "run", "variant"}
        return cls(
            id=str(data["id"]),
            fen=str(data["fen"]),
            moves=tuple(data["moves"]),
            kind=data["kind"],
            mate_in=data.get("mate_in"),
            rating=int(data["rating"]),
            themes=tuple(data.get("themes", ())),
            run=data.get("run"),
            variant=str(data.get("variant") or DEFAULT_VARIANT),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_record(self) -> Puzzle:
        """The storage record (the run id becomes its source)."""
        return Puzzle(self.id, self.fen, self.moves, self.rating, self.themes, self.run, variant=self.variant)


def bank_path(variant: str, directory: Path = BANK_PATH.parent) -> Path:
    """The bank file of ``variant`` (Makruk's is the original ``bank.jsonl``)."""
    return directory / ("bank.jsonl" if variant == DEFAULT_VARIANT else f"bank-{variant}.jsonl")


def load_family(directory: Path = BANK_PATH.parent) -> list[BankPuzzle]:
    """Every variant's puzzles, Makruk's first."""
    return [p for variant in PUZZLE_VARIANTS for p in load_bank(bank_path(variant, directory))]


def read_records(path: Path = BANK_PATH) -> Iterator[dict]:
    """Every record of the file, headers included; a missing file has none."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as f:
        yield from parse_records(f, str(path))


def parse_records(lines: Iterable[str], where: str) -> Iterator[dict]:
    """The records of a bank's ``lines``, one JSON object a line (blank lines skipped); a line
    that is not JSON raises ValueError naming ``where`` and the line."""
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as error:
            # A line cut short by a kill during generation: skip it, say where.
            raise ValueError(f"{where}:{number}: not JSON: {error}") from None


def puzzles_in(records: Iterable[dict]) -> Iterator[BankPuzzle]:
    """The puzzles among a bank's records (the rest are run headers)."""
    return (BankPuzzle.from_json(r) for r in records if "fen" in r)


def load_bank(path: Path = BANK_PATH) -> list[BankPuzzle]:
    """The puzzles of the bank, in file order."""
    return list(puzzles_in(read_records(path)))


def load_runs(path: Path = BANK_PATH) -> list[dict]:
    """The run headers of the bank, in file order."""
    return [r for r in read_records(path) if "run" in r and "fen" not in r]


def append_records(path: Path, records: Iterable[dict | BankPuzzle]) -> None:
    """Appends whole lines and syncs them, so an interrupted run leaves a readable file."""
    with path.open("a", encoding="utf-8") as f:
        for record in records:
            text = record.to_json() if isinstance(record, BankPuzzle) else json.dumps(
                record, ensure_ascii=False, separators=(",", ":"))
            f.write(text + "\n")
        f.flush()
        os.fsync(f.fileno())


def write_bank(path: Path, headers: Iterable[dict], puzzles: Iterable[BankPuzzle]) -> None:
    """Rewrites the whole file atomically (used to drop puzzles that fail verification)."""
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for header in headers:
            f.write(json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n")
        for puzzle in puzzles:
            f.write(puzzle.to_json() + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def verification_path(variant: str, directory: Path = BANK_PATH.parent) -> Path:
    """Where the engine output that accepted ``variant``'s puzzles is stored."""
    return directory / ("verification.jsonl" if variant == DEFAULT_VARIANT else f"verification-{variant}.jsonl")


def load_verification(path: Path) -> dict[str, dict]:
    """The verification records by puzzle id (a later record of an id replaces an earlier one)."""
    return {r["id"]: r for r in read_records(path) if "id" in r}
