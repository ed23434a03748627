"""Tournaments in storage (docs/tournaments.md, section 1), on both databases: events, rounds
stored once, reminders and rota events once, one open event per chat, and a chat's many event
games beside its one casual game."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from datetime import date, time, timedelta

import asyncpg
import pytest

from storage import (
    Bye,
    ChannelBusy,
    EnteredElsewhere,
    EntrantRow,
    Game,
    GameChanges,
    NewBoard,
    NewGame,
    NewMove,
    NewNotice,
    NewRound,
    NewTournament,
    Player,
    RoundAlreadyPaired,
    Seat,
    Storage,
    TournamentBusy,
    VersionConflict,
    migrate,
    open_storage,
)
from storage._plan import Plan
from storage.postgres import migrate as postgres_migrate
from storage.queries import channels
from storage.queries import tournaments as plans

from .storage_helpers import START_FEN, FakeClock, MakeGame

CHANNEL = "chan-1"


def event(alice: Player, **overrides: object) -> NewTournament:
    fields: dict[str, object] = {
        "platform": "discord", "channel": CHANNEL, "community": "guild-1", "salt": "a1b2c3",
        "pairing_system": "swiss", "variant": "makruk", "rated": True, "created_by": alice.id,
        "move_seconds": 86400, "rounds": 5,
    }
    fields.update(overrides)
    return NewTournament(**fields)  # type: ignore[arg-type]


def game_of(white: Player, black: Player) -> NewGame:
    return NewGame(platform="discord", channel=CHANNEL, community="guild-1", white=Seat.human(white.id),
                   black=Seat.human(black.id), start_fen=START_FEN, promotion="forced", perpetual="forbid",
                   move_seconds=86400, rated=True, created_by=white.id)


def pairings(number: int, players: list[Player], first_board: int = 1) -> NewRound:
    """Round `number`: players paired in order, each board a game."""
    boards = tuple(NewBoard(first_board + i, players[2 * i].id, players[2 * i + 1].id,
                            game=game_of(players[2 * i], players[2 * i + 1])) for i in range(len(players) // 2))
    return NewRound(number=number, boards=boards)


def notice(key: str, kind: str = "tournament_round") -> NewNotice:
    return NewNotice("discord", CHANNEL, key, kind, "{}")


async def people(storage: Storage, n: int) -> list[Player]:
    return [await storage.get_or_create_player("discord", f"p{i}", f"Player {i}") for i in range(n)]


async def chat_game(storage: Storage, user_id: str, game_id: int | None = None) -> int | None:
    """The chat's game for a message from `user_id`, read by the storage's own call (one statement
    on PostgreSQL) and by the plan, which must agree."""
    fast = (await storage.chat_state("discord", CHANNEL, user_id, game_id)).game
    planned = (await storage._snapshot(channels.chat_state(storage._moves, "discord", CHANNEL, user_id,
                                                           game_id))).game
    found = None if fast is None else fast.id
    assert found == (None if planned is None else planned.id)
    return found


# --- the upgrade -------------------------------------------------------------------------------

async def test_an_open_casual_game_still_holds_its_chat_after_the_upgrade(database: str, clock: FakeClock) -> None:
    rows = [
        "INSERT INTO players (platform, user_id, display_name, created, updated) VALUES"
        " ('discord', '100', 'Alice', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')",
        "INSERT INTO games (platform, channel, variant, promotion, perpetual, move_seconds, white_player,"
        " black_engine, rated, start_fen, status, created, updated) SELECT 'discord', 'chan-1', 'makruk',"
        f" 'forced', 'forbid', 300, id, 3, {'FALSE' if database.startswith('postgres') else '0'}, '{START_FEN}',"
        " 'active', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z' FROM players",
    ]
    if database.startswith("postgres"):
        conn = await asyncpg.connect(database)
        try:
            await postgres_migrate.upgrade(conn, database, target=11)
            for sql in rows:
                await conn.execute(sql)
        finally:
            await conn.close()
    else:
        raw = sqlite3.connect(database, isolation_level=None)
        try:
            assert migrate.upgrade(raw, database, target=11).after == 11
            for sql in rows:
                raw.execute(sql)
        finally:
            raw.close()
    async with await open_storage(database, clock=clock) as storage:
        held = await storage.active_game("discord", CHANNEL)
        assert held is not None and held.tournament_id is None and held.berserk is None
        alice = await storage.get_or_create_player("discord", "100", "Alice")
        with pytest.raises(ChannelBusy) as busy:
            await storage.create_game(replace(game_of(alice, alice), black=None, status="challenge"))
        assert busy.value.game_id == held.id


# --- one open event per chat -------------------------------------------------------------------

async def test_one_open_event_per_chat(storage: Storage, alice: Player) -> None:
    first = await storage.create_tournament(event(alice), notices=[notice("a1b2c3d")])
    assert (first.status, first.version, first.last_round, first.salt) == ("announced", 1, 0, "a1b2c3")
    with pytest.raises(TournamentBusy) as busy:
        await storage.create_tournament(event(alice, salt="ffffff", pairing_system="roundrobin"))
    assert busy.value.tournament_id == first.id
    assert await storage.open_tournament("discord", CHANNEL) == first
    assert await storage.tournament(first.id) == first
    other_chat = await storage.create_tournament(event(alice, channel="chan-2"))
    cancelled = await storage.change_tournament(first.id, first.version, {"status": "cancelled"})
    assert (cancelled.status, cancelled.version) == ("cancelled", 2)
    assert await storage.open_tournament("discord", CHANNEL) is None
    again = await storage.create_tournament(event(alice, salt="ffffff"))
    assert again.id not in (first.id, other_chat.id)
    assert [n.key for n in await storage.pending_notices("discord", CHANNEL)] == ["a1b2c3d"]


async def test_changes_are_a_compare_and_set(storage: Storage, alice: Player, bob: Player,
                                             clock: FakeClock) -> None:
    made = await storage.create_tournament(event(alice))
    joined = await storage.change_tournament(
        made.id, made.version, entrants=[EntrantRow(alice.id, 1500), EntrantRow(bob.id, 1620)],
        byes=[Bye(1, bob.id, "half")], forbidden=[(bob.id, alice.id)], notices=[notice("a1b2c3j")])
    clock.advance(60)
    with pytest.raises(VersionConflict) as stale:  # a join read before the first one
        await storage.change_tournament(made.id, made.version, {"rounds": 7},
                                        entrants=[EntrantRow(bob.id, 1)], notices=[notice("a1b2c3k")])
    assert (stale.value.expected, stale.value.actual) == (1, 2)
    started = await storage.change_tournament(
        joined.id, joined.version, {"status": "running", "next_at": clock.now},
        entrants=[EntrantRow(alice.id, 1510, seat=2), EntrantRow(bob.id, 1600, seat=1, withdrawn=True)])
    state = await storage.tournament_state(made.id)
    assert state.tournament == started and started.rounds == 5 and started.version == 3
    assert [(e.player_id, e.rating, e.seat, e.withdrawn) for e in state.entrants] == [
        (alice.id, 1510, 2, False), (bob.id, 1600, 1, True)]
    assert state.entrants[0].joined == started.created  # a change keeps the joined time
    assert state.byes == (Bye(1, bob.id, "half"),)
    assert state.forbidden == ((min(alice.id, bob.id), max(alice.id, bob.id)),)
    assert [n.key for n in await storage.pending_notices("discord", CHANNEL)] == ["a1b2c3j"]
    with pytest.raises(ValueError, match="no changeable"):
        await storage.change_tournament(made.id, started.version, {"salt": "000000"})


async def test_two_joins_of_one_player_in_two_chats_at_once_store_one(
    storage: Storage, database: str, alice: Player, clock: FakeClock
) -> None:
    here = await storage.create_tournament(event(alice))
    there = await storage.create_tournament(event(alice, channel="chan-2", salt="d4e5f6"))
    async with await open_storage(database, clock=clock) as other:  # another process, or another chat's lock
        for n, player in enumerate(await people(storage, 6)):  # six races: each would be lost without the check
            here, there = await storage.tournament(here.id), await storage.tournament(there.id)
            results = await asyncio.gather(
                storage.change_tournament(here.id, here.version, entrants=[EntrantRow(player.id, 1500)],
                                          notices=[notice(f"a1b2c3j{n}")]),
                other.change_tournament(there.id, there.version, entrants=[EntrantRow(player.id, 1500)],
                                        notices=[NewNotice("discord", "chan-2", f"d4e5f6j{n}", "tournament", "{}")]),
                return_exceptions=True)
            stored = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, EnteredElsewhere)]
            assert len(stored) == len(refused) == 1, results
            assert (refused[0].player_id, refused[0].tournament_id) == (player.id, stored[0].id)
            loser = there if stored[0].id == here.id else here
            assert (await storage.tournament(loser.id)).version == loser.version  # nothing stored there
            assert player.id not in {e.player_id for e in (await storage.tournament_state(loser.id)).entrants}
    notices = [*await storage.pending_notices("discord", CHANNEL), *await storage.pending_notices("discord", "chan-2")]
    assert len(notices) == 6  # each join's answer once, with the join that stored


async def test_one_open_event_at_a_time_counts_joins_not_changes(storage: Storage, alice: Player,
                                                                 bob: Player) -> None:
    here = await storage.create_tournament(event(alice))
    there = await storage.create_tournament(event(alice, channel="chan-2", salt="d4e5f6"))
    here = await storage.change_tournament(here.id, here.version, entrants=[EntrantRow(bob.id, 1500)])
    # bob's entry here changes (a start's ratings and seats): not a join, so not refused
    here = await storage.change_tournament(here.id, here.version, entrants=[EntrantRow(bob.id, 1510, seat=1)])
    with pytest.raises(EnteredElsewhere):  # a join there while entered here
        await storage.change_tournament(there.id, there.version, entrants=[EntrantRow(bob.id, 1500)])
    here = await storage.change_tournament(here.id, here.version, entrants=[EntrantRow(bob.id, 1510, withdrawn=True)])
    there = await storage.change_tournament(there.id, there.version, entrants=[EntrantRow(bob.id, 1500)])
    with pytest.raises(EnteredElsewhere):  # a rejoin here while entered there
        await storage.change_tournament(here.id, here.version, entrants=[EntrantRow(bob.id, 1510)])
    await storage.change_tournament(there.id, there.version, {"status": "finished"})
    await storage.change_tournament(here.id, here.version, entrants=[EntrantRow(bob.id, 1510)])  # there is over


def statements(plan: Plan[object]) -> list[str]:
    """The SQL `plan` runs, each step answered with nothing found or changed."""
    texts: list[str] = []
    answer: object = None
    try:
        while True:
            step = plan.send(answer)
            texts.append(step.text)
            answer = [] if step.kind == "rows" else 0
    except StopIteration:
        return texts


def test_a_statement_with_a_filter_or_without_is_one_of_two_static_texts(clock: FakeClock) -> None:
    """Built once at import, not per call (docs/storage.md): the drivers' caches of rewritten
    text and PostgreSQL's prepared statements hit."""
    static = {value for value in vars(plans).values() if isinstance(value, str)}
    for everywhere, narrowed in [
        (plans.due_tournaments(clock.now, None), plans.due_tournaments(clock.now, "line")),
        (plans.due_rotas(clock.now, None), plans.due_rotas(clock.now, "line")),
        (plans.stop_rota("line", "group:G1", None), plans.stop_rota("line", "group:G1", 7)),
    ]:
        (wide,), (narrow,) = statements(everywhere), statements(narrowed)
        assert wide in static and narrow in static and wide != narrow


# --- rounds ------------------------------------------------------------------------------------

async def test_a_round_is_stored_with_its_games_boards_and_notices(storage: Storage, clock: FakeClock) -> None:
    players = await people(storage, 5)
    made = await storage.create_tournament(event(players[0]))
    running = await storage.change_tournament(made.id, made.version, {"status": "running"},
                                              entrants=[EntrantRow(p.id, 1500) for p in players])
    first = pairings(1, players[:4])
    first = NewRound(number=1, boards=first.boards, byes=(Bye(1, players[4].id, "pairing"),),
                     window_ends=clock.now + timedelta(days=3), next_at=clock.now + timedelta(days=3))
    stored, games = await storage.store_round(
        made.id, running.version, first, notices=[notice("a1b2c3r1")],
        answer=lambda made_games: [notice(f"a1b2c3g{g.id}", "tournament_game") for g in made_games])
    assert (stored.last_round, stored.next_at, stored.version) == (1, clock.now + timedelta(days=3), 3)
    assert [(g.tournament_id, g.status, g.white, g.black) for g in games] == [
        (made.id, "active", Seat.human(players[0].id), Seat.human(players[1].id)),
        (made.id, "active", Seat.human(players[2].id), Seat.human(players[3].id))]
    await storage.append_move(games[0].id, games[0].version, NewMove("e3e4", "e4", "w"))
    await storage.update_game(games[1].id, games[1].version,
                              GameChanges(status="finished", result="0-1", reason="forfeit", berserk="b"))
    clock.advance(3600)
    # Round 2 closes round 1; a board decided without a game has its score.
    second = NewRound(number=2, boards=(NewBoard(1, players[4].id, players[0].id, score="1-0F"),),
                      withdrawn=(players[1].id,))
    after, none = await storage.store_round(made.id, stored.version, second, superseded=["a1b2c3r1"])
    assert none == [] and after.last_round == 2 and after.next_at is None
    state = await storage.tournament_state(made.id)
    assert [(r.number, r.closed) for r in state.rounds] == [(1, clock.now), (2, None)]
    assert state.rounds[0].window_ends == first.window_ends
    one, two, forfeit = state.boards
    assert (one.game_id, one.status, one.plies, one.result, one.finished) == (games[0].id, "active", 1, None, None)
    assert (two.status, two.result, two.reason, two.berserk, two.plies, two.finished) == (
        "finished", "0-1", "forfeit", "b", 0, clock.now - timedelta(seconds=3600))
    assert (forfeit.round, forfeit.game_id, forfeit.score, forfeit.status, forfeit.plies) == (2, None, "1-0F", None, 0)
    assert state.byes == (Bye(1, players[4].id, "pairing"),)
    assert [e.player_id for e in state.entrants if e.withdrawn] == [players[1].id]
    keys = [n.key for n in await storage.pending_notices("discord", CHANNEL)]
    assert keys == [f"a1b2c3g{games[0].id}", f"a1b2c3g{games[1].id}"]  # the round's notice: superseded
    assert (await storage.get_game(games[0].id)).tournament_id == made.id


async def test_a_round_paired_twice_is_refused(storage: Storage) -> None:
    players = await people(storage, 4)
    made = await storage.create_tournament(event(players[0]))
    stored, _ = await storage.store_round(made.id, made.version, pairings(1, players[:2]))
    with pytest.raises(RoundAlreadyPaired) as twice:  # read again after it, paired again
        await storage.store_round(made.id, stored.version, pairings(1, players[2:]), notices=[notice("a1b2c3x")])
    assert (twice.value.tournament_id, twice.value.number) == (made.id, 1)
    state = await storage.tournament_state(made.id)
    assert state.tournament == stored and len(state.boards) == 1
    assert await storage.pending_notices("discord", CHANNEL) == []
    assert await storage.active_game("discord", CHANNEL) is None  # no game was left behind


async def test_no_player_gets_two_open_games_of_an_event(storage: Storage) -> None:
    players = await people(storage, 3)
    made = await storage.create_tournament(event(players[0]))
    stored, _ = await storage.store_round(made.id, made.version, pairings(1, players[:2]))
    with pytest.raises(ValueError, match="two open games"):
        await storage.store_round(made.id, stored.version, NewRound(number=2, boards=(
            NewBoard(1, players[1].id, players[2].id, game=game_of(players[1], players[2])),)))
    assert (await storage.tournament_state(made.id)).tournament == stored


async def test_two_writers_pair_a_round_once(storage: Storage, database: str, clock: FakeClock) -> None:
    players = await people(storage, 8)
    made = await storage.create_tournament(event(players[0]))
    async with await open_storage(database, clock=clock) as other:
        results = await asyncio.gather(
            storage.store_round(made.id, made.version, pairings(1, players), notices=[notice("a1b2c3r1")]),
            other.store_round(made.id, made.version, pairings(1, players[::-1]), notices=[notice("a1b2c3r1")]),
            return_exceptions=True)
    stored = [r for r in results if isinstance(r, tuple)]
    lost = [r for r in results if isinstance(r, VersionConflict | RoundAlreadyPaired)]
    assert len(stored) == len(lost) == 1, results
    state = await storage.tournament_state(made.id)
    assert [b.game_id for b in state.boards] == [g.id for g in stored[0][1]]
    assert len(await storage.pending_notices("discord", CHANNEL)) == 1


# --- a chat's games ----------------------------------------------------------------------------

async def test_a_chat_holds_one_casual_game_and_thirty_two_event_games(
    storage: Storage, alice: Player, bob: Player, make_game: MakeGame
) -> None:
    casual = await make_game()  # Alice and Bob's, started before the event
    players = await people(storage, 64)
    made = await storage.create_tournament(event(alice))
    _, games = await storage.store_round(made.id, made.version, pairings(1, players))
    assert len(games) == 32
    with pytest.raises(ChannelBusy) as busy:  # still one casual game per chat
        await make_game(status="challenge", black=None)
    assert busy.value.game_id == casual.id
    assert (await storage.active_game("discord", CHANNEL)) == casual
    mine = await storage.active_game("discord", CHANNEL, user_id="p0")  # Discord's autocomplete of moves
    assert mine is not None and mine.id == games[0].id
    # Each player's message is about their own game; a spectator's about the casual one.
    assert await chat_game(storage, "p0") == games[0].id
    assert await chat_game(storage, "p63") == games[31].id
    assert await chat_game(storage, "100") == casual.id  # Alice plays only the casual game
    assert await chat_game(storage, "nobody") == casual.id
    # A game the door names (its thread, its web page) comes first, while it is open here.
    assert await chat_game(storage, "p0", casual.id) == casual.id
    assert await chat_game(storage, "nobody", games[5].id) == games[5].id
    assert await chat_game(storage, "p0", 10**9) == games[0].id
    state = await storage.chat_state("discord", CHANNEL, "p2")
    assert set(state.players) == {players[2].id, players[3].id}
    # When the casual game ends, a spectator has no game; the players keep theirs.
    await storage.update_game(casual.id, casual.version, GameChanges(status="finished", result="1-0",
                                                                     reason="resign"))
    assert await chat_game(storage, "nobody") is None
    assert await chat_game(storage, "p1") == games[0].id
    assert await storage.active_game("discord", CHANNEL) is None


# --- the clock, reminders and rotas ------------------------------------------------------------

async def test_due_events_and_the_next_deadline(storage: Storage, alice: Player, clock: FakeClock) -> None:
    made = await storage.create_tournament(event(alice, starts=clock.now + timedelta(hours=2),
                                                 next_at=clock.now + timedelta(hours=1)))
    await storage.create_tournament(event(alice, channel="chan-line", platform="line"))
    assert await storage.next_deadline() == clock.now + timedelta(hours=1)
    assert await storage.next_deadline(after=clock.now + timedelta(hours=1)) is None
    assert await storage.next_deadline(platform="line") is None
    assert await storage.due_tournaments(clock.now) == []
    assert await storage.due_tournaments(clock.now + timedelta(hours=1), platform="discord") == [made.id]
    assert await storage.due_tournaments(clock.now + timedelta(hours=1), platform="line") == []
    await storage.change_tournament(made.id, made.version, {"status": "cancelled"})
    assert await storage.due_tournaments(clock.now + timedelta(hours=1)) == []
    assert await storage.next_deadline() is None


async def test_each_reminder_once(storage: Storage, alice: Player, database: str, clock: FakeClock) -> None:
    made = await storage.create_tournament(event(alice))
    marks = {"hour": [notice("a1b2c3mhour", "tournament_reminder")]}
    async with await open_storage(database, clock=clock) as other:
        results = await asyncio.gather(storage.record_reminders(made.id, ["day", "hour"], marks),
                                       other.record_reminders(made.id, ["day", "hour"], marks))
    assert sorted(results, key=len) == [[], ["day", "hour"]]
    assert await storage.record_reminders(made.id, ["hour", "5m"], {"5m": [notice("a1b2c3m5m")]}) == ["5m"]
    assert [n.key for n in await storage.pending_notices("discord", CHANNEL)] == ["a1b2c3mhour", "a1b2c3m5m"]


async def test_a_rota_makes_one_event_a_date(storage: Storage, alice: Player, clock: FakeClock) -> None:
    rota = await storage.add_rota("discord", CHANNEL, 3, time(20, 0), "Asia/Bangkok", '{"system": "arena"}',
                                  alice.id, community="guild-1")
    assert (rota.weekday, rota.local_time, rota.active, rota.spec) == (3, time(20, 0), True, '{"system": "arena"}')
    assert await storage.due_rotas(clock.now) == [rota]
    thursday = date(2026, 12, 3)
    arena = event(alice, pairing_system="arena", move_seconds=None, clock_initial=180, clock_increment=2,
                  arena_minutes=90, rounds=None, starts=clock.now + timedelta(days=1))
    made = await storage.rota_event(rota.id, thursday, arena, notices=[notice("a1b2c3d")])
    assert made is not None and (made.rota_id, made.rota_date) == (rota.id, thursday)
    assert await storage.rota_event(rota.id, thursday, arena) is None  # once a date
    assert await storage.due_rotas(clock.now) == []  # its event is to come
    with pytest.raises(TournamentBusy):  # the chat's open event stands in the way
        await storage.rota_event(rota.id, thursday + timedelta(days=7), arena)
    clock.advance(2 * 86400)
    await storage.change_tournament(made.id, made.version, {"status": "finished"})
    assert await storage.due_rotas(clock.now, platform="discord") == [rota]
    assert await storage.due_rotas(clock.now, platform="line") == []
    assert await storage.stop_rota("discord", CHANNEL) == 1
    assert await storage.due_rotas(clock.now) == []
    again = await storage.add_rota("discord", CHANNEL, 3, time(20, 0), "Asia/Tokyo", "{}", alice.id)
    assert (again.id, again.active, again.timezone) == (rota.id, True, "Asia/Tokyo")
    assert [n.key for n in await storage.pending_notices("discord", CHANNEL)] == ["a1b2c3d"]


async def test_storage_games_default_outside_events(make_game: MakeGame) -> None:
    game: Game = await make_game()
    assert (game.tournament_id, game.berserk) == (None, None)
