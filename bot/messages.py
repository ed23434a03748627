"""Platform-neutral values that flow between the adapters and the game service."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Platform = Literal["discord", "line", "console"]
# Where a pushed message is counted once per member of a group (LINE's quota): there an event's
# games and results ride on replies, and a round pushes once at most (docs/line.md, Tournaments).
PUSH_PER_MEMBER: frozenset[str] = frozenset({"line"})
MAX_MESSAGE_LENGTH = 500  # longer chat text is refused before any parsing...
# ...except a pasted game (``review`` or ``analyse`` and a PGN or move list), up to LINE's own
# limit for a message (Discord's is lower: 2,000, or 4,000 with Nitro).
MAX_PASTED_LENGTH = 5000
PASTED_COMMANDS = frozenset({"review", "analyse"})


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
    # False when the door draws boards itself from the reply's view (LINE's picture URLs name
    # the view and are drawn when LINE fetches them): the service then draws no PNG.
    pictures: bool = True
    # The platform's id of the message (LINE's webhookEventId, Discord's message or interaction
    # id): the outbox rows of what it changes are keyed by it, so handling it again after a
    # crash finds them instead of applying the change twice.
    event: str | None = None
    # Taken again after the process that had it died: what it changed may be stored already.
    retried: bool = False
    # The door can hand the message in again (LINE's inbox keeps it until it is finished): a
    # database that failed mid-message raises HandleAgain instead of an answer.
    redeliverable: bool = False
    # False when the door shows the chat none of the answers (a move made on the web board):
    # what the outbox keeps for the chat is due at once instead of after a grace.
    shown: bool = True
    # The game the door knows the message is about (a Discord game thread, the web board's
    # page): it is the chat's game for the message while it is open there, before the
    # sender's tournament game and the casual one.
    game: int | None = None
    # The sender may run the chat's events (Discord: Manage Server); set by the door.
    manager: bool = False
    # Only the writer sees the answers: a LINE 1:1 chat, a Discord DM or slash command (answered
    # ephemerally when the reply is private), the console. Puzzles served so are rated.
    private: bool = False


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
    variant: str = "makruk"  # the member of the family the FEN is of (makruk.VARIANTS)
    clocks: str | None = None  # a live game's clocks, written under the board (a caption is a puzzle card's)


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
    to_move: str | None = None  # the platform's user id of the person to move (None: the engine, or not known)
    variant: str = "makruk"
    # A live game's clocks when the reply was made, in milliseconds, and whose runs (None: correspondence).
    clocks: tuple[int, int, str | None] | None = None
    tournament: int | None = None  # the event the game belongs to (not in the console's fields)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "fen": self.fen,
            "turn": self.turn,
            "ply": self.ply,
            "result": self.result,
            "reason": self.reason,
            "white": self.white,
            "black": self.black,
        } | ({} if self.clocks is None else {
            "clocks": {"white_ms": self.clocks[0], "black_ms": self.clocks[1], "running": self.clocks[2]},
        })


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
    # The outbox row that also holds this reply (the bot's move): a door that showed the reply
    # tells the service (GameService.delivered), else the outbox pushes it a little later.
    outbox_key: str | None = None
    # Structured content for doors and the console (a tournament's pairings or standings):
    # JSON-ready, so that it survives the outbox (left out of the hash: a dict has none).
    data: dict[str, Any] | None = field(default=None, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """The reply as JSON-ready data, without its image (a door draws it again from ``board``).

        >>> reply = Reply("game", "e4", "en", board=BoardView("8/8/8/8/8/8/8/8 w - - 0 1"),
        ...               actions=(Action("resign", "Resign"),), mentions=(User("1", "bob"),),
        ...               data={"round": 2, "boards": [[1, "bob", "ann"]]})
        >>> import json
        >>> Reply.from_dict(json.loads(json.dumps(reply.to_dict()))) == reply
        True
        """
        # By hand, not dataclasses.asdict: that deep-copies every value, and this runs for every
        # answer stored in the outbox (one per move).
        data = dict(vars(self))
        del data["image"]
        data["board"] = None if self.board is None else dict(vars(self.board))
        data["game"] = None if self.game is None else dict(vars(self.game))
        data["actions"] = [dict(vars(action)) for action in self.actions]
        data["mentions"] = [dict(vars(user)) for user in self.mentions]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reply:
        board = data.get("board")
        game = data.get("game")
        return cls(
            kind=data["kind"], text=data["text"], language=data["language"], error=data.get("error"),
            board=BoardView(**{**board, "arrows": tuple(board["arrows"]), "targets": tuple(board["targets"])})
            if board else None,
            actions=tuple(Action(**a) for a in data.get("actions", ())),
            game=GameView(**{**game, "clocks": tuple(game["clocks"]) if game.get("clocks") else None})
            if game else None,
            private=data.get("private", False),
            mentions=tuple(User(**u) for u in data.get("mentions", ())),
            outbox_key=data.get("outbox_key"),
            data=data.get("data"),
        )


@dataclass(frozen=True)
class Notice:
    """A reply the service sends on its own (a reminder, a loss on time) to a channel.

    ``key`` names the notice's row in the outbox (at most 25 characters): a door passes it to
    the platform's de-duplication (LINE's ``X-Line-Retry-Key``, Discord's message nonce), so a
    notice sent again after a failure or a crash is never shown twice.
    """

    platform: Platform
    channel: str
    reply: Reply
    key: str | None = None
