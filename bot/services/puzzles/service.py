"""The puzzle service as the game service sees it: its commands and the bare moves it answers.

Bare moves go to the player's Streak or Storm run in the chat, else to the chat's Race, else to
the chat's current puzzle (a daily post or one served on demand)."""

from __future__ import annotations

from storage.records import RunMode

from ...messages import Incoming, Reply
from ..outbox import AnswerWith, unkept
from .runs import MODES, Runs

_MODE_WORDS: dict[str, RunMode] = {f"puzzle_{mode}": mode for mode in MODES}


class PuzzleService(Runs):
    async def command(self, msg: Incoming, language: str, name: str, args: tuple[str, ...],
                      keep: AnswerWith = unkept) -> list[Reply]:
        """``puzzle``, ``puzzlerating``, ``hint``, ``giveup``, ``subscribe``, ``unsubscribe``,
        ``puzzletop`` or ``streak``; raises Refusal like the game service's commands. What a
        command changes is stored with its answer (``keep``)."""
        handler = getattr(self, f"_cmd_{name}")
        return await handler(msg, language, args, keep)

    async def answer(self, msg: Incoming, language: str, text: str, keep: AnswerWith = unkept) -> list[Reply] | None:
        """A bare move for the player's run, the chat's race or the chat's open puzzle; None when
        there is nothing to answer or ``text`` is no move."""
        known = await self.storage.find_player(msg.platform, msg.user.id)  # chatter creates nobody
        for run in await self.storage.going_runs(msg.platform, msg.channel, known.id if known else None):
            answered = await self._answer_run(msg, language, run, text, keep)
            if answered is not None:
                return answered
        return await self._answer_post(msg, language, text, known, keep)

    async def _cmd_puzzle(self, msg: Incoming, language: str, args: tuple[str, ...],
                          keep: AnswerWith) -> list[Reply]:
        """``puzzle [variant | theme]``, ``puzzle help``, ``puzzle report [reason]``,
        ``puzzle streak | storm | race [stop]``, ``puzzle skip``, ``puzzle stop``."""
        if not args:
            return await self._serve(msg, language, args, keep)
        if self.catalog.command_for(args[0]) == "help":
            text = self.t(language, "puzzle.help") + "\n" + self.t(language, "training.help")
            return [Reply(kind="help", text=text, language=language)]
        word = self.catalog.word_for(args[0])
        rest = args[1:]
        if word == "puzzle_report":
            return await self._report(msg, language, rest, await self._run_puzzle(msg))
        if word in _MODE_WORDS:
            mode = _MODE_WORDS[word]
            if rest and self.catalog.word_for(rest[0]) == "puzzle_stop":
                return await self._stop(msg, language, mode == "race", keep)
            return await self._start_run(msg, language, mode, keep)
        if word == "puzzle_skip":
            return await self._skip(msg, language, keep)
        if word == "puzzle_stop":
            return await self._stop(msg, language, False, keep)
        return await self._serve(msg, language, args, keep)

    async def _cmd_puzzletop(self, msg: Incoming, language: str, args: tuple[str, ...],
                             keep: AnswerWith) -> list[Reply]:
        """``puzzletop``: the chat's solvers; ``puzzletop streak | storm | race``: a mode's best."""
        word = self.catalog.word_for(args[0]) if args else None
        if word in _MODE_WORDS:
            return await self._mode_top(language, _MODE_WORDS[word])
        return await self._chat_top(msg, language)

    async def _run_puzzle(self, msg: Incoming) -> str | None:
        """The puzzle of the player's run (or the chat's race), if one is going."""
        known = await self.storage.find_player(msg.platform, msg.user.id)
        runs = await self.storage.going_runs(msg.platform, msg.channel, known.id if known else None)
        return runs[0].puzzle_id if runs else None
