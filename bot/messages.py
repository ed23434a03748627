"""Platform-neutral values that flow between the adapters and the game service."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Platform = Literal["discord", "line", "console"]
MAX_MESSAGE_LENGTH = 500  # longer chat text is refused before any parsing


@dataclass(frozen=True)
class User:
    """A person on a platform; ``id`` is the platform's own user id."""

    id: str
    name: str


@dataclass(frozen=True)
class Incoming:
    """One chat message (or slash command, or button press) for the service.

    ``addressed`` is true when the text is certainly meant for the bot (a 1:1 chat, the console,
    a slash command, a button, a mention of the bot, a ``/`` or ``!`` prefix): only then does
    unrecognised text get an answer, so ordinary chatter in a group is left alone.
    """

    platform: Platform
    channel: str
    user: User
    text: str
    community: str | None = None  # Discord server id or LINE group id: the leaderboard's scope
    mentions: tuple[User, ...] = ()
    locale: str | None = None  # the user's client language, if the platform tells it
    addressed: bool = True


@dataclass(frozen=True)
class Action:
    """A suggested next step: the command text to send, and a localized label."""

    command: str
    label: str


@dataclass(frozen=True)
class BoardView:
    """What a board image shows; adapters may draw it again at other sizes."""

    fen: str
    flip: bool = False
    last_move: str | None = None
    coords: str = "latin"
    arrows: tuple[str, ...] = ()
    caption: str | None = None
    selected: str | None = None  # tap-to-move: the chosen piece's square ...
    targets: tuple[str, ...] = ()  # ... and where it may go


@dataclass(frozen=True)
class GameView:
    """A game as replies describe it (the console's ``--json`` prints exactly these fields)."""

    id: int
    fen: str
    turn: Literal["w", "b"]
    ply: int
    result: str | None
    reason: str | None
    white: str
    black: str
    status: str = "active"

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "fen": self.fen,
            "turn": self.turn,
            "ply": self.ply,
            "result": self.result,
            "reason": self.reason,
            "white": self.white,
            "black": self.black,
        }


@dataclass(frozen=True)
class Reply:
    """One answer: localized text, an optional board image, suggested actions, the game state.

    ``error`` is a machine-readable code when the message was refused (nothing changed then);
    ``private`` replies should be shown only to the person who acted (Discord: ephemeral).
    """

    kind: str
    text: str
    language: str
    error: str | None = None
    image: bytes | None = None
    board: BoardView | None = None
    actions: tuple[Action, ...] = ()
    game: GameView | None = None
    private: bool = False
    mentions: tuple[User, ...] = field(default=())


@dataclass(frozen=True)
class Notice:
    """A reply the service sends on its own (a reminder, a loss on time) to a channel."""

    platform: Platform
    channel: str
    reply: Reply
