"""What an event tells its chat, as ``Reply`` values: a round's pairings, the standings, a
game's start, the final standings (texts and the console's data from present.py), and each
notice's outbox row under a key derived from the event's salt (docs/tournaments.md 1.4), so
a notice stored twice is one row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from storage.records import NewNotice, TimeControl, Tournament, TournamentState

from ...messages import GameView, Reply, User
from ...tournaments.records import ByeKind, History, Score
from ...tournaments.tiebreaks import Row, standings
from ..outbox import new_notice
from . import present, pushes
from .grammar import DEFAULT_ZONE, EventSpec

if TYPE_CHECKING:
    from .service import TournamentService


def key(event: Tournament, mark: str) -> str:
    """The outbox key of the event's notice ``mark`` (``r3``, ``s2``, ``f``, ``g31``, ``mday``)."""
    return f"{event.salt}{mark}"


def notice(event: Tournament, kind: str, reply: Reply, mark: str, *, due: datetime | None = None,
           push: bool = True) -> NewNotice:
    """The notice's outbox row; pushed only if the chat's push budget allows (pushes.py)."""
    row, _ = new_notice(event.platform, event.channel, kind, reply, due=due,
                        push=push and pushes.may_push(event, mark), key=key(event, mark))
    return row


def spec_of(event: Tournament) -> EventSpec:
    """The event as ``tournament new`` asked for it (what present.py's texts read)."""
    control = None
    if event.clock_initial is not None and event.clock_increment is not None:
        control = TimeControl(event.clock_initial, event.clock_increment)
    return EventSpec(system=event.pairing_system, rounds=event.rounds, time_control=control,
                     move_seconds=event.move_seconds, variant=event.variant, rated=event.rated, cycles=event.cycles,
                     window_seconds=event.window_seconds, window_end="loss" if event.window_end == "loss" else "draw",
                     starts=event.starts, arena_minutes=event.arena_minutes, role=event.role)


async def view(service: TournamentService, event: Tournament,
               state: TournamentState | None = None) -> present.EventView:
    """What the texts say of ``event`` (its entrants from ``state``, read if not given)."""
    state = state or await service.storage.tournament_state(event.id)
    players = await service.storage.get_players([event.created_by, *(e.player_id for e in state.entrants)])
    organizer = players[event.created_by].display_name if event.created_by in players else "?"
    entrants = tuple(players[e.player_id].display_name for e in state.entrants
                     if not e.withdrawn and e.player_id in players)
    sub = await service.storage.get_subscription(event.platform, event.channel)
    left = None if event.ends is None else int((event.ends - service.table.clock.now()).total_seconds())
    return present.EventView(event.id, spec_of(event), organizer, state=event.status, round=event.last_round,
                             rounds=event.rounds, entrants=entrants, zone=sub.timezone if sub else DEFAULT_ZONE,
                             ends=event.ends, left=left)


def standings_rows(event: Tournament, history: History) -> list[Row]:
    """The standings, without those who withdrew before playing a round."""
    took_part = {p for b in history.pairings for p in (b.white, b.black)} | {b.player for b in history.byes}
    shown = {e.id for e in history.entrants if e.id not in history.withdrawn or e.id in took_part}
    return [row for row in standings(history, event.pairing_system) if row.player in shown]


def standings_reply(t: present.Text, language: str, event: Tournament, history: History, round_number: int, *,
                    final: bool, asking: int | None = None, during: bool = False) -> Reply:
    """The standings after round ``round_number`` (``history`` up to it), or during it while it
    is being played (``during``: its games so far)."""
    rows = standings_rows(event, history)
    system = event.pairing_system
    if final:
        text = present.final_text(t, event.id, rows, system, round_number=round_number)
    else:
        text = present.standings_text(t, event.id, rows, system, round_number=round_number, asking=asking,
                                      during=during)
    data = present.standings_data(event.id, round_number, rows, system, final=final)
    return Reply(kind="tournament_standings", text=text, language=language, data=data)


def pairings_reply(t: present.Text, language: str, event: present.EventView, round_number: int,
                   boards: Sequence[tuple[int, int, int | None, Score | None]], bye: int | None,
                   names: Mapping[int, str], *, window_ends: datetime | None = None, mentions: tuple[User, ...] = (),
                   absent: Sequence[tuple[int, ByeKind]] = (), check_in: bool = False) -> Reply:
    """Round ``round_number``'s pairings: (White, Black, game id, score) in board order, the score
    that of a board decided without a game (game None: a withdrawn player's forfeit); who has the
    pairing-allocated bye, and who sits the round out with another bye (``absent``: player and
    kind, ``half`` or ``zero``). ``check_in``: the notice announces the round's games (LINE's
    one message a round, with no notice per game), so it tells Black how to show they came."""
    shown = [present.RoundBoard(names.get(w, "?"), names.get(b, "?"), game, None if game else score)
             for w, b, game, score in boards]
    by_name: tuple[str, ByeKind] | None = (names.get(bye, "?"), "pairing") if bye is not None else None
    sitting_out = [(names.get(p, "?"), kind) for p, kind in absent]
    text = present.pairings_text(t, event, round_number, shown, by_name, window_ends=window_ends, absent=sitting_out)
    if check_in and any(board.game is not None for board in shown):
        text += "\n" + present.check_in_line(t)
    data = present.pairings_data(event.id, round_number, shown, by_name[0] if by_name else None)
    return Reply(kind="tournament_pairings", text=text, language=language, data=data, mentions=mentions)


def game_reply(t: present.Text, language: str, event: Tournament, round_number: int, board: int, game: GameView,
               mentions: tuple[User, ...]) -> Reply:
    """A board's game has started (on Discord, the first post of its thread), telling Black how
    to show they came (docs/tournaments.md 2.8: a game neither player comes to is lost by both)."""
    text = t("tournament.pair.line", board=board, white=game.white, black=game.black, game=game.id)
    header = (t("tournament.round.header_arena", id=event.id) if event.pairing_system == "arena"
              else t("tournament.round.header", id=event.id, round=round_number, rounds=event.rounds or "?"))
    text = "\n".join([header, text, present.check_in_line(t)])
    return Reply(kind="tournament_game", text=text, language=language, game=game, mentions=mentions)

