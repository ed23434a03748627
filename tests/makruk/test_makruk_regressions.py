"""Bugs found in makruk/ while proving it; each test failed before its fix."""

import pytest

from makruk import Board, InvalidFenError


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/8/3K\u00b2 w - - 0 1",  # superscript two: str.isdigit() but not int()-able
        "4k3/8/8/8/8/8/8/3K\u0664 w - - 0 1",  # Arabic-Indic four: int() reads it as 4
        "4k3/8/8/8/8/8/8/4K3 w - - \u00b2 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 \u0663",
    ],
)
def test_fen_numbers_are_ascii_digits_only(fen):
    with pytest.raises(InvalidFenError):
        Board(fen)
