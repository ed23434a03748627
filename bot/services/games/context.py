"""What one message is about, loaded once: the message, the channel's language and settings,
its open game and board, and (once asked for) the sender's player record."""

from __future__ import annotations

from dataclasses import dataclass

from makruk import Board
from storage.records import ChannelSettings, Game, Player

from ...messages import Incoming
from ..errors import Refusal


@dataclass
class Context:
    msg: Incoming
    language: str
    settings: ChannelSettings
    game: Game | None = None
    board: Board | None = None
    player: Player | None = None  # the sender, loaded by Table.player

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
