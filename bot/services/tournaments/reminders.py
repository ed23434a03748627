"""Reminders (docs/tournaments.md 2.7): a day (correspondence events), an hour and 5 minutes
before the start, and a day before a correspondence round's window closes to the players
still playing. A mark's row commits with its notice (``record_reminders``), so each is sent
once across restarts and processes. Marks found late (the bot was down) are recorded as
skipped but the nearest one; none is sent after the start.

``next_at`` follows: the next mark, else the start (or the window's end).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from storage.records import TournamentState

from ...messages import Reply, User
from . import history, notices, present

if TYPE_CHECKING:
    from .service import TournamentService

BEFORE_START = (("day", timedelta(days=1)), ("hour", timedelta(hours=1)), ("5m", timedelta(minutes=5)))
ROUND_DAY = timedelta(days=1)


def start_marks(live: bool, starts: datetime) -> list[tuple[str, datetime]]:
    """The marks before ``starts``, earliest first (a live event has no day's reminder)."""
    return [(mark, starts - ahead) for mark, ahead in BEFORE_START if not (live and mark == "day")]


def first_next_at(live: bool, starts: datetime | None, now: datetime) -> datetime | None:
    """When a new event next needs the scheduler: its first mark still ahead, else its start."""
    if starts is None:
        return None
    ahead = [at for _, at in start_marks(live, starts) if at > now]
    return min(ahead, default=starts)


def next_at_in_round(window_ends: datetime | None, now: datetime) -> datetime | None:
    """A correspondence round's next moment: the day's reminder before its window, else its end."""
    if window_ends is None:
        return None
    reminder = window_ends - ROUND_DAY
    return reminder if reminder > now else window_ends


async def before_start(service: TournamentService, state: TournamentState, now: datetime) -> bool:
    event = state.tournament
    if event.starts is None or now >= event.starts:
        return False
    marks = start_marks(event.clock_initial is not None, event.starts)
    due = [mark for mark, at in marks if at <= now]
    did = False
    if due:
        language = await service.language_of(event.platform, event.channel)
        nearest = due[-1]
        text = present.reminder_text(present.texts(service.table.catalog, language),
                                     await notices.view(service, event, state), nearest)
        reply = Reply(kind="tournament_reminder", text=text, language=language,
                      data={"role": event.role} if event.role else None)
        sent = await service.storage.record_reminders(
            event.id, due, {nearest: [notices.notice(event, "tournament_reminder", reply, f"m{nearest}")]})
        did = bool(sent)
    wanted = min([at for _, at in marks if at > now], default=event.starts)
    if event.next_at != wanted:
        await service.storage.change_tournament(event.id, event.version, {"next_at": wanted})
        return True
    return did


async def before_window(service: TournamentService, state: TournamentState, now: datetime) -> bool:
    event = state.tournament
    round_row = next((r for r in state.rounds if r.number == event.last_round), None)
    if round_row is None or round_row.window_ends is None:
        return False
    did = False
    if round_row.window_ends - ROUND_DAY <= now:
        players = await service.storage.get_players([p for b in history.open_boards(state, event.last_round)
                                                     for p in (b.white, b.black)])
        language = await service.language_of(event.platform, event.channel)
        mark = f"r{event.last_round}:day"
        text = present.reminder_text(present.texts(service.table.catalog, language),
                                     await notices.view(service, event, state), mark,
                                     still_playing=[p.display_name for p in players.values()],
                                     window_ends=round_row.window_ends)
        reply = Reply(kind="tournament_reminder", text=text, language=language,
                      mentions=tuple(User(p.user_id, p.display_name) for p in players.values()))
        sent = await service.storage.record_reminders(
            event.id, [mark], {mark: [notices.notice(event, "tournament_reminder", reply, f"m{mark}")]})
        did = bool(sent)
    wanted = next_at_in_round(round_row.window_ends, now)
    if event.next_at != wanted:
        await service.storage.change_tournament(event.id, event.version, {"next_at": wanted})
        return True
    return did

