"""Arenas through the service (docs/tournaments.md 2.5), real games on a fake clock, on SQLite and
PostgreSQL: lichess's scoring through played games (W W W = 8, berserk, quick draws), batches of
the players waiting (four at once, else after 10 s; no immediate rematch unless only two wait),
colours, berserk's clock, and the end (games still running do not count)."""

from __future__ import annotations

import random

import pytest

from bot.clock import FakeClock
from storage import Storage
from storage.clock_records import side_to_move

from .tournament_support import Event, start_event

FOUR = ["alice", "bob", "cy", "dan"]


@pytest.fixture
def event(storage: Storage, clock: FakeClock) -> Event:
    return Event(storage, clock)


def pair_of(pairings: dict, name: str) -> dict:
    return next(p for p in pairings["pairs"] if name in (p["white"], p["black"]))


def other(pair: dict, name: str) -> str:
    return pair["black"] if pair["white"] == name else pair["white"]


async def play(event: Event, pair: dict, plies: int, seed: int = 1) -> None:
    """``plies`` legal moves in the pair's game, each by the side to move (seeded choices)."""
    rng = random.Random(seed)
    for _ in range(plies):
        game = await event.storage.get_game(pair["game"])
        assert game.status == "active", (game.status, game.reason)
        board = event.games.table.board(game)
        move = rng.choice(sorted(board.legal_moves(), key=lambda m: m.uci()))
        mover = pair["white"] if side_to_move(game) == "w" else pair["black"]
        await event.ok(mover, move.uci())


async def win(event: Event, pairings: dict, winner: str, plies: int = 0) -> None:
    """``winner``'s game of ``pairings`` is played for ``plies`` plies, then the other resigns."""
    pair = pair_of(pairings, winner)
    await play(event, pair, plies)
    await event.ok(other(pair, winner), "resign")


async def next_batch(event: Event, seconds: float = 10) -> dict:
    """The batch paired once ``seconds`` have passed (the 10 s a pair waits for others)."""
    event.clock.advance(seconds=seconds)
    pairings = await event.data("tournament_pairings")
    assert len(pairings) == 1, pairings
    return pairings[0]


async def points_now(event: Event, asking: str = "alice") -> dict[str, float]:
    replies = await event.ok(asking, "standings")
    assert replies[0].kind == "tournament_standings" and replies[0].data is not None
    rows = replies[0].data["rows"]
    assert all(list(row["tiebreaks"]) == ["performance"] for row in rows)
    return {row["player"]: row["points"] for row in rows}


async def test_three_wins_make_eight_and_a_quick_draw_scores_nothing(event: Event) -> None:
    first = (await start_event(event, "arena 30m 3+2", ["alice", "bob"]))[0]
    assert first["round"] == 1 and len(first["pairs"]) == 1
    whites = [first["pairs"][0]["white"]]
    await win(event, first, "alice")
    pairings = first
    for _ in range(2):  # only two wait: after 10 s they meet again
        event.clock.advance(seconds=9)
        assert not await event.data("tournament_pairings")
        pairings = await next_batch(event, 1)
        whites.append(pairings["pairs"][0]["white"])
        await win(event, pairings, "alice", plies=2)
    assert whites[1] != whites[0] and whites[2] == whites[0]  # the one with fewer Whites gets White
    assert await points_now(event) == {"alice": 8.0, "bob": 0.0}  # 2, 2, then 4 on fire
    pairings = await next_batch(event)
    pair = pairings["pairs"][0]
    await play(event, pair, 6)
    await event.ok(pair["white"], "draw")
    await event.ok(pair["black"], "accept")
    assert await points_now(event) == {"alice": 8.0, "bob": 0.0}  # a draw within 10 moves: 0
    pairings = await next_batch(event)
    pair = pairings["pairs"][0]
    await play(event, pair, 20)  # ten moves each: a draw that counts, for 1 (the fire is out)
    await event.ok(pair["white"], "draw")
    await event.ok(pair["black"], "accept")
    assert await points_now(event) == {"alice": 9.0, "bob": 1.0}
    event.clock.advance(minutes=30)
    final = await event.data("tournament_standings")
    assert len(final) == 1 and final[0]["final"]
    assert [(row["player"], row["points"]) for row in final[0]["rows"]] == [("alice", 9.0), ("bob", 1.0)]
    assert "alice" in final[0]["rows"][0]["player"] and final[0]["rows"][0]["rank"] == 1
    assert (await event.storage.tournament(final[0]["tournament"])).status == "finished"


async def test_berserk_halves_the_clock_removes_the_increment_and_pays_from_move_seven(event: Event) -> None:
    first = (await start_event(event, "arena 30m 3+2", ["alice", "bob"]))[0]
    pair = first["pairs"][0]
    await event.ok("alice", "berserk")
    await event.refused("alice", "berserk", "berserk_not_now")  # once
    game = await event.storage.get_game(pair["game"])
    colour = "w" if pair["white"] == "alice" else "b"
    assert game.berserk == colour
    assert game.clocks is not None
    assert (game.clocks.white_ms, game.clocks.black_ms) == ((90_000, 180_000) if colour == "w" else (180_000, 90_000))
    await play(event, pair, 2)  # each side's first move: free
    event.clock.advance(seconds=5)
    await play(event, pair, 2)  # each side's second move, 5 s after the one before... for the first mover
    game = await event.storage.get_game(pair["game"])
    assert game.clocks is not None
    alice_ms, bob_ms = (game.clocks.white_ms, game.clocks.black_ms) if colour == "w" else \
        (game.clocks.black_ms, game.clocks.white_ms)
    if colour == "w":  # alice ran 5 s and gained nothing; bob moved at once and gained 2 s
        assert (alice_ms, bob_ms) == (85_000, 182_000)
    else:  # bob ran 5 s and gained 2 s; alice moved at once and gained nothing
        assert (alice_ms, bob_ms) == (90_000, 177_000)
    await event.refused("alice", "berserk", "berserk_not_now")  # she has moved
    await event.ok("bob", "resign")  # a berserk win of 2 moves: no bonus
    assert await points_now(event) == {"alice": 2.0, "bob": 0.0}
    second = await next_batch(event)
    await event.ok("alice", "berserk")
    await win(event, second, "alice", plies=14)  # seven moves each: the bonus
    assert await points_now(event) == {"alice": 5.0, "bob": 0.0}
    game = await event.storage.get_game(second["pairs"][0]["game"])
    assert game.berserk in ("w", "b") and game.result in ("1-0", "0-1")


async def test_berserk_is_for_arena_games_only(event: Event) -> None:
    await start_event(event, "swiss 3 rounds 3+2", ["alice", "bob"])
    await event.refused("alice", "berserk", "berserk_not_now")
    await event.refused("zed", "berserk", "berserk_not_now")


async def test_four_waiting_are_paired_at_once_without_an_immediate_rematch(event: Event) -> None:
    first = (await start_event(event, "arena 30m 3+2", FOUR))[0]
    assert len(first["pairs"]) == 2
    one, two = first["pairs"]
    await event.ok(one["black"], "resign")
    event.clock.advance(seconds=9)
    assert not await event.data("tournament_pairings")  # two wait: not yet
    await event.ok(two["black"], "resign")  # four wait: paired at once
    second = await event.data("tournament_pairings")
    assert len(second) == 1 and second[0]["round"] == 2
    met = {frozenset((p["white"], p["black"])) for p in second[0]["pairs"]}
    assert frozenset((one["white"], one["black"])) not in met and frozenset((two["white"], two["black"])) not in met
    assert len(met) == 2
    # One game ends: its two players are the only ones waiting, so after 10 s they meet again.
    three = second[0]["pairs"][0]
    await event.ok(three["white"], "resign")
    third = await next_batch(event)
    assert {third["pairs"][0]["white"], third["pairs"][0]["black"]} == {three["white"], three["black"]}


async def test_games_running_at_the_end_do_not_count(event: Event) -> None:
    first = (await start_event(event, "arena 20m 30+0", FOUR))[0]
    one, two = first["pairs"]
    await play(event, two, 2)  # this game is still running at the end
    event.clock.advance(minutes=19, seconds=50)
    await event.ok(one["black"], "resign")  # before the end: it counts
    event.clock.advance(seconds=11)  # the end has passed; the tick has not come yet
    await event.ok(two["black"], "resign")  # after the end: it does not count
    final = [n.reply.data or {} for n in await event.notices() if n.reply.kind == "tournament_standings"]
    assert len(final) == 1 and final[0]["final"]
    points = {row["player"]: row["points"] for row in final[0]["rows"]}
    assert points == {one["white"]: 2.0, one["black"]: 0.0, two["white"]: 0.0, two["black"]: 0.0}
    state = await event.storage.tournament_state(final[0]["tournament"])
    assert state.tournament.status == "finished" and state.tournament.last_round == 1  # no batch after the end
    assert (await event.storage.get_game(two["game"])).result == "1-0"  # the game itself stands


async def test_an_absent_player_loses_by_forfeit_and_two_forfeits_withdraw(event: Event) -> None:
    pairings = (await start_event(event, "arena 30m 3+2", ["alice", "bob", "cy"]))[0]
    assert len(pairings["pairs"]) == 1 and "cy" not in pairings["pairs"][0].values()  # the last ranked waits
    await event.ok("cy", "withdraw")
    for number in (1, 2):
        pair = pairings["pairs"][0]
        absent = "bob" if "bob" in (pair["white"], pair["black"]) else other(pair, "alice")
        present = other(pair, absent)
        if pair["white"] == present:
            await play(event, pair, 1)  # the present player moves; the absent one never does
        event.clock.advance(seconds=61)
        await event.notices()
        game = await event.storage.get_game(pair["game"])
        assert game.reason == "forfeit" and game.result == ("1-0" if pair["white"] == present else "0-1")
        if number == 1:
            pairings = await next_batch(event)
    state = await event.event_state()
    bob = await event.storage.find_player("console", "bob")
    assert bob is not None and next(e for e in state.entrants if e.player_id == bob.id).withdrawn
    assert any("two games by forfeit" in n.reply.text for n in event.delivered)
    points = await points_now(event)
    assert points["alice"] == 4.0 and points["bob"] == 0.0  # forfeit wins: 2 each, never on fire
