"""The words of ``tournament new`` and ``tournament weekly``, in any language, to an
:class:`EventSpec` or a :class:`RotaSpec` (docs/tournaments.md 2.2). Pure: no storage, no clock
but the ``now`` it is given.

``args`` are the words after ``new`` (or ``weekly``): the system first, then in any order a
count of rounds (``5 rounds``, ``5รอบ``, ``5回戦``), a live clock (``3+2``), a time (``1d``: the
per-move limit of a correspondence event; ``90m``: an arena's length), a variant, ``rated`` or
``casual``, ``double``, ``window 3d``, ``window-end draw|loss``, a start (``at 20:00``,
``at 2026-12-10 20:00``, ``20:00に``, ``in 30m``) and a Discord role (``role:ID``).

>>> from datetime import UTC, datetime
>>> from bot.i18n import Catalog
>>> now = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
>>> spec = parse_event(Catalog.load(), "swiss 5 rounds 3+2 makruk at 20:00 rated".split(), now=now)
>>> spec.system, spec.rounds, str(spec.time_control), spec.starts.isoformat()
('swiss', 5, '3+2', '2026-12-03T13:00:00+00:00')
>>> spec = parse_event(Catalog.load(), "พบกันหมด 1วัน".split(), now=now)
>>> spec.system, spec.move_seconds, spec.window_seconds, spec.starts
('roundrobin', 86400, 864000, None)
>>> rota = parse_rota(Catalog.load(), "木曜 20:00 アリーナ 3+2 90分".split(), now=now)
>>> rota.weekday, rota.time.isoformat(), rota.zone, rota.event.arena_minutes
(3, '20:00:00', 'Asia/Bangkok', 90)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import Final, Literal
from zoneinfo import ZoneInfo, available_timezones

from storage.records import TimeControl

from ...i18n import Catalog
from ...tournaments.tiebreaks import System
from ..errors import Refusal
from ..games.options import parse_time, time_control_at
from ..games.variants import DEFAULT_VARIANT, variant_named

WindowEnd = Literal["draw", "loss"]

DEFAULT_ZONE: Final = "Asia/Bangkok"  # as puzzles.DEFAULT_ZONE: a chat with no subscription
SYSTEMS: Final[tuple[System, ...]] = ("swiss", "roundrobin", "arena")
DEFAULT_ROUNDS: Final = 5
MAX_ROUNDS: Final = 20
DEFAULT_MOVE_SECONDS: Final = 86400  # a correspondence event given neither clock nor time
WINDOW_MOVES: Final = 10  # a round's window, by default: ten times the per-move limit
MIN_WINDOW: Final = 86400
MAX_WINDOW: Final = 14 * 86400
DEFAULT_ARENA_MINUTES: Final = 60
MIN_ARENA_MINUTES: Final = 20
MAX_ARENA_MINUTES: Final = 720
MAX_START_AHEAD: Final = timedelta(days=60)
ROUND_ROBIN_MAX: Final = 16

# A count fused with its word (5回戦, 5รอบ), a start with a particle (20:00に, 20.00น.), a
# relative start fused with "after" (30分後).
_COUNT = re.compile(r"(\d{1,3})(\D+)")
_CLOCK_TIME = re.compile(r"(\d{1,2})[:.](\d{2})(?:に|น\.?|h)?", re.IGNORECASE)
_DATE = re.compile(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})")
_AFTER = re.compile(r"(.+?)(?:後|ទៀត)")
_ROLE = re.compile(r"role:(\d{1,25})")
_TIME_PARTICLES: Final = frozenset({"น.", "น", "に", "から"})


@dataclass(frozen=True, slots=True)
class EventSpec:
    """An event as ``tournament new`` asked for it.

    ``time_control`` set: a live event; else ``move_seconds`` is the per-move limit of a
    correspondence event, whose rounds each last ``window_seconds`` and whose games still
    running at a window's end are ended as ``window_end`` says. ``rounds`` is a Swiss's
    (None for a round robin, whose rounds follow from its entrants, and an arena). ``cycles``
    is 2 for a double round robin. ``starts`` None: the event waits for ``tournament start``.
    """

    system: System
    rounds: int | None = None
    time_control: TimeControl | None = None
    move_seconds: int | None = None
    variant: str = DEFAULT_VARIANT
    rated: bool = True
    cycles: int = 1
    window_seconds: int | None = None
    window_end: WindowEnd = "draw"
    starts: datetime | None = None
    arena_minutes: int | None = None
    role: str | None = None

    @property
    def live(self) -> bool:
        return self.time_control is not None


@dataclass(frozen=True, slots=True)
class RotaSpec:
    """A weekly event: each ``weekday`` (0 is Monday) at ``time`` in ``zone``, made from ``event``."""

    weekday: int
    time: time
    zone: str
    event: EventSpec


def parse_event(catalog: Catalog, args: Sequence[str], *, now: datetime, zone: str = DEFAULT_ZONE) -> EventSpec:
    """``tournament new``'s words to an event; ``at`` times are read in ``zone``, ``in`` from ``now``."""
    return _parse(catalog, list(args), now=now, zone=zone, rota=False)


def parse_rota(catalog: Catalog, args: Sequence[str], *, now: datetime,
               zone: str = DEFAULT_ZONE) -> RotaSpec | None:
    """``tournament weekly DAY HH:MM [Area/City] SYSTEM ...``; None for ``weekly off``."""
    words = list(args)
    if len(words) == 1 and catalog.word_for(words[0]) == "off":
        return None
    if len(words) < 3:
        raise Refusal("bad_rota")
    weekday = _weekday(catalog, words[0])
    clock = _CLOCK_TIME.fullmatch(words[1])
    if weekday is None or clock is None:
        raise Refusal("bad_rota")
    local = _local_time(clock)
    rest = words[2:]
    canonical = _zones().get(rest[0].casefold())
    if canonical is not None:
        zone, rest = canonical, rest[1:]
    elif "/" in rest[0]:
        raise Refusal("bad_timezone", zone=rest[0][:40])
    event = _parse(catalog, rest, now=now, zone=zone, rota=True)
    return RotaSpec(weekday, local, zone, event)


def first_word(catalog: Catalog, args: Sequence[str]) -> str | None:
    """What the first word after ``tournament`` names (``new``, ``weekly``, ``start``, ...), if any.

    >>> first_word(Catalog.load(), ["ใหม่", "สวิส"]), first_word(Catalog.load(), ["7"])
    ('new', None)
    """
    return catalog.word_for(args[0]) if args else None


def _parse(catalog: Catalog, words: list[str], *, now: datetime, zone: str, rota: bool) -> EventSpec:
    if not words:
        raise Refusal("bad_system")
    system = catalog.word_for(words[0])
    if system not in SYSTEMS:
        raise Refusal("bad_system", option=words[0][:20])
    fields: dict[str, object] = {}
    times: list[tuple[int, str]] = []  # each time given, in seconds and as written
    i = 1
    while i < len(words):
        token, word = words[i], catalog.word_for(words[i])
        control = time_control_at(words, i)
        if control is not None:
            _once(fields, "time_control", control[0], token)
            i += control[1]
            continue
        counted = _count_at(catalog, words, i)
        if counted is not None:
            _once(fields, "rounds", counted[0], token)
            i += counted[1]
            continue
        timed = _time_at(words, i)
        if timed is not None:
            times.append((timed[0], " ".join(words[i:i + timed[1]])))
            i += timed[1]
            continue
        variant = variant_named(catalog, token)
        role = _ROLE.fullmatch(token)
        if variant is not None:
            _once(fields, "variant", variant, token)
        elif role is not None:
            _once(fields, "role", role.group(1), token)
        elif word in ("rated", "casual", "rated_event", "casual_event"):
            _once(fields, "rated", word in ("rated", "rated_event"), token)
        elif word == "double":
            _once(fields, "cycles", 2, token)
        elif word == "window":
            try:
                found = _time_at(words, i + 1)
            except Refusal:  # beyond any time per move: say what a window may be
                found = None
            if found is None:
                raise Refusal("bad_window", low=1, high=MAX_WINDOW // 86400)
            _once(fields, "window_seconds", found[0], token)
            i += found[1]
        elif word == "window-end":
            end = catalog.word_for(words[i + 1]) if i + 1 < len(words) else None
            if end not in ("draw", "loss"):
                raise Refusal("bad_option", option=token[:20])
            _once(fields, "window_end", end, token)
            i += 1
        elif word in ("at", "in") or _CLOCK_TIME.fullmatch(token) or _DATE.fullmatch(token) \
                or _AFTER.fullmatch(token):
            if rota:
                raise Refusal("bad_start")
            starts, used = _start_at(catalog, words, i, now=now, zone=zone)
            _once(fields, "starts", starts, token)
            i += used
            continue
        else:
            raise Refusal("bad_option", option=token[:20])
        i += 1
    return _checked(EventSpec(system), fields, times)


def _checked(spec: EventSpec, fields: dict[str, object], times: list[tuple[int, str]]) -> EventSpec:
    """The spec with its fields, the defaults of its system, and the refusals of what does not fit
    (a time that has no place is echoed as it was written)."""
    spec = replace(spec, **fields)  # type: ignore[arg-type]
    if len(times) > 1:
        raise Refusal("bad_option", option=times[1][1][:20])
    if spec.system == "arena":
        if spec.time_control is None:
            raise Refusal("arena_needs_clock")
        if spec.rounds is not None:
            raise Refusal("bad_rounds", low=1, high=MAX_ROUNDS)
        if spec.cycles != 1:
            raise Refusal("bad_option", option="double")
        if spec.window_seconds is not None:
            raise Refusal("bad_window", low=1, high=MAX_WINDOW // 86400)
        minutes = times[0][0] // 60 if times else DEFAULT_ARENA_MINUTES
        if not MIN_ARENA_MINUTES <= minutes <= MAX_ARENA_MINUTES:
            raise Refusal("bad_arena_length", low=MIN_ARENA_MINUTES, high=MAX_ARENA_MINUTES // 60)
        return replace(spec, arena_minutes=minutes)
    if spec.system == "roundrobin" and spec.rounds is not None:
        raise Refusal("bad_rounds", low=1, high=MAX_ROUNDS)
    if spec.system == "swiss":
        if spec.cycles != 1:
            raise Refusal("bad_option", option="double")
        spec = replace(spec, rounds=spec.rounds or DEFAULT_ROUNDS)
    if spec.time_control is not None:  # a live event: no time per move, no round window
        if times:
            raise Refusal("bad_option", option=times[0][1][:20])
        if spec.window_seconds is not None:
            raise Refusal("bad_window", low=1, high=MAX_WINDOW // 86400)
        return spec
    move = times[0][0] if times else DEFAULT_MOVE_SECONDS
    window = spec.window_seconds
    if window is None:
        window = min(max(WINDOW_MOVES * move, MIN_WINDOW), MAX_WINDOW)
    elif not MIN_WINDOW <= window <= MAX_WINDOW or window < move:
        raise Refusal("bad_window", low=1, high=MAX_WINDOW // 86400)
    return replace(spec, move_seconds=move, window_seconds=window)


def _once(fields: dict[str, object], name: str, value: object, token: str) -> None:
    """An option given twice is refused, as ``new`` refuses a second clock."""
    if name in fields:
        raise Refusal("bad_option", option=token[:20])
    fields[name] = value


def _count_at(catalog: Catalog, words: list[str], i: int) -> tuple[int, int] | None:
    """A count of rounds (``5 rounds``, ``5รอบ``, ``5回戦``, ``rounds 5``) and the words it took."""
    fused = _COUNT.fullmatch(words[i])
    if fused is not None and catalog.word_for(fused.group(2)) == "rounds":
        return _rounds(fused.group(1)), 1
    following = catalog.word_for(words[i + 1]) if i + 1 < len(words) else None
    if words[i].isdigit() and following == "rounds":
        return _rounds(words[i]), 2
    if catalog.word_for(words[i]) == "rounds":
        if i + 1 < len(words) and words[i + 1].isdigit():
            return _rounds(words[i + 1]), 2
        raise Refusal("bad_rounds", low=1, high=MAX_ROUNDS)
    return None


def _rounds(digits: str) -> int:
    count = int(digits)
    if not 1 <= count <= MAX_ROUNDS:
        raise Refusal("bad_rounds", low=1, high=MAX_ROUNDS)
    return count


def _time_at(words: list[str], i: int) -> tuple[int, int] | None:
    """A time (``1d``, ``90 นาที``) from ``words[i]`` on, in seconds, and the words it took."""
    for used in (1, 2):
        text = "".join(words[i:i + used])
        if i + used <= len(words) and re.fullmatch(r"\d{1,4}\s*\D+", text) and not _CLOCK_TIME.fullmatch(text):
            try:
                return parse_time(text), used
            except Refusal as refusal:
                if refusal.code == "bad_time":
                    raise
    return None


def _start_at(catalog: Catalog, words: list[str], i: int, *, now: datetime, zone: str) -> tuple[datetime, int]:
    """The start written from ``words[i]``: ``at [DATE] HH:MM``, ``HH:MMに``, ``in 30m``, ``30分後``."""
    word = catalog.word_for(words[i])
    if word == "in":
        found = _time_at(words, i + 1)
        if found is None:
            raise Refusal("bad_start")
        return _checked_start(now, now + timedelta(seconds=found[0])), 1 + found[1]
    after = _AFTER.fullmatch(words[i])
    if after is not None and word is None and not _CLOCK_TIME.fullmatch(words[i]):
        found = _time_at([after.group(1)], 0)
        if found is None:
            raise Refusal("bad_start")
        return _checked_start(now, now + timedelta(seconds=found[0])), 1
    j = i + 1 if word == "at" else i
    day: date | None = None
    if j < len(words) and (dated := _DATE.fullmatch(words[j])):
        try:
            day = date(int(dated.group(1)), int(dated.group(2)), int(dated.group(3)))
        except ValueError:
            raise Refusal("bad_start") from None
        j += 1
    clock = _CLOCK_TIME.fullmatch(words[j]) if j < len(words) else None
    if clock is None:
        raise Refusal("bad_start")
    local = _local_time(clock, code="bad_start")
    if j + 1 < len(words) and words[j + 1] in _TIME_PARTICLES:  # 20.00 น.
        j += 1
    where = ZoneInfo(zone)
    today = now.astimezone(where).date()
    starts = datetime.combine(day or today, local, where)
    if day is None and starts <= now:
        starts = datetime.combine(today + timedelta(days=1), local, where)  # 20:00 said at 21:00: tomorrow's
    return _checked_start(now, starts), j + 1 - i


def _checked_start(now: datetime, starts: datetime) -> datetime:
    """The start in UTC, refused in the past or too far ahead."""
    if not now < starts <= now + MAX_START_AHEAD:
        raise Refusal("bad_start")
    return starts.astimezone(UTC)


def _local_time(clock: re.Match[str], code: str = "bad_rota") -> time:
    hours, minutes = int(clock.group(1)), int(clock.group(2))
    if hours > 23 or minutes > 59:
        raise Refusal(code)
    return time(hours, minutes)


def _weekday(catalog: Catalog, word: str) -> int | None:
    found = catalog.word_for(word) or ""
    return int(found[-1]) if found.startswith("weekday_") else None


@cache
def _zones() -> dict[str, str]:
    return {name.casefold(): name for name in available_timezones()}
