"""The push budget of an event where a push is counted once per member of the group (LINE's
quota, ``messages.PUSH_PER_MEMBER``): docs/tournaments.md 3.2 and docs/line.md, Tournaments.

There a round pushes one notice at most: round n's (the standings after n-1 with their
picture, and the pairings of n), due at once in a live event (the first move is 60 s away),
else after a grace in which any reply in the group carries it free. The final standings and
the three reminders before the start are pushed too; everything else (the start, a game's
result, a round window's reminder, the moves made on the web board) waits for a reply to
ride on. An event of R rounds so pushes at most R + 1 notices and three reminders.

Elsewhere (Discord, the console) nothing changes: every notice is sent as it is made.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timedelta
from typing import Final

from storage import Storage
from storage.records import Tournament

from ...messages import PUSH_PER_MEMBER, Reply

GRACE: Final = timedelta(minutes=10)  # a correspondence round's notice waits this long for a reply to carry it
ARENA_GRACE: Final = timedelta(seconds=20)  # an arena batch's pairings: a reply in that time carries them
# What a round's notice says again (the standings), so those still waiting are marked sent with it.
SUPERSEDED_KINDS: Final = frozenset({"tournament_result", "tournament_move", "tournament_started"})
_BATCH: Final = re.compile(r"r\d+")
_PUSHED: Final = re.compile(r"r\d+|f|x|m(day|hour|5m)")  # a round, the end, a cancellation, a start's reminder


def per_member(event: Tournament) -> bool:
    return event.platform in PUSH_PER_MEMBER


def may_push(event: Tournament, mark: str) -> bool:
    """Whether the event's notice ``mark`` may be pushed (else it rides on the chat's next reply).

    >>> from types import SimpleNamespace
    >>> line = SimpleNamespace(platform="line", pairing_system="swiss")
    >>> [m for m in ("r1", "r12", "s1", "f", "b", "g31", "mhour", "mr3:day") if may_push(line, m)]
    ['r1', 'r12', 'f', 'mhour']

    An arena's batches are its rounds, a pairing every few minutes: only its first is pushed,
    the rest ride on the replies of the games being played (every move gets one).

    >>> arena = SimpleNamespace(platform="line", pairing_system="arena")
    >>> [m for m in ("r1", "r2", "r12", "f", "mhour") if may_push(arena, m)]
    ['r1', 'f', 'mhour']
    """
    if not per_member(event):
        return True
    if event.pairing_system == "arena" and _BATCH.fullmatch(mark):
        return mark == "r1"
    return _PUSHED.fullmatch(mark) is not None


def due(event: Tournament, now: datetime) -> datetime | None:
    """When a round's notice (or the final standings) is pushed: at once in a live event, after
    the grace in a correspondence one, 20 s after an arena's batch; at once where pushes cost
    nothing more."""
    if not per_member(event):
        return None
    if event.pairing_system == "arena":
        return now + ARENA_GRACE
    return None if event.clock_initial is not None else now + GRACE


def round_notice(event: Tournament, before: Reply | None, pairings: Reply) -> Reply:
    """Round n's one notice: the standings after n-1 (text and picture) above the pairings."""
    if before is None:
        return pairings
    return dataclasses.replace(pairings, text=f"{before.text}\n\n{pairings.text}",
                               data=with_picture(pairings.data, event.id, int((before.data or {})["round"])))


def with_picture(data: dict | None, tournament: int, round_number: int) -> dict:
    """``Reply.data`` naming the standings picture the door shows with the text (LINE's URL
    names it: the door's route asks ``TournamentService.standings_png``)."""
    return {**(data or {}), "picture": {"tournament": tournament, "round": round_number}}


async def superseded(storage: Storage, event: Tournament) -> list[str]:
    """The keys of the chat's notices still waiting that the next round's notice says again."""
    if not per_member(event):
        return []
    waiting = await storage.pending_notices(event.platform, event.channel)
    return [notice.key for notice in waiting if notice.kind in SUPERSEDED_KINDS]
