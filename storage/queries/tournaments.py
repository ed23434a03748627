"""Tournaments (docs/tournaments.md, section 1): events, entrants, rounds and their boards, byes,
forbidden pairs, reminders and weekly rotas.

Every write to an event starts with the compare-and-set on its version (`tournaments` row
first, then a joining player's entries, then games, then the outbox's chat lock: one order on
PostgreSQL), so of two writers that read the same event one stores and the other gets
VersionConflict.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from datetime import date, datetime
from typing import Any, Final

from .._plan import Plan, count, lock, many, marks, rows
from .._rows import columns, decoder, utc
from ..errors import EnteredElsewhere, NotFound, RoundAlreadyPaired, VersionConflict
from ..records import (
    BoardRow,
    Bye,
    EntrantRow,
    Game,
    NewNotice,
    NewRound,
    NewTournament,
    Rota,
    Tournament,
    TournamentRound,
    TournamentState,
)
from .games import OPEN, create_game
from .outbox import insert_notices, mark_sent

OPEN_EVENT: Final = "status IN ('announced', 'running')"
TOURNAMENT_COLUMNS: Final = columns(Tournament)
ENTRANT_COLUMNS: Final = columns(EntrantRow)
ROUND_COLUMNS: Final = columns(TournamentRound)
BYE_COLUMNS: Final = columns(Bye)
ROTA_COLUMNS: Final = columns(Rota)
# What change_tournament may set: the event's own columns, not its identity or bookkeeping.
CHANGEABLE: Final = frozenset(f.name for f in fields(Tournament)) - {
    "id", "platform", "channel", "salt", "created_by", "created", "updated", "version"}
# A board with its game's state; the ply count from the moves' primary key.
_BOARDS: Final = """
    SELECT b.round, b.board, b.white, b.black, b.game_id, b.score, g.status, g.result, g.reason,
           coalesce((SELECT max(ply) FROM moves WHERE moves.game_id = b.game_id), 0), g.berserk,
           CASE WHEN g.status IN ('finished', 'aborted') THEN g.updated END
    FROM tournament_boards AS b LEFT JOIN games AS g ON g.id = b.game_id
    WHERE b.tournament_id = ? ORDER BY b.round, b.board"""

# A joining player's entries: who is in the event now, and the first other open event they are in.
_ENTERED_HERE: Final = "SELECT player_id FROM tournament_entrants WHERE tournament_id = ? AND withdrawn = FALSE"
_ENTERED_ELSEWHERE: Final = f"""
    SELECT id FROM tournaments WHERE {OPEN_EVENT} AND id <> ? AND id IN (
        SELECT tournament_id FROM tournament_entrants WHERE player_id = ? AND withdrawn = FALSE)
    ORDER BY id LIMIT 1"""

# Open events owed a step: `next_at` passed, or running without an open game (owed its next
# round or its end: its last game's poke may have died with a process, docs/tournaments.md 2.6,
# and a live round has no next_at). Everywhere, or on one platform.
_OWED_A_STEP: Final = f"""
    SELECT id FROM tournaments WHERE {OPEN_EVENT}
      AND (next_at <= ? OR (status = 'running' AND NOT EXISTS (
           SELECT 1 FROM games WHERE games.tournament_id = tournaments.id
             AND games.status IN ('challenge', 'active'))))"""
_DUE_EVENTS: Final = _OWED_A_STEP + " ORDER BY next_at, id"
_DUE_EVENTS_ON: Final = _OWED_A_STEP + " AND platform = ? ORDER BY next_at, id"
# Active rotas with no event to come, everywhere or on one platform.
_NOTHING_TO_COME: Final = f"""
    SELECT {", ".join(f"r.{c}" for c in ROTA_COLUMNS.split(", "))} FROM tournament_rotas AS r
    WHERE r.active = TRUE AND NOT EXISTS (
        SELECT 1 FROM tournaments AS t WHERE t.rota_id = r.id AND (t.status = 'announced' OR t.starts > ?))"""
_DUE_ROTAS: Final = _NOTHING_TO_COME + " ORDER BY r.id"
_DUE_ROTAS_ON: Final = _NOTHING_TO_COME + " AND r.platform = ? ORDER BY r.id"
# The chat's active rotas stopped, or only those one player made.
_STOP_ROTAS: Final = "UPDATE tournament_rotas SET active = FALSE WHERE platform = ? AND channel = ? AND active = TRUE"
_STOP_ROTAS_BY: Final = _STOP_ROTAS + " AND created_by = ?"

tournament_from_row: Final = decoder(Tournament)
entrant_from_row: Final = decoder(EntrantRow)
round_from_row: Final = decoder(TournamentRound)
board_from_row: Final = decoder(BoardRow)
bye_from_row: Final = decoder(Bye)
rota_from_row: Final = decoder(Rota)


def create_tournament(new: NewTournament, notices: Sequence[NewNotice], now: datetime) -> Plan[Tournament]:
    """The new event (a Duplicate when the chat has an open one, or its rota this date's)."""
    names = [f.name for f in fields(NewTournament)]
    found = yield rows(
        f"""INSERT INTO tournaments ({", ".join(names)}, created, updated) VALUES ({marks(len(names) + 2)})
            RETURNING {TOURNAMENT_COLUMNS}""",
        *(getattr(new, name) for name in names), now, now)
    yield from insert_notices(notices, now)
    return tournament_from_row(found[0])


def tournament(tournament_id: int) -> Plan[Tournament]:
    found = yield rows(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id)
    if not found:
        raise NotFound(f"no tournament {tournament_id}")
    return tournament_from_row(found[0])


def open_tournament(platform: str, channel: str) -> Plan[Tournament | None]:
    found = yield rows(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE platform = ? AND channel = ?"
                       f" AND {OPEN_EVENT}", platform, channel)
    return tournament_from_row(found[0]) if found else None


def last_finished_tournament(platform: str, channel: str) -> Plan[Tournament | None]:
    found = yield rows(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE platform = ? AND channel = ?"
                       " AND status = 'finished' ORDER BY id DESC LIMIT 1", platform, channel)
    return tournament_from_row(found[0]) if found else None


def tournament_state(tournament_id: int) -> Plan[TournamentState]:
    """Run as one snapshot."""
    event = yield from tournament(tournament_id)
    entrants = yield rows(f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ?"
                          " ORDER BY player_id", tournament_id)
    rounds = yield rows(f"SELECT {ROUND_COLUMNS} FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                        tournament_id)
    boards = yield rows(_BOARDS, tournament_id)
    byes = yield rows(f"SELECT {BYE_COLUMNS} FROM tournament_byes WHERE tournament_id = ?"
                      " ORDER BY round, player_id", tournament_id)
    forbidden = yield rows("SELECT low, high FROM tournament_forbidden WHERE tournament_id = ? ORDER BY low, high",
                           tournament_id)
    return TournamentState(event, tuple(map(entrant_from_row, entrants)), tuple(map(round_from_row, rounds)),
                           tuple(map(board_from_row, boards)), tuple(map(bye_from_row, byes)),
                           tuple((low, high) for low, high in forbidden))


def change_tournament(tournament_id: int, version: int, changes: Mapping[str, Any], entrants: Sequence[EntrantRow],
                      byes: Sequence[Bye], forbidden: Sequence[tuple[int, int]], notices: Sequence[NewNotice],
                      now: datetime) -> Plan[Tournament]:
    """The compare-and-set with `changes` (Tournament fields), then the rows: entrants
    inserted or changed (their `joined` kept, but for a rejoin: it counts from then), byes set,
    forbidden pairs added. A player joining (or rejoining) while entered in another open event
    is refused: EnteredElsewhere, and nothing is stored."""
    event = yield from _compare_and_set(tournament_id, version, changes, now)
    if entrants:
        yield from _one_event_at_a_time(tournament_id, [e.player_id for e in entrants if not e.withdrawn])
        yield many(
            """INSERT INTO tournament_entrants (tournament_id, player_id, rating, seat, withdrawn, joined)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (tournament_id, player_id) DO UPDATE SET
                   rating = excluded.rating, seat = excluded.seat, withdrawn = excluded.withdrawn,
                   joined = CASE WHEN tournament_entrants.withdrawn AND NOT excluded.withdrawn
                                 THEN excluded.joined ELSE tournament_entrants.joined END""",
            [(tournament_id, e.player_id, e.rating, e.seat, e.withdrawn, now if e.joined is None else utc(e.joined))
             for e in entrants])
    yield from _store_byes(tournament_id, byes)
    if forbidden:
        yield many("INSERT INTO tournament_forbidden (tournament_id, low, high) VALUES (?, ?, ?)"
                   " ON CONFLICT DO NOTHING",
                   [(tournament_id, min(pair), max(pair)) for pair in forbidden])
    yield from insert_notices(notices, now)
    return event


def store_round(tournament_id: int, version: int, new: NewRound, notices: Sequence[NewNotice],
                superseded: Sequence[str], answer: Callable[[list[Game]], Sequence[NewNotice]] | None,
                now: datetime) -> Plan[tuple[Tournament, list[Game]]]:
    """A round paired, in one transaction: the compare-and-set, the round (RoundAlreadyPaired
    if stored), the round before closed, its games and boards, byes and withdrawals; no
    paired player with two open games of the event; the notices (and `answer(games)`'s); the
    `superseded` notices marked sent. The event and the games, in board order."""
    event = yield from _compare_and_set(tournament_id, version, {"last_round": new.number, "next_at": new.next_at},
                                        now)
    added = yield rows("""INSERT INTO tournament_rounds (tournament_id, number, paired, window_ends)
                          VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING number""",
                       tournament_id, new.number, now, None if new.window_ends is None else utc(new.window_ends))
    if not added:
        raise RoundAlreadyPaired(tournament_id, new.number)
    yield count("UPDATE tournament_rounds SET closed = ? WHERE tournament_id = ? AND number < ? AND closed IS NULL",
                now, tournament_id, new.number)
    games: list[Game] = []
    for board in new.boards:
        if board.game is not None:
            games.append((yield from create_game(replace(board.game, tournament_id=tournament_id, status="active"),
                                                 (), now)))
    made = iter(games)
    yield many("""INSERT INTO tournament_boards (tournament_id, round, board, white, black, game_id, score)
                  VALUES (?, ?, ?, ?, ?, ?, ?)""",
               [(tournament_id, new.number, b.board, b.white, b.black,
                 None if b.game is None else next(made).id, b.score) for b in new.boards])
    yield from _store_byes(tournament_id, new.byes)
    if new.withdrawn:
        yield count(f"UPDATE tournament_entrants SET withdrawn = TRUE WHERE tournament_id = ?"
                    f" AND player_id IN ({marks(len(new.withdrawn))})", tournament_id, *new.withdrawn)
    # No index can span both seats: one open game per player and event is checked here.
    twice = yield rows(
        f"""SELECT player FROM (
                SELECT white_player AS player FROM games WHERE tournament_id = ? AND {OPEN}
                UNION ALL SELECT black_player FROM games WHERE tournament_id = ? AND {OPEN}) AS seated
            GROUP BY player HAVING count(*) > 1""", tournament_id, tournament_id)
    if twice:
        raise ValueError(f"tournament {tournament_id}: players {sorted(r[0] for r in twice)} would have two open games")
    yield from insert_notices([*notices, *(answer(games) if answer is not None else ())], now)
    yield from mark_sent(superseded, now)
    return event, games


def record_reminders(tournament_id: int, marks_: Sequence[str], notices: Mapping[str, Sequence[NewNotice]],
                     now: datetime) -> Plan[list[str]]:
    """Each mark once: a mark with notices is sent, one without recorded as skipped; the
    notices of the marks this call inserted only. The marks inserted."""
    if not marks_:
        return []
    inserted = yield rows(
        f"""INSERT INTO tournament_reminders (tournament_id, mark, sent, skipped)
            VALUES {", ".join(["(?, ?, ?, ?)"] * len(marks_))} ON CONFLICT DO NOTHING RETURNING mark""",
        *(value for mark in marks_ for value in (tournament_id, mark, now, not notices.get(mark))))
    stored = {row[0] for row in inserted}
    new = [mark for mark in marks_ if mark in stored]
    yield from insert_notices([n for mark in new for n in notices.get(mark, ())], now)
    return new


def due_tournaments(now: datetime, platform: str | None) -> Plan[list[int]]:
    if platform is None:
        found = yield rows(_DUE_EVENTS, now)
    else:
        found = yield rows(_DUE_EVENTS_ON, now, platform)
    return [row[0] for row in found]


# --- rotas ----------------------------------------------------------------------------------

def add_rota(platform: str, channel: str, community: str | None, weekday: int, local_time: Any, timezone: str,
             spec: str, created_by: int, now: datetime) -> Plan[Rota]:
    """A weekly event at that day and time, or the one there made active with this spec."""
    found = yield rows(
        f"""INSERT INTO tournament_rotas (platform, channel, community, weekday, local_time, timezone, spec,
                active, created_by, created)
            VALUES (?, ?, ?, ?, ?, ?, ?, TRUE, ?, ?)
            ON CONFLICT (platform, channel, weekday, local_time) DO UPDATE SET
                timezone = excluded.timezone, spec = excluded.spec, active = TRUE,
                created_by = excluded.created_by
            RETURNING {ROTA_COLUMNS}""",
        platform, channel, community, weekday, local_time, timezone, spec, created_by, now)
    return rota_from_row(found[0])


def stop_rota(platform: str, channel: str, created_by: int | None) -> Plan[int]:
    """The chat's active rotas stopped (only those `created_by` made, if given); how many."""
    stopped: int
    if created_by is None:
        stopped = yield count(_STOP_ROTAS, platform, channel)
    else:
        stopped = yield count(_STOP_ROTAS_BY, platform, channel, created_by)
    return stopped


def active_rotas(platform: str, channel: str) -> Plan[list[Rota]]:
    found = yield rows(f"SELECT {ROTA_COLUMNS} FROM tournament_rotas WHERE platform = ? AND channel = ?"
                       " AND active = TRUE ORDER BY id", platform, channel)
    return [rota_from_row(row) for row in found]


def due_rotas(now: datetime, platform: str | None) -> Plan[list[Rota]]:
    """Active rotas with no event to come (none announced, none starting after `now`): the
    service tells by the rota's day and zone whether the next date's is due."""
    if platform is None:
        found = yield rows(_DUE_ROTAS, now)
    else:
        found = yield rows(_DUE_ROTAS_ON, now, platform)
    return [rota_from_row(row) for row in found]


def rota_event(rota_id: int, rota_date: date, new: NewTournament, notices: Sequence[NewNotice],
               now: datetime) -> Plan[Tournament | None]:
    """The rota's event of `rota_date`, None if it was made already (a Duplicate if the chat
    holds another open event)."""
    names = [f.name for f in fields(NewTournament)]
    values = {**{name: getattr(new, name) for name in names}, "rota_id": rota_id, "rota_date": rota_date}
    found = yield rows(
        f"""INSERT INTO tournaments ({", ".join(names)}, created, updated) VALUES ({marks(len(names) + 2)})
            ON CONFLICT (rota_id, rota_date) DO NOTHING RETURNING {TOURNAMENT_COLUMNS}""",
        *values.values(), now, now)
    if not found:
        return None
    yield from insert_notices(notices, now)
    return tournament_from_row(found[0])


# --- helpers --------------------------------------------------------------------------------

def _compare_and_set(tournament_id: int, version: int, changes: Mapping[str, Any], now: datetime) -> Plan[Tournament]:
    """Bump the version and apply `changes` if still at `version`; the new row."""
    unknown = set(changes) - CHANGEABLE
    if unknown:
        raise ValueError(f"a tournament has no changeable {sorted(unknown)}")
    assignments = ["version = version + 1", "updated = ?", *(f"{name} = ?" for name in changes)]
    found = yield rows(
        f"""UPDATE tournaments SET {", ".join(assignments)} WHERE id = ? AND version = ?
            RETURNING {TOURNAMENT_COLUMNS}""",
        now, *(utc(v) if isinstance(v, datetime) else v for v in changes.values()), tournament_id, version)
    if found:
        return tournament_from_row(found[0])
    current = yield rows("SELECT version FROM tournaments WHERE id = ?", tournament_id)
    if not current:
        raise NotFound(f"no tournament {tournament_id}")
    raise VersionConflict(f"tournament {tournament_id}", version, current[0][0])


def _one_event_at_a_time(tournament_id: int, players: Sequence[int]) -> Plan[None]:
    """Those of `players` not yet in the event (a join or a rejoin) are in no other open event
    (EnteredElsewhere). No index spans two events: each joining player's lock is taken first,
    so two joins of one player in two chats at once are checked one after the other (on
    PostgreSQL; SQLite's one writer already does that), the second seeing the first's entry."""
    if not players:
        return
    here = yield rows(_ENTERED_HERE, tournament_id)
    for player_id in sorted(set(players) - {row[0] for row in here}):
        yield lock(f"tournament-entries:{player_id}")
        other = yield rows(_ENTERED_ELSEWHERE, tournament_id, player_id)
        if other:
            raise EnteredElsewhere(player_id, other[0][0])


def _store_byes(tournament_id: int, byes: Sequence[Bye]) -> Plan[None]:
    if byes:
        yield many("""INSERT INTO tournament_byes (tournament_id, round, player_id, kind) VALUES (?, ?, ?, ?)
                      ON CONFLICT (tournament_id, round, player_id) DO UPDATE SET kind = excluded.kind""",
                   [(tournament_id, b.round, b.player_id, b.kind) for b in byes])

