"""Helpers for the service tests."""

from __future__ import annotations

from collections.abc import Callable

from bot.messages import Incoming, Notice, Platform, User
from bot.services.games import GameService
from bot.services.outbox import Outbox, Send

PLATFORMS: tuple[Platform, ...] = ("console", "discord", "line")


def no_image(view):
    return None



class Chat:
    """Sends messages to one channel as different users, like the console does."""

    def __init__(self, service: GameService, channel: str = "c1", platform: Platform = "console") -> None:
        self.service = service
        self.channel = channel
        self.platform = platform

    async def say(self, user: str, text: str, *mentions: str, locale: str | None = None):
        msg = Incoming(self.platform, self.channel, User(user, user), text, community="guild",
                       mentions=tuple(User(m, m) for m in mentions), locale=locale)
        replies = await self.service.handle(msg)
        await self.service.delivered(replies)  # shown, as a door would report
        return replies

    async def ok(self, user: str, text: str, *mentions: str):
        replies = await self.say(user, text, *mentions)
        errors = [r for r in replies if r.error]
        assert not errors, f"{text!r} by {user} was refused: {[(r.error, r.text) for r in errors]}"
        return replies

    async def refused(self, user: str, text: str, code: str, *mentions: str):
        replies = await self.say(user, text, *mentions)
        assert len(replies) == 1 and replies[0].error == code, [(r.error, r.text) for r in replies]
        return replies[0]


async def tick(service: GameService, platform: Platform | None = None) -> list[Notice]:
    """Runs the service's clock, then delivers what it wrote to the outbox (``platform``'s, or
    every platform's); returns the notices delivered, as a door's scheduler would."""
    await service.tick(platform)
    return await drain(service.outbox, platform)


async def drain(outbox: Callable[[Platform, Send], Outbox], platform: Platform | None = None) -> list[Notice]:
    """Delivers what the outbox holds for ``platform`` (or every platform); returns it."""
    sent: list[Notice] = []

    async def send(notice: Notice) -> None:
        sent.append(notice)

    for each in [platform] if platform else PLATFORMS:
        await outbox(each, send).drain()
    return sent
