"""Several processes carry one bot: each runs a range of Discord's shards."""

from __future__ import annotations

import pytest

from bot.__main__ import _load_plugins, _parser
from bot.__main__ import main as cli
from bot.adapters.discord.main import shard_problem

from .conftest import offline_bot


async def test_a_bot_runs_only_the_shards_it_is_given(service, settings) -> None:
    async with offline_bot(service, settings, shard_ids=[2, 3], shard_count=4) as bot:
        assert bot.shard_ids == [2, 3]
        assert bot.shard_count == 4


async def test_without_shard_options_the_bot_takes_all_its_shards(service, settings) -> None:
    async with offline_bot(service, settings) as bot:
        assert bot.shard_ids is None  # discord.py asks Discord how many, and runs them all


def parse(*argv: str):
    return _parser(_load_plugins()).parse_args(["discord", *argv])


def test_shard_options_are_read_and_checked_together() -> None:
    args = parse("--shard-ids", "1,0", "--shard-count", "4")
    assert args.shard_ids == [0, 1] and args.shard_count == 4
    assert shard_problem(args) is None
    assert shard_problem(parse()) is None
    too_high = parse("--shard-ids", "0,4", "--shard-count", "4")
    assert shard_problem(too_high) == "shard ids must be below --shard-count (4)"
    assert shard_problem(parse("--shard-count", "4")) == "--shard-ids and --shard-count go together"


def test_bad_shard_options_end_with_status_2_and_a_clear_line(capsys, monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    assert cli(["discord", "--shard-ids", "0,9", "--shard-count", "2"]) == 2
    assert capsys.readouterr().err.strip() == "makruk-bot discord: shard ids must be below --shard-count (2)"
    with pytest.raises(SystemExit) as exited:
        cli(["discord", "--shard-ids", "a,b"])
    assert exited.value.code == 2
    assert "shard ids are numbers separated by commas" in capsys.readouterr().err
