"""Streak, Storm and Race: runs of puzzles, unrated, each with its own leaderboard.

- **Streak** (``puzzle streak``): one player solves puzzle after puzzle, each a little harder;
  one mistake ends the run; one skip is allowed (``puzzle skip``).
- **Storm** (``puzzle storm``, private chats only): as many as possible in three minutes; a
  mistake costs ten seconds and moves on to the next puzzle; combos of right moves add time.
- **Race** (``puzzle race`` in a group): the chat's puzzles, one at a time; the first right answer
  scores, and the next puzzle comes in that same reply (no LINE push is spent on it).

A run's state is stored after every answer by compare-and-set (storage's ``save_run``); a Storm
that ran out while nobody wrote is ended by the next message or the next ``puzzle storm``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from makruk import Board, Move
from storage import VersionConflict
from storage.records import Player, Puzzle, PuzzleRun, RatedPuzzle, RunMode

from ...messages import Incoming, Reply
from ..errors import Refusal
from ..notation import move_text
from ..outbox import AnswerWith
from .cards import board_after, is_mate_puzzle, puzzle_data, solution_text
from .mix import draw
from .solving import Solving, read_answer

MODES: tuple[RunMode, ...] = ("streak", "storm", "race")
STREAK_SKIPS = 1
STORM_SECONDS = 180
STORM_PENALTY = timedelta(seconds=10)
# Seconds added when a Storm's combo of right moves reaches each count; then 10 s every 10 more.
COMBO_BONUSES = {5: 3, 12: 5, 20: 7, 30: 10}
RACE_LENGTH = 10
NEAREST = 5
CANDIDATES = 12
# Each mode's target rating for its n-th puzzle: the runs get harder as they go.
LEVELS: dict[RunMode, tuple[int, int]] = {"streak": (600, 60), "storm": (600, 40), "race": (900, 60)}


def combo_bonus(combo: int) -> int:
    """The seconds a Storm gains as its combo reaches ``combo``.

    >>> [combo_bonus(n) for n in (4, 5, 12, 20, 30, 35, 40)]
    [0, 3, 5, 7, 10, 0, 10]
    """
    if combo in COMBO_BONUSES:
        return COMBO_BONUSES[combo]
    return 10 if combo > 30 and combo % 10 == 0 else 0


def level(mode: RunMode, index: int) -> float:
    start, step = LEVELS[mode]
    return float(start + step * index)


class Runs(Solving):
    async def _start_run(self, msg: Incoming, language: str, mode: RunMode, keep: AnswerWith) -> list[Reply]:
        if mode == "storm" and not msg.private:
            raise Refusal("storm_private")
        player = await self._player(msg)
        owner = None if mode == "race" else player.id
        for going in await self.storage.going_runs(msg.platform, msg.channel, player.id):
            if going.player_id != owner:
                continue
            if self._timed_out(going):
                await self.storage.save_run(dataclasses.replace(going, ended=self.clock.now()),
                                            expected_version=going.version)
                continue
            raise Refusal("race_going" if mode == "race" else "run_going",
                          mode=self.t(language, f"training.mode.{going.mode}"))
        first = await self._next(mode, (), msg)
        if first is None:
            raise Refusal("puzzle_bank_empty", private=False)
        deadline = self.clock.now() + timedelta(seconds=STORM_SECONDS) if mode == "storm" else None
        intro = self.t(language, f"training.{mode}.start", n=RACE_LENGTH, skips=STREAK_SKIPS,
                       minutes=STORM_SECONDS // 60)
        card = self._run_card(language, first, [intro], msg.private and mode != "race")
        answer, shown = keep(lambda run: [card] if run is not None else [])
        if await self.storage.start_run(mode, msg.platform, msg.channel, owner, first.puzzle.id, deadline=deadline,
                                        answer=answer) is None:
            raise Refusal("conflict")
        return [await self.with_card(reply) for reply in shown]

    async def _cmd_hint(self, msg: Incoming, language: str, args: tuple[str, ...],
                        keep: AnswerWith) -> list[Reply]:
        await self._no_help_in_a_run(msg, language)
        return await super()._cmd_hint(msg, language, args, keep)

    async def _cmd_giveup(self, msg: Incoming, language: str, args: tuple[str, ...],
                          keep: AnswerWith) -> list[Reply]:
        await self._no_help_in_a_run(msg, language)
        return await super()._cmd_giveup(msg, language, args, keep)

    async def _cmd_board(self, msg: Incoming, language: str, args: tuple[str, ...],
                         keep: AnswerWith) -> list[Reply]:
        """``board`` in a chat with no game: the puzzle the player is solving, where they are in
        it (their run's, the chat's race's, else the chat's open puzzle), its picture again."""
        known = await self.storage.find_player(msg.platform, msg.user.id)
        run = await self._running(msg, known)
        if run is not None:
            assert run.puzzle_id is not None  # a going run always has its puzzle
            puzzle = await self._puzzle(run.puzzle_id)
            board = board_after(puzzle, run.ply)
            return [await self._again(language, puzzle, board, msg.private and run.mode != "race", actions=False)]
        post = await self._open_post(msg)
        if post is None:
            raise Refusal("no_game")  # nothing to show: "no game here; new starts one"
        puzzle = await self._puzzle(post.puzzle_id)
        _, board = await self._position(post, puzzle, known)
        return [await self._again(language, puzzle, board, msg.private and post.subscription_id is None)]

    async def _again(self, language: str, puzzle: Puzzle, board: Board, private: bool, *,
                     actions: bool = True) -> Reply:
        card = self._card(language, puzzle, board, self._caption(language, puzzle, board), kind="puzzle_board",
                          last=board.move_stack[-1] if board.move_stack else None, actions=actions, private=private)
        return await self.with_card(card)

    async def _no_help_in_a_run(self, msg: Incoming, language: str) -> None:
        """Refuses ``hint`` and ``giveup`` while the player's run or the chat's race goes on: a
        run's puzzle has none (as on lichess), and the chat's last post is another puzzle."""
        run = await self._running(msg, await self.storage.find_player(msg.platform, msg.user.id))
        if run is None:
            return
        mode = self.t(language, f"training.mode.{run.mode}")
        if run.mode == "race":
            raise Refusal("race_no_help", mode=mode)
        raise Refusal("run_no_help", mode=mode)

    async def _running(self, msg: Incoming, known: Player | None) -> PuzzleRun | None:
        """The player's run, else the chat's race, still in time; None if neither is."""
        going = await self.storage.going_runs(msg.platform, msg.channel, known.id if known else None)
        return next((run for run in going if not self._timed_out(run)), None)

    async def _answer_run(self, msg: Incoming, language: str, run: PuzzleRun, text: str,
                          keep: AnswerWith) -> list[Reply] | None:
        """A bare move for the player's run or the chat's race; None when ``text`` is no move."""
        assert run.puzzle_id is not None  # a going run always has its puzzle
        puzzle = await self._puzzle(run.puzzle_id)
        board = board_after(puzzle, run.ply)
        move = read_answer(language, board, text)
        if move is None:
            return None
        player = await self._player(msg)
        if self._timed_out(run):
            return await self._finish(msg, language, run, player, [self.t(language, "training.storm.time_up")], keep)
        notation = move_text(language, board, move)
        last = run.ply == len(puzzle.solution) - 1
        board.push(move)
        right = move == Move.from_uci(puzzle.solution[run.ply]) or (last and is_mate_puzzle(puzzle)
                                                                    and board.is_checkmate())
        if not right:
            return await self._wrong(msg, language, run, player, puzzle, notation, keep)
        combo = run.combo + 1
        bonus = combo_bonus(combo) if run.mode == "storm" else 0
        deadline = run.deadline + timedelta(seconds=bonus) if run.deadline is not None else None
        lines = [self.t(language, "training.storm.bonus", combo=combo, seconds=bonus)] if bonus else []
        if not last:
            reply = Move.from_uci(puzzle.solution[run.ply + 1])
            reply_text = move_text(language, board, reply)
            board.push(reply)
            lines.insert(0, self.t(language, "puzzle.right", name=msg.user.name, move=notation, reply=reply_text))
            card = self._card(language, puzzle, board, "\n".join(lines), kind="puzzle", last=reply, actions=False,
                              private=msg.private and run.mode != "race")
            changed = dataclasses.replace(run, ply=run.ply + 2, combo=combo, best_combo=max(run.best_combo, combo),
                                          deadline=deadline)
            return await self._save(run, changed, keep, lambda saved: [card])
        solved = dataclasses.replace(run, score=run.score + 1, combo=combo, best_combo=max(run.best_combo, combo),
                                     deadline=deadline)
        lines.insert(0, self.t(language, f"training.{run.mode}.solved", name=msg.user.name, move=notation,
                               score=solved.score, left=self._time_left(solved)))
        if run.mode == "race":
            return await self._race_point(msg, language, run, solved, player, lines, keep)
        return await self._advance(msg, language, run, solved, player, lines, keep)

    async def _wrong(self, msg: Incoming, language: str, run: PuzzleRun, player: Player, puzzle: Puzzle,
                     notation: str, keep: AnswerWith) -> list[Reply]:
        if run.mode == "race":  # the others may still find it
            text = self.t(language, "training.race.wrong", name=msg.user.name, move=notation)
            return [Reply(kind="puzzle_wrong", text=text, language=language)]
        lines = [self.t(language, "puzzle.wrong.run", move=notation),
                 self.t(language, "puzzle.solution", line=solution_text(language, puzzle))]
        if run.mode == "streak":
            return await self._finish(msg, language, run, player, lines, keep)
        assert run.deadline is not None  # a Storm's
        missed = dataclasses.replace(run, combo=0, mistakes=run.mistakes + 1, deadline=run.deadline - STORM_PENALTY)
        if self._timed_out(missed):
            return await self._finish(msg, language, missed, player, lines, keep, base=run)
        lines.append(self.t(language, "training.storm.penalty", left=self._time_left(missed)))
        return await self._advance(msg, language, run, missed, player, lines, keep)

    async def _advance(self, msg: Incoming, language: str, run: PuzzleRun, changed: PuzzleRun, player: Player,
                       lines: list[str], keep: AnswerWith) -> list[Reply]:
        """The run moves on to its next puzzle, shown in the same reply (or ends: none is left)."""
        following = await self._next(changed.mode, changed.seen, msg, index=len(changed.seen))
        if following is None:
            lines.append(self.t(language, "training.bank_done"))
            return await self._finish(msg, language, changed, player, lines, keep, base=run)
        card = self._run_card(language, following, lines, msg.private and run.mode != "race")
        moved = dataclasses.replace(changed, puzzle_id=following.puzzle.id, ply=0,
                                    seen=(*changed.seen, following.puzzle.id))
        return await self._save(run, moved, keep, lambda saved: [card])

    async def _race_point(self, msg: Incoming, language: str, run: PuzzleRun, solved: PuzzleRun, player: Player,
                          lines: list[str], keep: AnswerWith) -> list[Reply]:
        scores = {s.display_name: s.score for s in await self.storage.race_scores(run.id)}
        scores[player.display_name] = scores.get(player.display_name, 0) + 1
        lines.append(self._standings(language, scores))
        if solved.score >= RACE_LENGTH:
            return await self._finish(msg, language, solved, player, lines, keep, base=run, point=True)
        following = await self._next("race", solved.seen, msg, index=len(solved.seen))
        if following is None:
            return await self._finish(msg, language, solved, player, lines, keep, base=run, point=True)
        card = self._run_card(language, following, lines, False)
        moved = dataclasses.replace(solved, puzzle_id=following.puzzle.id, ply=0,
                                    seen=(*solved.seen, following.puzzle.id))
        return await self._save(run, moved, keep, lambda saved: [card], point_to=player.id)

    async def _finish(self, msg: Incoming, language: str, run: PuzzleRun, player: Player, lines: list[str],
                      keep: AnswerWith, *, base: PuzzleRun | None = None, point: bool = False) -> list[Reply]:
        """The run ends: its score goes to the leaderboard (a race's to each racer's)."""
        best = None if run.player_id is None else await self.storage.mode_best(run.player_id, run.mode)
        top = max(run.score, best.best if best else 0)
        key = "training.race.over" if run.mode == "race" else f"training.{run.mode}.over"
        lines = [*lines, self.t(language, key, score=run.score, best=top, mistakes=run.mistakes,
                                combo=run.best_combo)]
        ended = dataclasses.replace(run, ended=self.clock.now())
        text = "\n".join(lines)
        reply = Reply(kind="puzzle_run_over", text=text, language=language, private=msg.private and run.mode != "race",
                      data={"puzzle_run": {"mode": run.mode, "score": run.score, "best": top}})
        return await self._save(base or run, ended, keep, lambda saved: [reply],
                                point_to=player.id if point else None)

    async def _save(self, run: PuzzleRun, changed: PuzzleRun, keep: AnswerWith,
                    build: Callable[[PuzzleRun], list[Reply]], *, point_to: int | None = None) -> list[Reply]:
        answer, shown = keep(build)
        try:
            await self.storage.save_run(changed, expected_version=run.version, point_to=point_to, answer=answer)
        except VersionConflict:
            # Two answers at once: in a race the other was first.
            raise Refusal("race_too_late" if run.mode == "race" else "conflict") from None
        return [await self.with_card(reply) for reply in shown]

    async def _next(self, mode: RunMode, seen: tuple[str, ...], msg: Incoming, *, index: int = 0) -> RatedPuzzle | None:
        """A puzzle near the mode's level for the run's ``index``-th, not seen in the run."""
        found = await self.storage.puzzle_candidates(None, msg.platform, msg.channel, level(mode, index),
                                                     fresh=False, limit=CANDIDATES + len(seen))
        unseen = [c for c in found if c.puzzle.id not in seen]
        if not unseen:
            return None
        return draw(unseen, NEAREST, await self._puzzle(seen[-1]) if seen else None, self.random)

    def _run_card(self, language: str, chosen: RatedPuzzle, lines: list[str], private: bool) -> Reply:
        puzzle = chosen.puzzle
        board = board_after(puzzle, 0)
        text = "\n".join([*lines, self.t(language, "training.next", rating=round(chosen.rating),
                                         variant=self.t(language, f"variant.{puzzle.variant}")),
                          self._caption(language, puzzle, board)])
        return self._card(language, puzzle, board, text, kind="puzzle", actions=False,
                          data=puzzle_data(puzzle, chosen.rating), private=private)

    def _standings(self, language: str, scores: dict[str, int]) -> str:
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
        return "\n".join(self.t(language, "training.race.line", rank=i + 1, name=name, score=score)
                         for i, (name, score) in enumerate(ranked))

    def _timed_out(self, run: PuzzleRun) -> bool:
        return run.deadline is not None and self.clock.now() >= run.deadline

    def _time_left(self, run: PuzzleRun) -> str:
        if run.deadline is None:
            return ""
        seconds = max(0, int((run.deadline - self.clock.now()).total_seconds()))
        return f"{seconds // 60}:{seconds % 60:02d}"

    async def _skip(self, msg: Incoming, language: str, keep: AnswerWith) -> list[Reply]:
        """``puzzle skip``: a Streak's next puzzle, once per run."""
        run, player = await self._own_run(msg)
        if run.mode != "streak":
            raise Refusal("storm_no_skip")  # the player's other run
        if run.skips >= STREAK_SKIPS:
            raise Refusal("no_skip")
        skipped = dataclasses.replace(run, skips=run.skips + 1)
        return await self._advance(msg, language, run, skipped, player, [self.t(language, "training.skipped")], keep)

    async def _stop(self, msg: Incoming, language: str, race: bool, keep: AnswerWith) -> list[Reply]:
        """``puzzle stop``: the player's run ends; ``puzzle race stop``: the chat's race."""
        player = await self._player(msg)
        going = await self.storage.going_runs(msg.platform, msg.channel, player.id)
        run = next((r for r in going if (r.player_id is None) == race), None)
        if run is None:
            raise Refusal("no_run")
        lines = [self.t(language, "training.stopped", mode=self.t(language, f"training.mode.{run.mode}"))]
        if run.mode == "race" and (scores := await self.storage.race_scores(run.id)):
            lines.append(self._standings(language, {s.display_name: s.score for s in scores}))
        return await self._finish(msg, language, run, player, lines, keep)

    async def _own_run(self, msg: Incoming) -> tuple[PuzzleRun, Player]:
        player = await self._player(msg)
        going = await self.storage.going_runs(msg.platform, msg.channel, player.id)
        mine = [run for run in going if run.player_id == player.id]
        if not mine:
            raise Refusal("no_run")
        return mine[0], player

    async def _mode_top(self, language: str, mode: RunMode) -> list[Reply]:
        rows = await self.storage.mode_leaderboard(mode, limit=10)
        lines = [self.t(language, "training.top.line", rank=i + 1, name=row.display_name, best=row.best, runs=row.runs)
                 for i, row in enumerate(rows)]
        title = self.t(language, "training.top.title", mode=self.t(language, f"training.mode.{mode}"))
        text = title + "\n" + ("\n".join(lines) or self.t(language, "puzzle.top.none"))
        data: dict[str, Any] = {"leaderboard": {"mode": mode, "rows": [
            {"player": row.display_name, "best": row.best, "runs": row.runs} for row in rows]}}
        return [Reply(kind="puzzle_top", text=text, language=language, data=data)]
