"""Khmer, the fourth language: chosen with ``lang km`` (or its names), spoken by every part of
the bot, with Khmer command words, durations and dates."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.config import Settings
from bot.i18n import LANGUAGES, Catalog, normalize_language
from bot.services.presenter import Presenter

CATALOG = Catalog.load()


def test_khmer_is_a_language_of_its_own_with_a_name_in_every_catalogue():
    assert "km" in LANGUAGES
    assert (normalize_language("km"), normalize_language("km-KH")) == ("km", "km")
    for language in LANGUAGES:
        assert "km" in CATALOG.text(language, "help.lang")
        assert "ខ្មែរ" in CATALOG.text(language, "discord.choice.lang_km")


def test_khmer_command_words_call_their_commands_and_no_other_language_uses_them():
    for word, command in (("ថ្មី", "new"), ("ដើរ", "move"), ("ចុះចាញ់", "resign"), ("ជំនួយ", "help"),
                          ("ភាសា", "lang"), ("ក្ដារ", "board"), ("ស្មើ", "draw"), ("លំហាត់", "puzzle"),
                          ("គន្លឹះ", "hint")):
        assert CATALOG.command_for(word) == command, word
    khmer = {w.casefold() for words in CATALOG.raw("km")["commands"].values() for w in words}
    for language in set(LANGUAGES) - {"km"}:
        other = {w.casefold() for c, words in CATALOG.raw(language)["commands"].items() for w in [c, *words]}
        assert not khmer & other, language
    assert CATALOG.word_for("ខ្មៅ") == "black" and CATALOG.word_for("បូត") == "bot"


async def test_lang_km_and_the_names_of_khmer_switch_the_chat_to_khmer(chat):
    for words in ("lang km", "lang ខ្មែរ", "ភាសា km", "ភាសា ខ្មែរ", "lang khmer", "ภาษา เขมร", "言語 クメール語",
                  "/lang KM"):
        [reply] = await chat.ok("carol", words)
        assert reply.language == "km" and reply.text == CATALOG.text("km", "language_set"), words
        refused = await chat.refused("carol", "accept", "no_game")
        assert refused.language == "km" and refused.text == "ឆានែលនេះមិនទាន់មានល្បែងទេ។ ចាប់ផ្ដើមដោយ ថ្មី។"
        [back] = await chat.ok("carol", "ភាសា en")
        assert back.language == "en"
    await chat.refused("carol", "lang kh", "bad_language")


async def test_a_game_in_khmer_from_challenge_to_resignation(chat):
    await chat.ok("alice", "lang km")
    [challenge] = await chat.ok("alice", "ប្រជែង @bob ស 3d", "bob")
    assert challenge.language == "km" and "3 ថ្ងៃ" in challenge.text and "ខាងស" in challenge.text
    assert [a.label for a in challenge.actions] == ["ទទួល", "បដិសេធ"]
    await chat.ok("bob", "ទទួល")
    [moved] = await chat.ok("alice", "ដើរ e3e4")
    assert "alice បានដើរ e4។" in moved.text and "ដល់វេន bob (ខ្មៅ) ដើរ។" in moved.text
    [over] = await chat.ok("bob", "ចុះចាញ់")
    assert over.kind == "game_over" and "alice (ស) ឈ្នះ។" in over.text


async def test_help_lists_the_khmer_command_words(chat):
    await chat.ok("alice", "lang km")
    [reply] = await chat.ok("alice", "ជំនួយ")
    assert reply.text.startswith(CATALOG.text("km", "help.title"))
    assert "• new / ថ្មី / លេង: " in reply.text and "• lang / ភាសា: " in reply.text


def test_durations_and_deadlines_read_as_each_language_writes_them():
    present = Presenter(CATALOG)
    assert [present.duration("km", s) for s in (86400, 3 * 86400, 7200, 300)] == ["1 ថ្ងៃ", "3 ថ្ងៃ", "2 ម៉ោង",
                                                                                 "5 នាទី"]
    assert present.duration("en", 86400) == "1 day" and present.duration("en", 7200) == "2 hours"
    assert present.duration("th", 5400) == "90 นาที" and present.duration("km", 86400) == "1 ថ្ងៃ"
    moment = datetime(2025, 5, 1, 12, 30, tzinfo=UTC)
    assert present.when("km", moment) == "ថ្ងៃទី1 ខែឧសភា ម៉ោង 12:30 (UTC)"
    assert present.when("en", moment) == "1 May, 12:30 UTC"
    assert present.when("ja", moment) == "5月1日 12:30（UTC）"
    months = [CATALOG.text("km", f"time.month.{m}") for m in range(1, 13)]
    assert months[0] == "មករា" and months[11] == "ធ្នូ" and len(set(months)) == 12
    assert present.when("km", None) == "-"


def test_khmer_can_be_the_default_language_of_new_chats():
    settings = Settings.from_env({"BOT_LANGUAGE": "km", "LINE_LANGUAGE": "KM"}, None)
    assert settings.language == settings.line_language == "km"
