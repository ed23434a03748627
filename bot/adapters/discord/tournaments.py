"""What the Discord door does for tournaments beyond posting: a Scheduled Event for each event,
and which notices go to a game's own thread.

Kinds it reads (``Reply.kind``) and their ``Reply.data``:

- ``tournament_game...`` with ``reply.game``: a board's start, posted in the game's thread, opened
  without a starter message when the game has none (so the channel gets one pairings message a
  round, not one a game); both players are mentioned there.
- any other ``tournament_...`` kind (pairings, standings, reminders): the channel, never a thread.
- ``tournament_scheduled``: ``{"tournament": id, "name", "start", "end" (ISO times), "description"}``
  makes a Scheduled Event (external, at the channel), marked ``#T<id>`` in its description so a
  retry finds it instead of making a second; ``tournament_unscheduled`` (``{"tournament": id}``)
  deletes it. Without Manage Events the notice is done, with a warning.
- ``data["role"]`` (a role id) on any of them: the role is mentioned (``render.py``).
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime, timedelta
from typing import Final

import discord

from ...messages import Reply

log = logging.getLogger(__name__)

PREFIX: Final = "tournament_"
GAME_KIND: Final = "tournament_game"
SCHEDULED: Final = "tournament_scheduled"
UNSCHEDULED: Final = "tournament_unscheduled"
MAX_EVENT_NAME = 100  # Discord's limits for a Scheduled Event
MAX_EVENT_DESCRIPTION = 1000
DEFAULT_LENGTH = timedelta(hours=2)  # an event whose end was not given


def is_tournament(reply: Reply) -> bool:
    return reply.kind.startswith(PREFIX)


def opens_thread(reply: Reply) -> bool:
    """A tournament game's notice: it goes to the game's thread, opened for it if need be."""
    return reply.kind.startswith(GAME_KIND) and reply.game is not None


def is_schedule(reply: Reply) -> bool:
    return reply.kind in (SCHEDULED, UNSCHEDULED)


def marker(tournament: object) -> str:
    """What a Scheduled Event's description carries to name its tournament.

    >>> marker(7), bool(_marks(7, "Swiss, 5 rounds #T7")), bool(_marks(7, "#T70"))
    ('#T7', True, False)
    """
    return f"#T{tournament}"


def _marks(tournament: object, description: str | None) -> bool:
    return re.search(rf"{re.escape(marker(tournament))}(?!\d)", description or "") is not None


class ScheduledEvents:
    """A tournament's Scheduled Event in the server: made once, deleted when the event is cancelled."""

    async def apply(self, channel: discord.TextChannel, reply: Reply, now: datetime) -> None:
        """Does what the notice asks; refusals for want of Manage Events end in a warning, not a retry."""
        data = reply.data or {}
        tournament = data.get("tournament")
        if tournament is None:
            log.warning("a %s notice without its tournament in %s: nothing to do", reply.kind, channel.id)
            return
        try:
            existing = await self._find(channel.guild, tournament)
            if reply.kind == SCHEDULED:
                if existing is None:
                    await self._create(channel, tournament, data, now)
            elif existing is not None:
                await existing.delete()
        except discord.NotFound:  # deleted by a moderator meanwhile: what was asked is so
            log.info("the Scheduled Event of tournament %s was already gone", tournament)
        except discord.Forbidden as error:
            log.warning("no Scheduled Event for tournament %s in server %s (Manage Events is needed): %s",
                        tournament, channel.guild.id, error)

    @staticmethod
    async def _find(guild: discord.Guild, tournament: object) -> discord.ScheduledEvent | None:
        """The tournament's event: in the cache the gateway keeps, else as Discord lists them now
        (an event made just before a crash may not have reached the cache)."""
        cached = next((e for e in guild.scheduled_events if _marks(tournament, e.description)), None)
        if cached is not None:
            return cached
        listed = await guild.fetch_scheduled_events(with_counts=False)
        return next((e for e in listed if _marks(tournament, e.description)), None)

    @staticmethod
    async def _create(channel: discord.TextChannel, tournament: object, data: dict, now: datetime) -> None:
        start = _time(data.get("start"))
        if start is None or start <= now:
            log.warning("tournament %s: no Scheduled Event for a start that is not ahead (%s)", tournament,
                        data.get("start"))
            return
        end = _time(data.get("end"))
        if end is None or end <= start:
            end = start + DEFAULT_LENGTH
        tail = f"\n\n{channel.mention} {marker(tournament)}"
        description = str(data.get("description") or "")[:MAX_EVENT_DESCRIPTION - len(tail)] + tail
        await channel.guild.create_scheduled_event(
            name=str(data.get("name") or marker(tournament))[:MAX_EVENT_NAME], start_time=start, end_time=end,
            entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
            location=f"#{channel.name}", description=description)


def _time(text: object) -> datetime | None:
    """An ISO time from the notice; one without a zone is UTC.

    >>> _time("2026-12-10T13:00:00+07:00").isoformat(), _time("nonsense")
    ('2026-12-10T13:00:00+07:00', None)
    """
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
