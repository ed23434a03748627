"""Tie-breaks and standings on small events computed by hand (the rules are in tiebreaks.py's docstring)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from bot.tournaments.records import Bye, ByeKind, Entrant, History, Pairing, Score
from bot.tournaments.tiebreaks import (
    System,
    buchholz,
    buchholz_cut1,
    direct_encounter,
    koya,
    performance,
    sonneborn_berger,
    standings,
    wins,
)

PLAYERS = tuple(Entrant(i, name, 1700 - 100 * i) for i, name in enumerate(("ann", "bob", "cy", "dee", "eve"), 1))

# A Swiss of 5 over 3 rounds with a pairing bye, a forfeit, a half-point bye and a withdrawal:
#   R1: ann-bob 1-0, cy-dee draw, eve pairing bye
#   R2: eve-ann 0-1, bob-cy 1-0 by forfeit (cy absent), dee half-point bye
#   R3: ann-dee draw, bob-eve 0-1; cy has withdrawn (no board)
SWISS = History(
    PLAYERS,
    (Pairing(1, 1, 2, "1-0"), Pairing(1, 3, 4, "1/2-1/2"),
     Pairing(2, 5, 1, "0-1"), Pairing(2, 2, 3, "1-0F"),
     Pairing(3, 1, 4, "1/2-1/2"), Pairing(3, 2, 5, "0-1")),
    (Bye(1, 5, "pairing"), Bye(2, 4, "half")),
    withdrawn=frozenset({3}),
)
# Points: ann 2.5, bob 1, cy 0.5, dee 1.5, eve 2.
# Adjusted scores (VURs as draws): ann 2.5, bob 1 (the forfeit win counts), cy 0.5+0.5+0.5 = 1.5,
# dee 0.5+0.5+0.5 = 1.5, eve 1+0+1 = 2.
# Buchholz parts (a dummy with the player's own score for each unplayed round):
#   ann [bob 1, eve 2, dee 1.5]; bob [ann 2.5, own 1, eve 2]; cy [dee 1.5, own .5, own .5];
#   dee [cy 1.5, own 1.5, ann 2.5]; eve [own 2, ann 2.5, bob 1].


def test_buchholz_with_byes_forfeits_and_a_withdrawal() -> None:
    assert buchholz(SWISS) == {1: 4.5, 2: 5.5, 3: 2.5, 4: 5.5, 5: 5.5}
    assert buchholz_cut1(SWISS) == {1: 3.5, 2: 4.5, 3: 2.0, 4: 4.0, 5: 4.5}


def test_sonneborn_berger_with_byes_forfeits_and_a_withdrawal() -> None:
    # ann 1*1 + 2*1 + 1.5*.5; bob 2.5*0 + own 1*1 + 2*0; cy 1.5*.5 + 0 + 0;
    # dee 1.5*.5 + own 1.5*.5 + 2.5*.5; eve own 2*1 + 2.5*0 + 1*1.
    assert sonneborn_berger(SWISS) == {1: 3.75, 2: 1.0, 3: 0.75, 4: 2.75, 5: 3.0}


def test_wins_count_only_games_won_over_the_board() -> None:
    assert wins(SWISS) == {1: 2.0, 2: 0.0, 3: 0.0, 4: 0.0, 5: 1.0}


def test_swiss_standings() -> None:
    rows = standings(SWISS, "swiss")
    assert [(r.rank, r.name, r.points) for r in rows] == [
        (1, "ann", 2.5), (2, "eve", 2.0), (3, "dee", 1.5), (4, "bob", 1.0), (5, "cy", 0.5)]
    assert rows[1].tiebreaks == {"buchholz_cut1": 4.5, "buchholz": 5.5, "sonneborn_berger": 3.0,
                                 "direct_encounter": 0.0, "wins": 1.0}
    assert list(rows[0].tiebreaks) == ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"]


# A round robin of 4 on FIDE's table: R1 ann-dee 1-0, bob-cy 1-0; R2 dee-cy 0-1, ann-bob 0-1;
# R3 bob-dee 0-1, cy-ann 0-1. Points: ann 2, bob 2, cy 1, dee 1.
ROUND_ROBIN = History(
    PLAYERS[:4],
    (Pairing(1, 1, 4, "1-0"), Pairing(1, 2, 3, "1-0"), Pairing(2, 4, 3, "0-1"), Pairing(2, 1, 2, "0-1"),
     Pairing(3, 2, 4, "0-1"), Pairing(3, 3, 1, "0-1")),
)


def test_round_robin_tiebreaks() -> None:
    assert direct_encounter(ROUND_ROBIN) == {1: 0.0, 2: 1.0, 3: 1.0, 4: 0.0}
    assert sonneborn_berger(ROUND_ROBIN) == {1: 2.0, 2: 3.0, 3: 1.0, 4: 2.0}
    assert wins(ROUND_ROBIN) == {1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0}
    # 50% of 3 rounds is 1.5: only ann and bob count.
    assert koya(ROUND_ROBIN) == {1: 0.0, 2: 1.0, 3: 0.0, 4: 1.0}


def test_round_robin_standings_put_direct_encounter_first() -> None:
    rows = standings(ROUND_ROBIN, "roundrobin")
    assert [(r.rank, r.name) for r in rows] == [(1, "bob"), (2, "ann"), (3, "cy"), (4, "dee")]
    assert list(rows[0].tiebreaks) == ["direct_encounter", "sonneborn_berger", "wins", "koya"]


def test_direct_encounter_needs_every_tied_pair_to_have_met() -> None:
    # ann and bob on 1 each never met: nothing to compare, the next tie-break decides.
    event = History(PLAYERS[:4], (Pairing(1, 1, 3, "1-0"), Pairing(1, 2, 4, "1-0")))
    assert direct_encounter(event) == {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}
    # Three tied who all met, in a cycle: each scored 1 against the others.
    cycle = History(PLAYERS[:3], (Pairing(1, 1, 2, "1-0"), Pairing(2, 2, 3, "1-0"), Pairing(3, 3, 1, "1-0")))
    assert direct_encounter(cycle) == {1: 1.0, 2: 1.0, 3: 1.0}


def test_a_forfeit_between_tied_players_decides_their_direct_encounter() -> None:
    event = History(PLAYERS[:4], (Pairing(1, 1, 2, "0-1F"), Pairing(1, 3, 4, "1-0"),
                                  Pairing(2, 1, 4, "1-0"), Pairing(2, 2, 3, "0-1")))
    assert direct_encounter(event) == {1: 0.0, 2: 1.0, 3: 0.0, 4: 0.0}  # cy, alone on 2, has no tie


def test_players_equal_on_everything_share_a_rank() -> None:
    event = History(PLAYERS[:4], (Pairing(1, 1, 2, "1/2-1/2"), Pairing(1, 3, 4, "1/2-1/2")))
    rows = standings(event, "swiss")
    assert [(r.rank, r.name) for r in rows] == [(1, "ann"), (1, "bob"), (1, "cy"), (1, "dee")]


def test_a_double_forfeit_is_a_voluntary_unplayed_round_for_both() -> None:
    event = History(PLAYERS[:4], (Pairing(1, 1, 2, "0-0F"), Pairing(1, 3, 4, "1-0"),
                                  Pairing(2, 1, 3, "1-0"), Pairing(2, 2, 4, "1/2-1/2")))
    # Points ann 1, bob 0.5, cy 1, dee 0.5; adjusted (the double forfeit as a draw) ann 1.5, bob 1, cy 1, dee 0.5.
    # ann: own 1 (dummy) + cy 1; bob: own 0.5 + dee 0.5; cy: dee 0.5 + ann 1.5; dee: cy 1 + bob 1.
    assert buchholz(event) == {1: 2.0, 2: 1.0, 3: 2.0, 4: 2.0}


def test_arena_standings_rank_by_arena_points_then_performance() -> None:
    # ratings: ann 1600, bob 1500, cy 1400, dee 1300
    event = History(PLAYERS[:4], (Pairing(1, 1, 2, "1-0"), Pairing(1, 3, 4, "1/2-1/2"),
                                  Pairing(2, 1, 3, "1/2-1/2"), Pairing(2, 4, 2, "1-0")))
    assert performance(event) == pytest.approx({1: 1450 + 250, 2: 1450 - 500, 3: 1450, 4: 1450 + 250})
    rows = standings(event, "arena", points={1: 3, 2: 0, 3: 2, 4: 3})
    assert [(r.rank, r.name, r.points) for r in rows] == [(1, "ann", 3), (1, "dee", 3), (3, "cy", 2), (4, "bob", 0)]
    assert rows[0].tiebreaks == {"performance": 1700.0}


def test_no_games_no_performance_and_empty_standings() -> None:
    assert performance(History(PLAYERS[:2])) == {1: 0.0, 2: 0.0}
    assert standings(History(()), "swiss") == []


def test_a_game_still_running_is_not_counted() -> None:
    event = History(PLAYERS[:2], (Pairing(1, 1, 2, "1-0"), Pairing(2, 2, 1)))
    assert buchholz(event) == {1: 0.0, 2: 1.0}


def test_a_late_joiners_missing_round_counts_as_a_draw_for_their_opponents() -> None:
    # R1: ann-bob 1-0, cy pairing bye, dee not yet in (no board, no bye); R2: ann-cy draw, bob-dee 0-1.
    event = History(PLAYERS[:4], (Pairing(1, 1, 2, "1-0"), Pairing(2, 1, 3, "1/2-1/2"), Pairing(2, 2, 4, "0-1")),
                    (Bye(1, 3, "pairing"),))
    # Adjusted: ann 1.5, bob 0, cy 1 + 0.5 = 1.5, dee 0.5 (absent) + 1 = 1.5.
    # ann: bob 0 + cy 1.5; bob: ann 1.5 + dee 1.5; cy: own 1.5 + ann 1.5; dee: own 1 + bob 0.
    assert buchholz(event) == {1: 1.5, 2: 3.0, 3: 3.0, 4: 1.0}
    assert sonneborn_berger(event) == {1: 0.75, 2: 0.0, 3: 2.25, 4: 0.0}


def test_standings_of_random_events_are_sorted_and_ranked() -> None:
    rng = random.Random(25)
    results: list[Score] = ["1-0", "0-1", "1/2-1/2", "1-0F", "0-1F", "0-0F"]
    kinds: list[ByeKind] = ["pairing", "half", "zero"]
    systems: tuple[System, ...] = ("swiss", "roundrobin", "arena")
    for _ in range(50):
        players = tuple(Entrant(i, f"p{i}", rng.randint(1000, 2000)) for i in range(1, rng.randint(2, 20)))
        pairings, byes = [], []
        for r in range(1, rng.randint(1, 7)):
            ids = [p.id for p in players]
            rng.shuffle(ids)
            if len(ids) % 2:
                byes.append(Bye(r, ids.pop(), rng.choice(kinds)))
            pairings += [Pairing(r, a, b, rng.choice(results)) for a, b in zip(ids[::2], ids[1::2], strict=True)]
        event = History(players, tuple(pairings), tuple(byes))
        for system in systems:
            rows = standings(event, system)
            assert sorted(r.player for r in rows) == [p.id for p in players]
            keys = [(r.points, *r.tiebreaks.values()) for r in rows]
            assert keys == sorted(keys, reverse=True)
            for before, after in pairwise(rows):
                same = (before.points, *before.tiebreaks.values()) == (after.points, *after.tiebreaks.values())
                assert after.rank == (before.rank if same else rows.index(after) + 1)


def test_standings_of_64_players_over_9_rounds_rank_everyone() -> None:
    # Their speed is measured by bench/bench_tournament.py (the event's end), not here.
    rng = random.Random(9)
    players = tuple(Entrant(i, f"p{i}", 1500) for i in range(1, 65))
    pairings = []
    results: list[Score] = ["1-0", "0-1", "1/2-1/2"]
    for r in range(1, 10):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        pairings += [Pairing(r, a, b, rng.choice(results)) for a, b in zip(ids[::2], ids[1::2], strict=True)]
    event = History(players, tuple(pairings))
    rows = standings(event, "swiss")
    assert sorted(r.player for r in rows) == [p.id for p in players]
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
