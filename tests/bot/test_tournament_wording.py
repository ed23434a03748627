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


async def test_counts_are_singular_or_plural(storage: Storage, clock: FakeClock) -> None:
    event = Event(storage, clock)
    await event.ok("alice", "tournament new swiss 4 rounds 3+2")
    assert (await event.ok("alice", "join"))[0].text == "alice joined tournament #1 (1 player)."
    assert (await event.ok("bob", "join"))[0].text == "bob joined tournament #1 (2 players)."
    await event.ok("cy", "join")
    await event.ok("dan", "join")
    await event.ok("alice", "tournament start")
    late = (await event.ok("eve", "join"))[0].text
    assert late == "eve joined tournament #1 late, with a half-point bye for the round missed."
    made = (await event.ok("alice", "tournament weekly thursday 20:00 arena 3+2 90m"))[0].text
    assert " a Arena " not in made and "a new tournament (Arena) will be announced a day ahead" in made


async def test_an_absence_reads_as_not_paired_and_a_round_robins_odd_seat_sits_out(storage: Storage,
                                                                                     clock: FakeClock) -> None:
    event = Event(storage, clock)
    first = (await start_event(event, "swiss 3 rounds 3+2", FOUR))[0]
    await event.ok("dan", "withdraw")
    for pair in first["pairs"]:
        await event.ok(pair["black"], "resign")
    await event.notices()
    await event.ok("dan", "join")  # back: round 2, already paired, is an absence
    text = (await event.ok("bob", "pairings 2"))[0].text
    assert "Not paired: dan (absent, 0)" in text and "0 pts" not in text

    robin = Event(storage, clock, channel="c2")
    told = (await start_event(robin, "roundrobin 3+2", ["eve", "fay", "gus"], organizer="eve"))[0]
    assert told["bye"] is not None
    text = (await robin.ok("eve", "pairings"))[0].text
    assert f"Sits out this round: {told['bye']} (1 pt)" in text and "Bye:" not in text


@pytest.mark.parametrize(("line", "option"), [("swiss 3+2 1d", "1d"), ("swiss 3+2 90 นาที", "90 นาที"),
                                              ("arena 3+2 90m 2h", "2h"), ("swiss 1d 2d", "2d")])
async def test_a_time_with_no_place_is_refused_in_the_users_words(storage: Storage, clock: FakeClock, line: str,
                                                                   option: str) -> None:
    event = Event(storage, clock)
    refused = await event.refused("alice", f"tournament new {line}", "bad_option")
    assert refused.text == f"I don't understand the option {option}."
