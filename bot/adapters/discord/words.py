"""Discord text as the service reads it: mentions as ``@word``s, and the moves matching what was typed.

>>> strip_mentions("<@1> new <@!2> black", 1, [])
'new <@!2> black'
>>> strip_mentions("<@1> tournament new arena 90m 3+2 <@&42>", 1, [])
'tournament new arena 90m 3+2 role:42'
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
    """The text of a message without the bot's mention; other users' mentions become ``@name``,
    a role's ``role:ID`` (a tournament's role to remind)."""
    text = re.sub(rf"<@!?{me}>", " ", content)
    text = re.sub(r"<@&(\d+)>", r"role:\1", text)
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
