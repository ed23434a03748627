"""Dependencies point one way (docs/ARCHITECTURE.md): each layer imports only what is below it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# folder -> module prefixes its code must not import (at module level or inside a function)
# The engines and the services count with bot.observability.metrics, never the HTTP side of it.
SERVING = ("bot.observability.health", "bot.observability.http", "bot.observability.serving")
FORBIDDEN = {
    "renderers": ("storage", "bot", "discord", "linebot", "aiohttp", "prometheus_client"),
    "storage": ("renderers", "bot", "discord", "linebot", "aiohttp", "prometheus_client"),
    "bot/engines": ("bot.services", "bot.adapters", "storage", "discord", "linebot", "aiohttp", *SERVING),
    "bot/services": ("bot.adapters", "discord", "linebot", "aiohttp", *SERVING),
    "bot/puzzles": ("bot.adapters", "discord", "linebot", "aiohttp"),
    "bot/observability": ("bot.adapters", "discord", "linebot"),
    # The web board is a door of its own: the other doors mount it, it never reaches into them.
    "bot/web": ("bot.adapters", "discord", "linebot", "storage.sqlite", "storage.postgres"),
}


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(folder: str) -> None:
    offenders = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in imported_modules(path):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[folder]):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_metrics_import_nothing_but_prometheus() -> None:
    names = imported_modules(ROOT / "bot" / "observability" / "metrics.py")
    outside = {name.split(".")[0] for name in names} - set(sys.stdlib_module_names) - {"__future__"}
    assert outside == {"prometheus_client"}


def test_the_resolver_sees_relative_imports() -> None:
    names = imported_modules(ROOT / "bot" / "services" / "games" / "service.py")
    assert "bot.services.errors" in names and "bot.commands" in names
