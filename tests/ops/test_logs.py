"""LOG_FORMAT=json writes one JSON object per line; no log line ever shows a secret."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.app
from bot.config import Settings
from bot.observability import logs

TOKEN = "discord-token-AbC.123"
SECRET = "line-channel-secret-9f8e"
ACCESS = "line-access-token-Zz/+=="
PASSWORD = "p@ss word"
DATABASE_URL = "postgresql://makruk:p%40ss%20word@db:5432/makruk"


@pytest.fixture
def settings() -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, "LINE_CHANNEL_SECRET": SECRET,
                              "LINE_CHANNEL_ACCESS_TOKEN": ACCESS, "DATABASE_URL": DATABASE_URL,
                              "LOG_FORMAT": "json"}, None)


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    log = logging.getLogger("tests.ops.logs")
    log.propagate = False
    log.setLevel(logging.DEBUG)
    yield log
    log.handlers.clear()


def written(logger: logging.Logger, settings: Settings, write) -> str:
    out = io.StringIO()
    logger.addHandler(logs.handler(settings.log_format, settings.secrets(), stream=out))
    write(logger)
    return out.getvalue()


def test_json_lines_parse_and_carry_the_fields(logger, settings):
    def write(log: logging.Logger) -> None:
        log.info("game %d started in %s", 7, "C1", extra={"platform": "line", "game": 7})
        try:
            raise RuntimeError("the engine died")
        except RuntimeError:
            log.exception("could not answer")

    lines = [json.loads(line) for line in written(logger, settings, write).splitlines()]
    assert len(lines) == 2
    first, second = lines
    assert first["level"] == "INFO" and first["logger"] == "tests.ops.logs"
    assert first["message"] == "game 7 started in C1"
    assert first["platform"] == "line" and first["game"] == 7
    assert first["time"].endswith("+00:00") and "exc_info" not in first
    assert second["level"] == "ERROR" and second["message"] == "could not answer"
    assert "RuntimeError: the engine died" in second["exc_info"]


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_secrets_are_redacted_wherever_they_appear(logger, settings, log_format):
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "LINE_CHANNEL_SECRET": SECRET,
                                  "LINE_CHANNEL_ACCESS_TOKEN": ACCESS, "DATABASE_URL": DATABASE_URL,
                                  "LOG_FORMAT": log_format}, None)

    def write(log: logging.Logger) -> None:
        log.warning("login with %s failed", TOKEN)
        log.warning(f"signature checked with {SECRET} and pushed with {ACCESS}")
        log.warning("connecting to %s", DATABASE_URL, extra={"url": DATABASE_URL})
        try:
            raise ConnectionError(f"password {PASSWORD!r} rejected")
        except ConnectionError:
            log.exception("the database refused us")
        log.warning("nothing secret here", stack_info=True)

    text = written(logger, settings, write)
    for secret in (TOKEN, SECRET, ACCESS, PASSWORD, "p%40ss%20word"):
        assert secret not in text
    assert text.count(logs.REDACTED) >= (6 if log_format == "json" else 5)  # text shows no extra fields
    assert "postgresql://makruk:***@db:5432/makruk" in text
    if log_format == "json":
        assert all(json.loads(line) for line in text.splitlines() if line.startswith("{"))


def test_secrets_are_the_credentials_and_the_database_password():
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": DATABASE_URL}, None)
    assert set(settings.secrets()) == {TOKEN, "p%40ss%20word", PASSWORD}
    assert Settings.from_env({"DATABASE_URL": "postgresql://makruk@db/makruk"}, None).secrets() == ()


def test_log_format_is_text_or_json(tmp_path: Path):
    assert Settings.from_env({}, tmp_path / "none.env").log_format == "text"
    assert Settings.from_env({"LOG_FORMAT": "JSON"}, None).log_format == "json"
    with pytest.raises(ValueError, match="LOG_FORMAT must be one of text, json, got 'xml'"):
        Settings.from_env({"LOG_FORMAT": "xml"}, None)


def test_configure_logging_installs_the_settings_handler(monkeypatch, settings):
    installed: dict = {}
    monkeypatch.setattr(logging, "basicConfig", lambda **kwargs: installed.update(kwargs))
    bot.app.configure_logging("DEBUG", settings)
    (handler,) = installed["handlers"]
    assert installed["level"] == "DEBUG" and isinstance(handler.formatter, logs.JsonFormatter)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "token %s", (TOKEN,), None)
    assert json.loads(handler.format(record) if handler.filter(record) else "")["message"] == "token ***"
    bot.app.configure_logging("INFO")
    (handler,) = installed["handlers"]
    assert not isinstance(handler.formatter, logs.JsonFormatter)
