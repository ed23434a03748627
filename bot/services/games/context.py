"""What one message is about, loaded once: the message, the channel's language and settings,
its open game and board with the game's players, and the sender's player record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from makruk import Board
from storage.records import ChannelSettings, Game, Player

from ...messages import Incoming
from ..errors import Refusal
from ..outbox import event_keys


@dataclass
class Context:
    msg: Incoming
    language: str
    settings: ChannelSettings
    game: Game | None = None
    board: Board | None = None
    player: Player | None = None  # the sender, loaded by Table.player
    players: Mapping[int, Player] = field(default_factory=dict)  # the open game's, as the message found them
    written: int = 0  # outbox rows this message has written so far

    def next_key(self) -> str | None:
        """The key of the next outbox row this message writes: derived from the message's
        event id (see ``outbox.event_keys``), or None (a fresh one) for a message without one."""
        if self.msg.event is None:
            return None
        keys = event_keys(self.msg.platform, self.msg.event)
        if self.written >= len(keys):
            return None  # beyond what a retry looks up: still stored, under a fresh key
        self.written += 1
        return keys[self.written - 1]

    def known_players(self, game: Game) -> Mapping[int, Player] | None:
        """``game``'s players as read with the message, if they were all read (the open game's,
        a challenge accepted or a game finished in this message included); None otherwise."""
        return self.players if all(i in self.players for i in game.player_ids) else None

    def know(self, player: Player) -> None:
        """A player record read or written anew in this message, to show as it is now."""
        if player.id in self.players:
            self.players = {**self.players, player.id: player}

    @property
    def notation(self) -> str | None:
        """How the channel writes moves (``san``, ``thai``, ``playok``); None: by its language."""
        return self.settings.notation

    def require_game(self) -> Game:
        """The channel's open game (a challenge or a game being played)."""
        if self.game is None:
            raise Refusal("no_game")
        return self.game

    def require_active(self) -> tuple[Game, Board]:
        """The game being played and its board."""
        game = self.require_game()
        if game.status != "active" or self.board is None:
            raise Refusal("not_started")
        return game, self.board
