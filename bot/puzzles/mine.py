"""``makruk-bot puzzles mine FILE.pgn ... [--db]``: puzzles from real games, such as the PlayOK
and pychess-variants games players bring, or the games played with the bot (its database's
finished games, read as its PGN export writes them).

Each game is replayed and every position after deployment is screened as self-play screens its
own (``selfplay.candidate``: a short mate or a clear gain that the side to move's second choice
misses, and which it was not already winning before the opponent's move; or a counting race),
by a MultiPV 3 search of ``SCREEN_NODES`` nodes. The candidates then go through the same
acceptance and proof as self-play's (``shelf.Shelf``), into the same banks. Human games are what
lichess's generator lives on: their blunders leave only moves that engines' games rarely do.

Incremental: the state file (default ``mine-state.json`` beside the banks) keeps a key of every
game mined, so a file mined again, or grown since, costs only its new games; it counts the games,
CPU time, candidates and what was kept or refused per variant, like ``generate``'s.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from makruk import Board
from makruk.errors import MakrukError
from makruk.pgn import PgnGame, read_games

from ..engines import EnginePosition, SyncUciEngine
from .acceptance import win_chance
from .bank import BANK_PATH
from .selfplay import PlaySettings, candidate, deploying, screen
from .shelf import DEFAULT_ENGINE, TARGETS, Shelf, load_state, position_key

log = logging.getLogger(__name__)

SCREEN_NODES = 6000  # self-play's strong side searches 1,500-6,000 nodes a move


def mine(sources: Sequence[tuple[str, str]], *, directory: Path = BANK_PATH.parent,
         state_path: Path | None = None, targets: dict[str, int] | None = None,
         engine_path: str = DEFAULT_ENGINE, max_seconds: float | None = None, hash_mb: int = 16) -> dict:
    """Mines the games of ``sources`` (each a name and its PGN text) not mined before, for the
    variants of ``targets`` still short of them; returns the state (also kept in ``state_path``)."""
    state_path = state_path or directory / "mine-state.json"
    state = load_state(state_path)
    mined = set(state.setdefault("mined", []))
    targets = targets or dict(TARGETS)
    play = PlaySettings()
    started = time.monotonic()
    with SyncUciEngine(engine_path, options={"Threads": 1, "Hash": hash_mb}) as engine:
        engine.start()
        shelf = Shelf(directory, targets, state, engine, {"source": [name for name, _ in sources]})
        for name, text in sources:
            for game in read_games(text):
                key = game_key(game)
                if game.board is None or game.variant not in shelf.short() or key in mined:
                    continue
                if max_seconds is not None and time.monotonic() - started > max_seconds:
                    return state
                mined.add(key)
                state["mined"].append(key)  # saved with the game's counts once it is mined
                shelf.play(game.variant, game_candidates(engine, game, play, races=shelf.racing(game.variant)),
                           state_path)
                log.info("%s: game %d (%s) mined: bank %s", name, game.number, game.variant, shelf.have)
    return state


def game_key(game: PgnGame) -> str:
    """The same game, from whichever source, has the same key: its variant, its start (the
    placement and the side to move, however the FEN was written) and its moves."""
    text = " ".join([game.variant, position_key(game.start_fen), *(m.uci() for m in game.moves)])
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def game_candidates(engine: SyncUciEngine, game: PgnGame, s: PlaySettings, *, races: bool = True) -> Iterator[str]:
    """The game's candidate positions (FENs without history), in the order played; given once
    the whole game is screened, since the acceptance then uses the same engine."""
    board = Board(game.start_fen, variant=game.variant, perpetual="draw")
    played: list[str] = []
    found: list[str] = []
    before = 0.0  # the side to move's win chance before the opponent's last move
    for move in [*game.moves, None]:
        if board.is_game_over():
            break
        if not deploying(board):
            lines = screen(engine, EnginePosition(game.start_fen, tuple(played), variant=game.variant), SCREEN_NODES)
            if lines is None:
                break
            if (fen := candidate(board, lines, before, game.variant, s, races=races)) is not None:
                found.append(fen)
            before = -win_chance(lines[0].score_cp, lines[0].mate, game.variant)
        if move is None:
            break
        try:
            board.play(move)
        except MakrukError:
            break  # read by the file's rules, refused by ours: the rest is not this game
        played.append(move.uci())
    yield from found

