"""The errors of the services: what refuses a message, with a code the catalogues translate, and
what asks a door to hand a message in again."""

from __future__ import annotations

from ..messages import GameView


class Refusal(Exception):
    """A message is refused: nothing changes, the actor gets a short localized reason.

    ``code`` names the reason (``error.<code>`` in the catalogues; ``illegal.<why>`` for the
    rules core's reasons); ``private`` replies are shown only to the person who acted; the
    ``fields`` fill the message's ``{named}`` places. ``game``: the game a refused command that
    plays the chat's game was about, which its answer carries (set by the game service).

    >>> Refusal("not_your_turn").code
    'not_your_turn'
    """

    def __init__(self, code: str, *, private: bool = True, **fields: object) -> None:
        super().__init__(code)
        self.code = code
        self.private = private
        self.fields = fields
        self.game: GameView | None = None


class HandleAgain(Exception):
    """The database failed in the middle of a message (a connection lost): whether its change
    was stored is not known. Raised only for a message a door can hand in again
    (``Incoming.redeliverable``), with its event id, which finds what was stored; other doors
    answer ``internal``."""
