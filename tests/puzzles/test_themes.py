"""Each motif tag of the tagger, proved on a position made for it (and absent where it is not)."""

from __future__ import annotations

import pytest

from bot.puzzles.bank import KNOWN_THEMES
from bot.puzzles.motifs import MOTIF_THEMES
from bot.puzzles.themes import tags

# (tag, variant, fen, moves): a short line that shows the motif.
MADE = [
    ("forkMa", "makruk", "1r6/4k3/8/8/3N4/7P/8/K7 w - - 0 1", ["d4c6", "e7f7", "c6b8"]),
    ("forkKhon", "makruk", "7k/8/2r1n3/8/3S4/7P/8/K7 w - - 0 1", ["d4d5", "c6c8", "d5e6"]),
    ("forkMet", "makruk", "7k/8/2n1r3/8/4M3/7P/8/K7 w - - 0 1", ["e4d5", "e6e8", "d5c6"]),
    ("forkBia", "makruk", "7k/8/8/2n1r3/8/3P4/8/K7 w - - 0 1", ["d3d4", "e5e8", "d4c5"]),
    ("pin", "makruk", "4k3/8/4n3/8/8/7P/8/R6K w - - 0 1", ["a1e1", "e8d8", "e1e6"]),
    ("skewer", "makruk", "4r3/8/8/4k3/8/7P/8/R6K w - - 0 1", ["a1e1", "e5d5", "e1e8"]),
    ("discoveredAttack", "makruk", "4k3/8/8/8/4N3/7P/8/4R2K w - - 0 1", ["e4c5", "e8d8", "h3h4"]),
    ("smotheredMate", "makruk", "6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1", ["e5f7"]),
    ("ruaMaMate", "makruk", "7k/8/p4N1K/8/8/8/8/R7 w - - 0 1", ["a1a8"]),
    ("twoRuaMate", "makruk", "7k/R7/p7/8/8/8/8/1R5K w - - 0 1", ["b1b8"]),
    ("metMate", "makruk", "6nk/8/p4MK1/8/8/8/8/8 w - - 0 1", ["f6g7"]),
    ("khonMate", "makruk", "7k/8/p4S1K/8/8/8/8/8 w - - 0 1", ["f6g7"]),
    ("makpongCheck", "makpong", "8/8/8/4k3/8/2n4P/8/R6K w - - 0 1", ["a1e1", "c3e4", "e1e4"]),
    ("oukLeap", "cambodian", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1", ["d1b2", "a6a5", "b2c2"]),
    ("sittuyinPromotion", "sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", ["d5d5f", "h8g8", "a2a3"]),
]


@pytest.mark.parametrize("tag, variant, fen, moves", MADE, ids=[m[0] for m in MADE])
def test_the_made_position_gets_its_tag(tag, variant, fen, moves):
    kind = "mate" if tag.endswith("Mate") else "material"
    found = tags(fen, moves, kind, 1 if kind == "mate" else None, variant=variant)
    assert tag in found
    if tag.startswith("fork"):
        assert "fork" in found
    assert set(found) <= KNOWN_THEMES


@pytest.mark.parametrize("tag, variant, fen, moves", MADE, ids=[m[0] for m in MADE])
def test_no_other_made_position_gets_the_tag_by_accident(tag, variant, fen, moves):
    # The mate patterns exclude one another; the variants' tags need their variant.
    exclusive = {"smotheredMate", "ruaMaMate", "twoRuaMate", "makpongCheck", "oukLeap", "sittuyinPromotion"}
    for other, other_variant, other_fen, other_moves in MADE:
        if other == tag or tag not in exclusive:
            continue
        kind = "mate" if other.endswith("Mate") else "material"
        assert tag not in tags(other_fen, other_moves, kind, 1 if kind == "mate" else None, variant=other_variant)


def test_the_same_check_in_makruk_is_no_makpong_check():
    _, _, fen, moves = MADE[12]
    assert "makpongCheck" not in tags(fen, ["a1e1", "e5d6", "e1e4"], "material", None, variant="makruk")
    assert "makpongCheck" in tags(fen, moves, "material", None, variant="makpong")


def test_length_and_phase_tags():
    _, _, fen, moves = MADE[0]
    found = tags(fen, moves, "material", None)
    assert "short" in found and found[-1] == "endgame"
    assert "oneMove" in tags(*MADE[8][2:], "mate", 1)
    assert MOTIF_THEMES <= KNOWN_THEMES


def test_a_fork_that_ends_a_material_line_is_a_fork():
    # Rua takes Ma with check, the Khon takes back, the Ma forks Khun, Rua and Khon (the gain settles).
    fen = "4r3/1k6/2s3p1/Rnrs1p1p/1pN2P1P/1P1KP1P1/3R1MS1/8 w - - 0 36"
    assert {"fork", "forkMa"} <= set(tags(fen, ["a5b5", "c6b5", "c4d6"], "material", None))
    # Without its last move the line shows no fork.
    assert "fork" not in tags(fen, ["a5b5", "c6b5", "d2d1"], "material", None)


def test_a_mating_move_is_no_fork():
    # The mating Ma also attacks White's Rua on d2: a mate, not a fork.
    assert "fork" not in tags("7r/2mss1k1/p2p2p1/2n1p2P/2P1P1p1/1S2S1M1/r2R4/1NKR2N1 b - - 0 32", ["c5b3"],
                              "mate", 1)
