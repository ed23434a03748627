"""The web board's links a door hands out: a player's own (with a signed token in the URL's
fragment, so it never reaches an access log), a watcher's, and LINE's LIFF link.

>>> from datetime import UTC, datetime
>>> settings = Settings(public_base_url="https://bot.example/", web_secret="s")
>>> watch_link(settings, 12)
'https://bot.example/g/12'
>>> player_link(settings, 12, "discord", "42", datetime(2026, 12, 3, tzinfo=UTC)).startswith("https://bot.example/g/12#t=")
True
>>> liff_link(Settings(liff_id="123-abc"), 12)
'https://liff.line.me/123-abc/g/12'
"""

from __future__ import annotations

from datetime import datetime

from ..config import Settings
from .tokens import TOKEN_LIFETIME, make_token


def base_url(settings: Settings, base: str | None = None) -> str:
    """Where the board is served: ``base`` (the console's ``--web PORT``), else PUBLIC_BASE_URL."""
    return (base or settings.public_base_url or "").rstrip("/")


def watch_link(settings: Settings, game_id: int, *, base: str | None = None) -> str:
    """The read-only link anyone may open."""
    return f"{base_url(settings, base)}/g/{game_id}"


def player_link(settings: Settings, game_id: int, platform: str, user_id: str, now: datetime, *,
                base: str | None = None) -> str:
    """A player's own link, good for TOKEN_LIFETIME from ``now`` (the watch link without WEB_SECRET)."""
    link = watch_link(settings, game_id, base=base)
    if not settings.web_secret:
        return link
    return f"{link}#t={make_token(settings.web_secret, game_id, platform, user_id, now + TOKEN_LIFETIME)}"


def liff_link(settings: Settings, game_id: int) -> str | None:
    """The link that opens the board inside LINE as the LIFF app (None: no LIFF_ID)."""
    if not settings.liff_id:
        return None
    return f"https://liff.line.me/{settings.liff_id}/g/{game_id}"
