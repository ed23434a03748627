"""The standings as a picture (renderers/standings.py), for a door that draws it when asked:
LINE's picture URL names (tournament, round, language) and its route asks for the PNG.

Only standings that can no longer change are drawn: after a round that is closed (the next
one is paired) or after the last round of a finished event. They count only the players who
had played or been given a round by then, so anyone who joins later leaves them as they
were, and any process draws the same picture for the same URL.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING

from renderers.standings import MAX_TIEBREAKS, StandingsRow, StandingsView, Tiebreak, render_standings
from storage import NotFound
from storage.records import TournamentState

from ...tournaments.tiebreaks import TIEBREAKS, Row
from . import history, notices, present

if TYPE_CHECKING:
    from .service import TournamentService

COLUMNS = MAX_TIEBREAKS  # tie-break columns the picture has room for beside a name; a line names the rest
_HOW = re.compile(r"[:：៖]")  # where a tie-break's explanation begins, in each language's punctuation
_SHORT = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")  # "Buchholz Cut-1 (BH-1)" -> "Buchholz Cut-1"


async def standings_png(service: TournamentService, tournament_id: int, round_number: int,
                        language: str) -> bytes | None:
    """The standings after ``round_number`` as a PNG, drawn off the event loop; None when the
    event or round is not there, or its standings may still change."""
    if language not in service.table.catalog.languages():
        return None
    try:
        state = await service.storage.tournament_state(tournament_id)
    except NotFound:
        return None
    if not settled(state, round_number):
        return None
    names = await service.names(state)
    view = standings_view(present.texts(service.table.catalog, language), state, round_number, language, names)
    return await asyncio.to_thread(render_standings, view)


def settled(state: TournamentState, round_number: int) -> bool:
    """Whether the standings after ``round_number`` are final: the round is closed, or it is the
    last of a finished event."""
    event = state.tournament
    if event.pairing_system == "arena" or not 1 <= round_number <= event.last_round:
        return False
    if event.status == "finished" and round_number == event.last_round:
        return True
    row = next((r for r in state.rounds if r.number == round_number), None)
    return row is not None and row.closed is not None


def standings_view(t: present.Text, state: TournamentState, round_number: int, language: str,
                   names: dict[int, str]) -> StandingsView:
    event = state.tournament
    past = history.history_of(state, names, through=round_number)
    took_part = {p for b in past.pairings for p in (b.white, b.black)} | {b.player for b in past.byes}
    rows = [row for row in notices.standings_rows(event, past) if row.player in took_part]
    final = event.status == "finished" and round_number == event.last_round
    every = TIEBREAKS[event.pairing_system]
    columns = every[:COLUMNS]
    top = {row.player for row in rows if row.rank == 1} if final else set()
    title = (t("standings_picture.title_final", id=event.id) if final
             else t("standings_picture.title", id=event.id, round=round_number))
    return StandingsView(
        title=title, language=language, rank_header=t("standings_picture.rank"),
        name_header=t("standings_picture.player"), points_header=t("standings_picture.points"),
        tiebreaks=tuple(Tiebreak(t(f"tournament.tiebreak.{name}"), _name(t(f"tournament.tiebreak.{name}.how")))
                        for name in columns),
        rows=tuple(_row(row, columns, highlight=row.player in top) for row in rows),
        footer=t("standings_picture.footer", id=event.id),
        order=order_line(t, every) if len(every) > COLUMNS else None,
    )


def order_line(t: present.Text, tiebreaks: tuple[str, ...]) -> str:
    """The order ties are broken in: the columns by their abbreviations, the others by name."""
    named = [t(f"tournament.tiebreak.{name}") if n < COLUMNS else _name(t(f"tournament.tiebreak.{name}.how"))
             for n, name in enumerate(tiebreaks)]
    return t("standings_picture.order", order=", ".join(named), shown=COLUMNS)


def _row(row: Row, columns: tuple[str, ...], *, highlight: bool) -> StandingsRow:
    return StandingsRow(row.rank, row.name, present.points_text(row.points),
                        tuple(present.points_text(row.tiebreaks[name]) for name in columns), highlight=highlight)


def _name(how: str) -> str:
    """A tie-break's name, from the sentence ``tournament rules`` explains it with.

    >>> _name("Buchholz Cut-1 (BH-1): Buchholz without the opponent with the lowest score.")
    'Buchholz Cut-1'
    >>> _name("ブッフホルツ・カット1（BH-1）：ブッフホルツから最も得点の低い相手の分を除いたもの。")
    'ブッフホルツ・カット1'
    """
    return _SHORT.sub("", _HOW.split(how, maxsplit=1)[0]).strip()
