"""The puzzle trainer: puzzles served near a rating, first tries rated with Glicko-2, reports that
withhold a puzzle, and the runs of Streak, Storm and Race with their leaderboards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from .._plan import Plan, count, lock, many, rows
from .._rows import PUZZLE_COLUMNS, columns, instant, opt_instant, puzzle_from_row
from ..errors import NotFound, VersionConflict
from ..records import (
    Glicko2Rating,
    ModeScore,
    Platform,
    PlayerPuzzleRating,
    PuzzlePlay,
    PuzzlePost,
    PuzzleRun,
    RaceScore,
    RatedPuzzle,
    RunMode,
)
from .puzzles import record_extra_post

# How a first try changes the ratings, given the player's and the puzzle's stored ratings (None:
# no row yet), the bank's estimate of the puzzle and whether it was solved: the player's rating
# before (its starting value when it had none), the player's after and the puzzle's after. Pure.
Rate = Callable[[Glicko2Rating | None, Glicko2Rating | None, int | None, bool],
                tuple[Glicko2Rating, Glicko2Rating, Glicko2Rating]]

_P_COLUMNS: Final = ", ".join(f"p.{column}" for column in PUZZLE_COLUMNS.split(", "))
PLAY_COLUMNS: Final = columns(PuzzlePlay)
RUN_COLUMNS: Final = columns(PuzzleRun)
_RUN_CHANGES: Final = ("puzzle_id", "ply", "score", "combo", "best_combo", "mistakes", "skips", "seen",
                       "deadline", "ended")


def puzzle_candidates(player_id: int | None, platform: str, channel: str, target: float, variant: str | None,
                      theme: str | None, fresh: bool, limit: int) -> Plan[list[RatedPuzzle]]:
    """The `limit` puzzles rated nearest `target`; `fresh`: only those the player was never
    served and the chat never shown."""
    where: list[str] = ["NOT p.withheld", "NOT p.retired"]
    args: list[Any] = []
    if variant is not None:
        where.append("p.variant = ?")
        args.append(variant)
    if theme is not None:
        where.append("(' ' || p.themes || ' ') LIKE ?")
        args.append(f"% {theme} %")
    if fresh:
        if player_id is not None:
            where.append("NOT EXISTS (SELECT 1 FROM puzzle_plays AS s WHERE s.player_id = ? AND s.puzzle_id = p.id)")
            args.append(player_id)
        where.append("""NOT EXISTS (SELECT 1 FROM puzzle_posts AS pp
                        WHERE pp.platform = ? AND pp.channel = ? AND pp.puzzle_id = p.id)""")
        args += [platform, channel]
    found = yield rows(
        f"""SELECT {_P_COLUMNS}, COALESCE(r.rating, p.rating, 1500) FROM puzzles AS p
            LEFT JOIN puzzle_ratings AS r ON r.puzzle_id = p.id
            WHERE {" AND ".join(where)}
            ORDER BY abs(COALESCE(r.rating, p.rating, 1500) - ?), p.id LIMIT ?""",
        *args, float(target), limit,
    )
    return [RatedPuzzle(puzzle_from_row(row[:-1]), float(row[-1])) for row in found]


def rated_puzzle(puzzle_id: str) -> Plan[RatedPuzzle]:
    found = yield rows(
        f"""SELECT {_P_COLUMNS}, COALESCE(r.rating, p.rating, 1500) FROM puzzles AS p
            LEFT JOIN puzzle_ratings AS r ON r.puzzle_id = p.id WHERE p.id = ?""",
        puzzle_id,
    )
    if not found:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    return RatedPuzzle(puzzle_from_row(found[0][:-1]), float(found[0][-1]))


def serve_puzzle(platform: str, channel: str, player_id: int, puzzle_id: str, rated: bool,
                 now: datetime) -> Plan[PuzzlePost]:
    post = yield from record_extra_post(platform, channel, puzzle_id, now)
    yield count(
        """INSERT INTO puzzle_plays (player_id, puzzle_id, platform, channel, rated, served)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, puzzle_id) DO NOTHING""",
        player_id, puzzle_id, platform, channel, rated, now,
    )
    return post


def get_play(player_id: int, puzzle_id: str) -> Plan[PuzzlePlay | None]:
    found = yield rows(f"SELECT {PLAY_COLUMNS} FROM puzzle_plays WHERE player_id = ? AND puzzle_id = ?",
                       player_id, puzzle_id)
    return _play(found[0]) if found else None


def settle_play(player_id: int, puzzle_id: str, platform: str, channel: str, solved: bool, rate: Rate,
                now: datetime) -> Plan[tuple[PuzzlePlay, bool]]:
    """The player's first try at the puzzle, if this is it: (the play, whether this try settled it)."""
    yield lock(f"puzzle-tries:{player_id}")  # one try of a player at a time: a first try is first once
    play = yield from get_play(player_id, puzzle_id)
    result = "solved" if solved else "failed"
    if play is not None and play.result is not None:
        return play, False
    if play is None:  # answering a puzzle served to someone else (a group's): seen, never rated
        found = yield rows(
            f"""INSERT INTO puzzle_plays (player_id, puzzle_id, platform, channel, rated, result, served, answered)
                VALUES (?, ?, ?, ?, FALSE, ?, ?, ?) RETURNING {PLAY_COLUMNS}""",
            player_id, puzzle_id, platform, channel, result, now, now,
        )
        return _play(found[0]), True
    before = after = None
    if play.rated:
        before, after = yield from _rate(player_id, puzzle_id, solved, rate, now)
    found = yield rows(
        f"""UPDATE puzzle_plays SET result = ?, rating_before = ?, rating_after = ?, answered = ?
            WHERE player_id = ? AND puzzle_id = ? RETURNING {PLAY_COLUMNS}""",
        result, before, after, now, player_id, puzzle_id,
    )
    return _play(found[0]), True


def _rate(player_id: int, puzzle_id: str, solved: bool, rate: Rate, now: datetime) -> Plan[tuple[float, float]]:
    mine = yield rows("SELECT rating, deviation, volatility, rated FROM puzzle_player_ratings WHERE player_id = ?",
                      player_id)
    theirs = yield rows(
        """SELECT r.rating, r.deviation, r.volatility, r.plays, p.rating FROM puzzles AS p
           LEFT JOIN puzzle_ratings AS r ON r.puzzle_id = p.id WHERE p.id = ?""",
        puzzle_id,
    )
    if not theirs:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    *stored, estimate = theirs[0]
    player = Glicko2Rating(*mine[0]) if mine else None
    puzzle = Glicko2Rating(*stored) if stored[0] is not None else None
    before, player_after, puzzle_after = rate(player, puzzle, estimate, solved)
    yield count(
        """INSERT INTO puzzle_player_ratings (player_id, rating, deviation, volatility, rated, solved, updated)
           VALUES (?, ?, ?, ?, 1, ?, ?)
           ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
               volatility = excluded.volatility, rated = puzzle_player_ratings.rated + 1,
               solved = puzzle_player_ratings.solved + excluded.solved, updated = excluded.updated""",
        player_id, player_after.rating, player_after.deviation, player_after.volatility, int(solved), now,
    )
    yield count(
        """INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, plays) VALUES (?, ?, ?, ?, 1)
           ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
               volatility = excluded.volatility, plays = puzzle_ratings.plays + 1""",
        puzzle_id, puzzle_after.rating, puzzle_after.deviation, puzzle_after.volatility,
    )
    return before.rating, player_after.rating


def player_rating(player_id: int) -> Plan[PlayerPuzzleRating]:
    found = yield rows(
        "SELECT rating, deviation, volatility, rated, solved FROM puzzle_player_ratings WHERE player_id = ?",
        player_id,
    )
    if not found:
        return PlayerPuzzleRating(player_id, None)
    rating, deviation, volatility, rated, solved = found[0]
    return PlayerPuzzleRating(player_id, Glicko2Rating(rating, deviation, volatility, rated), solved)


def report_puzzle(puzzle_id: str, player_id: int, reason: str, threshold: int, now: datetime) -> Plan[bool]:
    """Stores the report (a player's later report replaces their earlier one); True when the
    puzzle is withheld, `threshold` players having reported it since it was last reviewed."""
    yield from rated_puzzle(puzzle_id)  # NotFound rather than a foreign-key error
    yield count(
        """INSERT INTO puzzle_reports (puzzle_id, player_id, reason, reported) VALUES (?, ?, ?, ?)
           ON CONFLICT (puzzle_id, player_id) DO UPDATE SET reason = excluded.reason,
               reported = excluded.reported, reviewed = FALSE""",
        puzzle_id, player_id, reason, now,
    )
    reporters = yield rows("SELECT count(*) FROM puzzle_reports WHERE puzzle_id = ? AND NOT reviewed", puzzle_id)
    if reporters[0][0] < threshold:
        return False
    yield count("UPDATE puzzles SET withheld = TRUE WHERE id = ?", puzzle_id)
    return True


def withheld_puzzles() -> Plan[list[tuple[str, list[str]]]]:
    """Each withheld puzzle's id and the reasons of its reports not yet reviewed."""
    found = yield rows(
        """SELECT p.id, r.reason FROM puzzles AS p
           LEFT JOIN puzzle_reports AS r ON r.puzzle_id = p.id AND NOT r.reviewed
           WHERE p.withheld ORDER BY p.id, r.reported"""
    )
    reasons: dict[str, list[str]] = {}
    for puzzle_id, reason in found:
        reasons.setdefault(puzzle_id, []).extend([reason] if reason is not None else [])
    return list(reasons.items())


def review_puzzle(puzzle_id: str, withhold: bool) -> Plan[None]:
    """An operator's verdict: the reports so far are reviewed; the puzzle is served again or not."""
    changed = yield count("UPDATE puzzles SET withheld = ? WHERE id = ?", withhold, puzzle_id)
    if not changed:
        raise NotFound(f"no puzzle {puzzle_id!r}")
    yield count("UPDATE puzzle_reports SET reviewed = TRUE WHERE puzzle_id = ?", puzzle_id)


# --- runs ---------------------------------------------------------------------------------------

def start_run(mode: RunMode, platform: str, channel: str, player_id: int | None, puzzle_id: str,
              deadline: datetime | None, now: datetime) -> Plan[PuzzleRun | None]:
    """A new run; None when the player (or, for a race, the chat) has one going."""
    found = yield rows(
        f"""INSERT INTO puzzle_runs (mode, platform, channel, player_id, puzzle_id, seen, started, deadline)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING {RUN_COLUMNS}""",
        mode, platform, channel, player_id, puzzle_id, puzzle_id, now, deadline,
    )
    return _run(found[0]) if found else None


def going_runs(platform: str, channel: str, player_id: int | None) -> Plan[list[PuzzleRun]]:
    """The player's run going on in the chat and the chat's race, the player's first."""
    mine = "player_id = ? OR " if player_id is not None else ""
    found = yield rows(
        f"""SELECT {RUN_COLUMNS} FROM puzzle_runs
            WHERE platform = ? AND channel = ? AND ended IS NULL AND ({mine}player_id IS NULL)
            ORDER BY player_id IS NULL, id""",
        platform, channel, *(() if player_id is None else (player_id,)),
    )
    return [_run(row) for row in found]


def save_run(run: PuzzleRun, expected_version: int, point_to: int | None, now: datetime) -> Plan[PuzzleRun]:
    """The run's new state, if it is still at `expected_version` (else VersionConflict); a race
    point to `point_to`; an ended run's scores go to the leaderboards."""
    values: list[Any] = [getattr(run, name) for name in _RUN_CHANGES]
    values[_RUN_CHANGES.index("seen")] = " ".join(run.seen)
    found = yield rows(
        f"""UPDATE puzzle_runs SET {", ".join(f"{name} = ?" for name in _RUN_CHANGES)}, version = version + 1
            WHERE id = ? AND version = ? RETURNING {RUN_COLUMNS}""",
        *values, run.id, expected_version,
    )
    if not found:
        actual = yield rows("SELECT version FROM puzzle_runs WHERE id = ?", run.id)
        if not actual:
            raise NotFound(f"no puzzle run {run.id}")
        raise VersionConflict(f"puzzle run {run.id}", expected_version, actual[0][0])
    saved = _run(found[0])
    if point_to is not None:
        yield count(
            """INSERT INTO puzzle_race_scores (run_id, player_id, score) VALUES (?, ?, 1)
               ON CONFLICT (run_id, player_id) DO UPDATE SET score = puzzle_race_scores.score + 1""",
            run.id, point_to,
        )
    if saved.ended is not None:
        if saved.player_id is not None:
            yield from _best(saved.player_id, saved.mode, saved.score, now)
        else:
            racers = yield rows("SELECT player_id, score FROM puzzle_race_scores WHERE run_id = ?", run.id)
            for player_id, score in racers:
                yield from _best(player_id, saved.mode, score, now)
    return saved


def _best(player_id: int, mode: str, score: int, now: datetime) -> Plan[None]:
    yield count(
        """INSERT INTO puzzle_bests (player_id, mode, best, runs, achieved) VALUES (?, ?, ?, 1, ?)
           ON CONFLICT (player_id, mode) DO UPDATE SET runs = puzzle_bests.runs + 1,
               achieved = CASE WHEN excluded.best > puzzle_bests.best THEN excluded.achieved
                               ELSE puzzle_bests.achieved END,
               best = CASE WHEN excluded.best > puzzle_bests.best THEN excluded.best ELSE puzzle_bests.best END""",
        player_id, mode, score, now,
    )


def race_scores(run_id: int) -> Plan[list[RaceScore]]:
    found = yield rows(
        """SELECT s.player_id, pl.display_name, s.score FROM puzzle_race_scores AS s
           JOIN players AS pl ON pl.id = s.player_id WHERE s.run_id = ?
           ORDER BY s.score DESC, s.player_id""",
        run_id,
    )
    return [RaceScore(*row) for row in found]


def mode_leaderboard(mode: RunMode, limit: int) -> Plan[list[ModeScore]]:
    found = yield rows(
        """SELECT b.player_id, pl.display_name, b.best, b.runs FROM puzzle_bests AS b
           JOIN players AS pl ON pl.id = b.player_id WHERE b.mode = ?
           ORDER BY b.best DESC, b.achieved, b.player_id LIMIT ?""",
        mode, limit,
    )
    return [ModeScore(*row) for row in found]


def mode_best(player_id: int, mode: RunMode) -> Plan[ModeScore | None]:
    found = yield rows(
        """SELECT b.player_id, pl.display_name, b.best, b.runs FROM puzzle_bests AS b
           JOIN players AS pl ON pl.id = b.player_id WHERE b.player_id = ? AND b.mode = ?""",
        player_id, mode,
    )
    return ModeScore(*found[0]) if found else None


def _play(row: Sequence[Any]) -> PuzzlePlay:
    (player_id, puzzle_id, platform, channel, rated, result, before, after, served, answered) = row
    return PuzzlePlay(player_id, puzzle_id, platform, channel, bool(rated), result, before, after,
                      instant(served), opt_instant(answered))


def _run(row: Sequence[Any]) -> PuzzleRun:
    (id_, mode, platform, channel, player_id, puzzle_id, ply, score, combo, best_combo, mistakes, skips, seen,
     started, deadline, ended, version) = row
    platform_: Platform = platform
    return PuzzleRun(id_, mode, platform_, channel, player_id, puzzle_id, ply, score, combo, best_combo, mistakes,
                     skips, tuple(seen.split()), instant(started), opt_instant(deadline), opt_instant(ended), version)


def import_history(players: Sequence[tuple[int, Glicko2Rating, Sequence[tuple[str, bool]]]],
                   puzzles: Sequence[tuple[str, Glicko2Rating]], now: datetime) -> Plan[int]:
    """Players' ratings and rated plays, and puzzles' ratings, written in bulk (a history brought
    from elsewhere, or a benchmark's); returns the plays written."""
    yield many(
        """INSERT INTO puzzle_player_ratings (player_id, rating, deviation, volatility, rated, solved, updated)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
               volatility = excluded.volatility, rated = excluded.rated, solved = excluded.solved,
               updated = excluded.updated""",
        [(player_id, r.rating, r.deviation, r.volatility, len(plays), sum(solved for _, solved in plays), now)
         for player_id, r, plays in players],
    )
    plays = [(player_id, puzzle_id, "solved" if solved else "failed", now)
             for player_id, _, history in players for puzzle_id, solved in history]
    yield many(
        """INSERT INTO puzzle_plays (player_id, puzzle_id, platform, channel, rated, result, served, answered)
           VALUES (?, ?, 'import', '', TRUE, ?, ?, ?) ON CONFLICT (player_id, puzzle_id) DO NOTHING""",
        [(player_id, puzzle_id, result, at, at) for player_id, puzzle_id, result, at in plays],
    )
    yield many(
        """INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, plays) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (puzzle_id) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,
               volatility = excluded.volatility, plays = excluded.plays""",
        [(puzzle_id, r.rating, r.deviation, r.volatility, r.count) for puzzle_id, r in puzzles],
    )
    return len(plays)
