"""Discord text as the service reads it: mentions as ``@word``s, and the moves matching what was typed.

>>> strip_mentions("<@1> new <@!2> black", 1, [])
'new <@!2> black'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from makruk import to_arabic_digits

from ...services.games import MoveChoice


def handle(user: discord.abc.User) -> str:
    """A user's name as one word: the service reads ``@word`` as "the mentioned user"."""
    return "".join(user.display_name.split()) or str(user.id)


def strip_mentions(content: str, me: int, others: Sequence[discord.abc.User]) -> str:
    """The text of a message without the bot's mention; other users' mentions become ``@name``."""
    text = re.sub(rf"<@!?{me}>", " ", content)
    for user in others:
        text = re.sub(rf"<@!?{user.id}>", f"@{handle(user)}", text)
    return " ".join(text.split())


def matching_moves(choices: Sequence[MoveChoice], typed: str) -> list[MoveChoice]:
    """The moves whose SAN, Thai or UCI form starts with (then contains) what was typed.

    Thai digits match Arabic ones, case and spaces are ignored.
    """
    wanted = _fold(typed)
    if not wanted:
        return list(choices)
    forms = [(c, [_fold(c.san), _fold(c.thai), _fold(c.uci)]) for c in choices]
    starting = [c for c, names in forms if any(n.startswith(wanted) for n in names)]
    containing = [c for c, names in forms if c not in starting and any(wanted in n for n in names)]
    return starting + containing


def _fold(text: str) -> str:
    return "".join(to_arabic_digits(text).casefold().split())
