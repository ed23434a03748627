"""The one module that knows ``py4swiss``: a round's table in FIDE's TRF terms in, Dutch pairings out.

Swapping the pairing library (bbpPairings, JaVaFo) means rewriting this module only: its input
and output are plain tuples in the terms of FIDE's TRF format (players by pairing number,
each round as opponent, colour and result code), not py4swiss's objects.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult, ScoringPointSystem
from py4swiss.trf.sections import PlayerSection, XSection

# One round of one player, as a TRF player line writes it: the opponent's pairing number
# (0 for a bye or no game), the colour ("w", "b", "-") and the result code ("1", "=", "0",
# "+", "-" for forfeits, "U" pairing-allocated bye, "H" half-point bye, "Z" zero-point bye).
Cell = tuple[int, str, str]


def pair_dutch(table: Sequence[Sequence[Cell]], *, rounds_total: int, absent: Collection[int],
               forbidden: Collection[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """Pair the next round of ``table`` (row ``i`` is pairing number ``i + 1``) by the Dutch system.

    Returns (White, Black) pairing numbers in board order, (n, 0) for the pairing-allocated bye,
    or None when no pairing meets the absolute criteria (rematches, byes, colours, forbidden
    pairs). The players in ``absent`` are not paired; the pairs in ``forbidden`` never meet.
    """
    scoring = ScoringPointSystem()
    sections = []
    for number, cells in enumerate(table, start=1):
        results = [RoundResult(id=opponent, color=ColorToken(colour), result=ResultToken(code))
                   for opponent, colour, code in cells]
        sections.append(PlayerSection(
            code=PlayerCode.PLAYER, starting_number=number, rank=number, results=results,
            points_times_ten=sum(scoring.get_points_times_ten(result) for result in results),
        ))
    x_section = XSection(number_of_rounds=rounds_total, zeroed_ids=set(absent), forbidden_pairs=set(forbidden))
    trf = ParsedTrf(player_sections=sections, x_section=x_section)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError:
        return None
    return [(pairing.white, pairing.black) for pairing in pairings]
