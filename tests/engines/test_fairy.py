"""Fairy-Stockfish as the bot's engine: it dies, hangs or answers nonsense, and the game goes on."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from bot.config import Settings
from bot.engines import EnginePosition, LevelledEngine, UciEngine, make_engine
from bot.services.games import GameService
from makruk import Board
from storage import open_storage
from tests.bot.support import Chat, no_image

from .fake_uci import commands, fake_engine
from .support import legal_ucis

START = EnginePosition(Board.starting_fen, ("e3e4",))


async def test_killing_fairy_stockfish_mid_search_the_game_goes_on(tmp_path, builtin, fairy_path, clock):
    fairy = UciEngine(fairy_path)
    storage = await open_storage(tmp_path / "bot.db", clock=clock.now)
    try:
        chat = Chat(GameService(storage, Settings(language="en"), clock=clock,
                                engine=LevelledEngine(builtin, fairy), render=no_image))
        await chat.ok("alice", "new bot 8 white")
        move = asyncio.create_task(chat.say("alice", "e4"))  # level 8 thinks for 2.5 s
        while not fairy.searching:
            await asyncio.sleep(0.01)
        first_pid = fairy.pid
        assert first_pid is not None
        os.kill(first_pid, signal.SIGKILL)
        replies = await move
        assert not [r.error for r in replies if r.error]
        game = await storage.active_game("console", "c1")
        assert game is not None and len(game.moves) == 2  # a restarted Fairy-Stockfish (or the built-in one) answered

        board = Board()
        for m in game.moves:
            board.push(board.parse_move(m.uci))
        next_move = sorted(m.uci() for m in board.legal_moves())[0]
        replies = await chat.ok("alice", next_move)
        game = await storage.active_game("console", "c1")
        assert game is not None and len(game.moves) == 4  # and the engine answered again ...
        assert fairy.pid is not None and fairy.pid != first_pid  # ... from a new Fairy-Stockfish
    finally:
        await fairy.aclose()
        await storage.close()


async def test_a_move_our_rules_forbid_is_replaced_by_the_builtin_engines(tmp_path, builtin, caplog):
    fairy = UciEngine(fake_engine(tmp_path, "illegal")[0])
    engine = LevelledEngine(builtin, fairy)
    try:
        with caplog.at_level(logging.INFO):
            assert await engine.best_move(START, level=6) in legal_ucis(START)
        assert "not legal under our rules" in caplog.text
        analysis = await engine.analyse(START, seconds=0.2)
        assert analysis.best in legal_ucis(START)
    finally:
        await fairy.aclose()


async def test_a_hanging_engine_is_stopped_and_the_builtin_engine_answers(tmp_path, builtin):
    path, log = fake_engine(tmp_path, "hang")
    fairy = UciEngine(path, margin=0.3)
    engine = LevelledEngine(builtin, fairy)
    try:
        assert await engine.best_move(START, level=5) in legal_ucis(START)
        assert commands(log)[-1] == "stop"  # asked to stop when its time was up, then ...
        assert fairy.pid is None  # ... killed; the next search starts a new process
    finally:
        await fairy.aclose()


async def test_an_engine_that_exits_is_started_again(tmp_path, builtin):
    path, log = fake_engine(tmp_path, "die")
    fairy = UciEngine(path)
    engine = LevelledEngine(builtin, fairy)
    try:
        for _ in range(2):
            assert await engine.best_move(START, level=7) in legal_ucis(START)
    finally:
        await fairy.aclose()
    assert commands(log).count("uci") == 4  # a new process for each move, and one more for its second try


async def test_without_fairy_stockfish_every_level_plays_and_the_log_says_so_once(monkeypatch, caplog, builtin):
    monkeypatch.setattr("bot.engines.select.find_fairy_stockfish", lambda configured=None: None)
    with caplog.at_level(logging.WARNING):
        engine = make_engine(Settings())
    own, engine.builtin = engine.builtin, builtin  # the session's worker (and its shorter times)
    try:
        assert engine.fairy is None and engine.name == "builtin"
        for level in (1, 5, 8):
            assert await engine.best_move(START, level=level) in legal_ucis(START)
        assert caplog.text.count("Fairy-Stockfish not found") == 1
    finally:
        await own.aclose()


def test_the_engine_is_found_where_the_settings_say(tmp_path, fairy_path):
    from bot.engines.uci import find_fairy_stockfish

    assert find_fairy_stockfish(fairy_path) == fairy_path
    assert find_fairy_stockfish(str(tmp_path / "missing")) is not None  # falls back to the package or PATH
