"""Tournaments on Discord: a thread per game, a Scheduled Event per event, a role to remind,
organizers told apart, and ``/makruk-tournament`` as the service's text."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.messages import BoardView, GameView, Incoming, Notice, Reply, User
from makruk import SQUARE_NAMES

from .conftest import offline_bot
from .fakes import FakeDiscord, Sent
from .payloads import ALICE, BOB, BOT_ID, CHANNEL_ID, GUILD_ID, MEMBER_PERMISSIONS, text_channel
from .test_play import start_game

MANAGER = discord.Permissions(manage_guild=True, use_application_commands=True).value
START, END = "2099-12-10T20:00:00+07:00", "2099-12-10T22:00:00+07:00"


class EventsDiscord(FakeDiscord):
    """The fake Discord, with a server's Scheduled Events: listed, made (unless the bot may not
    manage events) and deleted, each request recorded as for messages."""

    def __init__(self, bot: discord.Client) -> None:
        super().__init__(bot)
        self.events: dict[int, dict] = {}
        self.may_manage_events = True
        channels = bot.http.request

        async def request(route, **kwargs) -> Any:
            if route.path.startswith("/guilds/{guild_id}/scheduled-events"):
                return self._scheduled(route, kwargs.get("json") or {})
            return await channels(route, **kwargs)

        bot.http.request = request  # type: ignore[method-assign]

    def _scheduled(self, route, body: dict) -> Any:
        record = Sent("request", None, body)
        self.sent.append(record)
        if route.method == "GET":
            record.kind = "list_events"
            return list(self.events.values())
        if route.method == "POST":
            if not self.may_manage_events:
                record.kind = "refused"
                response = cast(Any, SimpleNamespace(status=403, reason="Forbidden"))
                raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})
            record.kind = "create_event"
            event = {"id": str(self.next_id()), "guild_id": str(GUILD_ID), "channel_id": None,
                     "creator_id": str(BOT_ID), "status": 1, "entity_id": None, "user_count": 0, "image": None,
                     **body}
            self.events[int(event["id"])] = event
            return event
        if route.method == "DELETE":
            record.kind = "delete_event"
            del self.events[int(route.url.rsplit("/", 1)[-1])]
            return None
        raise AssertionError(f"unexpected request {route.method} {route.url}")


@pytest.fixture
def api(bot, caplog):
    fake = EventsDiscord(bot)
    fake.install()
    caplog.set_level(logging.WARNING)
    yield fake
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.fixture
def heard(service, monkeypatch) -> list[Incoming]:
    """Every message the door hands to the service, which still answers it."""
    messages: list[Incoming] = []
    handle = service.handle

    async def recording(msg: Incoming) -> list[Reply]:
        messages.append(msg)
        return await handle(msg)

    monkeypatch.setattr(service, "handle", recording)
    return messages


async def a_game(service) -> GameView:
    """alice and bob's game, started without Discord: it has no thread yet."""
    alice, bob = User(str(ALICE.id), ALICE.name), User(str(BOB.id), BOB.name)
    await service.handle(Incoming("discord", str(CHANNEL_ID), alice, "new @bob", mentions=(bob,)))
    await service.handle(Incoming("discord", str(CHANNEL_ID), bob, "accept"))
    game = await service.channel_game("discord", str(CHANNEL_ID))
    assert game is not None and game.status == "active"
    return game


def game_notice(game: GameView, key: str = "a1b2c3g1") -> Notice:
    reply = Reply(kind="tournament_game", text=f"Round 1, board 1: {game.white} against {game.black}",
                  language="en", game=game, board=BoardView(game.fen))
    return Notice("discord", str(CHANNEL_ID), reply, key=key)


def notice(kind: str, key: str, **data: object) -> Notice:
    return Notice("discord", str(CHANNEL_ID), Reply(kind=kind, text=kind, language="en", data=data), key=key)


# --- a thread per game ------------------------------------------------------------------------


async def test_a_tournament_game_gets_its_own_thread_once_with_both_players_mentioned(bot, api, service):
    game = await a_game(service)
    await bot.door.send(game_notice(game))
    [thread] = [s for s in api.sent if s.kind == "thread"]
    assert thread.channel == CHANNEL_ID and "message_id" not in thread.json  # no starter message in the channel
    assert f"#{game.id} " in thread.json["name"] and thread.json["type"] == 11
    [posted] = [s for s in api.sent if s.kind == "message"]
    thread_id = posted.channel
    assert thread_id != CHANNEL_ID and api.channels[thread_id]["name"] == thread.json["name"]
    assert posted.json["content"] == f"<@{ALICE.id}> <@{BOB.id}>"
    assert sorted(posted.json["allowed_mentions"]["users"]) == sorted([ALICE.id, BOB.id])
    assert "Round 1, board 1" in posted.text

    api.clear()
    await bot.door.send(game_notice(game, key="a1b2c3g1b"))  # the game's next notice: the same thread
    assert [s.kind for s in api.sent if s.kind != "fetch_channel"] == ["message"]
    assert api.sent[-1].channel == thread_id


async def test_after_a_crash_the_game_thread_is_found_by_its_name(bot, api, service, settings):
    game = await a_game(service)
    await bot.door.send(game_notice(game))
    thread = api.channels[next(s.channel for s in api.sent if s.kind == "message")]
    await bot.close()
    async with offline_bot(service, settings) as restarted:  # it never saw the thread
        again = EventsDiscord(restarted)
        again.install()
        again.archived[CHANNEL_ID] = [thread]
        await restarted.door.send(game_notice(game))  # the outbox tries the notice again
        assert "thread" not in again.kinds()
        [posted] = [s for s in again.sent if s.kind == "message"]
        assert posted.channel == int(thread["id"])


async def test_notices_without_a_game_go_to_the_channel_not_a_game_thread(bot, api, service):
    thread = await start_game(api)  # the channel's casual game, in its thread
    api.clear()
    for kind in ("tournament_pairings", "tournament_standings", "tournament_reminder"):
        await bot.door.send(notice(kind, f"k{kind[-5:]}"))
    posts = [s for s in api.sent if s.kind == "message"]
    assert [p.channel for p in posts] == [CHANNEL_ID] * 3 and int(thread["id"]) not in {p.channel for p in posts}
    assert "thread" not in api.kinds()


async def test_without_thread_permission_the_game_notice_stays_in_the_channel(bot, api, service, monkeypatch):
    game = await a_game(service)

    async def refused(*args, **kwargs):
        response = cast(Any, SimpleNamespace(status=403, reason="Forbidden"))
        raise discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})

    monkeypatch.setattr(discord.TextChannel, "create_thread", refused)
    await bot.door.send(game_notice(game))
    [posted] = [s for s in api.sent if s.kind == "message"]
    assert posted.channel == CHANNEL_ID and f"<@{ALICE.id}>" in posted.json["content"]


# --- Scheduled Events --------------------------------------------------------------------------


def scheduled(key: str = "a1b2c3d") -> Notice:
    return notice("tournament_scheduled", key, tournament=7, name="Thursday Arena 3+2", start=START, end=END,
                  description="Arena, 90 minutes, 3+2. Type join to enter.")


async def test_a_scheduled_event_is_made_once_across_retries_and_a_restart(bot, api, service, settings):
    await bot.door.send(scheduled())
    [made] = [s for s in api.sent if s.kind == "create_event"]
    assert made.json["entity_type"] == discord.EntityType.external.value
    assert made.json["privacy_level"] == discord.PrivacyLevel.guild_only.value
    assert made.json["entity_metadata"] == {"location": "#makruk"} and made.json["name"] == "Thursday Arena 3+2"
    assert "#T7" in made.json["description"] and "Type join to enter." in made.json["description"]
    assert datetime.fromisoformat(made.json["scheduled_start_time"]) == datetime(2099, 12, 10, 13, tzinfo=UTC)
    assert datetime.fromisoformat(made.json["scheduled_end_time"]) == datetime(2099, 12, 10, 15, tzinfo=UTC)

    await bot.door.send(scheduled())  # the outbox's retry: the answer to the first was lost
    await bot.close()
    async with offline_bot(service, settings) as restarted:
        again = EventsDiscord(restarted)
        again.install()
        again.events = api.events
        await restarted.door.send(scheduled())
        assert "create_event" not in again.kinds()
    assert len(api.events) == 1 and [s.kind for s in api.sent].count("create_event") == 1


async def test_another_tournaments_event_is_not_taken_for_this_one(bot, api):
    await bot.door.send(notice("tournament_scheduled", "x1", tournament=70, name="Other", start=START, end=END,
                               description=""))
    await bot.door.send(scheduled())
    assert [s.kind for s in api.sent].count("create_event") == 2 and len(api.events) == 2


async def test_cancelling_deletes_the_event_and_only_it(bot, api):
    await bot.door.send(notice("tournament_scheduled", "x1", tournament=70, name="Other", start=START, end=END,
                               description=""))
    await bot.door.send(scheduled())
    await bot.door.send(notice("tournament_unscheduled", "a1b2c3x", tournament=7))
    assert "delete_event" in api.kinds()
    [left] = api.events.values()
    assert "#T70" in left["description"]
    await bot.door.send(notice("tournament_unscheduled", "a1b2c3x", tournament=7))  # again: nothing left to do
    assert api.kinds().count("delete_event") == 1


async def test_without_manage_events_the_notice_is_done_with_a_warning(bot, api, service, caplog):
    api.may_manage_events = False
    reply = scheduled().reply
    outbox = bot.outbox
    assert outbox is not None
    await service.undelivered("discord", str(CHANNEL_ID), [reply])
    await outbox.drain()
    assert "refused" in api.kinds() and api.events == {}
    assert await outbox.pending_for(str(CHANNEL_ID)) == []  # done: not tried again and again
    assert any("Manage Events" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_start_already_past_makes_no_event(bot, api):
    await bot.door.send(notice("tournament_scheduled", "old", tournament=7, name="Late", description="",
                               start="2020-01-01T20:00:00+00:00", end="2020-01-01T22:00:00+00:00"))
    assert "create_event" not in api.kinds()


# --- a role to remind ---------------------------------------------------------------------------


async def test_a_role_is_mentioned_and_allowed_exactly(bot, api):
    await bot.door.send(notice("tournament_reminder", "a1b2c3mhour", tournament=7, role="555000000000000001"))
    [posted] = [s for s in api.sent if s.kind == "message"]
    assert posted.channel == CHANNEL_ID
    assert posted.json["content"] == "<@&555000000000000001>"
    assert posted.json["allowed_mentions"]["roles"] == [555000000000000001]
    assert posted.json["allowed_mentions"]["parse"] == []  # no @everyone, no other role, no user by text


async def test_without_a_role_no_role_may_be_pinged(bot, api):
    await bot.door.send(notice("tournament_pairings", "a1b2c3r1", tournament=7))
    [posted] = [s for s in api.sent if s.kind == "message"]
    assert "roles" not in posted.json["allowed_mentions"] and "<@&" not in (posted.json.get("content") or "")


# --- organizers and the slash group -------------------------------------------------------------


@pytest.mark.parametrize(("permissions", "manager"), [(MANAGER, True), (MEMBER_PERMISSIONS, False)])
async def test_manage_server_makes_a_slash_command_an_organizers(api, heard, permissions, manager):
    await api.slash(ALICE, "start", group="makruk-tournament", permissions=permissions)
    [msg] = heard
    assert msg.text == "tournament start" and msg.manager is manager


async def test_manage_server_makes_typed_text_an_organizers(bot, api, heard):
    state = bot._connection
    role = {"id": str(GUILD_ID), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
    guild = discord.Guild(data=cast(Any, {"id": str(GUILD_ID), "name": "Makruk club", "owner_id": str(ALICE.id),
                                          "roles": [role], "channels": [text_channel(CHANNEL_ID)]}), state=state)
    state._add_guild(guild)  # as the gateway's GUILD_CREATE leaves it: alice owns the server
    await api.say(ALICE, f"<@{BOT_ID}> tournament start")
    await api.say(BOB, f"<@{BOT_ID}> tournament new arena 90m 3+2 <@&555>")
    assert [(m.user.name, m.manager) for m in heard] == [("alice", True), ("bob", False)]
    assert heard[1].text == "tournament new arena 90m 3+2 role:555"


async def test_a_message_in_a_game_thread_names_its_game(api, heard):
    thread = await start_game(api)
    heard.clear()
    await api.slash(ALICE, "board", channel=thread)
    await api.slash(ALICE, "board")
    assert [m.game for m in heard] == [1, None]


@pytest.mark.parametrize(("command", "options", "said"), [
    ("join", {}, "join"),
    ("withdraw", {}, "withdraw"),
    ("info", {}, "tournament"),
    ("info", {"tournament": 7}, "tournament 7"),
    ("rules", {"tournament": 7}, "tournament rules 7"),
    ("pairings", {"round": 3}, "pairings 3"),
    ("standings", {}, "standings"),
    ("start", {}, "tournament start"),
    ("cancel", {}, "tournament cancel"),
    ("new", {"format": "swiss", "time": "3+2", "rounds": 5, "start": "20:00", "rated": True},
     "tournament new swiss 5 rounds 3+2 at 20:00 rated"),
    ("new", {"format": "arena", "time": "3+2", "minutes": 90, "start": "30m"}, "tournament new arena 3+2 90m in 30m"),
    ("new", {"format": "roundrobin", "time": "1d", "double": True}, "tournament new roundrobin 1d double"),
])
async def test_each_subcommand_says_its_text(api, heard, command, options, said):
    await api.slash(ALICE, command, group="makruk-tournament", **options)
    assert [m.text for m in heard] == [said]


async def test_new_with_a_role_writes_it_as_the_service_reads_it(api, heard):
    role = {"id": "555", "name": "makruk-night", "permissions": "0", "position": 1, "color": 0, "hoist": False,
            "managed": False, "mentionable": True, "flags": 0}
    data = {"id": "1", "name": "makruk-tournament", "type": 1, "resolved": {"roles": {"555": role}},
            "options": [{"type": 1, "name": "new", "options": [
                {"type": 3, "name": "format", "value": "arena"}, {"type": 3, "name": "time", "value": "3+2"},
                {"type": 4, "name": "minutes", "value": 90}, {"type": 8, "name": "role", "value": "555"}]}]}
    await api.dispatch(api.interaction(2, ALICE, data))
    assert [m.text for m in heard] == ["tournament new arena 3+2 90m role:555"]


async def test_a_board_in_a_tournament_games_thread_offers_that_games_moves(bot, api, service, monkeypatch):
    game = await a_game(service)
    await bot.door.send(game_notice(game))
    [opened] = [s for s in api.sent if s.kind == "message"]
    assert "makruk:pick:piece" in opened.custom_ids  # the notice's board: alice, to move, picks a piece

    async def another_game(platform, channel):  # the chat's own game is not this one
        return None

    async def its_moves(platform, channel):
        return []

    monkeypatch.setattr(service, "channel_game", another_game)
    monkeypatch.setattr(service, "turn_choices", its_moves)
    api.clear()
    await api.slash(ALICE, "board", channel=api.channels[opened.channel])
    [board] = api.boards()
    assert board.channel == opened.channel and "makruk:pick:piece" in board.custom_ids
    options = board.component("makruk:pick:piece")["options"]
    record = await service.game_record(game.id)
    assert {o["value"] for o in options} == {SQUARE_NAMES[c.from_square] for c in service.choices(record)}


async def test_a_big_rounds_pairings_ping_whoever_fits_in_one_message(bot, api):
    players = tuple(User(str(700000000000001000 + i), f"p{i}") for i in range(120))
    reply = Reply(kind="tournament_pairings", text="Round 1", language="en", mentions=players,
                  data={"tournament": 7, "role": "555"})
    await bot.door.send(Notice("discord", str(CHANNEL_ID), reply, key="a1b2c3r1"))
    [posted] = [s for s in api.sent if s.kind == "message"]
    content = posted.json["content"]
    assert len(content) <= 2000 and content.startswith("<@&555> <@700000000000001000>")
    pinged = [int(word[2:-1]) for word in content.split()[1:]]
    assert posted.json["allowed_mentions"]["users"] == pinged and len(pinged) > 60


async def test_the_standings_picture_is_attached_as_standings_png_in_the_channel(bot, api):
    picture = b"\x89PNG\r\n\x1a\nstandings"
    reply = Reply(kind="tournament_standings", text="Standings after round 1", language="en", image=picture,
                  data={"tournament": 7, "round": 1, "final": False, "rows": []})
    await bot.door.send(Notice("discord", str(CHANNEL_ID), reply, key="a1b2c3r2"))
    [posted] = [s for s in api.sent if s.kind == "message"]
    assert posted.channel == CHANNEL_ID and posted.files == [("standings.png", picture)]
    assert posted.embeds[0]["image"]["url"] == "attachment://standings.png"
