"""Numbered SQL files, the schema migrations of either backend."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file; `version` is the schema version it leaves behind."""

    version: int
    name: str
    sql: str


def load_migrations(package: str) -> tuple[Migration, ...]:
    """The `migrations/NNNN_name.sql` files of `package`, in order; numbered 1..n without gaps."""
    found: list[Migration] = []
    for entry in resources.files(package).joinpath("migrations").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        numbers = [m.version for m in found]
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, got {numbers}")
    return tuple(found)
