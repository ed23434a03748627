"""Engines that play the bot's side; the game service talks to them through ``Engine``."""

from .base import Engine, EnginePosition, EngineError
from .random_mover import RandomMover

__all__ = ["Engine", "EngineError", "EnginePosition", "RandomMover"]
