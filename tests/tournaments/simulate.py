"""Seeded simulated Swiss events, round by round, for the tests and ``bench/bench_tournament.py``.

A field of random ratings; some entrants hold back and join late (while fewer than half the
rounds have started, with a half-point bye for each round missed, as the service records
them); between rounds some players withdraw, some of them come back, some ask for a
half-point bye; a few pairs are forbidden by the organizer. Results are random: draws,
wins leaning to the higher rating, forfeits (two forfeit losses withdraw a player, as in a
live event). Each round is paired by ``pair_round`` on the history so far.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from bot.tournaments.records import Bye, Entrant, History, Pairing, Score
from bot.tournaments.swiss import RoundPairing, Unpairable, pair_round


@dataclass(frozen=True, slots=True)
class Odds:
    """How often things happen: per board (draw, forfeit) and per player between rounds."""

    draw: float = 0.2
    forfeit: float = 0.04
    withdraw: float = 0.02
    rejoin: float = 0.25
    half_bye: float = 0.02
    late: float = 0.1  # share of the field that enters late
    forbidden: int = 2  # at most this many forbidden pairs


CALM = Odds(forfeit=0.0, withdraw=0.0, half_bye=0.0, late=0.0, forbidden=0)


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a simulated event: the history it was paired on, and its pairing (None: unpairable)."""

    number: int
    rounds_total: int
    before: History
    pairing: RoundPairing | None


def simulate(seed: int, players: int, rounds: int, odds: Odds = Odds()) -> Iterator[Round]:
    """Play an event of ``players`` entrants over ``rounds`` rounds; stop early if a round cannot be paired."""
    rng = random.Random(seed)
    field = [Entrant(n, f"p{n}", rng.randint(1000, 2200)) for n in range(1, players + 1)]
    late = [e for e in field[1:] if rng.random() < odds.late] if rounds > 1 else []
    forbidden = set()
    if players >= 6:
        for _ in range(rng.randint(0, odds.forbidden)):
            forbidden.add(frozenset(rng.sample([e.id for e in field], 2)))
    history = History(tuple(e for e in field if e not in late), forbidden=frozenset(forbidden))
    quit_for_forfeits: set[int] = set()
    for number in range(1, rounds + 1):
        history = _between_rounds(history, number, rounds, late, quit_for_forfeits, odds, rng)
        try:
            pairing = pair_round(history, number, rounds_total=rounds)
        except Unpairable:
            yield Round(number, rounds, history, None)
            return
        yield Round(number, rounds, history, pairing)
        games = tuple(Pairing(number, w, b, _result(history, w, b, odds, rng)) for w, b in pairing.boards)
        history = replace(history, pairings=history.pairings + games, byes=history.byes + pairing.byes)
        for player in {p for g in games for p in (g.white, g.black)}:
            if sum(1 for g in history.games_of(player) if g.result == "0-0F" or
                   (g.result == "1-0F" and g.black == player) or (g.result == "0-1F" and g.white == player)) >= 2:
                quit_for_forfeits.add(player)
        history = replace(history, withdrawn=history.withdrawn | quit_for_forfeits)


def _between_rounds(history: History, number: int, rounds: int, late: list[Entrant], quit_for_forfeits: set[int],
                    odds: Odds, rng: random.Random) -> History:
    """Withdrawals, returns, late entries and half-point byes asked for, before round ``number``."""
    withdrawn = set(history.withdrawn)
    entrants = list(history.entrants)
    byes = list(history.byes)
    if number > 1:
        for e in history.active():
            if rng.random() < odds.withdraw:
                withdrawn.add(e.id)
        for player in sorted(history.withdrawn - quit_for_forfeits):
            if rng.random() < odds.rejoin:
                withdrawn.discard(player)  # missed rounds stay absences (0 points)
        if 2 * (number - 1) < rounds:  # a late entry while fewer than half the rounds have started
            for e in [e for e in late if rng.random() < 0.5]:
                late.remove(e)
                entrants.append(e)
                byes += [Bye(r, e.id, "half") for r in range(1, number)]
    for e in entrants:
        if e.id not in withdrawn and rng.random() < odds.half_bye:
            byes.append(Bye(number, e.id, "half"))
    return replace(history, entrants=tuple(entrants), byes=tuple(byes), withdrawn=frozenset(withdrawn))


def _result(history: History, white: int, black: int, odds: Odds, rng: random.Random) -> Score:
    if rng.random() < odds.forfeit:
        return rng.choice(("1-0F", "0-1F", "0-0F"))
    if rng.random() < odds.draw:
        return "1/2-1/2"
    rating = {e.id: e.rating for e in history.entrants}
    white_expects = 1 / (1 + 10 ** ((rating[black] - rating[white]) / 400))
    return "1-0" if rng.random() < white_expects else "0-1"
