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
        self._entries: dict[int, tuple[int, tuple[MoveRecord, ...], tuple[str, str]]] = {}
        self._by_chat: dict[tuple[str, str], int] = {}  # (platform, channel): the game last put for it

    def get(self, game_id: int, version: int) -> tuple[MoveRecord, ...] | None:
        entry = self._entries.get(game_id)
        return entry[1] if entry is not None and entry[0] == version else None

    def of_chat(self, platform: str, channel: str) -> tuple[int, int, tuple[MoveRecord, ...]] | None:
        """The (id, version, moves) of the game last put for a chat: a guess at its open game,
        for a reader that checks the id and version against the row it reads."""
        game_id = self._by_chat.get((platform, channel))
        entry = self._entries.get(game_id) if game_id is not None else None
        return None if game_id is None or entry is None else (game_id, entry[0], entry[1])

    def put(self, game: Game) -> Game:
        if self._size > 0:
            chat = (game.platform, game.channel)
            self._entries.pop(game.id, None)  # re-insert: dict order is recency order
            self._entries[game.id] = (game.version, game.moves, chat)
            self._by_chat[chat] = game.id
            if len(self._entries) > self._size:
                oldest = next(iter(self._entries))
                _, _, its_chat = self._entries.pop(oldest)
                if self._by_chat.get(its_chat) == oldest:
                    del self._by_chat[its_chat]
        return game
