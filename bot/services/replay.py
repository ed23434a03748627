"""A stored game back into a rules-core Board: start FEN, the moves, and the count events.

The counting state is stored as the list of declarations and stops with the ply they were made
at, so replaying the moves reproduces the count exactly (limits depend on the material then).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from makruk import Board, Move


@dataclass(frozen=True)
class CountEvent:
    ply: int  # number of moves made when the event happened
    kind: str  # "count" or "stopcount"


def load_events(counting: str | None) -> list[CountEvent]:
    if not counting:
        return []
    return [CountEvent(ply, kind) for ply, kind in json.loads(counting)["events"]]


def dump_events(events: list[CountEvent]) -> str | None:
    if not events:
        return None
    return json.dumps({"events": [[e.ply, e.kind] for e in events]})


def replay(start_fen: str, moves: list[str], events: list[CountEvent], *, promotion: str, perpetual: str) -> Board:
    """The board after the stored history; moves were checked when stored, so they are pushed."""
    board = Board(start_fen, promotion=promotion, perpetual=perpetual)
    by_ply: dict[int, list[str]] = {}
    for event in events:
        by_ply.setdefault(event.ply, []).append(event.kind)
    for ply, uci in enumerate(moves):
        _apply_events(board, by_ply.get(ply, ()))
        board.push(Move.from_uci(uci))
    _apply_events(board, by_ply.get(len(moves), ()))
    return board


def _apply_events(board: Board, kinds) -> None:
    for kind in kinds:
        if kind == "count":
            board.declare_count()
        else:
            board.stop_count()
