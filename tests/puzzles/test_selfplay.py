"""Self-play's candidates off the line: the punishment of a blunder the game did not play,
screened at each position not yet decided, each shot offered once a game (docs/puzzles.md)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.engines import EnginePosition, SyncUciEngine
from bot.engines.uci import InfoLine, UciResult
from bot.puzzles.acceptance import win_chance
from bot.puzzles.engine_check import EngineCheck
from bot.puzzles.selfplay import (
    PROBE_NODES,
    PlaySettings,
    _blunders,
    _playable,
    _punishes,
    one_per_shot,
    puzzle_fen,
    screen,
)
from bot.puzzles.shelf import make_puzzle
from bot.puzzles.verify import verify_puzzle
from makruk import Board, Move

from .support import CountingEngine

ENGINE = "/usr/games/fairy-stockfish"
# Black to move holds the balance (its Rua on g7); Rua g8 lets a check on the eighth rank
# skewer the Khun and the Rua: Ra8+, Kd7, Rxg8.
BEFORE = "3k4/2s3r1/1s1m4/1p1p3p/1P1P3P/3KM3/1S3S2/R7 b - - 0 50"
BLUNDER = "g7g8"


def _screen(engine: SyncUciEngine, settings: PlaySettings, now: float | None = None) -> list[tuple[str, str]]:
    """The candidates the blunders from BEFORE leave; ``now``: Black's win chance, if not the
    engine's (about 0)."""
    board = Board(BEFORE, variant="makruk")
    lines = screen(engine, EnginePosition(BEFORE, (), variant="makruk"), 6000)
    assert lines is not None and BLUNDER not in {line.pv[0] for line in lines}  # off the line
    now = win_chance(lines[0].score_cp, lines[0].mate) if now is None else now
    return list(_blunders(engine, board, board.legal_moves(), BEFORE, [], lines, now, random.Random(1), settings,
                          "makruk"))


def test_a_blunder_off_the_line_gives_its_punishment_as_a_puzzle() -> None:
    after = Board(BEFORE, variant="makruk")
    after.push(Move.from_uci(BLUNDER))
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        # Every move off the line tried: the one that loses the Rua is the one candidate.
        found = _screen(engine, PlaySettings(blunders=99))
        assert found == [(puzzle_fen(after), "Ra1a8")]
        puzzle = make_puzzle(EngineCheck(engine), engine, found[0][0], "makruk")
        assert puzzle.kind == "material" and puzzle.moves == ("a1a8", "d8d7", "a8g8")
        assert "skewer" in puzzle.themes and verify_puzzle(puzzle).ok


def test_the_punisher_was_not_already_winning_before_the_blunder() -> None:
    # White's chance before Black's blunder is minus Black's: a material gain counts only for a
    # side at most 0.2 ahead before it (``max_before_material``).
    with SyncUciEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        assert [shot for _, shot in _screen(engine, PlaySettings(blunders=99), now=0.3)] == ["Ra1a8"]
        assert _screen(engine, PlaySettings(blunders=99), now=-0.3) == []


def test_a_game_offers_each_shot_once() -> None:
    # The next plies' blunders often leave the same shot: the first position with it is offered.
    # A shot is the piece and its move: another piece's same move is another shot.
    found = [("fen-a", "Rd6a6"), ("fen-b", "nf5e3"), ("fen-c", "Rd6a6"), ("fen-d", "Ra1a8"), ("fen-e", "sf5e3")]
    assert list(one_per_shot(found)) == ["fen-a", "fen-b", "fen-d", "fen-e"]


def test_the_probe_screens_only_the_blunders_that_lose_enough() -> None:
    settings = PlaySettings(blunders=99, probe_nodes=PROBE_NODES)
    with CountingEngine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        engine.start()
        found = _screen(engine, replace(settings, probe_nodes=0))
        screened = engine.nodes.count(settings.blunder_nodes)
        engine.nodes.clear()
        engine.new_game()
        assert _screen(engine, settings) == found  # the Rua's loss passes the probe
        probed = engine.nodes.count(settings.probe_nodes)
        assert probed == screened  # every blunder is probed ...
        assert 1 <= engine.nodes.count(settings.blunder_nodes) < screened  # ... those losing little are not screened


class _Answers:
    """Stands in for the engine with recorded MultiPV answers: the probe's rule alone."""

    def __init__(self, *lines: tuple[int | None, int | None]) -> None:
        self.lines = tuple(InfoLine(cp, mate, (f"a{n + 1}a{n + 2}",), multipv=n + 1)
                           for n, (cp, mate) in enumerate(lines))

    def go(self, position: EnginePosition, **limits: Any) -> UciResult:
        assert limits["nodes"] == PROBE_NODES and limits["multipv"] == 2
        return UciResult(self.lines[0].pv[0], self.lines)


@pytest.mark.parametrize(("lines", "screened"), [
    (((400, None), (-20, None)), True),  # a Rua won, nothing else wins
    (((None, 3), (0, None)), True),  # a mate, and nothing else wins
    (((None, 3), (None, 5)), False),  # a slower mate too: the screen would refuse it as well
    (((100, None), (-20, None)), False),  # too little lost
    (((400, None), (350, None)), False),  # another move punishes it as well
    (((400, None),), True),  # one legal move
])
def test_the_probe_wants_a_loss_that_one_move_punishes(lines: tuple, screened: bool) -> None:
    position = EnginePosition(BEFORE, (), variant="makruk")
    settings = PlaySettings(probe_nodes=PROBE_NODES)
    assert _punishes(_Answers(*lines), position, "makruk", settings) is screened  # type: ignore[arg-type]


def test_a_move_the_rules_refuse_gives_way_to_the_engines_next_choice() -> None:
    # From a generator's game: Fairy-Stockfish 11.1 chose the Neang's double step d8d6, which
    # would take White's Met on d6; the leap never captures (RULES.md), so the game goes on
    # along the engine's next line instead of ending there.
    board = Board("r2m1sr1/1k1s4/1p1M~p2p/pNp2p2/PnP2n2/1P1P3P/1S1MSK1R/R5N1 b d - 2 16", variant="cambodian")
    legal = board.legal_moves()
    assert Move.from_uci("d8d6") not in legal and Move.from_uci("b7c8") in legal
    lines = [InfoLine(120, None, ("d8d6",), multipv=1), InfoLine(40, None, ("b7c8",), multipv=2)]
    assert [line.pv[0] for line in _playable(lines, legal)] == ["b7c8"]
    assert _playable(lines[:1], legal) == []  # nothing left: the game ends
