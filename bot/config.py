"""Settings, read once in ``main()`` from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .i18n import LANGUAGES

LOG_FORMATS = ("text", "json")
# Every setting read from the environment or .env (.env.example lists each with its meaning).
SETTING_NAMES = (
    "DATABASE_PATH", "DATABASE_URL", "DATABASE_WAIT_SECONDS", "BOT_LANGUAGE", "LINE_LANGUAGE", "MOVE_SECONDS",
    "CHALLENGE_SECONDS",
    "DISCORD_TOKEN", "LINE_CHANNEL_SECRET", "LINE_CHANNEL_ACCESS_TOKEN", "PUBLIC_BASE_URL", "LINE_API_BASE_URL",
    "FAIRY_STOCKFISH", "LOG_LEVEL", "LOG_FORMAT", "WEB_SECRET", "LIFF_ID", "LINE_LOGIN_CHANNEL_ID", "LINE_JWKS_URL",
)
LINE_JWKS_URL = "https://api.line.me/oauth2/v2.1/certs"  # LINE's keys for LIFF's ID tokens


@dataclass(frozen=True)
class Settings:
    """Every setting of the bot; `.env.example` lists them with their meaning."""

    database_path: Path = Path("makruk.db")
    # A postgresql:// URL: PostgreSQL instead of the SQLite file at database_path.
    database_url: str | None = field(default=None, repr=False)  # may hold a password
    # How long a process starting while the database is away (down, starting, locked) keeps trying.
    database_wait_seconds: int = 60
    language: str = "en"  # default language of new channels (LINE uses Thai, see line_language)
    line_language: str = "th"
    move_seconds: int = 24 * 3600  # correspondence time per move
    challenge_seconds: int = 15 * 60
    discord_token: str | None = field(default=None, repr=False)
    line_channel_secret: str | None = field(default=None, repr=False)
    line_channel_access_token: str | None = field(default=None, repr=False)
    public_base_url: str | None = None
    line_api_base_url: str | None = None
    fairy_stockfish: str | None = None
    log_level: str = "INFO"
    log_format: str = "text"  # json: one JSON object per line
    web_secret: str | None = field(default=None, repr=False)  # signs the web board's links
    liff_id: str | None = None  # the LIFF app that opens the web board in LINE
    line_login_channel_id: str | None = None  # its LINE Login channel: the ID tokens' audience
    line_jwks_url: str = LINE_JWKS_URL

    @property
    def database(self) -> str:
        """Where the bot keeps its data: DATABASE_URL when set, else the SQLite file."""
        return self.database_url or str(self.database_path)

    @property
    def data_dir(self) -> Path:
        """A local folder for caches (pictures): beside the SQLite file, or the working
        directory with PostgreSQL."""
        return Path.cwd() if self.database_url else self.database_path.resolve().parent

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, env_file: Path | None = Path(".env")) -> Settings:
        """Settings from ``environ`` (default: the process environment) over ``env_file``."""
        values = read_env_file(env_file) if env_file is not None else {}
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            if name not in SETTING_NAMES:
                raise KeyError(f"{name} is read but not in SETTING_NAMES")
            value = values.get(name, "").strip()
            return value or None

        def number(name: str, default: int, *, least: int = 1) -> int:
            text = get(name)
            if text is None:
                return default
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{name} must be a whole number, got {text!r}") from None
            if value < least:
                raise ValueError(f"{name} must be {'positive' if least == 1 else f'at least {least}'}, got {value}")
            return value

        def language(name: str, default: str) -> str:
            value = (get(name) or default).lower()
            if value not in LANGUAGES:
                raise ValueError(f"{name} must be one of {', '.join(LANGUAGES)}, got {value!r}")
            return value

        return cls(
            database_path=Path(get("DATABASE_PATH") or "makruk.db"),
            database_url=database_url(get("DATABASE_URL")),
            database_wait_seconds=number("DATABASE_WAIT_SECONDS", 60, least=0),
            language=language("BOT_LANGUAGE", "en"),
            line_language=language("LINE_LANGUAGE", "th"),
            move_seconds=number("MOVE_SECONDS", 24 * 3600),
            challenge_seconds=number("CHALLENGE_SECONDS", 15 * 60),
            discord_token=get("DISCORD_TOKEN"),
            line_channel_secret=get("LINE_CHANNEL_SECRET"),
            line_channel_access_token=get("LINE_CHANNEL_ACCESS_TOKEN"),
            public_base_url=get("PUBLIC_BASE_URL"),
            line_api_base_url=get("LINE_API_BASE_URL"),
            fairy_stockfish=get("FAIRY_STOCKFISH"),
            log_level=(get("LOG_LEVEL") or "INFO").upper(),
            log_format=log_format(get("LOG_FORMAT")),
            web_secret=get("WEB_SECRET"),
            liff_id=get("LIFF_ID"),
            line_login_channel_id=get("LINE_LOGIN_CHANNEL_ID"),
            line_jwks_url=get("LINE_JWKS_URL") or LINE_JWKS_URL,
        )

    def secrets(self) -> tuple[str, ...]:
        """The values that must never be written to a log: the platform credentials and the
        database password (as written in DATABASE_URL, and decoded)."""
        values = [self.discord_token, self.line_channel_secret, self.line_channel_access_token, self.web_secret]
        password = urlsplit(self.database_url).password if self.database_url else None
        if password:
            values += [password, unquote(password)]
        return tuple(dict.fromkeys(value for value in values if value))


def read_env_file(path: Path) -> dict[str, str]:
    """``NAME=value`` lines; blank lines and ``#`` comments are skipped, quotes removed."""
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name.strip().removeprefix("export ").strip()] = value
    return values


def is_database_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def database_url(text: str | None) -> str | None:
    if text is not None and not is_database_url(text):
        raise ValueError("DATABASE_URL must be a postgresql:// URL (for SQLite set DATABASE_PATH)")
    return text


def log_format(text: str | None) -> str:
    value = (text or "text").lower()
    if value not in LOG_FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, got {value!r}")
    return value


def with_database(settings: Settings, location: str | os.PathLike[str]) -> Settings:
    """``settings`` with the database ``--db`` names: a postgresql:// URL or a SQLite file."""
    text = os.fspath(location)
    if is_database_url(text):
        return replace(settings, database_url=text)
    return replace(settings, database_url=None, database_path=Path(text))
