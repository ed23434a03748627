"""Settings come from the environment over `.env`; secrets never show in logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_environment_wins_over_the_env_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text('# comment\nDISCORD_TOKEN="from-file"\nexport MOVE_SECONDS=3600\nBOT_LANGUAGE=th\n')
    settings = Settings.from_env({"DISCORD_TOKEN": "from-env"}, env_file)
    assert settings.discord_token == "from-env"
    assert settings.move_seconds == 3600 and settings.language == "th"
    assert "from-env" not in repr(settings)


def test_defaults_and_bad_values(tmp_path):
    settings = Settings.from_env({}, tmp_path / "missing.env")
    assert settings.database_path == Path("makruk.db") and settings.line_language == "th"
    with pytest.raises(ValueError, match="MOVE_SECONDS"):
        Settings.from_env({"MOVE_SECONDS": "soon"}, None)
    with pytest.raises(ValueError, match="BOT_LANGUAGE"):
        Settings.from_env({"BOT_LANGUAGE": "fr"}, None)


def test_env_example_lists_every_setting():
    example = (ROOT / ".env.example").read_text()
    source = (ROOT / "bot" / "config.py").read_text()
    import re

    names = set(re.findall(r'(?:get|number|language)\("([A-Z_]+)"', source))
    assert names, "no settings found"
    for name in names:
        assert re.search(rf"^#?\s*{name}=", example, re.M), name
