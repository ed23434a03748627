"""Puzzles served by rating: ``puzzle [variant | theme]`` serves a puzzle near the player's
puzzle rating that they have never been served; the first try at it is rated (Glicko-2, both
the player and the puzzle move) when it was served in a private chat (``Incoming.private``),
never in a group. ``puzzlerating [@player]`` and ``puzzle report [reason]``."""

from __future__ import annotations

from typing import Any

from storage import PuzzleAlreadyPosted
from storage.records import Glicko2Rating, Player, Puzzle, PuzzlePlay, PuzzlePost, RatedPuzzle

from ... import glicko2
from ...messages import Incoming, Reply
from ...puzzles.bank import KNOWN_THEMES
from ..errors import Refusal
from ..outbox import AnswerWith
from .cards import puzzle_data, rating_data
from .daily import DailyPosts
from .mix import draw

NEAREST = 5  # a puzzle is drawn from the five rated nearest the player: not always the same one
CANDIDATES = 12
REPORT_THRESHOLD = 3  # players reporting a puzzle withhold it until it is reviewed
REASON_LENGTH = 200
VARIANT_WORD = "variant_"
# A theme as players type it (``matein2``) to the bank's spelling (``mateIn2``): the databases
# compare themes exactly.
THEMES = {theme.casefold(): theme for theme in KNOWN_THEMES}


def rate(player: Glicko2Rating | None, puzzle: Glicko2Rating | None, estimate: int | None,
         solved: bool) -> tuple[Glicko2Rating, Glicko2Rating, Glicko2Rating]:
    """Storage's ``Rate``: the player's rating before, after, and the puzzle's after one first try."""
    mine = glicko2.Glicko(player.rating, player.deviation, player.volatility) if player else glicko2.Glicko()
    theirs = (glicko2.Glicko(puzzle.rating, puzzle.deviation, puzzle.volatility) if puzzle
              else glicko2.puzzle_start(estimate if estimate is not None else glicko2.PLAYER_START_RATING))
    mine_after, theirs_after = glicko2.rate_attempt(mine, theirs, solved=solved)
    return (Glicko2Rating(mine.rating, mine.deviation, mine.volatility),
            Glicko2Rating(mine_after.rating, mine_after.deviation, mine_after.volatility),
            Glicko2Rating(theirs_after.rating, theirs_after.deviation, theirs_after.volatility))


class Training(DailyPosts):
    async def _serve(self, msg: Incoming, language: str, args: tuple[str, ...], keep: AnswerWith) -> list[Reply]:
        """``puzzle [variant | theme]``: a puzzle near the player's rating, the chat's current one."""
        variant, theme = self._filters(args)
        player = await self._player(msg)
        mine = await self.storage.player_puzzle_rating(player.id)
        target = mine.rating.rating if mine.rating else glicko2.PLAYER_START_RATING
        found = await self.storage.puzzle_candidates(player.id, msg.platform, msg.channel, target, variant=variant,
                                                     theme=theme, limit=CANDIDATES)
        if not found:
            raise Refusal("puzzle_bank_empty", private=False)
        recent = await self.storage.recent_posts(msg.platform, msg.channel, limit=1)
        # A mix of kinds, unless a theme is asked for: the chat's last puzzle's kind is not next.
        last = None if theme is not None or not recent else await self._puzzle(recent[0].puzzle_id)
        chosen = draw(found, NEAREST, last, self.random)
        earlier = [p for p in recent if p.subscription_id is None]
        if msg.private:  # alone in the chat, a player who solved it or gave up has seen the solution
            earlier = [p for p in earlier if not await self._seen_through(p, player)]
        revealed = await self._revealed(language, earlier)
        rated = msg.private
        title = self._served_title(language, chosen, rated, target if mine.rating else None)
        reply = self._post_reply(language, chosen.puzzle, title, revealed,
                                 data=puzzle_data(chosen.puzzle, chosen.rating), private=rated)
        answer, shown = keep(lambda post: [reply])
        try:
            await self.storage.serve_puzzle(msg.platform, msg.channel, player.id, chosen.puzzle.id, rated=rated,
                                            answer=answer)
        except PuzzleAlreadyPosted:
            raise Refusal("conflict") from None
        return [await self.with_card(r) for r in shown]

    def _served_title(self, language: str, chosen: RatedPuzzle, rated: bool, mine: float | None) -> str:
        variant = self.t(language, f"variant.{chosen.puzzle.variant}")
        title = self.t(language, "puzzle.extra", rating=round(chosen.rating))
        if not rated:
            return title + "\n" + self.t(language, "training.served.unrated", variant=variant)
        return title + "\n" + self.t(language, "training.served.rated", variant=variant,
                                      mine=round(mine if mine is not None else glicko2.PLAYER_START_RATING))

    def _filters(self, args: tuple[str, ...]) -> tuple[str | None, str | None]:
        """``makpong`` (any language's word for a variant) or a theme of the bank (``fork``)."""
        variant = theme = None
        for arg in args:
            word = self.catalog.word_for(arg) or ""
            if word.startswith(VARIANT_WORD):
                variant = word.removeprefix(VARIANT_WORD)
            elif arg.casefold() in THEMES:
                theme = THEMES[arg.casefold()]
            else:
                raise Refusal("bad_puzzle_filter", text=arg[:20])
        return variant, theme

    async def _settle(self, player: Player, post: PuzzlePost, puzzle: Puzzle, solved: bool) -> dict[str, Any] | None:
        """A first try at a puzzle served on demand is stored (the daily post's are not: they
        count for the daily streak only); the rating change it made, as the reply's data."""
        if post.subscription_id is not None:
            return None
        play, first = await self.storage.settle_play(player.id, puzzle.id, post.platform, post.channel,
                                                     solved=solved, rate=rate)
        return self._rating_change(play) if first else None

    @staticmethod
    def _rating_change(play: PuzzlePlay) -> dict[str, Any] | None:
        if not play.rated or play.rating_before is None or play.rating_after is None:
            return None
        return rating_data(play.rating_before, play.rating_after)

    def _rating_line(self, language: str, data: dict[str, Any] | None) -> list[str]:
        if data is None:
            return []
        change = data["puzzle_rating"]
        diff = change["after"] - change["before"]
        return [self.t(language, "training.rating.change", before=change["before"], after=change["after"],
                       diff=f"{diff:+d}")]

    async def _cmd_puzzlerating(self, msg: Incoming, language: str, args: tuple[str, ...],
                                keep: AnswerWith) -> list[Reply]:
        """``puzzlerating [@player]``: the player's puzzle rating."""
        if msg.mentions:
            who = msg.mentions[0]
            player = await self.storage.find_player(msg.platform, who.id)
            if player is None:
                raise Refusal("unknown_player", name=who.name[:40])
        else:
            player = await self._player(msg)
        mine = await self.storage.player_puzzle_rating(player.id)
        if mine.rating is None:  # "you has no rating" would read badly: one's own has its own words
            text = self.t(language, "training.rating.none" if msg.mentions else "training.rating.none_self",
                          name=player.display_name, start=round(glicko2.PLAYER_START_RATING))
        else:
            text = self.t(language, "training.rating.show", name=player.display_name, rating=round(mine.rating.rating),
                          deviation=round(mine.rating.deviation), rated=mine.rating.count, solved=mine.solved)
        return [Reply(kind="puzzle_rating", text=text, language=language,
                      data={"puzzle_rating": {"player": player.display_name,
                                              "rating": round(mine.rating.rating) if mine.rating else None}})]

    async def _report(self, msg: Incoming, language: str, args: tuple[str, ...], puzzle_id: str | None) -> list[Reply]:
        """``puzzle report [reason]``: the puzzle the player is on (a run's, else the chat's)."""
        if puzzle_id is None:
            post = await self._require_open_post(msg)
            puzzle_id = post.puzzle_id
        player = await self._player(msg)
        reason = " ".join(args)[:REASON_LENGTH]
        await self.storage.report_puzzle(puzzle_id, player.id, reason, threshold=REPORT_THRESHOLD)
        return [Reply(kind="puzzle_report", text=self.t(language, "training.reported", id=puzzle_id),
                      language=language, private=True)]
