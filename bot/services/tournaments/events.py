"""An event asked for (``grammar.EventSpec``) as the storage keeps it."""

from __future__ import annotations

from datetime import date, datetime

from storage.records import NewTournament, Platform, Speed, Tournament

from . import grammar


def new_tournament(spec: grammar.EventSpec, *, platform: Platform, channel: str, community: str | None, salt: str,
                   created_by: int, next_at: datetime | None, rota_id: int | None = None,
                   rota_date: date | None = None) -> NewTournament:
    """The event ``spec`` asks for (by ``tournament new``, or a rota's), to announce."""
    control = spec.time_control
    return NewTournament(
        platform=platform, channel=channel, community=community, salt=salt, created_by=created_by,
        pairing_system=spec.system, variant=spec.variant, rated=spec.rated,
        clock_initial=control.initial if control else None, clock_increment=control.increment if control else None,
        move_seconds=None if control else spec.move_seconds, rounds=spec.rounds, cycles=spec.cycles,
        window_seconds=None if control else spec.window_seconds, window_end=None if control else spec.window_end,
        arena_minutes=spec.arena_minutes, starts=spec.starts, role=spec.role, next_at=next_at,
        rota_id=rota_id, rota_date=rota_date,
    )


def speed_of(event: Tournament) -> Speed:
    """The speed whose ratings the event's games move (and its entrants are seeded by)."""
    return "live" if event.clock_initial is not None else "correspondence"
