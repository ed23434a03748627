"""An event asked for (``grammar.EventSpec``) as the columns the storage keeps of it."""

from __future__ import annotations

from . import grammar


def spec_fields(spec: grammar.EventSpec) -> dict[str, object]:
    """The stored columns of an event asked for by ``spec`` (by ``tournament new``, or a rota)."""
    control = spec.time_control
    return {
        "pairing_system": spec.system, "variant": spec.variant, "rated": spec.rated,
        "clock_initial": control.initial if control else None, "clock_increment": control.increment if control else None,
        "move_seconds": None if control else spec.move_seconds, "rounds": spec.rounds, "cycles": spec.cycles,
        "window_seconds": None if control else spec.window_seconds, "window_end": None if control else spec.window_end,
        "arena_minutes": spec.arena_minutes, "starts": spec.starts, "role": spec.role,
    }
