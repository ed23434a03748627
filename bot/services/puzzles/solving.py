"""Answers to the chat's current puzzle (a daily post or one served on demand): each person's
place in the solution is their own and is stored, so two people solve independently and a
restart loses nothing; hints and giving up. A first try at a puzzle served on demand is
settled for the ratings (training.py)."""

from __future__ import annotations

from makruk import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move
from storage import extended_streak
from storage.records import Player, Puzzle, PuzzleAttempt, PuzzlePost

from ...messages import Incoming, Reply
from ..errors import Refusal
from ..notation import move_text, square_text
from ..outbox import AnswerWith, unkept
from .cards import is_mate_puzzle, refutation, solution_text
from .training import Training


def read_answer(language: str, board: Board, text: str) -> Move | None:
    """The move ``text`` names on ``board``; None when it names no move (chatter, not an
    answer). An ambiguous or illegal move is refused with its code."""
    try:
        return board.parse_move(text)
    except InvalidMoveError:
        return None
    except AmbiguousMoveError as error:
        names = ", ".join(move_text(language, board, m) for m in error.candidates)
        raise Refusal("ambiguous", text=text[:20], candidates=names) from None
    except IllegalMoveError as error:
        raise Refusal(f"illegal.{error.code}", text=text[:20]) from None

class Solving(Training):
    async def _answer_post(self, msg: Incoming, language: str, text: str, known: Player | None,
                           keep: AnswerWith = unkept) -> list[Reply] | None:
        """A bare move for the chat's open puzzle by ``known`` (None: the writer is no player yet);
        None when there is none or ``text`` is no move."""
        post = await self._open_post(msg)
        if post is None:
            return None
        puzzle = await self._puzzle(post.puzzle_id)
        ply, board = await self._position(post, puzzle, known)
        move = read_answer(language, board, text)
        if move is None:
            return None
        player = known or await self._player(msg)
        await self._require_unfinished(post, player)
        return await self._try(msg, language, post, puzzle, player, ply, board, move, keep)

    async def _try(self, msg: Incoming, language: str, post: PuzzlePost, puzzle: Puzzle, player: Player,
                   ply: int, board: Board, move: Move, keep: AnswerWith) -> list[Reply]:
        expected = Move.from_uci(puzzle.solution[ply])
        last = ply == len(puzzle.solution) - 1
        notation = move_text(language, board, move)
        board.push(move)
        right = move == expected or (last and is_mate_puzzle(puzzle) and board.is_checkmate())
        if not right:
            change = await self._settle(player, post, puzzle, solved=False)
            # In a private chat the failed try is told what refutes it and the solution; in a
            # group the others are still solving.
            told = self._refuted(language, puzzle, ply, move) if msg.private and post.subscription_id is None else []

            def wrong(attempt: PuzzleAttempt) -> list[Reply]:
                text = self.t(language, "puzzle.wrong", name=msg.user.name, move=notation, tries=attempt.tries)
                text = "\n".join([text, *told, *self._rating_line(language, change)])
                return [Reply(kind="puzzle_wrong", text=text, language=language, data=change,
                              private=change is not None)]
            tried, shown = keep(wrong)
            await self.storage.record_attempt(post.id, player.id, False, answer=tried)
            return shown
        if last:
            change = await self._settle(player, post, puzzle, solved=True)
            day = post.local_date
            before = await self.storage.get_streak(post.platform, post.channel, player.id) if day else None

            def solved(attempt: PuzzleAttempt) -> list[Reply]:
                text = self.t(language, "puzzle.solved", name=msg.user.name, move=notation, tries=attempt.tries)
                if day is not None and before is not None:  # the streak as the solve leaves it
                    streak = extended_streak(before, day) or before
                    text += "\n" + self.t(language, "puzzle.solved.streak", current=streak.current, best=streak.best)
                else:
                    text += "\n" + self.t(language, "puzzle.solved.extra")
                text = "\n".join([text, *self._rating_line(language, change)])
                return [self._card(language, puzzle, board, text, kind="puzzle_solved", last=move, solved=True,
                                   data=change, private=change is not None)]
            solving, shown = keep(solved)
            await self.storage.record_attempt(post.id, player.id, True, progress=ply + 1, answer=solving)
            return [await self.with_card(reply) for reply in shown]
        reply = Move.from_uci(puzzle.solution[ply + 1])
        reply_notation = move_text(language, board, reply)
        board.push(reply)
        text = self.t(language, "puzzle.right", name=msg.user.name, move=notation, reply=reply_notation)
        # Served in private, its cards stay private (Discord: ephemeral, as the puzzle was).
        card = self._card(language, puzzle, board, text, kind="puzzle", last=reply,
                          private=msg.private and post.subscription_id is None)
        answer, shown = keep(lambda progress: [card])
        await self.storage.save_progress(post.id, player.id, ply + 2, answer=answer)
        return [await self.with_card(card) for card in shown]

    async def _cmd_hint(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        post = await self._require_open_post(msg)
        puzzle = await self._puzzle(post.puzzle_id)
        player = await self._player(msg)
        await self._require_unfinished(post, player)
        ply, board = await self._position(post, puzzle, player)
        move = Move.from_uci(puzzle.solution[ply])
        piece = board.piece_at(move.from_square)
        assert piece is not None  # the solution's move starts on a piece
        name = self.t(language, f"puzzle.piece.{piece.kind.name.lower()}")
        text = self.t(language, "puzzle.hint", piece=name, square=square_text(language, move.from_square))
        return [Reply(kind="puzzle_hint", text=text, language=language, private=True)]

    async def _cmd_giveup(self, msg: Incoming, language: str, args: tuple[str, ...],
                    keep: AnswerWith) -> list[Reply]:
        post = await self._require_open_post(msg)
        puzzle = await self._puzzle(post.puzzle_id)
        player = await self._player(msg)
        await self._require_unfinished(post, player)
        progress = await self.storage.get_progress(post.id, player.id)
        change = await self._settle(player, post, puzzle, solved=False)  # seeing the solution fails a first try
        await self.storage.save_progress(post.id, player.id, progress.ply if progress else 0, gave_up=True)
        text = self.t(language, "puzzle.solution", line=solution_text(language, puzzle))
        text = "\n".join([text, *self._rating_line(language, change)])
        return [Reply(kind="puzzle_solution", text=text, language=language, private=True, data=change)]

    def _refuted(self, language: str, puzzle: Puzzle, ply: int, wrong: Move) -> list[str]:
        """What refutes a wrong move (the bank line's reply, when it still applies) and the solution."""
        lines = []
        reply = refutation(language, puzzle, ply, wrong)
        if reply is not None:
            lines.append(self.t(language, "training.refutation", reply=reply))
        lines.append(self.t(language, "puzzle.solution", line=solution_text(language, puzzle)))
        return lines
