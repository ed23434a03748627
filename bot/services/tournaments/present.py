"""An event's texts in the chat's language, and the console's data of pairings and standings
(docs/tournaments.md 3.3). Pure: plain values in (``EventView``, ``tiebreaks.Row``,
``RoundBoard``), text and JSON-ready dicts out.

``t`` is the catalogue bound to a language: ``texts(catalog, "th")``. Points read as players
write them: ``3½``, ``½``, ``2``.

>>> from bot.i18n import Catalog
>>> t = texts(Catalog.load(), "en")
>>> points_text(3.5), points_text(0.5), points_text(2.0), points_text(7.25)
('3½', '½', '2', '7.25')
>>> pairings_data(7, 2, [RoundBoard("alice", "bob", 31)], None)
{'tournament': 7, 'round': 2, 'pairs': [{'white': 'alice', 'black': 'bob', 'game': 31}], 'bye': None}
>>> result_line(t, 7, 2, "alice", "bob", "1/2-1/2")
'Tournament #7, round 2: alice ½-½ bob'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal
from zoneinfo import ZoneInfo

from ...i18n import Catalog
from ...tournaments.records import BYE_POINTS, ByeKind, Score
from ...tournaments.tiebreaks import TIEBREAKS, Row, System
from ..clock_text import control_text, duration_text
from .grammar import DEFAULT_ZONE, ROUND_ROBIN_MAX, EventSpec, RotaSpec

Text = Callable[..., str]
State = Literal["announced", "running", "finished", "cancelled"]

STANDINGS_TOP: Final = 10  # the text form: the top ten and the asker's own row
SCORES: Final[dict[str, str]] = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "0-0": "0-0"}


@dataclass(frozen=True, slots=True)
class EventView:
    """What the texts say of an event: its id and spec, who organizes it, where it stands.

    ``rounds`` is the number of rounds when known (a Swiss's, a round robin's once started);
    ``round`` the last round paired (0 before the first); ``zone`` the chat's time zone.
    ``entrants`` are the names of the players in the event (withdrawn ones left out).
    """

    id: int
    spec: EventSpec
    organizer: str
    state: State = "announced"
    round: int = 0
    rounds: int | None = None
    entrants: tuple[str, ...] = ()
    zone: str = DEFAULT_ZONE
    ends: datetime | None = None  # a running arena's end
    left: int | None = None  # and the seconds to it, when told


@dataclass(frozen=True, slots=True)
class RoundBoard:
    """One board of a round as the chat sees it: the players' names and the game's id, or
    (``game`` None) the score of a board decided without a game: a withdrawn player's forfeit."""

    white: str
    black: str
    game: int | None
    score: Score | None = None


def texts(catalog: Catalog, language: str) -> Text:
    """The catalogue's messages in ``language``, as ``t(key, **fields)``."""
    return lambda key, **fields: catalog.text(language, key, **fields)


def points_text(value: float) -> str:
    """A score as players write it: halves with ``½``, other fractions as decimals."""
    if value * 2 != int(value * 2):
        return f"{value:g}"
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def points_label(t: Text, value: float) -> str:
    """``3½ pts``, ``1 pt``, in the language's words."""
    return t("tournament.points.one") if value == 1 else t("tournament.points", points=points_text(value))


def when_text(t: Text, moment: datetime, zone: str = DEFAULT_ZONE) -> str:
    """A moment in the chat's zone, with its weekday: the start of an event, a window's close."""
    local = moment.astimezone(ZoneInfo(zone))
    return t("tournament.when", weekday=t(f"puzzle.weekday.{local.weekday()}"), day=local.day,
             month=t(f"time.month.{local.month}"), time=local.strftime("%H:%M"), zone=zone)


def system_text(t: Text, spec: EventSpec) -> str:
    double = spec.system == "roundrobin" and spec.cycles == 2
    return t("tournament.system.roundrobin_double" if double else f"tournament.system.{spec.system}")


def event_summary(t: Text, event: EventView) -> str:
    """The event in a few lines: format, clock, start, state and who is in."""
    spec = event.spec
    lines = [t("tournament.title", id=event.id, system=system_text(t, spec), variant=t(f"variant.{spec.variant}")),
             _format_line(t, event), _clock_line(t, spec),
             t("tournament.rated" if spec.rated else "tournament.casual"),
             t("tournament.organizer", name=event.organizer)]
    if event.state == "announced":
        lines.append(t("tournament.starts", when=when_text(t, spec.starts, event.zone)) if spec.starts
                     else t("tournament.starts_on_command"))
    elif event.state == "running" and spec.system == "arena":
        lines.append(_arena_running(t, event))
    else:
        lines.append(t(f"tournament.state.{event.state}", round=event.round))
    lines.append(t("tournament.entrants", count=len(event.entrants), names=", ".join(event.entrants))
                 if event.entrants else t("tournament.entrants.none"))
    return "\n".join(lines)


def announcement(t: Text, event: EventView) -> str:
    """The notice of a new event: who made it, then its summary."""
    return t("tournament.announced", name=event.organizer, id=event.id) + "\n" + event_summary(t, event)


def rules_text(t: Text, event: EventView) -> str:
    """Every rule of the event, and one line per tie-break on how it counts."""
    spec = event.spec
    lines = [t("tournament.rules.header", id=event.id)]
    if spec.system == "swiss":
        rounds = event.rounds or spec.rounds
        lines += [t("tournament.rules.swiss.one" if rounds == 1 else "tournament.rules.swiss", rounds=rounds),
                  t("tournament.rules.swiss_bye"), t("tournament.rules.late")]
    elif spec.system == "roundrobin":
        lines += [t("tournament.rules.roundrobin_double" if spec.cycles == 2 else "tournament.rules.roundrobin"),
                  t("tournament.rules.roundrobin_entries", max=ROUND_ROBIN_MAX)]
    else:
        lines += [t("tournament.rules.arena", length=duration_text(t, (spec.arena_minutes or 0) * 60)),
                  t("tournament.rules.arena_scoring"), t("tournament.rules.arena_berserk")]
    if spec.time_control is not None:
        lines += [t("tournament.rules.clock.live", control=control_text(t, spec.time_control)),
                  t("tournament.rules.forfeit.live")]
    else:
        lines += [t("tournament.rules.clock.correspondence", limit=duration_text(t, spec.move_seconds or 0),
                    window=duration_text(t, spec.window_seconds or 0)),
                  t(f"tournament.rules.window_end.{spec.window_end}"),
                  t("tournament.rules.forfeit.correspondence")]
    lines.append(t("tournament.rules.rated" if spec.rated else "tournament.rules.casual"))
    lines.append(t("tournament.rules.tiebreaks"))
    lines += [f"• {t(f'tournament.tiebreak.{name}.how')}" for name in TIEBREAKS[spec.system]]
    return "\n".join(lines)


def pairings_text(t: Text, event: EventView, round_number: int, boards: Sequence[RoundBoard],
                  bye: tuple[str, ByeKind] | None = None, *, before: Sequence[Row] | None = None,
                  window_ends: datetime | None = None, absent: Sequence[tuple[str, ByeKind]] = ()) -> str:
    """One message per round: the standings after the round before (if given), then the pairings,
    the pairing-allocated bye and the players who sit the round out (``absent``: a half-point bye
    asked for, a late entry's, an absence)."""
    lines: list[str] = []
    if before:
        lines.append(t("tournament.round.standings_before", round=round_number - 1))
        lines += _rows(t, before, event.spec.system, asking=None)
        lines.append("")
    if event.spec.system == "arena":
        lines.append(t("tournament.round.header_arena", id=event.id))
    else:
        lines.append(t("tournament.round.header", id=event.id, round=round_number,
                       rounds=event.rounds or event.spec.rounds or "?"))
    lines += [board_line(t, n, b) for n, b in enumerate(boards, start=1)]
    for name, kind in ([bye] if bye is not None else []) + list(absent):  # the pairing's bye, then those asked for
        lines.append(bye_line(t, name, kind, event.spec.system))
    if window_ends is not None:
        lines.append(t("tournament.round.window", when=when_text(t, window_ends, event.zone)))
    return "\n".join(lines)


def check_in_line(t: Text) -> str:
    """What tells Black how to show they came to a game before White's first move, and what a
    game neither player comes to is (docs/tournaments.md 2.8)."""
    return t("tournament.round.black_check_in")


def bye_line(t: Text, name: str, kind: ByeKind, system: System) -> str:
    """Who does not play a round, as what it is: a round robin's odd seat sits out (scoring as a
    pairing-allocated bye, FIDE C.05), a Swiss's pairing bye or half-point bye, or an absence."""
    if kind == "zero":
        return t("tournament.absent.line", name=name)
    points = points_label(t, BYE_POINTS[kind])
    if kind == "pairing" and system == "roundrobin":
        return t("tournament.sits_out.line", name=name, points=points)
    return t("tournament.bye.line", name=name, points=points)


def board_line(t: Text, number: int, board: RoundBoard) -> str:
    """A board of the pairings: its game, or a forfeit with its score when a player withdrew."""
    if board.game is not None or board.score is None:
        return t("tournament.pair.line", board=number, white=board.white, black=board.black, game=board.game)
    if board.score == "0-0F":
        return t("tournament.pair.double_forfeit", board=number, white=board.white, black=board.black)
    winner, loser = (board.white, board.black) if board.score == "1-0F" else (board.black, board.white)
    return t("tournament.pair.forfeit", board=number, winner=winner, loser=loser)


def pairings_data(tournament: int, round_number: int, boards: Sequence[RoundBoard], bye: str | None) -> dict:
    """The console's ``tournament_pairings`` fields (the issue's contract, exactly)."""
    return {"tournament": tournament, "round": round_number,
            "pairs": [{"white": b.white, "black": b.black, "game": b.game} for b in boards], "bye": bye}


def standings_text(t: Text, tournament: int, rows: Sequence[Row], system: System, *, round_number: int,
                   final: bool = False, live: bool = False, during: bool = False, asking: int | None = None) -> str:
    """The standings: the top ten, then the asking player's own row if it is further down.
    After round ``round_number``; ``during`` it, while it is being played; ``live``: an arena's so far."""
    if final:
        header = t("tournament.standings.final", id=tournament)
    elif live:
        header = t("tournament.standings.header_live", id=tournament)
    elif during:
        header = t("tournament.standings.header_during", id=tournament, round=round_number)
    else:
        header = t("tournament.standings.header", id=tournament, round=round_number)
    if not rows:
        return header + "\n" + t("tournament.standings.empty")
    return "\n".join([header, *_rows(t, rows, system, asking=asking)])


def standings_data(tournament: int, round_number: int, rows: Sequence[Row], system: System, *,
                   final: bool = False) -> dict:
    """The console's ``tournament_standings`` fields: tie-breaks in ``TIEBREAKS[system]`` order."""
    return {"tournament": tournament, "round": round_number, "final": final,
            "rows": [{"rank": row.rank, "player": row.name, "points": float(row.points),
                      "tiebreaks": {name: float(row.tiebreaks[name]) for name in TIEBREAKS[system]}}
                     for row in rows]}


def result_line(t: Text, tournament: int, round_number: int, white: str, black: str, score: Score) -> str:
    """A finished game in one line: ``Tournament #7, round 2: alice 1-0 bob``."""
    forfeit = score.endswith("F")
    key = "tournament.result.forfeit" if forfeit else "tournament.result.line"
    return t(key, id=tournament, round=round_number, white=white, black=black,
             score=SCORES[score.removesuffix("F")])


def final_text(t: Text, tournament: int, rows: Sequence[Row], system: System, *, round_number: int) -> str:
    """The final standings, naming the winner (or those sharing first) and the event's lasting link."""
    lines = [standings_text(t, tournament, rows, system, round_number=round_number, final=True)]
    first = [row for row in rows if row.rank == 1]
    if len(first) == 1:
        lines.append(t("tournament.final.winner", name=first[0].name, id=tournament,
                       points=points_label(t, first[0].points)))
    elif first:
        lines.append(t("tournament.final.shared", names=", ".join(row.name for row in first), id=tournament,
                       points=points_label(t, first[0].points)))
    lines.append(t("tournament.final.link", id=tournament))
    return "\n".join(lines)


def finished_note(t: Text, tournament: int) -> str:
    """Said above what is read of a finished event once the chat has none open."""
    return t("tournament.finished.note", id=tournament)


def rota_text(t: Text, rota: RotaSpec) -> str:
    """The answer to ``tournament weekly``: when the weekly event is and what it is."""
    return t("tournament.rota.made", weekday=t(f"puzzle.weekday.{rota.weekday}"),
             time=rota.time.strftime("%H:%M"), zone=rota.zone, system=system_text(t, rota.event))


def reminder_text(t: Text, event: EventView, mark: str, *, still_playing: Sequence[str] = (),
                  window_ends: datetime | None = None) -> str:
    """A reminder: ``day``, ``hour`` or ``5m`` before the start, or ``r<N>:day`` before round N's window closes."""
    system = system_text(t, event.spec)
    if mark.startswith("r") and mark.endswith(":day"):
        return t("tournament.reminder.round_window", id=event.id, round=int(mark[1:-4]),
                 when=when_text(t, window_ends, event.zone) if window_ends else "-", names=", ".join(still_playing))
    starts = when_text(t, event.spec.starts, event.zone) if event.spec.starts else "-"
    return t(f"tournament.reminder.{mark}", id=event.id, system=system, when=starts)


def _format_line(t: Text, event: EventView) -> str:
    spec = event.spec
    if spec.system == "swiss":
        rounds = event.rounds or spec.rounds
        return t("tournament.format.swiss.one" if rounds == 1 else "tournament.format.swiss", rounds=rounds)
    if spec.system == "roundrobin":
        key = "tournament.format.roundrobin_double" if spec.cycles == 2 else "tournament.format.roundrobin"
        return t(key, max=ROUND_ROBIN_MAX)
    return t("tournament.format.arena", length=duration_text(t, (spec.arena_minutes or 0) * 60))


def _arena_running(t: Text, event: EventView) -> str:
    """A running arena: when it ends, and how long that is from now (in whole minutes, rounded up)."""
    if event.ends is None:
        return t("tournament.state.running_arena")
    when = when_text(t, event.ends, event.zone)
    if event.left is None:
        return t("tournament.state.running_arena_until", when=when)
    return t("tournament.state.running_arena_left", when=when, left=duration_text(t, -(-max(event.left, 0) // 60) * 60))


def _clock_line(t: Text, spec: EventSpec) -> str:
    if spec.time_control is not None:
        return t("tournament.clock.live", control=control_text(t, spec.time_control))
    return t("tournament.clock.correspondence", limit=duration_text(t, spec.move_seconds or 0),
             window=duration_text(t, spec.window_seconds or 0))


def _rows(t: Text, rows: Sequence[Row], system: System, *, asking: int | None) -> list[str]:
    shown = list(rows[:STANDINGS_TOP])
    lines = [_row(t, row, system) for row in shown]
    own = next((row for row in rows[STANDINGS_TOP:] if row.player == asking), None)
    if own is not None:
        lines += [t("tournament.standings.gap"), _row(t, own, system)]
    return lines


def _row(t: Text, row: Row, system: System) -> str:
    points = points_label(t, row.points)
    names = [name for name in TIEBREAKS[system] if name in row.tiebreaks]  # every one, in the order ties go by
    if not names:
        return t("tournament.standings.row_plain", rank=row.rank, name=row.name, points=points)
    tiebreaks = ", ".join(t("tournament.standings.tiebreak", name=t(f"tournament.tiebreak.{name}"),
                            value=_tiebreak_text(name, row.tiebreaks[name])) for name in names)
    return t("tournament.standings.row", rank=row.rank, name=row.name, points=points, tiebreaks=tiebreaks)


def _tiebreak_text(name: str, value: float) -> str:
    return str(round(value)) if name == "performance" else points_text(value)
