"""Arenas through the service (docs/tournaments.md 2.5), real games on a fake clock, on SQLite and
PostgreSQL: lichess's scoring through played games (W W W = 8, berserk, quick draws), batches of
the players waiting (four at once, else after 10 s; no immediate rematch unless only two wait),
colours, berserk's clock, and the end (games still running do not count)."""

from __future__ import annotations

import io
import json
import random
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.console import ConsoleChat
from bot.app import open_tournaments
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from bot.services.tournaments.service import TournamentService
from bot.tournaments.arena import ArenaGame, arena_scores
from makruk import Board
from storage import Storage, open_storage
from storage.clock_records import side_to_move

from .support import no_image
from .test_tournament_console import PAIRINGS, STANDINGS, Script
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


async def test_a_late_entry_waits_and_is_paired_with_the_next_player_free(event: Event) -> None:
    first = (await start_event(event, "arena 30m 3+2", ["alice", "bob"]))[0]
    event.clock.advance(seconds=30)
    await event.ok("cy", "join")  # alone waiting: nothing yet
    assert not await event.data("tournament_pairings")
    await event.ok(first["pairs"][0]["black"], "resign")  # three wait: after 10 s, cy meets one of them
    event.clock.advance(seconds=5)
    assert not await event.data("tournament_pairings")
    second = await next_batch(event, 5)
    # The leader takes the nearest in rank who was not their last opponent: cy, not the loser.
    assert len(second["pairs"]) == 1
    assert {second["pairs"][0]["white"], second["pairs"][0]["black"]} == {"cy", first["pairs"][0]["white"]}
    state = await event.event_state()
    assert state.tournament.last_round == 2 and state.tournament.next_at == state.tournament.ends


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
        else:
            await event.ok(present, "board")  # Black, there, writes to the game: White alone is absent
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


# --- end to end through the console's --json ---------------------------------------------------

class ArenaRun:
    """Scripted players in the console (``makruk-bot console --json``) on a fake clock: each game
    gets random legal moves (a berserk now and then before a first move), then a resignation or
    an agreed draw; the clock moves on between games and while a pair waits for others."""

    def __init__(self, script: Script, clock: FakeClock, tournaments: TournamentService) -> None:
        self.script = script
        self.clock = clock
        self.tournaments = tournaments
        self.rng = script.rng
        self.open: list[dict[str, Any]] = []  # pairs whose game is being played, in pairing order
        self.batches: list[dict[str, Any]] = []
        self.finished: list[tuple[dict[str, Any], str, int, str]] = []  # pair, result, plies, berserk sides
        self.berserk: dict[int, str] = {}

    def take(self, records: list[dict[str, Any]]) -> None:
        for record in records:
            if record["kind"] == "tournament_pairings":
                self.batches.append(record)
                self.open += record["pairs"]

    async def line(self, text: str) -> None:
        self.take(await self.script.line(text))

    async def tick(self) -> None:
        """The scheduler's round: the games' clocks, the event's, then the outbox."""
        start = len(self.script.out.getvalue())
        await self.script.chat.games.tick("console")
        await self.tournaments.tick("console")
        await self.script.chat.outbox().drain()
        new = [json.loads(line) for line in self.script.out.getvalue()[start:].splitlines()]
        self.script.records += new
        self.take(new)

    async def play(self, pair: dict[str, Any]) -> None:
        game_id = pair["game"]
        self.open.remove(pair)
        for name, colour in ((pair["white"], "w"), (pair["black"], "b")):
            if self.rng.random() < 0.25:
                await self.line(f"{name}: berserk")
                self.berserk[game_id] = self.berserk.get(game_id, "") + colour
        positions = self.script.positions
        for _ in range(self.rng.choice([0, 2, 5, 14, 19, 21, 24])):
            game = positions.get(game_id)
            fen = game["fen"] if game else None
            if game is not None and game["result"] is not None:
                break
            board = Board(fen) if fen else Board()
            turn = game["turn"] if game else "w"
            mover = pair["white"] if turn == "w" else pair["black"]
            await self.line(f"{mover}: {self.rng.choice(board.legal_moves()).uci()}")
        game = positions.get(game_id)
        if game is None or game["result"] is None:
            turn = game["turn"] if game else "w"
            mover, other_name = (pair["white"], pair["black"]) if turn == "w" else (pair["black"], pair["white"])
            if self.rng.random() < 0.75:
                await self.line(f"{mover}: resign")
            else:
                await self.line(f"{mover}: draw")
                await self.line(f"{other_name}: accept")
        game = positions[game_id]
        assert game["result"] is not None, game
        self.finished.append((pair, game["result"], game["ply"], self.berserk.get(game_id, "")))


def expected_points(run: ArenaRun) -> dict[str, float]:
    """Each player's arena points from the games as the console showed them, in finishing order."""
    games: dict[str, list[ArenaGame]] = defaultdict(list)
    for pair, result, plies, berserk in run.finished:
        white, black = {"1-0": ("win", "loss"), "0-1": ("loss", "win"), "1/2-1/2": ("draw", "draw")}[result]
        games[pair["white"]].append(ArenaGame.from_plies(white, plies, "w" in berserk))  # type: ignore[arg-type]
        games[pair["black"]].append(ArenaGame.from_plies(black, plies, "b" in berserk))  # type: ignore[arg-type]
    return {name: float(arena_scores(played).total) for name, played in games.items()}


async def test_a_12_player_arena_through_the_console(tmp_path: Path) -> None:
    clock = FakeClock()
    storage = await open_storage(str(tmp_path / "console.db"), clock=clock.now)
    try:
        games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                            render=no_image)
        tournaments = open_tournaments(games)
        out = io.StringIO()
        run = ArenaRun(Script(ConsoleChat(games, out=out, as_json=True), out, random.Random(12)), clock, tournaments)
        players = [f"a{n:02d}" for n in range(1, 13)]
        await run.line("alice: tournament new arena 20m 3+2")
        for name in players:
            await run.line(f"{name}: join")
        await run.line("alice: tournament start")
        ends = clock.now() + timedelta(minutes=20)
        assert len(run.batches) == 1 and len(run.batches[0]["pairs"]) == 6
        while clock.now() < ends - timedelta(seconds=40):
            if run.open:
                await run.play(run.open[0])
                clock.advance(seconds=8)  # the next game: well inside the 60 s for a first move
            else:
                clock.advance(seconds=10)  # two or three wait: paired after 10 s
                await run.tick()
        assert run.open, "games running at the end"
        counted = len(run.finished)
        clock.set(ends + timedelta(seconds=1))
        late = run.open[0]
        await run.line(f"{late['black']}: resign")  # after the end: it does not count
        await run.tick()
        standings = [r for r in run.script.records if r["kind"] == "tournament_standings"]
    finally:
        await storage.close()
    assert counted >= 60
    # The contract: pairings and standings records as issue 25 writes them.
    for record in run.batches:
        assert set(record) == PAIRINGS and record["game"] is None and record["bye"] is None
        assert all(set(pair) == {"white", "black", "game"} and isinstance(pair["game"], int)
                   for pair in record["pairs"])
    assert [r["round"] for r in run.batches] == list(range(1, len(run.batches) + 1))
    assert len(standings) == 1
    final = standings[0]
    assert set(final) == STANDINGS and final["final"] and final["round"] == len(run.batches)
    assert all(set(row) == {"rank", "player", "points", "tiebreaks"} and list(row["tiebreaks"]) == ["performance"]
               for row in final["rows"])
    points = [row["points"] for row in final["rows"]]
    assert points == sorted(points, reverse=True) and final["rows"][0]["rank"] == 1
    assert {row["player"] for row in final["rows"]} == set(players)
    # The points are arena points of the games finished by the end, in the order they finished.
    expected = expected_points(run)
    assert {row["player"]: row["points"] for row in final["rows"]} == {p: expected.get(p, 0.0) for p in players}
    # The run met every rule of the scoring: berserk bonuses, quick draws, streaks on fire.
    assert any(b and r != "1/2-1/2" and n >= 14 for _, r, n, b in run.finished)
    assert any(r == "1/2-1/2" and n < 20 for _, r, n, _ in run.finished)
    fide: defaultdict[str, float] = defaultdict(float)
    for pair, result, _, _ in run.finished:
        fide[pair["white"]] += {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        fide[pair["black"]] += {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]
    assert any(expected.get(p, 0.0) > 2 * fide[p] for p in players)  # somebody was on fire or berserk
    # Batches: no one paired while playing; a rematch only when a pair alone was paired.
    pairs_of = {pair["game"]: pair for record in run.batches for pair in record["pairs"]}
    playing: set[str] = set()
    last: dict[str, str] = {}
    for record in run.script.records:
        if record["kind"] == "tournament_pairings":
            for pair in record["pairs"]:
                white, black = pair["white"], pair["black"]
                assert white not in playing and black not in playing, f"paired while playing: {pair}"
                playing |= {white, black}
                if last.get(white) == black:
                    assert len(record["pairs"]) == 1, f"an immediate rematch in batch {record['round']}"
                last[white], last[black] = black, white
        elif record["game"] is not None and record["game"]["result"] is not None and record["game"]["id"] in pairs_of:
            pair = pairs_of[record["game"]["id"]]
            playing -= {pair["white"], pair["black"]}
    assert "wins tournament" in final["text"] or "share first" in final["text"]
