"""The options of ``new``: an opponent, the bot and its level, a colour, the variant (makpong,
ouk, asean, sittuyin), the promotion and perpetual-check rules, a time per move, rated or
casual; and times such as ``2h`` or ``3วัน``.

>>> parse_time("2h"), parse_time("3วัน"), parse_time("90分")
(7200, 259200, 5400)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from makruk import Board, InvalidFenError, starting_fen
from storage.records import Perpetual, Promotion

from ...i18n import Catalog
from ...messages import Incoming, User
from ..errors import Refusal
from .variants import variant_named

ENGINE_LEVELS = range(1, 9)
MIN_MOVE_SECONDS = 60
MAX_MOVE_SECONDS = 14 * 24 * 3600
_TIME_SPEC = re.compile(r"(\d{1,4})\s*(m|min|h|d|นาที|ชม|ชั่วโมง|วัน|分|時間|日)", re.IGNORECASE)
_TIME_UNITS = {"m": 60, "min": 60, "นาที": 60, "分": 60, "h": 3600, "ชม": 3600, "ชั่วโมง": 3600, "時間": 3600,
               "d": 86400, "วัน": 86400, "日": 86400}
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
    rated: bool = True
    variant: str | None = None  # makruk.VARIANTS; None: Makruk
    fen: str | None = None  # ``from FEN``: the position the game starts from (checked by start_position)


def parse_challenge_options(catalog: Catalog, msg: Incoming, args: tuple[str, ...]) -> ChallengeOptions:
    """The options of ``new``, in any language; refused at the first word that is none."""
    options = ChallengeOptions()
    mentions = list(msg.mentions)
    for i, token in enumerate(args):
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


def parse_time(text: str) -> int:
    """Seconds in a time such as ``30m``, ``2h``, ``3d`` (or Thai and Japanese units)."""
    m = _TIME_SPEC.fullmatch(text)
    if m is None:
        raise Refusal("bad_option", option=text[:20])
    seconds = int(m.group(1)) * _TIME_UNITS[m.group(2).lower()]
    if not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS:
        raise Refusal("bad_time", low="1m", high="14d")
    return seconds
