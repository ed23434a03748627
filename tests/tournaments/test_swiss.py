"""Swiss pairings (issue 25): small cases by hand, then seeded simulated events checked round by round.

What every round of every simulated event must show:
- every active player (entered, not withdrawn, no half-point bye or absence recorded for the
  round) is on exactly one board or has the bye, and only they; a bye only when their number is odd;
- no two players meet twice over the board (a forfeited game was not played: FIDE lets those two
  meet again, C.04.1.b with C.04.2), and no forbidden pair meets;
- a player gets the pairing-allocated bye at most once, and never after a forfeit win (C.04.1.d);
- counting played games, with this round's colours: the colour difference stays within +-2 and
  no one has the same colour three times in a row. C.04.1.f and g let each system make
  exceptions in the last round; the Dutch system's (C.04.3 A.7 and C.3) is for topscorers
  only: in the final round, a player with more than half the points possible may meet a player
  with the same absolute colour preference, so a board with a topscorer may break either rule
  then, and no other board and no other round may;
- the same history (its records in any order) gives the same pairing;
- a round found unpairable truly is: a search of every pairing finds none that meets the
  absolute criteria (rematch, bye, forbidden pair, C.3's colours).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from bot.tournaments.records import Bye, Entrant, History, Pairing
from bot.tournaments.swiss import RoundPairing, Unpairable, pair_round

from .simulate import CALM, Round, simulate

# --- by hand -----------------------------------------------------------------------------------------


def field(*ratings: int) -> tuple[Entrant, ...]:
    return tuple(Entrant(n, f"p{n}", rating) for n, rating in enumerate(ratings, start=1))


def test_round_one_pairs_the_top_half_with_the_bottom_half_by_rating_then_id() -> None:
    players = field(1500, 1700, 1600, 1600, 1400, 1300)  # order: 2, 3, 4 (same rating, lower id first), 1, 5, 6
    pairing = pair_round(History(players), 1, rounds_total=5)
    assert pairing == RoundPairing(1, ((2, 1), (5, 3), (4, 6)), None)


def test_an_odd_field_gives_the_lowest_the_bye_and_the_next_round_someone_else() -> None:
    players = field(1900, 1800, 1700)
    first = pair_round(History(players), 1, rounds_total=3)
    assert first.bye == 3 and first.boards == ((1, 2),)
    after = History(players, (Pairing(1, 1, 2, "0-1"),), first.byes)
    second = pair_round(after, 2, rounds_total=3)
    assert second.bye == 1 and set(second.boards[0]) == {2, 3}


def test_withdrawn_players_and_byes_of_the_round_are_left_out() -> None:
    players = field(1900, 1800, 1700, 1600, 1500)
    history = History(players, byes=(Bye(1, 2, "half"),), withdrawn=frozenset({5}))
    pairing = pair_round(history, 1, rounds_total=3)
    assert {p for board in pairing.boards for p in board} == {1, 3, 4} - {pairing.bye}
    assert pairing.bye in {1, 3, 4}


def test_a_late_joiner_comes_in_with_half_points_for_the_rounds_missed() -> None:
    players = field(1900, 1800, 1700, 1600)
    late = Entrant(9, "late", 2000)
    history = History((*players, late), (Pairing(1, 1, 3, "1-0"), Pairing(1, 4, 2, "0-1")), (Bye(1, 9, "half"),))
    assert history.points(9) == 0.5
    pairing = pair_round(history, 2, rounds_total=4)
    assert 9 in {p for board in pairing.boards for p in board} | {pairing.bye}
    assert pairing.bye != 1 and pairing.bye != 2  # the leaders play


def test_a_forbidden_pair_never_meets() -> None:
    players = field(1900, 1800, 1700, 1600)
    assert (1, 3) in pair_round(History(players), 1, rounds_total=3).boards
    pairing = pair_round(History(players, forbidden=frozenset({frozenset({1, 3})})), 1, rounds_total=3)
    assert {frozenset(board) for board in pairing.boards}.isdisjoint({frozenset({1, 3})})
    with pytest.raises(Unpairable):
        pair_round(History(players[:2], forbidden=frozenset({frozenset({1, 2})})), 1, rounds_total=1)


def test_two_who_met_cannot_meet_again_but_a_forfeit_was_no_game() -> None:
    players = field(1900, 1800)
    with pytest.raises(Unpairable):
        pair_round(History(players, (Pairing(1, 1, 2, "1/2-1/2"),)), 2, rounds_total=2)
    again = pair_round(History(players, (Pairing(1, 1, 2, "0-0F"),)), 2, rounds_total=2)
    assert again.boards in (((1, 2),), ((2, 1),))


def test_three_players_have_one_pairing_allocated_bye_each() -> None:
    players = field(1900, 1800, 1700)
    history = History(players)
    for number in (1, 2, 3):
        pairing = pair_round(history, number, rounds_total=3)
        history = replace(history, pairings=history.pairings + tuple(replace(p, result="1/2-1/2")
                                                                     for p in pairing.pairings),
                          byes=history.byes + pairing.byes)
    assert sorted(b.player for b in history.byes) == [1, 2, 3]


def test_only_the_final_round_lets_two_topscorers_meet_when_both_must_have_white() -> None:
    # After three rounds 1 (2.5 points) and 4 (2) both played Black twice in a row (an absolute
    # preference for White). C.3 keeps such players apart, except topscorers in the last round.
    players = (Entrant(1, "p1", 1998), Entrant(2, "p2", 1855), Entrant(3, "p3", 1506), Entrant(4, "p4", 1732),
               Entrant(5, "p5", 1311), Entrant(6, "p6", 1456), Entrant(7, "p7", 1322))
    games = (Pairing(1, 1, 3, "1/2-1/2"), Pairing(1, 6, 2, "1/2-1/2"), Pairing(1, 4, 7, "1/2-1/2"),
             Pairing(2, 5, 1, "0-1"), Pairing(2, 2, 4, "1/2-1/2"), Pairing(2, 3, 6, "0-1"),
             Pairing(3, 7, 1, "0-1"), Pairing(3, 6, 4, "0-1"), Pairing(3, 2, 5, "1/2-1/2"))
    history = History(players, games, (Bye(1, 5, "pairing"), Bye(2, 7, "pairing"), Bye(3, 3, "pairing")))
    assert colours(history, 1)[-2:] == colours(history, 4)[-2:] == ["b", "b"]
    assert pair_round(history, 4, rounds_total=4).boards[0] == (1, 4)  # 4 has Black a third time
    not_last = pair_round(history, 4, rounds_total=5)
    assert (1, 4) not in not_last.boards and (4, 1) not in not_last.boards


def test_a_history_that_cannot_be_paired_on_is_refused() -> None:
    players = field(1900, 1800, 1700, 1600)
    unfinished = History(players, (Pairing(1, 1, 3), Pairing(1, 4, 2, "1-0")))
    with pytest.raises(ValueError, match="no result"):
        pair_round(unfinished, 2, rounds_total=3)
    with pytest.raises(ValueError, match="already paired"):
        pair_round(History(players, (Pairing(2, 1, 3, "1-0"),)), 2, rounds_total=3)
    with pytest.raises(ValueError, match=r"1\.\.3"):
        pair_round(History(players), 4, rounds_total=3)
    with pytest.raises(ValueError, match="two games"):
        pair_round(History(players, (Pairing(1, 1, 3, "1-0"), Pairing(1, 1, 2, "1-0"))), 2, rounds_total=3)


def test_nobody_left_to_pair_is_an_empty_round() -> None:
    players = field(1900, 1800)
    assert pair_round(History(players, withdrawn=frozenset({1, 2})), 1, rounds_total=3) == RoundPairing(1, ())
    assert pair_round(History(players[:1]), 1, rounds_total=3) == RoundPairing(1, (), 1)


# --- seeded simulations ------------------------------------------------------------------------------

# (seed, players, rounds): small fields with as many rounds as they can take, then a spread up to 70.
SMALL = [(100 + n, n, max(1, n - 1)) for n in range(2, 10)]
SPREAD = [(seed, 2 + (seed * 29) % 69, min(9, max(1, (2 + (seed * 29) % 69) - 1), 3 + seed % 7))
          for seed in range(1, 25)]
EVENTS = [*SMALL, *SPREAD, (20261203, 64, 9)]


@cache
def played(seed: int, players: int, rounds: int) -> tuple[Round, ...]:
    return tuple(simulate(seed, players, rounds))


@pytest.mark.parametrize(("seed", "players", "rounds"), EVENTS, ids=[f"{p}x{r}-seed{s}" for s, p, r in EVENTS])
def test_every_round_of_a_simulated_event_keeps_the_rules(seed: int, players: int, rounds: int) -> None:
    for rnd in played(seed, players, rounds):
        check_round(rnd)


def test_the_simulations_meet_every_case_they_are_meant_to() -> None:
    seen: Counter[str] = Counter()
    for event in EVENTS:
        rounds = played(*event)
        final = rounds[-1].before
        seen["forbidden pair"] += len(final.forbidden)
        seen["withdrawal"] += len(final.withdrawn)
        seen["unpairable"] += rounds[-1].pairing is None
        for rnd in rounds:
            seen["pairing-allocated bye"] += rnd.pairing is not None and rnd.pairing.bye is not None
            seen["half-point bye"] += sum(1 for b in rnd.before.byes if b.kind == "half" and b.round == rnd.number)
        seen["late join"] += len({e.id for e in final.entrants} - {e.id for e in rounds[0].before.entrants})
        results = Counter(p.result for p in final.pairings)
        seen["draw"] += results["1/2-1/2"]
        seen["forfeit"] += results["1-0F"] + results["0-1F"] + results["0-0F"]
        rejoined = {e.id for e in final.entrants if e.id not in final.withdrawn and any(
            r.number > 1 and e.id in r.before.withdrawn for r in rounds)}
        seen["rejoin"] += len(rejoined)
    missing = [case for case in ("forbidden pair", "withdrawal", "pairing-allocated bye", "half-point bye",
                                 "late join", "draw", "forfeit", "rejoin") if not seen[case]]
    assert not missing, f"no simulated event had a {missing}: {seen}"


def test_a_calm_64_player_event_pairs_all_nine_rounds_with_no_bye_and_no_colour_exception_before_the_last() -> None:
    for rnd in simulate(7, 64, 9, CALM):
        assert rnd.pairing is not None and rnd.pairing.bye is None and len(rnd.pairing.boards) == 32
        check_round(rnd)


# --- the checks --------------------------------------------------------------------------------------


def check_round(rnd: Round) -> None:
    history, number = rnd.before, rnd.number
    if rnd.pairing is None:
        assert not some_pairing_exists(history, number, rnd.rounds_total), f"round {number} was pairable"
        return
    pairing = rnd.pairing
    sitting_out = {b.player for b in history.byes if b.round == number}
    active = {e.id for e in history.active()} - sitting_out
    seated = [p for board in pairing.boards for p in board] + ([pairing.bye] if pairing.bye is not None else [])
    assert sorted(seated) == sorted(active), f"round {number}: seated {sorted(seated)}, active {sorted(active)}"
    assert (pairing.bye is not None) == (len(active) % 2 == 1)
    for white, black in pairing.boards:
        assert black not in history.opponents(white), f"round {number}: {white} and {black} meet again"
        assert frozenset({white, black}) not in history.forbidden
    if pairing.bye is not None:
        assert pairing.bye not in had_bye_or_forfeit_win(history), f"round {number}: a second bye for {pairing.bye}"
    final = number == rnd.rounds_total
    for white, black in pairing.boards:
        excused = final and (topscorer(history, white, number) or topscorer(history, black, number))
        for player, colour in ((white, "w"), (black, "b")):
            sequence = [*colours(history, player), colour]
            within = abs(sequence.count("w") - sequence.count("b")) <= 2
            no_three = len(sequence) < 3 or len(set(sequence[-3:])) > 1
            assert (within and no_three) or excused, f"round {number}: {player} gets {''.join(sequence)}"
    if len(active) <= 10:  # the search that proves a round unpairable finds this one
        assert some_pairing_exists(history, number, rnd.rounds_total)
    shuffled = shuffle(history, random.Random(number))
    assert pair_round(shuffled, number, rounds_total=rnd.rounds_total) == pairing, "another order, another pairing"


def colours(history: History, player: int) -> list[str]:
    """``player``'s colours in the games played over the board, in round order."""
    return ["w" if g.white == player else "b" for g in history.games_of(player) if g.played]


def topscorer(history: History, player: int, number: int) -> bool:
    """C.04.3 A.7: over half the points possible, when pairing the last round."""
    return history.points(player) > (number - 1) / 2


def had_bye_or_forfeit_win(history: History) -> set[int]:
    byes = {b.player for b in history.byes if b.kind == "pairing"}
    wins = {p.white for p in history.pairings if p.result == "1-0F"} | {p.black for p in history.pairings
                                                                         if p.result == "0-1F"}
    return byes | wins


def shuffle(history: History, rng: random.Random) -> History:
    return replace(history, entrants=tuple(rng.sample(history.entrants, len(history.entrants))),
                   pairings=tuple(rng.sample(history.pairings, len(history.pairings))),
                   byes=tuple(rng.sample(history.byes, len(history.byes))))


def some_pairing_exists(history: History, number: int, rounds_total: int) -> bool:
    """Search every pairing of the round's players for one that meets FIDE's absolute criteria."""
    sitting_out = {b.player for b in history.byes if b.round == number}
    players = sorted({e.id for e in history.active()} - sitting_out)
    assert len(players) <= 16, "an unpairable round in a field this large is not believable"
    no_bye = had_bye_or_forfeit_win(history)
    final = number == rounds_total

    def absolute(player: int) -> str | None:
        sequence = colours(history, player)
        difference = sequence.count("w") - sequence.count("b")
        if abs(difference) > 1 or (len(sequence) >= 2 and sequence[-1] == sequence[-2]):
            return "b" if difference > 0 or (difference == 0 and sequence[-1] == "w") else "w"
        return None

    def allowed(a: int, b: int) -> bool:
        if b in history.opponents(a) or frozenset({a, b}) in history.forbidden:
            return False
        if final and (topscorer(history, a, number) or topscorer(history, b, number)):
            return True
        return absolute(a) is None or absolute(a) != absolute(b)

    def match(left: list[int], bye_left: bool) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        if bye_left and first not in no_bye and match(rest, False):
            return True
        return any(allowed(first, other) and match([p for p in rest if p != other], bye_left) for other in rest)

    return match(players, len(players) % 2 == 1)
