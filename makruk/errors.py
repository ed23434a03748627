"""The few errors of the rules core. Each carries a machine-readable ``code``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .types import Move


class MakrukError(ValueError):
    """Base of every rules error."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class InvalidFenError(MakrukError):
    """The text is not a valid Makruk position. Codes: ``invalid_fen`` (not a FEN), ``fen_khuns``
    (not one Khun of each colour), ``fen_check`` (the side not to move is in check),
    ``fen_bia_rank`` (a Bia on its last rank)."""

    code = "invalid_fen"


class InvalidMoveError(MakrukError):
    """The text is not a move in any notation the project reads."""

    code = "not_a_move"


class IllegalMoveError(MakrukError):
    """The move is readable but not allowed here; ``code`` says why.

    Codes: ``no_piece``, ``not_your_piece``, ``own_piece``, ``cannot_move_there``,
    ``blocked``, ``leaves_khun_in_check``, ``perpetual_check``, ``promotion_required``,
    ``promotion_not_allowed``,
    ``no_such_move``, ``game_over``, ``count_not_allowed``, ``no_count``; of the variants:
    ``khun_may_not_flee`` (Makpong), ``must_drop``, ``bad_drop`` (Sittuyin's deployment),
    ``promotion_not_allowed`` also for Sittuyin's promotion conditions.
    """

    code = "illegal"


class AmbiguousMoveError(MakrukError):
    """The text matches more than one legal move; ``candidates`` lists them."""

    code = "ambiguous"

    def __init__(self, message: str, candidates: list[Move]) -> None:
        super().__init__(message)
        self.candidates = candidates


class UnknownVariantError(MakrukError):
    """No variant of the family has that name."""

    code = "unknown_variant"
