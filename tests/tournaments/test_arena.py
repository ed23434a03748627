"""Arena scoring (lichess's rules) and pairing of waiting players."""

from __future__ import annotations

import random

import pytest

from bot.tournaments.arena import ArenaGame, arena_scores, pair_waiting


def _games(text: str, moves: int = 40) -> list[ArenaGame]:
    """``W``/``D``/``L`` a game; a trailing ``b`` marks berserk (``Wb``)."""
    outcome = {"W": "win", "D": "draw", "L": "loss"}
    return [ArenaGame(outcome[t[0]], moves, berserk=t.endswith("b")) for t in text.split()]  # type: ignore[arg-type]


@pytest.mark.parametrize(("games", "points", "on_fire"), [
    ("W W W", (2, 2, 4), True),  # the golden case: 8
    ("W W W W", (2, 2, 4, 4), True),
    ("W W D W", (2, 2, 2, 2), False),  # the draw is doubled, then the fire is out
    ("W W L W W W", (2, 2, 0, 2, 2, 4), True),
    ("W L W D W W", (2, 0, 2, 1, 2, 2), True),
    ("D D D", (1, 1, 1), False),
    ("Wb Wb Wb", (3, 3, 5), True),  # berserk +1 on top of the doubled win
    ("Lb Db", (0, 1), False),  # berserk pays only on a win
    ("", (), False),
])
def test_golden_scores(games: str, points: tuple[int, ...], on_fire: bool) -> None:
    sheet = arena_scores(_games(games))
    assert sheet.points == points
    assert sheet.total == sum(points)
    assert sheet.on_fire is on_fire


def test_three_wins_make_eight() -> None:
    assert arena_scores(_games("W W W")).total == 8


def test_a_berserk_win_before_move_seven_gets_no_bonus() -> None:
    assert arena_scores([ArenaGame("win", 6, berserk=True)]).total == 2
    assert arena_scores([ArenaGame("win", 7, berserk=True)]).total == 3
    assert arena_scores([ArenaGame.from_plies("win", 13, berserk=True)]).total == 2
    assert arena_scores([ArenaGame.from_plies("win", 14, berserk=True)]).total == 3


def test_a_quick_draw_scores_nothing_and_puts_the_fire_out() -> None:
    assert arena_scores([ArenaGame("draw", 9)]).total == 0
    assert arena_scores([ArenaGame("draw", 10)]).total == 1
    assert arena_scores([ArenaGame.from_plies("draw", 19)]).total == 0
    assert arena_scores([ArenaGame.from_plies("draw", 20)]).total == 1
    sheet = arena_scores([ArenaGame("win", 30), ArenaGame("win", 30), ArenaGame("draw", 3), ArenaGame("win", 30)])
    assert sheet.points == (2, 2, 0, 2)
    assert not sheet.on_fire


def test_a_forfeit_win_counts_as_a_win_of_no_moves_and_leaves_the_streak() -> None:
    forfeit = ArenaGame("win", 0, berserk=True, forfeit=True)
    assert arena_scores([forfeit]).points == (2,)  # no berserk bonus: no moves
    assert arena_scores([ArenaGame("win", 30), forfeit, ArenaGame("win", 30)]).points == (2, 2, 2)
    sheet = arena_scores([ArenaGame("win", 30), ArenaGame("win", 30), forfeit, ArenaGame("win", 30)])
    assert sheet.points == (2, 2, 4, 4) and sheet.on_fire  # on fire before it, on fire after it
    lost = arena_scores([ArenaGame("win", 30), ArenaGame("win", 30), ArenaGame("loss", 0, forfeit=True),
                         ArenaGame("win", 30)])
    assert lost.points == (2, 2, 0, 2)  # a forfeit loss is a loss


def test_pairs_are_near_in_rank() -> None:
    ranks = {p: p for p in range(1, 9)}
    assert pair_waiting([8, 3, 1, 6, 2, 7], ranks, {}) == [(1, 2), (3, 6), (7, 8)]


def test_no_immediate_rematch_unless_only_two_wait() -> None:
    ranks = {1: 1, 2: 2, 3: 3}
    last = {1: 2, 2: 1}
    assert pair_waiting([1, 2, 3], ranks, last) == [(1, 3)]  # 2 waits for someone else
    assert pair_waiting([1, 2], ranks, last) == [(1, 2)]
    assert pair_waiting([1], ranks, last) == []
    assert pair_waiting([], ranks, last) == []


def test_a_one_sided_last_opponent_is_still_no_rematch() -> None:
    # 2's last game was against 1 even if 1 has played since (1's record moved on to 4).
    assert pair_waiting([1, 2, 3], {1: 1, 2: 2, 3: 3}, {1: 4, 2: 1}) == [(1, 3)]


def test_unranked_newcomers_come_last_by_id() -> None:
    assert pair_waiting([9, 4, 1, 2], {1: 1, 2: 2}, {}) == [(1, 2), (4, 9)]


def test_random_pools_never_rematch_and_are_deterministic() -> None:
    rng = random.Random(25)
    for _ in range(500):
        pool = rng.sample(range(1, 40), rng.randint(0, 12))
        ranks = {p: rng.randint(1, 40) for p in pool}
        last = {p: rng.choice(pool) for p in pool if rng.random() < 0.7}
        pairs = pair_waiting(pool, ranks, last)
        assert pairs == pair_waiting(list(reversed(pool)), ranks, last)
        seen = [p for pair in pairs for p in pair]
        assert len(seen) == len(set(seen)) and set(seen) <= set(pool)
        if len(pool) != 2:
            assert all(last.get(a) != b and last.get(b) != a for a, b in pairs)


def test_as_many_pairs_as_can_be_made() -> None:
    # Greedily 1-2 would leave 3 and 4, who just met; 1-3 and 2-4 pair everyone.
    ranks = {p: p for p in range(1, 5)}
    assert pair_waiting([1, 2, 3, 4], ranks, {3: 4, 4: 3}) == [(1, 3), (2, 4)]
    # With an odd number the lowest ranked waits, unless that would strand a rematch.
    assert pair_waiting([1, 2, 3], ranks, {}) == [(1, 2)]
    assert pair_waiting([1, 2, 3], ranks, {1: 2, 2: 1}) == [(1, 3)]


def test_random_pools_pair_all_but_at_most_one_when_rematches_are_sparse() -> None:
    rng = random.Random(7)
    for _ in range(300):
        pool = rng.sample(range(1, 60), rng.randint(4, 20))
        shuffled = pool[:]
        rng.shuffle(shuffled)
        last = dict(zip(pool[::2], pool[1::2], strict=False)) | dict(zip(pool[1::2], pool[::2], strict=False))
        pairs = pair_waiting(shuffled, {p: p for p in pool}, last)
        assert len(pairs) == len(pool) // 2
