"""What the chat reads of an event, word for word: a withdrawn player's boards as forfeits, counts
in the singular and plural, byes and absences named for what they are, options echoed as typed."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.i18n import LANGUAGES, Catalog
from bot.services.tournaments import present
from storage import Storage

from .tournament_support import Event, start_event

FOUR = ["alice", "bob", "cy", "dan"]
CATALOG = Catalog.load()


async def test_a_withdrawn_round_robin_players_board_is_a_forfeit_with_its_score(storage: Storage,
                                                                                   clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "roundrobin 3+2", FOUR))[0]
    await event.ok("dan", "withdraw")
    for pair in first["pairs"]:
        await event.ok(pair["black"], "resign")
    told = [n.reply for n in await event.notices() if n.reply.kind == "tournament_pairings"]
    assert told[0].data is not None
    unplayed = next(p for p in told[0].data["pairs"] if "dan" in (p["white"], p["black"]))
    assert unplayed["game"] is None
    winner = unplayed["black"] if unplayed["white"] == "dan" else unplayed["white"]
    line = "wins by forfeit, 1-0 (dan withdrew)"
    for text in (told[0].text, (await event.ok("bob", "pairings 2"))[0].text):
        assert "game #0" not in text and "#None" not in text
        assert f". {winner} {line}" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_forfeit_board_reads_in_every_language(language: str) -> None:
    t = present.texts(CATALOG, language)
    won = present.board_line(t, 2, present.RoundBoard("ann", "dan", None, "1-0F"))
    lost = present.board_line(t, 2, present.RoundBoard("dan", "ann", None, "0-1F"))
    both = present.board_line(t, 3, present.RoundBoard("cy", "dan", None, "0-0F"))
    assert won == lost and won.startswith("2. ann") and "dan" in won and "1-0" in won and "#" not in won
    assert both.startswith("3. cy") and "dan" in both and "0-0" in both
    assert present.board_line(t, 1, present.RoundBoard("ann", "bob", 31)).endswith("#31")


@pytest.mark.parametrize("language", LANGUAGES)
async def test_help_lists_the_tournament_commands_in_every_language(storage: Storage, clock: FakeClock,
                                                                     language: str) -> None:
    event = Event(storage, clock)
    await event.ok("alice", f"lang {language}")
    words = CATALOG.command_names(language)
    shown = (await event.ok("alice", "help"))[0].text
    detailed = (await event.ok("alice", f"tournament {words['help'][0]}"))[0]
    assert detailed.kind == "help"
    for command in ("tournament", "join", "withdraw", "pairings", "standings", "berserk"):
        line = CATALOG.text(language, f"help.{command}")
        assert line in shown and line in detailed.text, (language, command)
        if language != "en":
            assert words[command][0] in shown, (language, command)  # the command in the chat's own words
    assert CATALOG.text(language, "help.tournament.usage") in detailed.text
