"""``python -m makruk perft|legal|status|parse --variant NAME ...``: the same contract as for
Makruk (tests/makruk/test_makruk_cli.py), run as a real subprocess, checked against pyffish."""

from __future__ import annotations

import pytest

from ..makruk.support import ok, refused, run, status
from .support import fsf_legal

STARTS = {
    "makpong": "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "cambodian": "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
    "asean": "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1",
    "sittuyin": "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1",
}


@pytest.mark.parametrize("variant, nodes", [("makpong", 529), ("cambodian", 625), ("asean", 529), ("sittuyin", 7744)])
def test_perft_prints_the_leaf_count_alone(variant, nodes):
    assert ok("perft", "--variant", variant, STARTS[variant], "2") == f"{nodes}\n"


def test_perft_of_the_startpos_of_a_variant():
    assert ok("perft", "--variant", "cambodian", "startpos", "1") == "25\n"


@pytest.mark.parametrize(
    "variant, fen, moves",
    [
        ("cambodian", STARTS["cambodian"], []),
        ("cambodian", STARTS["cambodian"], ["d1b2", "e8g7"]),
        ("makpong", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", []),
        ("asean", "7k/3P4/8/8/8/8/8/K7 w - - 0 1", []),
        ("sittuyin", STARTS["sittuyin"], ["R@a1", "K@e7"]),
        ("sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", []),
    ],
)
def test_legal_prints_pyffish_s_moves_sorted(variant, fen, moves):
    out = ok("legal", "--variant", variant, fen, *moves)
    assert out.endswith("\n") and out.split() == sorted(fsf_legal(variant, fen, moves))


def test_status_of_sittuyin_in_deployment():
    s = status("--variant", "sittuyin", STARTS["sittuyin"], "R@a1")
    assert list(s) == ["fen", "turn", "check", "legal", "outcome", "count"]
    assert s["fen"] == "8/8/4pppp/pppp4/4PPPP/PPPP4/8/R7[KSSFRNNkssfrrnn] b - - 0 1"
    assert s["turn"] == "b" and s["check"] is False and s["outcome"] is None and s["count"] is None
    assert len(s["legal"]) == 88 and all("@" in m for m in s["legal"])


def test_status_of_ouk_writes_the_flags():
    s = status("--variant", "cambodian", STARTS["cambodian"], "d1b2")
    assert s["fen"] == "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1"


def test_status_of_makpong_mate_by_a_distant_rua():
    s = status("--variant", "makpong", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1")
    assert s["check"] is True and s["legal"] == []
    assert s["outcome"] == {"result": "0-1", "reason": "checkmate"}


def test_status_shows_asean_s_automatic_count():
    s = status("--variant", "asean", "4k3/8/8/8/R7/8/8/7K w - - 0 1", "h1h2")
    assert s["count"] == {"kind": "pieces", "side": "b", "limit": 16, "done": 0}


def test_status_fifty_move_draw_in_asean():
    s = status("--variant", "asean", "4k3/8/4p3/8/4P3/8/8/R3K3 w - - 99 60", "a1a2")
    assert s["outcome"] == {"result": "1/2-1/2", "reason": "fifty_moves"}


@pytest.mark.parametrize(
    "variant, fen, text, uci",
    [
        ("sittuyin", STARTS["sittuyin"], "R@a1", "R@a1"),
        ("sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", "d5=F", "d5d5f"),
        ("sittuyin", "7k/8/8/3P4/8/8/P7/K7[] w - - 0 1", "d5c6=F", "d5c6f"),
        ("cambodian", STARTS["cambodian"], "Kb2", "d1b2"),
        ("asean", "7k/3P4/8/8/8/8/8/K7 w - - 0 1", "d8=Q", "d7d8q"),
        ("asean", STARTS["asean"], "Bd2", "c1d2"),
    ],
)
def test_parse_prints_the_uci(variant, fen, text, uci):
    assert ok("parse", "--variant", variant, fen, text) == uci + "\n"


ERRORS = [
    pytest.param(["perft", "--variant", "chess", STARTS["makpong"], "1"], "unknown variant", id="perft-unknown"),
    pytest.param(["legal", "--variant", "chess", STARTS["makpong"]], "unknown variant", id="legal-unknown"),
    pytest.param(["status", "--variant", "karouk2", STARTS["makpong"]], "unknown variant", id="status-unknown"),
    pytest.param(["parse", "--variant", "xiangqi", STARTS["makpong"], "e3e4"], "unknown variant", id="parse-unknown"),
    pytest.param(["perft", "--variant", "", STARTS["makpong"], "1"], "variant", id="empty-name"),
    pytest.param(["legal", "--variant", "sittuyin", STARTS["sittuyin"], "a3a4"], "a3a4", id="bia-moves-in-deployment"),
    pytest.param(["legal", "--variant", "sittuyin", STARTS["sittuyin"], "R@a2"], "R@a2", id="rua-off-the-back-rank"),
    pytest.param(["legal", "--variant", "cambodian", STARTS["cambodian"], "d1b3"], "d1b3", id="no-such-leap"),
    pytest.param(["status", "--variant", "asean", "4k3/8/8/8/R7/8/8/7K w - - 0 1", "h1h2", "count"], "count",
                 id="asean-count-is-not-declared"),
    pytest.param(["legal", "--variant", "asean", "7k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7d8m"], "d7d8m",
                 id="no-bia-ngai-in-asean"),
]


@pytest.mark.parametrize("args, says", ERRORS)
def test_errors_exit_2_with_one_line_on_stderr(args, says):
    refused(*args, says=says)


def test_unknown_variant_names_the_known_ones():
    err = run("perft", "--variant", "chess", STARTS["makpong"], "1").stderr
    assert all(name in err for name in ("makruk", "makpong", "cambodian", "asean", "sittuyin"))
