"""How the log is written: text or one JSON object per line (LOG_FORMAT), and secrets never.

``handler(log_format, secrets)`` is what ``bot.app.configure_logging`` installs on the root logger.

>>> import io, json
>>> out = io.StringIO()
>>> log = logging.getLogger("doctest.logs")
>>> log.addHandler(handler("json", ("s3cret",), stream=out)); log.propagate = False
>>> log.warning("token %s refused", "s3cret", extra={"chat": "C1"})
>>> line = json.loads(out.getvalue())
>>> line["level"], line["logger"], line["message"], line["chat"]
('WARNING', 'doctest.logs', 'token *** refused', 'C1')
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TextIO

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "***"
# What every LogRecord has; anything else on a record came from ``extra=`` and is logged as a field.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def handler(log_format: str, secrets: Iterable[str] = (), *, stream: TextIO | None = None) -> logging.Handler:
    """A handler writing to ``stream`` (default: standard error) in ``log_format`` (text or
    json), with every one of ``secrets`` replaced by ``***`` wherever it would appear."""
    out = logging.StreamHandler(stream)
    out.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    out.addFilter(Redactor(secrets))
    return out


class Redactor(logging.Filter):
    """Replaces secrets in a record's message, its exception and stack text, and its extra fields."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # The longest first: a secret that contains another is replaced whole.
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for name, value in _extras(record).items():
            if isinstance(value, str):
                setattr(record, name, self.redact(value))
        return True

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, the exception
    and stack as text when there are any, and the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc_info"] = record.exc_text
        if record.stack_info:
            entry["stack_info"] = record.stack_info
        for name, value in _extras(record).items():
            entry.setdefault(name, value)
        return json.dumps(entry, ensure_ascii=False, default=str)


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {name: value for name, value in vars(record).items() if name not in _STANDARD}
