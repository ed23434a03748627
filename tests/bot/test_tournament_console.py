"""Tournaments end to end through the console's ``--json`` (issue 25's contract): scripted players
on a fake clock play a 16-player Swiss of 5 rounds and an 8-player double round robin. Every
pairings and standings record is checked against the contract and the events' invariants: no
rematch (a double round robin: each pair twice, colours swapped), one bye at most, colours
within +-2 and never three alike in a row (a Swiss's final round excepted for topscorers), and
standings whose points are the scripted results."""

from __future__ import annotations

import io
import json
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bot.adapters.console import ConsoleChat
from bot.app import open_tournaments
from bot.clock import FakeClock
from bot.config import Settings
from bot.engines import RandomMover
from bot.services.games import GameService
from bot.tournaments.tiebreaks import TIEBREAKS, System
from makruk import Board
from storage import open_storage

from .support import no_image

USUAL = {"kind", "text", "error", "image", "game"}
PAIRINGS = USUAL | {"tournament", "round", "pairs", "bye"}
STANDINGS = USUAL | {"tournament", "round", "final", "rows"}


class Script:
    """The console as a person uses it, one line at a time, with what it printed."""

    def __init__(self, chat: ConsoleChat, out: io.StringIO, rng: random.Random) -> None:
        self.chat = chat
        self.out = out
        self.rng = rng
        self.records: list[dict[str, Any]] = []
        self.positions: dict[int, dict[str, Any]] = {}  # game id -> its latest "game" record

    async def line(self, text: str) -> list[dict[str, Any]]:
        start = len(self.out.getvalue())
        await self.chat.say(text)
        await self.chat.outbox().drain()  # what the scheduler would deliver at once
        new = [json.loads(line) for line in self.out.getvalue()[start:].splitlines()]
        for record in new:
            if record["error"]:
                raise AssertionError(f"{text!r} was refused: {record['error']} {record['text']}")
            if record["game"] is not None:
                self.positions[record["game"]["id"]] = record["game"]
        self.records += new
        return new

    async def play(self, pair: dict[str, Any]) -> float:
        """Random legal moves, then the side to move resigns (mostly) or a draw is agreed;
        White's points."""
        game_id = pair["game"]
        for _ in range(self.rng.choice([0, 1, 2, 3, 4, 6])):
            game = self.positions[game_id]
            if game["result"] is not None:
                break
            mover = pair["white"] if game["turn"] == "w" else pair["black"]
            move = self.rng.choice(Board(game["fen"]).legal_moves())
            await self.line(f"{mover}: {move.uci()}")
        game = self.positions[game_id]
        if game["result"] is None:
            mover, other = (pair["white"], pair["black"]) if game["turn"] == "w" else (pair["black"], pair["white"])
            if self.rng.random() < 0.8:
                await self.line(f"{mover}: resign")
            else:
                await self.line(f"{mover}: draw")
                await self.line(f"{other}: accept")
        result = self.positions[game_id]["result"]
        assert result is not None, self.positions[game_id]
        return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]


async def run_event(tmp_path: Path, seed: int, spec: str, players: list[str]) -> tuple[Script, dict[str, float]]:
    """Runs the event to its end; the script and each player's points as scripted."""
    clock = FakeClock()
    storage = await open_storage(str(tmp_path / "console.db"), clock=clock.now)
    try:
        games = GameService(storage, Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                            render=no_image)
        tournaments = open_tournaments(games)
        out = io.StringIO()
        script = Script(ConsoleChat(games, out=out, as_json=True), out, random.Random(seed))
        await script.line(f"alice: tournament new {spec}")
        for name in players:
            await script.line(f"{name}: join")
        pending = [r for r in await script.line("alice: tournament start") if r["kind"] == "tournament_pairings"]
        points: dict[str, float] = defaultdict(float)
        while pending:
            pairings = pending.pop()
            if pairings["bye"] is not None:
                points[pairings["bye"]] += 1.0
            for pair in pairings["pairs"]:
                before = len(script.records)
                white = await script.play(pair)
                points[pair["white"]] += white
                points[pair["black"]] += 1.0 - white
                pending += [r for r in script.records[before:] if r["kind"] == "tournament_pairings"]
        assert tournaments.sizes() == {"locks": 0, "poked": 0}  # nothing kept once the event is settled
        return script, points
    finally:
        await storage.close()


def check_contract(script: Script, system: System) -> tuple[list[dict], list[dict]]:
    pairings = [r for r in script.records if r["kind"] == "tournament_pairings"]
    standings = [r for r in script.records if r["kind"] == "tournament_standings"]
    for record in pairings:
        assert set(record) == PAIRINGS and record["game"] is None
        assert all(set(pair) == {"white", "black", "game"} and isinstance(pair["game"], int)
                   for pair in record["pairs"])
    for record in standings:
        assert set(record) == STANDINGS and record["game"] is None
        ranks = [row["rank"] for row in record["rows"]]
        assert ranks == sorted(ranks) and ranks[0] == 1
        for row in record["rows"]:
            assert set(row) == {"rank", "player", "points", "tiebreaks"}
            assert list(row["tiebreaks"]) == list(TIEBREAKS[system])  # the system's, in order
    assert [r["round"] for r in pairings] == list(range(1, len(pairings) + 1))
    assert [r["final"] for r in standings] == [False] * (len(standings) - 1) + [True]
    assert [r["round"] for r in standings] == list(range(1, len(pairings) + 1))
    return pairings, standings


def check_colours(pairings: list[dict], standings: list[dict], *, final_exception: bool) -> None:
    colours: dict[str, list[str]] = defaultdict(list)
    for number, record in enumerate(pairings, start=1):
        last = final_exception and number == len(pairings)
        before = {row["player"]: row["points"] for row in standings[number - 2]["rows"]} if number > 1 else {}
        for pair in record["pairs"]:
            excused = last and any(before.get(p, 0) > (number - 1) / 2 for p in (pair["white"], pair["black"]))
            for player, colour in ((pair["white"], "w"), (pair["black"], "b")):
                colours[player].append(colour)
                sequence = colours[player]
                within = abs(sequence.count("w") - sequence.count("b")) <= 2
                no_three = len(sequence) < 3 or len(set(sequence[-3:])) > 1
                assert (within and no_three) or excused, f"round {number}: {player} has {''.join(sequence)}"


def check_points(standings: list[dict], points: dict[str, float]) -> None:
    final = {row["player"]: row["points"] for row in standings[-1]["rows"]}
    assert final == {name: points.get(name, 0.0) for name in final}
    assert sorted(final.values(), reverse=True) == [row["points"] for row in standings[-1]["rows"]]


async def test_a_16_player_swiss_of_5_rounds(tmp_path: Path) -> None:
    players = [f"p{n:02d}" for n in range(1, 17)]
    script, points = await run_event(tmp_path, 25, "swiss 5 rounds 3+2", players)
    pairings, standings = check_contract(script, "swiss")
    assert len(pairings) == 5 and len(standings) == 5
    met: Counter[frozenset[str]] = Counter()
    byes = Counter(r["bye"] for r in pairings if r["bye"] is not None)
    for record in pairings:
        seated = [p for pair in record["pairs"] for p in (pair["white"], pair["black"])]
        assert sorted(seated + ([record["bye"]] if record["bye"] else [])) == sorted(players)
        met.update(frozenset((pair["white"], pair["black"])) for pair in record["pairs"])
    assert max(met.values()) == 1, "a rematch"
    assert not byes or max(byes.values()) == 1
    check_colours(pairings, standings, final_exception=True)
    check_points(standings, points)
    assert len({pair["game"] for r in pairings for pair in r["pairs"]}) == 40


async def test_an_8_player_double_round_robin(tmp_path: Path) -> None:
    players = [f"r{n}" for n in range(1, 9)]
    script, points = await run_event(tmp_path, 7, "roundrobin double 3+2", players)
    pairings, standings = check_contract(script, "roundrobin")
    assert len(pairings) == 14 and all(r["bye"] is None and len(r["pairs"]) == 4 for r in pairings)
    games: dict[frozenset[str], list[tuple[str, str]]] = defaultdict(list)
    for record in pairings:
        for pair in record["pairs"]:
            games[frozenset((pair["white"], pair["black"]))].append((pair["white"], pair["black"]))
    assert len(games) == 28
    for pair, boards in games.items():  # each pair twice, once with each colour
        assert len(boards) == 2 and boards[0] == boards[1][::-1], (pair, boards)
    check_colours(pairings, standings, final_exception=False)
    check_points(standings, points)
    assert standings[-1]["text"].count("wins tournament") + standings[-1]["text"].count("share first") == 1
