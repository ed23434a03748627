"""The options of ``new``: an opponent, the bot and its level, a colour, the variant (makpong,
ouk, asean, sittuyin), the promotion and perpetual-check rules, a time per move or a live
game's clock (``3+2``: minutes each, seconds added per move), rated or casual; and times such
as ``2h`` or ``3วัน``.

>>> parse_time("2h"), parse_time("3วัน"), parse_time("90分"), parse_time("90នាទី"), parse_time("១ថ្ងៃ")
(7200, 259200, 5400, 5400, 86400)
>>> [str(time_control_at(words.split(), 0)[0]) for words in ("3+2", "5 + 3", "3 นาที + 2", "๕+๓", "10分+5秒")]
['3+2', '5+3', '3+2', '5+3', '10+5']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from makruk import Board, InvalidFenError, starting_fen
from storage.records import Perpetual, Promotion, TimeControl

from ...i18n import Catalog
from ...messages import Incoming, User
from ..errors import Refusal
from .variants import variant_named

ENGINE_LEVELS = range(1, 9)
MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 14 * 24 * 3600
_TIME_SPEC = re.compile(r"(\d{1,4})\s*(m|min|h|d|นาที|ชม|ชั่วโมง|วัน|分|時間|日|នាទី|ម៉ោង|ថ្ងៃ)", re.IGNORECASE)
_TIME_UNITS = {"m": 60, "min": 60, "นาที": 60, "分": 60, "នាទី": 60,
               "h": 3600, "ชม": 3600, "ชั่วโมง": 3600, "時間": 3600, "ម៉ោង": 3600,
               "d": 86400, "วัน": 86400, "日": 86400, "ថ្ងៃ": 86400}
# A live game's clock: minutes (any script's digits), a plus, seconds; units as each language writes them.
_CLOCK_SPEC = re.compile(
    r"(\d{1,3})\s*(?:m|min|mins|minutes?|นาที|分|នាទី)?\s*[+＋]\s*(\d{1,3})\s*(?:s|sec|secs|seconds?|วินาที|วิ|秒|វិនាទី)?",
    re.IGNORECASE)
CLOCK_TOKENS = 5  # "3 นาที + 2 วินาที" split into words
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT_SECONDS = 180
ColorChoice = Literal["w", "b", "random"]


@dataclass
class ChallengeOptions:
    opponent: User | None = None
    typed: bool = False  # the opponent was typed as @name, not mentioned: a name to look up
    vs_bot: bool = False
    level: int | None = None
    color: ColorChoice | None = None
    promotion: Promotion | None = None
    perpetual: Perpetual | None = None
    move_seconds: int | None = None
    time_control: TimeControl | None = None  # a live game; None: correspondence
    rated: bool = True
    variant: str | None = None  # makruk.VARIANTS; None: Makruk
    fen: str | None = None  # ``from FEN``: the position the game starts from (checked by start_position)


def parse_challenge_options(catalog: Catalog, msg: Incoming, args: tuple[str, ...]) -> ChallengeOptions:
    """The options of ``new``, in any language; refused at the first word that is none."""
    options = ChallengeOptions()
    mentions = list(msg.mentions)
    skip = 0
    for i, token in enumerate(args):
        if skip:  # words a clock was written with
            skip -= 1
            continue
        control = time_control_at(args, i)
        if control is not None:
            if options.time_control is not None:
                raise Refusal("bad_option", option=token[:20])
            options.time_control, used = control
            skip = used - 1
            continue
        word = catalog.word_for(token)
        if word == "from":  # the rest is the position: new bot 3 from <FEN>
            options.fen = " ".join(args[i + 1:])
            if not options.fen:
                raise Refusal("fen.invalid_fen", text="-")
            break
        variant = variant_named(catalog, token)
        if variant is not None:
            if options.variant not in (None, variant):
                raise Refusal("bad_option", option=token[:20])
            options.variant = variant
        elif token.startswith("@") and len(token) > 1:
            if options.opponent is not None:
                raise Refusal("bad_option", option=token)
            if mentions:
                options.opponent = mentions.pop(0)
            else:
                options.opponent, options.typed = User(token[1:], token[1:]), True
        elif word == "bot":
            options.vs_bot = True
        elif word == "white":
            options.color = "w"
        elif word == "black":
            options.color = "b"
        elif word == "random":
            options.color = "random"
        elif word == "optional":
            options.promotion = "optional"
        elif word == "forced":
            options.promotion = "forced"
        elif word == "perpetual_draw":
            options.perpetual = "draw"
        elif word == "perpetual_forbid":
            options.perpetual = "forbid"
        elif word in ("rated", "casual"):
            options.rated = word == "rated"
        elif token.isdigit() and options.vs_bot:
            level = int(token)
            if level not in ENGINE_LEVELS:
                raise Refusal("bad_level", low=ENGINE_LEVELS[0], high=ENGINE_LEVELS[-1])
            options.level = level
        elif _TIME_SPEC.fullmatch(token.removeprefix("time=")):
            options.move_seconds = parse_time(token.removeprefix("time="))
        else:
            raise Refusal("bad_option", option=token[:20])
    if options.opponent is None and mentions:
        options.opponent = mentions[0]
    if options.vs_bot and options.opponent is not None:
        raise Refusal("bad_option", option="@" + options.opponent.name[:20])
    return options


def start_position(options: ChallengeOptions) -> str:
    """The FEN the game starts from: the variant's start, or the one given, if it is a legal
    position where the game is not already over; refused with the rules' reason otherwise."""
    variant = options.variant or "makruk"
    if options.fen is None:
        return starting_fen(variant)
    try:
        board = Board(options.fen, variant=variant, promotion=options.promotion or "forced")
    except InvalidFenError as error:
        raise Refusal(f"fen.{error.code}", text=options.fen[:60]) from None
    if board.outcome() is not None:
        raise Refusal("fen.fen_game_over", text=options.fen[:60])
    return board.fen()


def time_control_at(args: tuple[str, ...] | list[str], start: int) -> tuple[TimeControl, int] | None:
    """The live clock written from ``args[start]`` on (``3+2``, ``3 + 2``, ``3 นาที + 2``) and
    how many words it took, the most that read as one; refused outside the bounds."""
    for end in range(min(len(args), start + CLOCK_TOKENS), start, -1):
        match = _CLOCK_SPEC.fullmatch(" ".join(args[start:end]).removeprefix("time="))  # as /makruk new writes it
        if match is not None:
            minutes, increment = int(match.group(1)), int(match.group(2))
            if minutes > MAX_CLOCK_MINUTES or increment > MAX_INCREMENT_SECONDS or minutes + increment == 0:
                raise Refusal("bad_clock", high_minutes=MAX_CLOCK_MINUTES, high_seconds=MAX_INCREMENT_SECONDS)
            return TimeControl(minutes * 60, increment), end - start
    return None


def parse_time(text: str) -> int:
    """Seconds in a time such as ``30m``, ``2h``, ``3d`` (or Thai and Japanese units)."""
    m = _TIME_SPEC.fullmatch(text)
    if m is None:
        raise Refusal("bad_option", option=text[:20])
    seconds = int(m.group(1)) * _TIME_UNITS[m.group(2).lower()]
    if not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise Refusal("bad_time", low="1m", high="14d")
    return seconds
