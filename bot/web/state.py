"""A game as the web board shows it: the JSON of ``GET /g/{game}/state`` and of every push.

The part every viewer shares is built once per change (``shared_state``); each viewer then gets
their side, whether they may move and, when it is their turn, the legal moves the server worked
out (``viewer_state``): the page offers nothing the rules core did not say is legal.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from makruk.notation import THAI_DIGITS, THAI_FILES
from storage.records import Game, clock_state

from ..i18n import Catalog
from ..services.games.queries import GameRecord, MoveChoice
from .tokens import Bearer

LATIN_FILES, LATIN_RANKS = "abcdefgh", "12345678"
Clocks = tuple[int, int, str | None]  # White's and Black's milliseconds left, the side running


def clocks_of(game: Game, now: datetime) -> Clocks | None:
    """Both clocks of a live game at ``now``; None for a correspondence game."""
    clocks = clock_state(game, now)
    return None if clocks is None else (clocks.white_ms, clocks.black_ms, clocks.running)


def status_line(record: GameRecord, catalog: Catalog) -> str:
    """The chat's status line, or what the board says of a game that is not being played."""
    if record.game.status in ("challenge", "aborted"):
        return catalog.text(record.language, f"web.status.{record.game.status}")
    return record.status


def shared_state(record: GameRecord, *, watchers: int, now: datetime, base: str = "",
                 catalog: Catalog | None = None) -> dict[str, Any]:
    """What every viewer of the game sees (``base``: the server's public address, for links)."""
    game, board = record.game, record.board
    finished = game.status not in ("active", "challenge")
    count = board.count
    clocks = clocks_of(game, now)
    coords = record.settings.coordinates or ("thai" if record.language == "th" else "latin")
    return {
        "type": "state",
        "game": game.id,
        "version": game.version,
        "variant": game.variant,
        "status": game.status,
        "fen": board.fen(),
        "turn": "w" if board.turn else "b",
        "check": game.status == "active" and board.is_check(),
        "lastMove": game.moves[-1].uci if game.moves else None,
        "white": record.names["w"],
        "black": record.names["b"],
        "moves": [{"ply": m.ply, "uci": m.uci, "text": text} for m, text in zip(game.moves, record.moves,
                                                                                 strict=True)],
        "statusText": status_line(record, catalog) if catalog is not None else record.status,
        "result": game.result,
        "reason": game.reason,
        "drawOffer": game.draw_offer,
        "counting": count.as_dict() if count is not None else None,
        "hands": hands_of(board.fen()) if board.in_deployment() else None,
        "watchers": watchers,
        "clocks": None if clocks is None else {"white": clocks[0], "black": clocks[1], "running": clocks[2]},
        "coords": coordinates(coords),
        "links": {"pgn": f"{base}/g/{game.id}/pgn", "gif": f"{base}/g/{game.id}/gif"} if finished else None,
        "positions": list(record.positions) if finished else None,
    }


def viewer_state(shared: dict[str, Any], record: GameRecord, viewer: Bearer | None,
                 choices: list[MoveChoice]) -> dict[str, Any]:
    """``shared`` for one viewer: their side and orientation, and what they may do now."""
    side = side_of(record, viewer)
    board = record.board
    my_turn = side is not None and record.game.status == "active" and shared["turn"] == side
    orientation = side or ("b" if record.settings.orientation == "black" else "w")
    state = dict(shared)
    state["viewer"] = {"side": side, "orientation": orientation, "canMove": my_turn}
    state["legal"] = [legal_move(choice) for choice in choices] if my_turn else []
    state["may"] = {
        "resign": side is not None and record.game.status == "active",
        "draw": side is not None and record.game.status == "active",
        "accept": side is not None and record.game.draw_offer not in (None, side),
        "count": my_turn and board.can_declare_count() is not None,
        "stopcount": my_turn and board.can_stop_count(),
    }
    return state


def side_of(record: GameRecord, viewer: Bearer | None) -> str | None:
    """The colour ``viewer`` plays in the game (None: a watcher)."""
    if viewer is None or viewer.platform != record.game.platform:
        return None
    for color, user_id in record.user_ids.items():
        if user_id is not None and user_id == viewer.user_id:
            return color
    return None


def legal_move(choice: MoveChoice) -> dict[str, Any]:
    """One legal move: its UCI, its squares (a drop has no ``from``, but the piece it drops) and
    its SAN (for choosing between moves with the same squares)."""
    drop = "@" in choice.uci
    return {"uci": choice.uci, "from": None if drop else choice.uci[:2], "to": choice.uci[-2:] if drop
            else choice.uci[2:4], "drop": choice.uci[0] if drop else None, "san": choice.san}


def hands_of(fen: str) -> dict[str, dict[str, int]]:
    """The pieces in hand (Sittuyin's deployment) by colour and FEN letter, from the FEN's pocket.

    >>> hands_of("8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRk] w - - 0 1")
    {'w': {'K': 1, 'S': 2, 'F': 1, 'R': 1}, 'b': {'k': 1}}
    """
    placement = fen.split(" ", 1)[0]
    pocket = placement[placement.find("[") + 1:placement.find("]")] if "[" in placement else ""
    counts = Counter(pocket)
    return {"w": {k: n for k, n in counts.items() if k.isupper()},
            "b": {k: n for k, n in counts.items() if k.islower()}}


def coordinates(style: str) -> dict[str, list[str]]:
    """The labels of files a-h and ranks 1-8 in the chat's script."""
    if style == "thai":
        return {"files": list(THAI_FILES), "ranks": [THAI_DIGITS[n] for n in range(1, 9)]}
    return {"files": list(LATIN_FILES), "ranks": list(LATIN_RANKS)}
