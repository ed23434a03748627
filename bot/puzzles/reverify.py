"""``puzzles verify`` and ``puzzles accept``: the whole verification of bank files, again.

``verify_files`` proves every puzzle with the project's rules (``verify.verify_bank``), checks the
acceptance's thresholds over the engine output stored beside the bank
(``acceptance.check_record``), and, unless told ``rules_only``, runs the acceptance again with
the engine and reports every puzzle where the fresh line or engine output differs from the
stored one (the searches run on a cleared hash with one thread and a node budget, so the same
engine reproduces them exactly). ``accept_file`` runs the acceptance on a bank's puzzles as if
they were new candidates starting with their first move, and keeps those that pass, with their
line as the engine now defends it and their verification records.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from ..engines import SyncUciEngine
from .acceptance import BUDGETS, check_record
from .bank import BankPuzzle, load_bank, load_runs, load_verification, write_bank
from .engine_check import EngineCheck, Rejected
from .shelf import make_puzzle
from .verify import EXHAUSTIVE_UP_TO, verify_bank


def verification_for(bank: Path) -> Path:
    """The verification file beside a bank file: ``bank-x.jsonl`` -> ``verification-x.jsonl``."""
    return bank.with_name(bank.name.replace("bank", "verification", 1) if "bank" in bank.name
                          else "verification-" + bank.name)


def verify_files(paths: Iterable[Path], *, engine: str, rules_only: bool = False, prune: bool = False,
                 workers: int = 2, exhaustive: int | None = None, quiet: bool = False) -> int:
    """Prints a line per puzzle (only failures when ``quiet``) and a summary; 1 if any failed."""
    failed_any = False
    total = 0
    for path in paths:
        puzzles = load_bank(path)
        if not puzzles:
            continue
        total += len(puzzles)
        problems = {p.id: list(v.problems) for p, v in zip(
            puzzles, verify_bank(puzzles, workers=workers, exhaustive=exhaustive or EXHAUSTIVE_UP_TO), strict=True)}
        records = load_verification(verification_for(path))
        if not rules_only:
            for p in puzzles:
                record = records.get(p.id)
                if record is None:
                    problems[p.id].append("no verification record")
                else:
                    problems[p.id] += check_record(p.moves, p.kind, p.mate_in, p.variant, record)
            _engine_again(puzzles, records, problems, engine)
        bad = {i for i, found in problems.items() if found}
        for p in puzzles:
            if problems[p.id]:
                print(f"FAIL {p.id}: {'; '.join(problems[p.id])}")
            elif not quiet:
                print(f"ok   {p.id}")
        print(f"{path.name}: {len(puzzles) - len(bad)} of {len(puzzles)} puzzles proved"
              + (" (rules only)" if rules_only else " (rules, stored thresholds, engine again)"))
        if bad and prune:
            write_bank(path, load_runs(path), [p for p in puzzles if p.id not in bad])
            _write_records(verification_for(path), [r for i, r in records.items() if i not in bad])
            print(f"dropped {len(bad)} puzzles from {path}")
        elif bad:
            failed_any = True
    return 1 if failed_any or not total else 0


def accept_file(path: Path, *, engine: str) -> tuple[int, int, Counter]:
    """Keeps the puzzles of ``path`` that pass the acceptance; returns kept, total and why
    the others were refused."""
    puzzles = load_bank(path)
    kept: list[BankPuzzle] = []
    records: list[dict] = []
    reasons: Counter = Counter()
    with SyncUciEngine(engine, options={"Threads": 1, "Hash": 16}) as uci:
        uci.start()
        check = EngineCheck(uci)
        for p in puzzles:
            try:
                fresh = make_puzzle(check, uci, p.fen, p.variant, first=p.moves[0], run=p.run)
            except Rejected as why:
                reasons[why.reason] += 1
                continue
            record = fresh.extra.pop("verification")
            records.append({"id": fresh.id, **record, "engine": uci.id_name})
            kept.append(fresh)
        header = {"run": f"accept-{datetime.now(UTC):%Y%m%dT%H%M%S}", "engine": uci.id_name,
                  "budgets": list(BUDGETS), "accepted": len(kept), "of": len(puzzles)}
    write_bank(path, [*load_runs(path), header], kept)
    _write_records(verification_for(path), records)
    return len(kept), len(puzzles), reasons


def _engine_again(puzzles: list[BankPuzzle], records: dict[str, dict], problems: dict[str, list[str]],
                  engine: str) -> None:
    with SyncUciEngine(engine, options={"Threads": 1, "Hash": 16}) as uci:
        uci.start()
        check = EngineCheck(uci)
        for p in puzzles:
            try:
                built = check.build(p.fen, p.variant, first=p.moves[0])
            except Rejected as why:
                problems[p.id].append(f"engine again: {why}")
                continue
            if built.moves != p.moves:
                problems[p.id].append(f"engine again: the line is now {' '.join(built.moves)}")
            elif p.id in records and built.record["plies"] != records[p.id]["plies"]:
                problems[p.id].append("engine again: the engine's output differs from the stored one")


def _write_records(path: Path, records: list[dict]) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
