"""The change feed: who wants to know, in this process, that a game was stored anew (the web
board's hub pushes the game to its watchers). Other processes' changes are not seen here: a
watcher of the feed also polls the game's version now and then."""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[int, int], None]  # (game id, its new version); must not block


class ChangeFeed:
    """Listeners called, in the order they subscribed, with each game stored anew.

    >>> feed, seen = ChangeFeed(), []
    >>> feed.subscribe(lambda game, version: seen.append((game, version)))
    >>> feed.publish(7, 3); seen
    [(7, 3)]
    """

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def publish(self, game_id: int, version: int) -> None:
        """Tells every listener; one that fails is logged and does not stop the others (nor the
        change, which is stored already)."""
        for listener in list(self._listeners):
            try:
                listener(game_id, version)
            except Exception:
                log.exception("a listener of the change feed failed for game %d", game_id)
