"""The move-list cache both backends keep in front of the moves table."""

from __future__ import annotations

from .records import Game, MoveRecord


class MoveCache:
    """Recently used move lists, each tagged with the game version it belongs to.

    Every write to a game bumps its version in the same transaction and versions never
    repeat, so the moves of (game, version) never change: a cached entry cannot go
    stale, a version mismatch is just a miss. Entries are added only after a commit.
    It saves re-reading a whole game on every move.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict[int, tuple[int, tuple[MoveRecord, ...]]] = {}

    def get(self, game_id: int, version: int) -> tuple[MoveRecord, ...] | None:
        entry = self._entries.get(game_id)
        return entry[1] if entry is not None and entry[0] == version else None

    def put(self, game: Game) -> Game:
        if self._size > 0:
            self._entries.pop(game.id, None)  # re-insert: dict order is recency order
            self._entries[game.id] = (game.version, game.moves)
            if len(self._entries) > self._size:
                del self._entries[next(iter(self._entries))]
        return game
