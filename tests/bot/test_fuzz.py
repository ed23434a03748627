"""Ten thousand random messages: nothing crashes, nothing changes the game."""

from __future__ import annotations

import random

from bot.i18n import Catalog
from bot.messages import Incoming, User

ALPHABETS = [
    "abcdefghxyz12345678-=+#!/ ",
    "กขคงจฉชญบมรง็่้๊๋ัิีึืุู๑๒๓๔๕๖๗๘ ",
    "対局指す盤面投了引き分けあいうえお ",
    "\x00\x01\x07\x1b\t\r\n\u200b\u202e\ufeff\U0001F600\U0010FFFF\ud7ff",
    "@<>{}[]()%$'\"\\;:,.?",
]
# Commands that could change the game: only a stranger tries them.
CHANGING_COMMANDS = ("lang", "resign", "draw", "undo", "accept", "decline", "count")


def random_text(rng: random.Random, catalog: Catalog) -> str:
    roll = rng.random()
    if roll < 0.15:  # a command word with garbage after it
        words = [w for lang in catalog.languages() for ws in catalog.command_names(lang).values() for w in ws]
        return rng.choice(words) + " " + random_text(rng, catalog)[:30]
    if roll < 0.2:  # very long
        return rng.choice(ALPHABETS) * rng.randint(50, 400)
    length = rng.randint(0, 40)
    alphabet = "".join(rng.sample(ALPHABETS, rng.randint(1, len(ALPHABETS))))
    return "".join(rng.choice(alphabet) for _ in range(length))


async def test_ten_thousand_random_messages_change_nothing(chat, service, storage):
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    await chat.ok("alice", "e3e4")
    before = await storage.active_game("console", "c1")
    rng = random.Random(20261130)
    catalog = Catalog.load()
    senders = [User("mallory", "mallory"), User("alice", "alice")]  # a stranger, and the player not to move
    codes: set[str] = set()
    for i in range(10_000):
        text = random_text(rng, catalog)
        if text.split()[:1] and catalog.command_for(text.split()[0]) in CHANGING_COMMANDS:
            sender = senders[0]
        else:
            sender = senders[i % 2]
        msg = Incoming("console", "c1", sender, text, community="guild", addressed=i % 3 != 0)
        replies = await service.handle(msg)
        for reply in replies:
            assert reply.text, text
            assert reply.error != "internal", (text, reply.text)
            if reply.error:
                codes.add(reply.error)
    after = await storage.active_game("console", "c1")
    assert after.moves == before.moves and after.status == "active"
    assert after.draw_offer is None and after.takeback_offer is None
    assert {"not_playing", "unknown_command", "too_long"} <= codes
