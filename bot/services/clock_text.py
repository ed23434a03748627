"""A live game's clocks as replies write them: ``2:41``, ``0:09.4`` in the last ten seconds,
``1:05:00`` past an hour; digits are Western in every language, as the chat types them.

>>> [clock_time(ms) for ms in (161_000, 9_420, 3_900_000, 0)]
['2:41', '0:09.4', '1:05:00', '0:00']
"""

from __future__ import annotations

from collections.abc import Callable

from storage.records import ClockState, TimeControl

TENTHS_BELOW_MS = 10_000  # in the last seconds a player watches the tenths


def clock_time(ms: int) -> str:
    """Time left on a clock, as a chess clock shows it."""
    if ms <= 0:
        return "0:00"  # the flag has fallen
    if ms < TENTHS_BELOW_MS:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def duration_text(t: Callable[..., str], seconds: int) -> str:
    """A time per move, a window or an event's length in its largest whole unit, as the
    language writes it: ``1 day``, ``90 minutes``, ``90 นาที``, ``2時間`` (``t`` as above)."""
    unit, size = next(((unit, size) for unit, size in (("days", 86400), ("hours", 3600)) if seconds % size == 0),
                      ("minutes", 60))
    n = seconds // size
    return t(f"time.{unit}.one") if n == 1 else t(f"time.{unit}", n=n)


def clock_line(t: Callable[..., str], state: ClockState, names: dict[str, str]) -> str:
    """Both clocks in one line (``t`` is the presenter's text of a catalogue key), the
    running one marked; before a side's first move, the time it has left for it."""
    marks = {color: t("clock.running") if state.running == color else "" for color in ("w", "b")}
    line = t("clock.line", white=names["w"], black=names["b"], white_time=clock_time(state.white_ms),
             black_time=clock_time(state.black_ms), white_mark=marks["w"], black_mark=marks["b"])
    if state.first_move_ms is not None:
        line += " " + t("clock.first_move", seconds=(state.first_move_ms + 999) // 1000)
    return line


def control_text(t: Callable[..., str], control: TimeControl) -> str:
    """A time control as a challenge names it: ``3+2`` with the language's words."""
    return t("clock.control", minutes=f"{control.initial / 60:g}", increment=control.increment)
