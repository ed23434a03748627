"""Engines that play the bot's side; the game service talks to them through ``Engine``.

``make_engine(settings)`` builds the bot's engine: the built-in engine for levels 1-4,
Fairy-Stockfish for 5-8 (the built-in engine when it is missing). See docs/engines.md.
``UciEngine`` is the one UCI client (``SyncUciEngine`` runs it for code without an event loop).
"""

from .base import Analysis, Engine, EngineError, EnginePosition
from .builtin import BuiltinEngine
from .levels import LEVELS, Level
from .random_mover import RandomMover
from .select import LevelledEngine, make_engine
from .uci import InfoLine, UciEngine, UciResult, find_fairy_stockfish
from .uci_sync import SyncUciEngine

__all__ = [
    "LEVELS", "Analysis", "BuiltinEngine", "Engine", "EngineError", "EnginePosition", "InfoLine", "Level",
    "LevelledEngine", "RandomMover", "SyncUciEngine", "UciEngine", "UciResult", "find_fairy_stockfish", "make_engine",
]
