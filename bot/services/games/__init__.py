"""The game service, in parts: service.py is the entry point; each command lives in the module
named after what it is about (see service.py's docstring and docs/ARCHITECTURE.md)."""

from ..errors import Refusal
from .queries import MoveChoice
from .service import COMMANDS, GameService

__all__ = ["COMMANDS", "GameService", "MoveChoice", "Refusal"]
