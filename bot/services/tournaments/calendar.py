"""A Discord server's Scheduled Event for an event with a start time (docs/tournaments.md 3.1):
the service only says what to schedule, as an outbox notice the Discord door turns into
``guild.create_scheduled_event`` (kind ``tournament_scheduled``) or deletes (kind
``tournament_unscheduled``). Other platforms have no calendar, so they get no notice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from storage.records import NewNotice, Tournament

from ...messages import Reply
from . import notices, present

# Live Swiss and round-robin rounds take about two clocks and a game's increments; the rest is a guess.
_MOVES_A_GAME = 60


def expected_end(event: Tournament, starts: datetime) -> datetime:
    """When the event will likely be over: an arena's length; a live event's rounds of two full
    clocks; a correspondence event's rounds of one window each."""
    if event.arena_minutes is not None:
        return starts + timedelta(minutes=event.arena_minutes)
    rounds = event.rounds or 1
    if event.clock_initial is not None:
        per_game = 2 * event.clock_initial + 2 * _MOVES_A_GAME * (event.clock_increment or 0)
        return starts + timedelta(seconds=rounds * per_game)
    return starts + timedelta(seconds=rounds * (event.window_seconds or 86_400))


def scheduled(t: present.Text, language: str, event: Tournament, view: present.EventView) -> list[NewNotice]:
    """The notice that puts ``event`` in the server's calendar (none without a start, or off Discord)."""
    if event.platform != "discord" or event.starts is None:
        return []
    name = t("tournament.title", id=event.id, system=present.system_text(t, view.spec),
             variant=t(f"variant.{event.variant}"))
    data = {"tournament": event.id, "name": name[:100], "start": event.starts.isoformat(),
            "end": expected_end(event, event.starts).isoformat(),
            "description": present.event_summary(t, view)[:900]}
    reply = Reply(kind="tournament_scheduled", text=name, language=language, data=data)
    return [notices.notice(event, "tournament_scheduled", reply, "d")]


def unscheduled(language: str, event: Tournament) -> list[NewNotice]:
    """The notice that takes a cancelled event out of the server's calendar."""
    if event.platform != "discord" or event.starts is None:
        return []
    reply = Reply(kind="tournament_unscheduled", text="", language=language, data={"tournament": event.id})
    return [notices.notice(event, "tournament_unscheduled", reply, "u")]
