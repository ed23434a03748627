"""Self-play's candidates off the line: the punishment of a blunder the game did not play,
screened at each position not yet decided, each shot offered once a game (docs/puzzles.md)."""

from __future__ import annotations

import random

from bot.engines import EnginePosition, SyncUciEngine
from bot.puzzles.acceptance import win_chance
from bot.puzzles.engine_check import EngineCheck
from bot.puzzles.selfplay import PlaySettings, _blunders, one_per_shot, puzzle_fen
from bot.puzzles.shelf import make_puzzle
from bot.puzzles.verify import verify_puzzle
from makruk import Board, Move

ENGINE = "/usr/games/fairy-stockfish"
# Black to move holds the balance (its Rua on g7); Rua g8 lets a check on the eighth rank
# skewer the Khun and the Rua: Ra8+, Kd7, Rxg8.
BEFORE = "3k4/2s3r1/1s1m4/1p1p3p/1P1P3P/3KM3/1S3S2/R7 b - - 0 50"
BLUNDER = "g7g8"


def _screen(engine: SyncUciEngine, settings: PlaySettings) -> list[tuple[str, str]]:
    board = Board(BEFORE, variant="makruk")
    search = engine.go(EnginePosition(BEFORE, (), variant="makruk"), nodes=6000, multipv=3, timeout=30)
    lines = [line for line in sorted(search.lines, key=lambda x: x.multipv) if line.pv]
    assert BLUNDER not in {line.pv[0] for line in lines}  # off the line: not among the search's best
    now = win_chance(lines[0].score_cp, lines[0].mate)
    return list(_blunders(engine, board, BEFORE, [], lines, now, random.Random(1), settings, "makruk"))


def test_a_blunder_off_the_line_gives_its_punishment_as_a_puzzle() -> None:
    after = Board(BEFORE, variant="makruk")
    after.push(Move.from_uci(BLUNDER))
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        # Every move off the line tried: the one that loses the Rua is the one candidate.
        found = _screen(engine, PlaySettings(blunders=99))
        assert found == [(puzzle_fen(after), "a1a8")]
        puzzle = make_puzzle(EngineCheck(engine), engine, found[0][0], "makruk")
        assert puzzle.kind == "material" and puzzle.moves == ("a1a8", "d8d7", "a8g8")
        assert "skewer" in puzzle.themes and verify_puzzle(puzzle).ok
        assert _screen(engine, PlaySettings(blunders=0)) == []


def test_a_game_offers_each_shot_once() -> None:
    # The next plies' blunders often leave the same shot: the first position with it is offered.
    found = [("fen-a", "d6a6"), ("fen-b", "f5e3"), ("fen-c", "d6a6"), ("fen-d", "a1a8")]
    assert list(one_per_shot(found)) == ["fen-a", "fen-b", "fen-d"]
