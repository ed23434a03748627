"""The time a turn gets: its deadline, and a reminder at 80 % of it.

>>> from datetime import datetime, timezone
>>> start = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> [t.isoformat() for t in turn_times(start, 3600)]
['2026-01-01T01:00:00+00:00', '2026-01-01T00:48:00+00:00']
"""

from __future__ import annotations

from datetime import datetime, timedelta

REMINDER_FRACTION = 0.8


def turn_times(now: datetime, move_seconds: int) -> tuple[datetime, datetime]:
    """The deadline of a turn that starts ``now``, and when its reminder is due."""
    return now + timedelta(seconds=move_seconds), now + timedelta(seconds=move_seconds * REMINDER_FRACTION)
