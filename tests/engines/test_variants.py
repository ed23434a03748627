"""The family against the bot: the built-in engine plays every variant at levels 1-4 and its
level 3 beats a random mover in each; Fairy-Stockfish plays every variant at level 5, with hints
and reviews; one engine process takes a position of one variant after one of another."""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import replace

import pytest

from bot.engines import BuiltinEngine, EnginePosition, LevelledEngine, UciEngine
from bot.engines.builtin import wants_count
from bot.engines.builtin.evaluation import TABLES, move_delta, scores, static_eval
from bot.engines.builtin.search import Limits, Searcher
from bot.services.analysis import review_plies
from makruk import BLACK, VARIANTS, WHITE, Board, Move, starting_fen

from .fake_uci import commands, fake_engine
from .support import legal_ucis, play_out, random_mover, variant_positions

LEGALITY_PLIES = 30  # Sittuyin's deployment (16 plies) and 14 more
LEVEL_3_PLIES = 40  # after Sittuyin's deployment; a game still going then is judged by its evaluation
CLEARLY_BETTER = 300  # centipawns: an unfinished game this far ahead counts as won
# The same placement: in Makpong a Khun in check may only capture the checker, so Ra8 mates.
MATE_IN_MAKPONG = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
ASEAN_PROMOTION = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
PROMOTING = {  # positions with promotions of each kind, by variant (random play seldom reaches them)
    "makruk": ["4k3/8/2r5/1P6/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/6p1/5R2/8/4K3 b - - 0 1"],
    "asean": ["r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/6p1/4K2R b - - 0 1"],
    "sittuyin": ["4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/4p3/8/8/4K3 b - - 0 1"],
}


async def declares(position: EnginePosition) -> bool:
    return wants_count(position.board())


@pytest.fixture
async def quick_builtin():
    """The built-in engine at a twentieth of its thinking time: legality, not strength."""
    engine = BuiltinEngine(seed=5, time_scale=0.05)
    yield engine
    await engine.aclose()


def test_every_variant_has_its_values():
    assert set(TABLES) == set(VARIANTS)  # a new variant of the rules core is given its values knowingly


@pytest.mark.parametrize("variant", VARIANTS)
def test_incremental_values_match_a_fresh_count_in_every_variant(variant):
    tables = TABLES[variant]
    special: set[str] = set()  # the promotion letters and drops met
    positions = variant_positions(variant, 25, seed=4)
    positions += [EnginePosition(fen, (), variant=variant) for fen in PROMOTING.get(variant, ())]
    for position in positions:
        board = position.board()
        moves = board.legal_moves()
        for move in moves[:6] + [m for m in moves if m.promotion or m.drop]:
            special.update(move.uci()[-1] if move.promotion else "@" if move.drop else "")
            mg, eg = scores(board, tables)
            d_mg, d_eg = move_delta(board, move, tables)
            board.push(move)
            assert scores(board, tables) == (mg + d_mg, eg + d_eg), (board.fen(), move.uci())
            board.pop()
    assert special >= {"makruk": {"m"}, "asean": set("qrnb"), "sittuyin": {"f", "@"}}.get(variant, set())


def test_counting_and_the_fifty_move_rule_follow_the_variant():
    bare = "8/8/8/4k3/8/8/8/R2K4 b - - 0 1"
    for variant in ("makruk", "makpong", "cambodian"):
        assert wants_count(Board(bare, variant=variant))  # the bare side declares the count
    for variant in ("asean", "sittuyin"):
        assert not wants_count(Board(bare, variant=variant))  # nobody declares: it starts by itself
    # White's 100th ply without a capture or a Bia move draws in ASEAN (Ra8 is no mate there): all
    # moves score 0; Makruk has no such rule.
    fifty = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"
    assert Searcher().search(Board(fifty, variant="asean"), Limits(depth=4)).score == 0
    assert Searcher().search(Board(fifty), Limits(depth=4)).score > 300


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("colour", [WHITE, BLACK])
async def test_builtin_levels_1_to_4_play_legal_moves_in_every_variant(variant, colour, quick_builtin):
    levels = itertools.cycle((1, 2, 3, 4))
    played: list[tuple[int, str]] = []

    async def bot(position: EnginePosition) -> str:
        uci = await quick_builtin.best_move(position, level=next(levels))
        played.append((len(position.moves), uci))
        return uci

    board, position = await play_out({colour: bot, not colour: random_mover(seed=21 + colour)},
                                     max_plies=LEGALITY_PLIES, variant=variant, declares=declares)
    assert board.ply == LEGALITY_PLIES or board.outcome() is not None, board.fen()
    assert position.board().fen() == board.fen()  # every move was checked by our rules (play_out)
    if variant == "sittuyin":  # the bot deploys the standard arrangement, one drop a move, then plays
        replayed = Board(starting_fen(variant), variant=variant)
        for ply, uci in enumerate(position.moves):
            if (ply, uci) in played and replayed.in_deployment():
                assert Move.from_uci(uci) == replayed.standard_drop(), (ply, uci, replayed.fen())
            replayed.push(Move.from_uci(uci))
        assert all(Move.from_uci(uci).drop for uci in position.moves[:16])
        assert not board.in_deployment() and not Move.from_uci(position.moves[-1]).drop


@pytest.mark.parametrize("variant", VARIANTS)
async def test_level_3_beats_a_random_mover_in_every_variant(variant):
    """Two games, one with each colour, each on an engine of its own (its own worker, one search
    at a time) and played side by side. The thinking time is scaled up so that it never binds:
    level 3 stops at its depth, and the games depend on the seeds alone. A game still going at
    LEVEL_3_PLIES counts as won when level 3 is clearly ahead."""
    engines = [BuiltinEngine(seed=31 + i, time_scale=100.0) for i in range(2)]
    try:
        results = await asyncio.gather(*(_level_3_game(engine, variant, colour)
                                         for engine, colour in zip(engines, (WHITE, BLACK), strict=True)))
    finally:
        for engine in engines:
            await engine.aclose()
    assert all(score == 1.0 for score, _ in results), results


async def _level_3_game(engine: BuiltinEngine, variant: str, colour: bool) -> tuple[float, str]:
    async def bot(position: EnginePosition) -> str:
        return await engine.best_move(position, level=3)

    deployment = 16 if variant == "sittuyin" else 0
    board, _ = await play_out({colour: bot, not colour: random_mover(seed=41 + colour)},
                              max_plies=LEVEL_3_PLIES + deployment, variant=variant, declares=declares)
    outcome = board.outcome()
    if outcome is not None:
        return (1.0 if outcome.winner == colour else 0.5 if outcome.winner is None else 0.0), board.fen()
    ahead = static_eval(board) * (1 if board.turn == colour else -1)
    return (1.0 if ahead >= CLEARLY_BETTER else 0.5 if ahead > -CLEARLY_BETTER else 0.0), board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
async def test_fairy_stockfish_plays_hints_and_reviews_every_variant(variant, fairy, builtin, light_level_5,
                                                                     caplog):
    engine = LevelledEngine(builtin, fairy)

    async def level_5(position: EnginePosition) -> str:
        return await engine.best_move(position, level=light_level_5)

    with caplog.at_level(logging.WARNING):
        board, position = await play_out({WHITE: level_5, BLACK: random_mover(seed=51)}, max_plies=LEGALITY_PLIES,
                                         variant=variant, declares=declares)
        if board.outcome() is None:
            hint = await engine.analyse(position, seconds=0.2)
            assert hint.best in legal_ucis(position)
        game = replace(position, moves=position.moves[:20])
        analyses = await engine.analyse_game(game, seconds=0.5)
    assert "Fairy-Stockfish" not in caplog.text  # it answered every time: no fallback to the built-in engine
    assert len(analyses) == len(game.moves) + 1
    plies = review_plies(game, analyses)
    assert [p.played for p in plies] == list(game.moves)
    for ply in plies:
        assert ply.board.variant == variant
        assert ply.best is None or Move.from_uci(ply.best) in ply.board.legal_moves()


async def test_one_fairy_stockfish_process_plays_one_variant_after_another(fairy):
    pids = set()
    for variant in ("makruk", "makpong", "sittuyin", "asean", "cambodian", "makpong", "makruk"):
        fen = {"makruk": MATE_IN_MAKPONG, "makpong": MATE_IN_MAKPONG, "asean": ASEAN_PROMOTION}.get(
            variant, starting_fen(variant))
        position = EnginePosition(fen, (), variant=variant)
        result = await fairy.go(position, depth=8)
        assert result.bestmove in legal_ucis(position), (variant, result.bestmove)
        if variant == "makpong":
            assert result.bestmove == "a1a8" and result.analysis.mate == 1
        if variant == "makruk":
            assert result.analysis.mate != 1  # the Khun steps out of the Rua's check
        if variant == "sittuyin":
            assert Move.from_uci(result.bestmove).drop
        pids.add(fairy.pid)
    assert len(pids) == 1  # one process, switched from variant to variant


async def test_the_variant_is_set_when_it_changes_and_only_then(tmp_path):
    path, log = fake_engine(tmp_path, "ok")
    engine = UciEngine(path)
    try:
        for variant in ("makruk", "sittuyin", "sittuyin", "makruk"):
            await engine.go(EnginePosition(starting_fen(variant), (), variant=variant), nodes=10)
    finally:
        await engine.aclose()
    said = commands(log)
    assert [c for c in said if "UCI_Variant" in c] == [
        "setoption name UCI_Variant value makruk",  # the handshake
        "setoption name UCI_Variant value sittuyin",
        "setoption name UCI_Variant value makruk",
    ]
    switch = said.index("setoption name UCI_Variant value sittuyin")
    assert said[switch + 1:switch + 3] == ["ucinewgame", "isready"]
    assert said.count(f"position fen {starting_fen('sittuyin')}") == 2  # the FEN as the rules core writes it


async def test_one_builtin_worker_plays_one_variant_after_another(builtin):
    pids = set()
    for variant in ("makruk", "makpong", "sittuyin", "makruk", "makpong"):
        fen = MATE_IN_MAKPONG if variant != "sittuyin" else starting_fen(variant)
        position = EnginePosition(fen, (), variant=variant)
        analysis = await builtin.analyse(position, depth=3)
        assert analysis.best in legal_ucis(position)
        if variant == "makpong":
            assert analysis.best == "a1a8" and analysis.mate == 1
        if variant == "makruk":
            assert analysis.mate != 1
        if variant == "sittuyin":
            drop = position.board().standard_drop()
            assert drop is not None and analysis.best == drop.uci()
        pids.update(builtin.pool.pids())
    assert len(pids) == 1  # one worker process, one search of its own per variant
