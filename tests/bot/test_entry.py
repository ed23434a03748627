"""``makruk-bot`` with both platforms configured runs them in one process on one app."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

from bot.__main__ import _default
from bot.config import Settings


def door(name: str, seen: list):
    async def run(app, settings, args: argparse.Namespace) -> int:
        seen.append((name, app))
        return 0

    return SimpleNamespace(run=run, add_parser=lambda commands: commands.add_parser(name),
                           missing_settings=lambda settings: [])


async def test_discord_and_line_together_share_one_storage_and_one_engine(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings(database_path=tmp_path / "bot.db", discord_token="d", line_channel_secret="s",
                        line_channel_access_token="t", public_base_url="https://bot.example")
    seen: list = []
    assert await _default(settings, {"discord": door("discord", seen), "line": door("line", seen)}) == 0
    assert sorted(name for name, _ in seen) == ["discord", "line"]
    (_, first), (_, second) = seen
    assert first is second
    assert first.storage is second.storage and first.games.table.engine is second.games.table.engine


async def test_line_without_its_public_url_is_refused_before_anything_starts(tmp_path, capsys) -> None:
    settings = Settings(database_path=tmp_path / "bot.db", line_channel_secret="s", line_channel_access_token="t")
    seen: list = []
    line = door("line", seen)
    line.missing_settings = lambda settings: ["PUBLIC_BASE_URL"]
    assert await _default(settings, {"line": line}) == 2
    assert "PUBLIC_BASE_URL" in capsys.readouterr().err
    assert seen == [] and not (tmp_path / "bot.db").exists()
