"""The command line contract of ``python -m makruk``, run as a real subprocess."""

from __future__ import annotations

import pytest

from .support import ok, refused, run, status

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
PERPETUAL = "8/8/8/8/8/3KmN2/4R3/5k1s w - - 0 1"
PERPETUAL_MOVES = ["f3h2", "f1g1", "h2f3", "g1f1", "f3h2", "f1g1", "h2f3", "g1f1"]
COUNT_37 = "8/8/3k4/8/8/2M~M~4/3SNN2/3K4 b - - 0 1"  # Khon, 2 Ma, 2 Bia Ngai vs bare Khun
MATED = "4k3/4R3/4K3/8/8/8/8/8 b - - 0 1"


# --- perft, legal, parse ---------------------------------------------------------------

def test_perft_prints_the_leaf_count_alone():
    assert ok("perft", START, "3") == "12012\n"
    assert ok("perft", START, "0") == "1\n"


def test_legal_prints_sorted_uci_after_the_moves():
    out = ok("legal", START, "e3e4", "d6d5")
    moves = out.split()
    assert out == " ".join(moves) + "\n"
    assert moves == sorted(moves) and len(moves) == len(set(moves))
    assert "e4d5" in moves and "e4e5" in moves


def test_legal_of_the_start_position_are_the_23_moves():
    assert ok("legal", START).split() == sorted(
        ["a3a4", "b3b4", "c3c4", "d3d4", "e3e4", "f3f4", "g3g4", "h3h4", "b1d2", "g1e2", "a1a2", "h1h2",
         "e1d2", "e1f2", "c1b2", "c1c2", "c1d2", "f1e2", "f1f2", "f1g2", "d1c2", "d1d2", "d1e2"]
    )


def test_legal_when_no_move_is_legal_prints_an_empty_line():
    assert ok("legal", "k1N5/2K5/8/8/8/8/8/8 b - - 0 1") == "\n"  # stalemate


@pytest.mark.parametrize(
    "fen, text, uci",
    [
        (START, "Nd2", "b1d2"),
        (START, "จ๔", "e3e4"),
        (START, "ม-ง๒", "b1d2"),
        (START, "บ จ๓-จ๔", "e3e4"),
        (START, "E3-E4", "e3e4"),
        (START, "e3 e4", "e3e4"),
        ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d7=M", "d6d7m"),
    ],
)
def test_parse_prints_the_uci(fen, text, uci):
    assert ok("parse", fen, text) == uci + "\n"


# --- status ------------------------------------------------------------------------------

def test_status_of_the_start_position():
    assert status(START) == {
        "fen": START,
        "turn": "w",
        "check": False,
        "legal": sorted(ok("legal", START).split()),
        "outcome": None,
        "count": None,
    }


def test_status_reports_check_and_checkmate():
    s = status(MATED.replace("4R3", "8").replace("4K3/8", "4K3/4R3"))  # not mate: Rua far away
    assert s["outcome"] is None
    s = status("4k3/8/4K3/8/8/8/8/R7 w - - 0 1", "a1a8")
    assert s["check"] is True and s["legal"] == []
    assert s["outcome"] == {"result": "1-0", "reason": "checkmate"}
    assert s["turn"] == "b"


def test_status_reports_stalemate():
    s = status("k1N5/2K5/8/8/8/8/8/8 b - - 0 1")
    assert s["outcome"] == {"result": "1/2-1/2", "reason": "stalemate"} and s["check"] is False


def test_status_reports_material_draw_and_bare_khuns():
    assert status("4k3/8/8/8/8/8/8/4K3 w - - 0 1")["outcome"] == {"result": "1/2-1/2", "reason": "material"}


def test_status_perpetual_check_forbid_and_draw():
    forbid = status(PERPETUAL, *PERPETUAL_MOVES)
    assert forbid["outcome"] is None
    assert "f3h2" not in forbid["legal"] and "f3g1" in forbid["legal"]
    draw = status("--perpetual", "draw", PERPETUAL, *PERPETUAL_MOVES)
    assert draw["outcome"] == {"result": "1/2-1/2", "reason": "repetition"}
    assert "f3h2" in draw["legal"]


def test_status_count_tokens():
    s = status(COUNT_37, "count")
    assert s["count"] == {"kind": "pieces", "side": "b", "limit": 37, "done": 0}
    s = status(COUNT_37, "count", "d6e6", "d1e1")
    assert s["count"] == {"kind": "pieces", "side": "b", "limit": 37, "done": 1}
    assert status(COUNT_37, "count", "d6e6", "d1e1", "stopcount")["count"] is None


def test_status_board_count():
    s = status("4k3/4s3/8/8/8/8/4R3/4K3 w - - 0 1", "count")
    assert s["count"] == {"kind": "board", "side": "w", "limit": 64, "done": 0}


def test_status_promotion_option():
    fen = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"
    assert "d5d6" not in status(fen)["legal"] and "d5d6m" in status(fen)["legal"]
    optional = status("--promotion", "optional", fen)["legal"]
    assert "d5d6" in optional and "d5d6m" in optional
    s = status("--promotion", "optional", fen, "d5d6", "e8f8", "d6d7", "f8g8")
    assert "d7d8m" in s["legal"] and "d7d8" not in s["legal"]
    assert "P" in s["fen"].split()[0]


def test_status_counting_draw_after_the_limit():
    s = status("7k/8/8/8/8/8/8/RR2K3 b - - 0 1", "count")  # 2 Rua: 8 - 4 = 4 moves
    assert s["count"]["limit"] == 4
    s = status(
        "7k/8/8/8/8/8/8/RR2K3 b - - 0 1", "count", "h8g8", "e1e2", "g8h8", "e2e3", "h8g8", "e3e2", "g8h8", "e2e1"
    )
    assert s["count"]["done"] == 4
    assert s["outcome"] == {"result": "1/2-1/2", "reason": "counting"}


def test_status_output_is_utf8_json_with_the_documented_keys():
    s = status(START, "e3e4")
    assert list(s) == ["fen", "turn", "check", "legal", "outcome", "count"]
    assert s["turn"] == "b" and s["fen"] == "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1"


# --- errors: exit status 2, one line on stderr, nothing on stdout ---------------------------

ERRORS = [
    # bad FENs, one of each kind
    pytest.param(["perft", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKKSNR w - - 0 1", "1"], "Khun", id="two-khuns"),
    pytest.param(["perft", "rnsm1snr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "1"], "Khun", id="no-khun"),
    pytest.param(["legal", "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1"], "rank 8", id="white-bia-on-rank-8"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/3pK3 w - - 0 1"], "rank 1", id="black-bia-on-rank-1"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"], "'Q'", id="bad-character"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/4K4 w - - 0 1"], "9 squares", id="long-row"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/4K2 w - - 0 1"], "7 squares", id="short-row"),
    pytest.param(["legal", "4k3/8/8/8/8/8/4K3 w - - 0 1"], "got 7", id="seven-rows"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1"], "got 9", id="nine-rows"),
    pytest.param(["legal", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"], "capture the enemy Khun", id="khun-capturable"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"], "side to move", id="bad-side"),
    pytest.param(["legal", ""], "empty FEN", id="empty-fen"),
    # moves
    pytest.param(["legal", START, "e3e5"], "e3e5", id="illegal-move"),
    pytest.param(["legal", START, "e3e4", "e4e5"], "e4e5", id="illegal-second-move"),
    pytest.param(["status", START, "e2e4"], "no piece on e2", id="no-piece"),
    pytest.param(["legal", START, "xyzzy"], "xyzzy", id="unreadable-uci"),
    pytest.param(["parse", START, "xyzzy"], "xyzzy", id="unreadable-text"),
    pytest.param(["parse", START, "Nd3"], "Nd3", id="parse-illegal"),
    pytest.param(["parse", "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1", "Nd2"], "Nd2", id="parse-ambiguous"),
    pytest.param(["status", PERPETUAL, *PERPETUAL_MOVES, "f3h2"], "perpetual", id="perpetual-check"),
    pytest.param(["status", "4k3/8/4K3/8/8/8/8/R7 w - - 0 1", "a1a8", "e8d8"], "over", id="move-after-mate"),
    pytest.param(["legal", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2"], "over", id="move-after-material-draw"),
    pytest.param(
        ["status", "--perpetual", "draw", PERPETUAL, *PERPETUAL_MOVES, "f3h2"], "over", id="move-after-repetition"
    ),
    # counting tokens
    pytest.param(["status", START, "count"], "count", id="count-not-entitled"),
    pytest.param(["status", COUNT_37.replace(" b ", " w "), "count"], "count", id="count-by-stronger-side"),
    pytest.param(["status", COUNT_37, "count", "count"], "count", id="count-twice"),
    pytest.param(["status", COUNT_37, "count", "d6e6", "stopcount"], "count", id="stopcount-by-other-side"),
    pytest.param(["status", START, "stopcount"], "count", id="stopcount-without-count"),
    pytest.param(["status", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "count"], "over", id="count-after-game-end"),
    # usage
    pytest.param(["frobnicate"], "frobnicate", id="unknown-subcommand"),
    pytest.param([], "command", id="no-subcommand"),
    pytest.param(["perft"], "required", id="perft-missing-args"),
    pytest.param(["perft", START], "depth", id="perft-missing-depth"),
    pytest.param(["perft", START, "-1"], "negative", id="negative-depth"),
    pytest.param(["perft", START, "two"], "depth", id="depth-not-a-number"),
    pytest.param(["legal"], "required", id="legal-missing-fen"),
    pytest.param(["parse", START], "required", id="parse-missing-text"),
    pytest.param(["status", "--promotion", "sometimes", START], "promotion", id="bad-option"),
]


@pytest.mark.parametrize("args, says", ERRORS)
def test_errors_exit_2_with_one_line_on_stderr(args, says):
    refused(*args, says=says)


def test_help_is_not_an_error():
    result = run("--help")
    assert result.returncode == 0 and "perft" in result.stdout
