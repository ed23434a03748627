"""The sides whose pieces the bot places in Sittuyin's deployment (``setup auto``,
``deployment.py``), kept with the game beside its count events (``Game.counting`` is the
service's JSON), and the drop the bot makes for such a side (``moves.engine_turns``).
"""

from __future__ import annotations

import json

from makruk import Board, CountEvent, Move
from storage.records import Color, Game

from .table import side_to_move

_KEY = "setup_auto"


def auto_sides(game: Game) -> str:
    """The colours whose pieces the bot places ("", "w", "b" or "wb")."""
    if not game.counting:
        return ""
    value = json.loads(game.counting).get(_KEY, "")
    return value if isinstance(value, str) else ""


def with_auto_side(game: Game, color: Color) -> str:
    data = json.loads(game.counting) if game.counting else {"events": []}
    data[_KEY] = "".join(sorted(set(data.get(_KEY, "")) | {color}))
    return json.dumps(data)


def auto_drop(game: Game, board: Board) -> Move | None:
    """The drop the bot makes now for the side to move, when that side asked for ``setup auto``."""
    if game.status != "active" or not board.in_deployment() or side_to_move(board) not in auto_sides(game):
        return None
    return board.standard_drop()


def events_kept(game: Game, events: list[CountEvent]) -> str | None:
    """The game's JSON with ``events`` as its count events, the sides of ``setup auto`` kept."""
    text = CountEvent.dump_all(events)
    sides = auto_sides(game)
    if not sides:
        return text
    data = json.loads(text) if text else {"events": []}
    data[_KEY] = sides
    return json.dumps(data)
