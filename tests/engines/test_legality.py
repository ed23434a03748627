"""The engines never answer an illegal move: 200 seeded random positions, both engines."""

from __future__ import annotations

from bot.engines import EnginePosition

from .support import legal_ucis, random_positions

POSITIONS = random_positions(200, seed=2026)
PERPETUAL = EnginePosition("8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1",
                           ("f3h2", "f1g1", "h2f3", "g1f1", "f3h2", "f1g1", "h2f3", "g1f1"))


def test_the_positions_are_varied():
    boards = [p.board() for p in POSITIONS]
    assert len({b.fen() for b in boards}) > 190
    assert sum(not b.turn for b in boards) > 50
    assert sum(b.count is not None for b in boards) > 5  # some with a count running
    assert sum(b.is_check() for b in boards) > 5


async def test_builtin_engine_answers_legal_moves(builtin):
    for i, position in enumerate(POSITIONS):
        uci = await builtin.best_move(position, level=1 + i % 2)
        assert uci in legal_ucis(position), (uci, position)


async def test_fairy_stockfish_levels_answer_legal_moves(engine, light_level_5, caplog):
    for position in POSITIONS:
        uci = await engine.best_move(position, level=light_level_5)
        assert uci in legal_ucis(position), (uci, position)
    fallbacks = sum("not legal under our rules" in r.message for r in caplog.records)
    assert fallbacks < 40  # FSF's rules differ only in corners (its counting, perpetual check)


async def test_perpetual_check_is_refused_by_both_engines(builtin, engine):
    # RULES.md: White has checked on every move; f3h2 would repeat a third time: illegal here,
    # though Fairy-Stockfish allows it.
    board = PERPETUAL.board()
    assert "f3h2" not in legal_ucis(PERPETUAL) and board.outcome() is None
    assert await builtin.best_move(PERPETUAL, level=4) in legal_ucis(PERPETUAL)
    for level in (5, 8):
        assert await engine.best_move(PERPETUAL, level=level) in legal_ucis(PERPETUAL)
    fairy_alone = await engine.fairy.go(PERPETUAL, nodes=5000)
    assert fairy_alone.bestmove is not None  # (whatever it plays, the bot checked it)


async def test_analysis_lines_are_legal(engine):
    for position in POSITIONS[:20]:
        analysis = await engine.analyse(position, seconds=0.05)
        board = position.board()
        for uci in analysis.pv:
            assert uci in {m.uci() for m in board.legal_moves()}
            board.push(board.parse_move(uci))
