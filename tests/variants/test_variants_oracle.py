"""makruk/'s variants against pyffish (a current Fairy-Stockfish), move by move, over seeded
random games: 200 games for each of makpong, cambodian, asean and sittuyin.

At every position of every game:
- the legal moves (UCI strings: drops ``R@a1``, promotions ``d5d5f`` ``a7a8q`` ``d5c6m``) are
  pyffish's legal moves after the game's moves from its start, so pyffish keeps its own
  position and never reads one of our FENs but the first;
- check is pyffish's (the ``+``/``#`` of its SAN of the move played, ``gives_check`` at the
  start), so checkmate and stalemate (no legal move, with or without check) agree as well;
- the SAN and the Thai SAN of the move played are pyffish's.
The FEN (placement with the pocket, side to move, Ouk's flags, fullmove number and, where
pyffish writes one, the halfmove clock) is compared at the start, every ``FEN_EVERY`` plies,
whenever our Ouk flags change or Sittuyin's deployment ends, and at the end: a pyffish call
costs 1-2 ms (it sets up its piece tables anew each time), so a FEN at every ply would double
the run, and a wrong placement, pocket or flag shows in the legal moves long before.

At the end of each game: a checkmate is ``game_result`` -MATE, a stalemate 0; a draw by
repetition or the 50-move rule, and Sittuyin's "only promotions are left" draw, are pyffish's
optional game end. Where our rules deliberately differ, only what is shared is compared:
- counting: in makpong and cambodian our counts are declared (RULES.md) and these games
  declare none, while pyffish runs its counts by itself, so pyffish's count fields and the draws
  it lets be claimed after them are not compared (tests/variants/test_variants_positions.py
  checks the declared counts against pyffish's). In asean and sittuyin both count by
  themselves; ours ends the game one ply before pyffish lets the draw be claimed: then pyffish's
  count has the same limit (in plies, twice ours) and has reached it;
- dead material ends our games (makpong, cambodian: Makruk's table; asean, sittuyin: two bare
  Khuns, which pyffish's ``has_insufficient_material`` confirms); pyffish plays on;
- Fairy-Stockfish allows perpetual check, so the boards use ``perpetual="draw"``.

pyffish is required: when it is missing the test fails (CI must never skip this proof).
"""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import makruk

from .support import (
    MATE,
    Game,
    assert_same_fen,
    fsf_claimable,
    fsf_count,
    fsf_ends_now,
    fsf_fen,
    fsf_in_check,
    fsf_insufficient,
    fsf_legal,
    fsf_result,
    fsf_sans,
    play,
    random_bare_khun,
    random_deployment,
    random_endgame,
    random_mate_in_one,
    random_mating_net,
    random_middlegame,
    random_promotion_race,
    squares,
)

GAMES = 200
FEN_EVERY = 8
SEEDS = {"makpong": 15_01, "cambodian": 15_02, "asean": 15_03, "sittuyin": 15_04}
Scenario = Callable[[random.Random], tuple[str, int]]  # a start FEN and the plies to play from it


def _start(variant: str, plies: int) -> Scenario:
    return lambda rng: (makruk.Board(variant=variant).fen(), plies)


def _middlegame(variant: str, plies: int) -> Scenario:
    return lambda rng: (random_middlegame(rng, variant, rng.randint(8, 60)), plies)


def _endgame(variant: str, plies: int) -> Scenario:
    return lambda rng: (random_endgame(rng, variant), plies)


def _net(variant: str, plies: int) -> Scenario:
    return lambda rng: (random_mating_net(rng, variant), plies)


def _mate(variant: str, plies: int) -> Scenario:
    return lambda rng: (random_mate_in_one(rng, variant), plies)


def _bare(variant: str, plies: int) -> Scenario:
    return lambda rng: (random_bare_khun(rng, variant), plies)


# For each variant, (weight, scenario): where its games start and how long they go on.
SCENARIOS: dict[str, list[tuple[int, Scenario]]] = {
    "makpong": [
        (2, _start("makpong", 30)),
        (1, lambda rng: ("3mk3/r3s1R1/1psppnp1/p1pn4/1P2NP2/P1PPP1P1/4NS2/R1SKM3 w - - 0 1", 24)),
        (3, _middlegame("makpong", 20)),
        (8, _endgame("makpong", 24)),
        (3, _net("makpong", 16)),
        (3, _mate("makpong", 8)),
    ],
    "cambodian": [
        (3, _start("cambodian", 30)),
        (1, lambda rng: ("rn1mksnr/3s4/pppppppp/8/4N3/PPPPPPPP/8/R1SKMSNR b DEde - 3 2", 24)),
        (3, _middlegame("cambodian", 20)),
        (8, _endgame("cambodian", 24)),
        (2, _net("cambodian", 16)),
        (3, _mate("cambodian", 8)),
    ],
    "asean": [
        (2, _start("asean", 30)),
        (3, _middlegame("asean", 20)),
        (7, _endgame("asean", 24)),
        (2, _net("asean", 16)),
        (3, _bare("asean", 40)),
        (3, _mate("asean", 8)),
    ],
    "sittuyin": [
        (2, _start("sittuyin", 40)),
        (4, lambda rng: (random_deployment(rng), 30)),
        (2, _middlegame("sittuyin", 20)),
        (3, _endgame("sittuyin", 24)),
        (2, _net("sittuyin", 16)),
        (4, lambda rng: (random_promotion_race(rng), 24)),
        (1, _bare("sittuyin", 40)),
        (2, _mate("sittuyin", 8)),
    ],
}


def _games(variant: str) -> list[tuple[str, int, random.Random]]:
    rng = random.Random(SEEDS[variant])
    weights = [w for w, _ in SCENARIOS[variant]]
    scenarios = [s for _, s in SCENARIOS[variant]]
    games = []
    for _ in range(GAMES):
        scenario = rng.choices(scenarios, weights)[0]
        game_rng = random.Random(rng.getrandbits(64))
        start, plies = scenario(game_rng)
        games.append((start, plies, game_rng))
    return games


def _where(game: Game, k: int) -> str:
    return f"{game.variant}: after {game.start!r} moves {' '.join(game.moves[:k]) or '(none)'}"


def _compare(game: Game, stats: Counter[str]) -> None:
    variant, start = game.variant, game.start
    for k, ply in enumerate(game.plies):
        where = _where(game, k)
        theirs = fsf_legal(variant, start, game.moves[:k])
        assert ply.legal == theirs, (
            f"{where}: only ours {sorted(ply.legal - theirs)}, only pyffish {sorted(theirs - ply.legal)}"
        )
        last = k == len(game.plies) - 1
        changed = k > 0 and (ply.gates, ply.deploying) != (game.plies[k - 1].gates, game.plies[k - 1].deploying)
        if k == 0 or last or k % FEN_EVERY == 0 or changed:
            assert_same_fen(ply.fen, fsf_fen(variant, start, game.moves[:k]), where)
            stats["fens"] += 1
    sans = fsf_sans(variant, start, game.moves) if game.moves else []
    checks = [fsf_in_check(variant, start)] + [san.endswith(("+", "#")) for san in sans]
    for k, ply in enumerate(game.plies):
        assert ply.check == checks[k], f"{_where(game, k)}: check ours {ply.check}, pyffish {checks[k]}"
    _compare_end(game, stats)
    for k, san in enumerate(sans):
        assert _same_san(variant, game.sans[k], san), (
            f"{_where(game, k)}: SAN of {game.moves[k]} ours {game.sans[k]!r}, pyffish {san!r}"
        )
    thai = fsf_sans(variant, start, game.moves, thai=True) if game.moves else []
    for k, san in enumerate(thai):
        assert _same_san(variant, game.thai[k], san), (
            f"{_where(game, k)}: Thai SAN of {game.moves[k]} ours {game.thai[k]!r}, pyffish {san!r}"
        )


_MET_DISAMBIGUATED = re.compile(r"(M|ม็)[a-hกขคงจฉชญ]?[1-8๑-๘]?(?=[-x]?[a-hกขคงจฉชญ][1-8๑-๘])")


def _same_san(variant: str, ours: str, theirs: str) -> bool:
    """Equal, but for one deliberate difference (test_variants_positions): in Ouk, Fairy-Stockfish
    does not tell a Met from the Neang that reaches the same square by its double step (both
    ``Me3``); we write the file or rank that tells them apart (``Mde3``, ``Mee3``)."""
    if ours == theirs:
        return True
    return variant in ("cambodian", "karouk") and _MET_DISAMBIGUATED.sub(r"\1", ours, count=1) == theirs


def _compare_end(game: Game, stats: Counter[str]) -> None:
    variant, start, moves = game.variant, game.start, game.moves
    board = game.board
    assert board is not None
    where = _where(game, len(moves))
    outcome = board.outcome()
    final = game.plies[-1]
    if not final.legal:
        assert outcome is not None and outcome.reason == ("checkmate" if final.check else "stalemate"), where
        assert fsf_result(variant, start, moves) == (-MATE if final.check else 0), where
        stats["mates" if final.check else "stalemates"] += 1
        return
    assert not fsf_ends_now(variant, start, moves), f"{where}: pyffish ends the game here"
    if outcome is None:
        if fsf_claimable(variant, start, moves):
            # Only pyffish's own counts, which ours (declared) do not follow, may allow a claim here.
            count = fsf_count(fsf_fen(variant, start, moves))
            assert variant in ("makpong", "cambodian") and count is not None and count[1] > count[0], (
                f"{where}: pyffish lets a draw be claimed, our game goes on"
            )
        return
    stats[outcome.reason] += 1
    if outcome.reason == "counting":
        assert variant in ("asean", "sittuyin"), f"{where}: a count nobody declared"
        assert board.count is not None
        count = fsf_count(fsf_fen(variant, start, moves))
        assert count == (2 * board.count.limit, 2 * board.count.limit), (
            f"{where}: our count {board.count} ended the game; pyffish's count (limit, ply) is {count}"
        )
        assert not fsf_claimable(variant, start, moves), f"{where}: ours ends one ply before pyffish's claim"
    elif outcome.reason == "material":
        if variant in ("asean", "sittuyin"):
            assert fsf_insufficient(variant, start, moves) == (True, True), where
    else:  # repetition, fifty_moves, Sittuyin's promotions-only draw
        assert outcome.result == "1/2-1/2", where
        assert fsf_claimable(variant, start, moves), f"{where}: our {outcome.reason} draw; pyffish has no claim"


def _tally(game: Game, stats: Counter[str]) -> None:
    stats["games"] += 1
    stats["plies"] += len(game.plies)
    for k, ply in enumerate(game.plies):
        stats["checks"] += ply.check
        if k < len(game.moves):
            move = game.moves[k]
            stats["drops"] += "@" in move
            stats["promotions"] += len(move) == 5
            stats["in_place_promotions"] += len(move) == 5 and move[:2] == move[2:4]
            if game.variant == "cambodian" and ply.gates:
                after = game.plies[k + 1].gates
                stats["gates_lost"] += bin(ply.gates).count("1") - bin(after).count("1")
                stats["leaps"] += _is_leap(move, ply.fen)
    if game.variant == "makpong":
        stats["khun_moves_in_check"] += sum(
            1 for k, ply in enumerate(game.plies[:-1]) if ply.check and _moves_khun(game, k)
        )


def _is_leap(move: str, fen: str) -> bool:
    """A Khun's Ma-jump or a Neang's double step."""
    piece = squares(fen)[makruk.parse_square(move[:2])].upper()
    files, ranks = abs(ord(move[0]) - ord(move[2])), abs(int(move[1]) - int(move[3]))
    return (piece == "K" and (files, ranks) == (2, 1)) or (piece == "M" and (files, ranks) == (0, 2))


def _moves_khun(game: Game, k: int) -> bool:
    return squares(game.plies[k].fen)[makruk.parse_square(game.moves[k][:2])].upper() == "K"


# What the games must reach, or the comparison proves little.
MINIMUM = {
    "makpong": {"mates": 90, "checks": 150, "promotions": 40, "khun_moves_in_check": 30},
    "cambodian": {"mates": 20, "checks": 300, "promotions": 60, "leaps": 25, "gates_lost": 150},
    "asean": {"mates": 15, "stalemates": 2, "checks": 350, "promotions": 30, "counting": 2},
    "sittuyin": {
        "mates": 15, "stalemates": 1, "checks": 300, "promotions": 60, "in_place_promotions": 12, "drops": 450,
    },
}


@pytest.mark.parametrize("variant", sorted(SEEDS))
def test_random_games_agree_with_pyffish(variant):
    stats: Counter[str] = Counter()
    for start, plies, rng in _games(variant):
        game = play(rng, variant, start, plies)
        _compare(game, stats)
        _tally(game, stats)
    print(f"\n{variant}: {dict(stats)}")
    assert stats["games"] == GAMES
    short = {key: (stats[key], least) for key, least in MINIMUM[variant].items() if stats[key] < least}
    assert not short, f"{variant}: the games reach too few of (got, wanted) {short}; all: {dict(stats)}"


def test_the_rules_core_never_imports_pyffish():
    """pyffish is GPL and a test tool: nothing under makruk/ (variants included) imports it."""
    package = Path(makruk.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            )
            found += [f"{path.name}: {name}" for name in names if name.split(".")[0] == "pyffish"]
    assert len(list(package.rglob("*.py"))) >= 10 and found == []


def test_the_guard_keeps_unknown_names_away_from_pyffish():
    with pytest.raises(AssertionError, match="unknown variant"):
        fsf_legal("chess", makruk.STARTING_FEN)
