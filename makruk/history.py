"""What a stored game keeps besides its moves: the count declarations and stops, with their ply.

The counting state is stored as these events rather than as a snapshot, so that replaying the
moves reproduces each count exactly (its limit depends on the material when it was declared).
``Board.replay(moves, events)`` plays them back.

>>> events = [CountEvent(40, "count"), CountEvent(43, "stopcount")]
>>> CountEvent.dump_all(events)
'{"events": [[40, "count"], [43, "stopcount"]]}'
>>> CountEvent.load_all(CountEvent.dump_all(events)) == events
True
>>> CountEvent.load_all(None), CountEvent.dump_all([])
([], None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

CountEventKind = Literal["count", "stopcount"]
_KINDS: tuple[CountEventKind, ...] = ("count", "stopcount")


@dataclass(frozen=True, slots=True)
class CountEvent:
    """The side to move declared (``"count"``) or stopped (``"stopcount"``) a count after
    ``ply`` moves of the game."""

    ply: int
    kind: CountEventKind

    @staticmethod
    def load_all(text: str | None) -> list[CountEvent]:
        """The events stored as ``{"events": [[ply, kind], ...]}``; none for None or empty text.

        Raises ValueError when the text is not such a list.
        """
        if not text:
            return []
        events = []
        for item in json.loads(text)["events"]:
            ply, kind = item
            if not isinstance(ply, int) or kind not in _KINDS:
                raise ValueError(f"not a count event: {item!r}")
            events.append(CountEvent(ply, kind))
        return events

    @staticmethod
    def dump_all(events: Iterable[CountEvent]) -> str | None:
        """The text ``load_all`` reads back; None when there is no event."""
        pairs = [[event.ply, event.kind] for event in events]
        if not pairs:
            return None
        return json.dumps({"events": pairs})
