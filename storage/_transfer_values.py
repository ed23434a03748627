"""The values `storage.transfer` copies: SQLite's (ISO text times, 0/1 flags, JSON text) as
the PostgreSQL column's type wants them, one converter per type.

A converter raises TypeError or ValueError for a value that does not fit; the transfer turns
that into a TransferError naming the row.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any, Final


def _integer(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise TypeError("not an integer")


def _real(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise TypeError("not a number")


def _numeric(value: Any) -> Decimal:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    raise TypeError("not a number")


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise TypeError("not text")


def _flag(value: Any) -> bool:
    if value in (0, 1) and not isinstance(value, float):
        return bool(value)
    raise ValueError("a flag is 0 or 1")


def _instant(value: Any) -> datetime:
    moment = datetime.fromisoformat(_text(value))
    if moment.tzinfo is None:  # storage writes UTC ("...Z"); a bare time is UTC too
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _utc_naive(value: Any) -> datetime:
    return _instant(value).replace(tzinfo=None)


def _date(value: Any) -> date:
    return date.fromisoformat(_text(value))


def _clock(value: Any) -> time:
    return time.fromisoformat(_text(value))


def _bytes(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    raise TypeError("not bytes")


# By pg_type name; json/jsonb take the JSON text as it is.
CONVERTERS: Final[dict[str, Callable[[Any], Any]]] = {
    "int2": _integer, "int4": _integer, "int8": _integer,
    "float4": _real, "float8": _real, "numeric": _numeric,
    "text": _text, "varchar": _text, "bpchar": _text, "enum": _text, "json": _text, "jsonb": _text,
    "bool": _flag,
    "timestamptz": _instant, "timestamp": _utc_naive, "date": _date, "time": _clock,
    "bytea": _bytes,
}
