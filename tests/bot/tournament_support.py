"""Helpers for the tournament tests: a chat with the game and tournament services wired as
bot/app.py wires them, and the event's notices as the outbox delivers them."""

from __future__ import annotations

from typing import Any

from bot.app import open_tournaments
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, Notice, Platform, Reply, User
from bot.services.games import GameService
from storage import Storage
from storage.records import EntrantRow, Game, NewBoard, NewRound, NewTournament, TournamentState

from .support import Chat, drain, no_image


class Event:
    """One chat where events are run, with its clock and what its outbox delivered."""

    def __init__(self, storage: Storage, clock: FakeClock, platform: Platform = "console",
                 channel: str = "c1") -> None:
        self.storage = storage
        self.clock = clock
        self.games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                                 render=no_image)
        self.tournaments = open_tournaments(self.games)
        self.chat = Chat(self.games, channel=channel, platform=platform)
        self.platform = platform
        self.delivered: list[Notice] = []

    async def say(self, user: str, text: str, *mentions: str, manager: bool = False) -> list[Reply]:
        msg = Incoming(self.platform, self.chat.channel, User(user, user), text, community="guild",
                       mentions=tuple(User(m, m) for m in mentions), manager=manager)
        replies = await self.games.handle(msg)
        await self.games.delivered(replies)
        return replies

    async def ok(self, user: str, text: str, *mentions: str, manager: bool = False) -> list[Reply]:
        replies = await self.say(user, text, *mentions, manager=manager)
        errors = [(r.error, r.text) for r in replies if r.error]
        assert not errors, f"{text!r} by {user} was refused: {errors}"
        return replies

    async def refused(self, user: str, text: str, code: str, *mentions: str) -> Reply:
        replies = await self.say(user, text, *mentions)
        assert len(replies) == 1 and replies[0].error == code, [(r.error, r.text) for r in replies]
        return replies[0]

    async def notices(self) -> list[Notice]:
        """What the outbox delivers now (the scheduler's tick for the games and events first)."""
        await self.games.tick(self.platform)
        await self.tournaments.tick(self.platform)
        sent = await drain(self.games.outbox, self.platform)
        self.delivered += sent
        return sent

    async def data(self, kind: str) -> list[dict[str, Any]]:
        """The ``data`` of the notices of ``kind`` delivered now."""
        return [n.reply.data or {} for n in await self.notices() if n.reply.kind == kind]

    async def game_of(self, name: str) -> Game:
        """``name``'s open game of the chat's event."""
        player = await self.storage.find_player(self.platform, name)
        assert player is not None
        state = await self.storage.chat_state(self.platform, self.chat.channel, name)
        assert state.game is not None and player.id in state.game.player_ids, name
        return state.game

    async def event_state(self) -> TournamentState:
        event = await self.storage.open_tournament(self.platform, self.chat.channel)
        assert event is not None
        return await self.storage.tournament_state(event.id)


async def start_event(event: Event, spec: str, players: list[str], *, organizer: str = "alice") -> list[dict]:
    """Announces ``spec``, has ``players`` join, starts it; the first round's pairings."""
    await event.ok(organizer, f"tournament new {spec}")
    for name in players:
        await event.ok(name, "join")
    await event.ok(organizer, "tournament start")
    return await event.data("tournament_pairings")


async def stored_event(storage: Storage, platform: Platform, channel: str, *, players: int = 64, rounds: int = 9,
                       community: str = "guild") -> int:
    """A finished Swiss of ``players`` over ``rounds`` written straight to storage, every board
    decided without a game (a forfeit score), each round paired by the circle method: an event
    that size in a moment (64 players and 9 rounds make a TRF of about 11,000 characters)."""
    ids = [(await storage.get_or_create_player(platform, f"u{n:02d}", f"player{n:02d}")).id for n in range(players)]
    event = await storage.create_tournament(NewTournament(
        platform=platform, channel=channel, salt="0a1b2c", pairing_system="swiss", variant="makruk", rated=True,
        created_by=ids[0], community=community, clock_initial=180, clock_increment=2, rounds=rounds))
    entrants = [EntrantRow(player_id=p, rating=1400 + 5 * n) for n, p in enumerate(ids)]
    event = await storage.change_tournament(event.id, event.version, {"status": "running"}, entrants=entrants)
    for number in range(1, rounds + 1):
        turned = [ids[0], *ids[1:][number - 1:], *ids[1:][:number - 1]]  # the circle: the first stays
        pairs = zip(turned[:players // 2], reversed(turned[players // 2:]), strict=True)
        boards = tuple(NewBoard(board=n, white=w, black=b, score="1-0F" if (n + number) % 3 else "0-1F")
                       for n, (w, b) in enumerate(pairs, start=1))
        event, _ = await storage.store_round(event.id, event.version, NewRound(number=number, boards=boards))
    event = await storage.change_tournament(event.id, event.version, {"status": "finished"})
    return event.id
