"""What an event tells its chat on its own: a round's pairings, the standings after a round, a
game's start, the final standings; each a ``Reply`` with its ``data`` (the console's ``--json``
contract, docs/tournaments.md 3.3) and its outbox row under a key derived from the event's
salt (1.4), so a notice stored twice is one row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from storage.records import NewNotice, Tournament

from ...i18n import Catalog
from ...messages import GameView, Reply, User
from ...tournaments.records import History
from ...tournaments.tiebreaks import Row, standings
from ..outbox import new_notice

TEXT_ROWS = 10  # the standings as text: the top ten (the picture has them all)


def key(event: Tournament, mark: str) -> str:
    """The outbox key of the event's notice ``mark`` (``r3``, ``s2``, ``f``, ``g31``, ``mday``)."""
    return f"{event.salt}{mark}"


def notice(event: Tournament, kind: str, reply: Reply, mark: str, *, due: datetime | None = None,
           push: bool = True) -> NewNotice:
    row, _ = new_notice(event.platform, event.channel, kind, reply, due=due, push=push, key=key(event, mark))
    return row


def standings_rows(event: Tournament, history: History) -> list[Row]:
    """The standings, without those who withdrew before playing a round."""
    took_part = {p for b in history.pairings for p in (b.white, b.black)} | {b.player for b in history.byes}
    shown = {e.id for e in history.entrants if e.id not in history.withdrawn or e.id in took_part}
    return [row for row in standings(history, event.pairing_system) if row.player in shown]


def standings_reply(catalog: Catalog, language: str, event: Tournament, history: History, round: int, *,
                    final: bool) -> Reply:
    rows = standings_rows(event, history)
    data: dict[str, Any] = {
        "tournament": event.id, "round": round, "final": final,
        "rows": [{"rank": row.rank, "player": row.name, "points": row.points, "tiebreaks": dict(row.tiebreaks)}
                 for row in rows],
    }
    lines = [catalog.text(language, "tournament.standings.row", rank=row.rank, name=row.name,
                          points=_points(row.points), tiebreaks=_tiebreaks(row))
             for row in rows[:TEXT_ROWS]]
    if final:
        winner = rows[0].name if rows else "?"
        head = catalog.text(language, "tournament.final", id=event.id, winner=winner)
    else:
        head = catalog.text(language, "tournament.standings.head", id=event.id, round=round)
    text = "\n".join([head, *lines])
    return Reply(kind="tournament_standings", text=text, language=language, data=data)


def pairings_reply(catalog: Catalog, language: str, event: Tournament, round: int,
                   boards: Sequence[tuple[int, int, int | None]], bye: int | None, names: Mapping[int, str],
                   users: Mapping[int, User] | None = None) -> Reply:
    """Round ``round``'s pairings: (White, Black, game id or None for a board decided without a
    game) in board order, and who has the pairing-allocated bye."""
    data: dict[str, Any] = {
        "tournament": event.id, "round": round,
        "pairs": [{"white": names.get(w, "?"), "black": names.get(b, "?"), "game": game} for w, b, game in boards],
        "bye": None if bye is None else names.get(bye, "?"),
    }
    lines = [catalog.text(language, "tournament.pairings.board", board=n, white=names.get(w, "?"),
                          black=names.get(b, "?"), game=game if game is not None else "-")
             for n, (w, b, game) in enumerate(boards, start=1)]
    if bye is not None:
        lines.append(catalog.text(language, "tournament.pairings.bye", name=names.get(bye, "?")))
    head = catalog.text(language, "tournament.pairings.head", id=event.id, round=round)
    mentions = tuple(users.values()) if users else ()
    return Reply(kind="tournament_pairings", text="\n".join([head, *lines]), language=language, data=data,
                 mentions=mentions)


def game_reply(catalog: Catalog, language: str, event: Tournament, round: int, board: int, game: GameView,
               mentions: tuple[User, ...]) -> Reply:
    """A board's game has started (on Discord, the first post of its thread)."""
    text = catalog.text(language, "tournament.game", id=event.id, round=round, board=board, white=game.white,
                        black=game.black, game=game.id)
    return Reply(kind="tournament_game", text=text, language=language, game=game, mentions=mentions)


def _points(points: float) -> str:
    return f"{points:g}"


def _tiebreaks(row: Row) -> str:
    return " ".join(f"{value:g}" for value in row.tiebreaks.values())
