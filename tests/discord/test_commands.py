"""The application-command payload: localized in Thai and Japanese, valid for Discord, dumped offline."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import discord

from bot.adapters.discord import main as discord_main
from bot.adapters.discord.client import command_payload
from bot.config import Settings
from bot.services.presenter import HELP_COMMANDS

from .conftest import offline_bot
from .fakes import FakeDiscord
from .payloads import ALICE

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("th", "ja")
MANAGE_SERVER = discord.Permissions(manage_guild=True).value


def is_command_name(name: str) -> bool:
    """Discord's rule: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lower case where there is case."""
    def allowed(ch: str) -> bool:
        return (ch in "-_" or unicodedata.category(ch)[0] in "LN" or "\u0e00" <= ch <= "\u0e7f"
                or "\u0900" <= ch <= "\u097f")
    return 1 <= len(name) <= 32 and all(allowed(ch) for ch in name) and name == name.lower()


def walk(entries: list[dict], path: str = ""):
    """Every command, group and option with its path, and the list of its siblings."""
    for entry in entries:
        yield f"{path}/{entry['name']}", entry, entries
        yield from walk(entry.get("options") or [], f"{path}/{entry['name']}")


async def payload(service, settings, **options) -> list[dict]:
    async with offline_bot(service, settings, **options) as bot:
        return await command_payload(bot)


async def test_every_name_description_and_choice_has_thai_and_japanese(service, settings):
    commands = await payload(service, settings)
    assert [c["name"] for c in commands] == ["makruk", "makruk-server", "makruk-tournament"]
    played = {o["name"] for o in commands[0]["options"]}
    # lang and notation are server settings (see the next test); hint, review and the puzzles join the game's
    assert played == set(HELP_COMMANDS) - {"lang", "notation"} | {"hint", "review", "analyse", "puzzle", "giveup",
                                                                  "streak", "puzzletop"}
    seen = 0
    for path, entry, siblings in walk(commands):
        seen += 1
        for locale in LOCALES:
            name = entry["name_localizations"].get(locale)
            description = entry["description_localizations"].get(locale)
            assert name and description, (path, locale)
            assert is_command_name(name), (path, locale, name)
            assert 1 <= len(description) <= 100, (path, locale)
            assert [s["name_localizations"][locale] for s in siblings].count(name) == 1, (path, locale, name)
        assert is_command_name(entry["name"]) and 1 <= len(entry["description"]) <= 100, path
        for choice in entry.get("choices") or []:
            for locale in LOCALES:
                assert 1 <= len(choice["name_localizations"].get(locale, "")) <= 100, (path, choice, locale)
    assert seen == 4 + 39 + 40  # groups, commands, options


async def test_settings_need_manage_server_and_play_does_not(service, settings):
    play, server, tournament = await payload(service, settings)
    assert play["default_member_permissions"] is None and play["dm_permission"]
    assert server["default_member_permissions"] == MANAGE_SERVER and not server["dm_permission"]
    assert [o["name"] for o in server["options"]] == ["lang", "notation", "notices", "puzzle"]
    # anyone may run a tournament; the service tells organizers (their maker, or Manage Server) apart
    assert tournament["default_member_permissions"] is None and not tournament["dm_permission"]
    lang = next(o for o in server["options"] if o["name"] == "lang")
    # Khmer too, though Discord has no Khmer locale of its own: a server chooses it here.
    assert [c["value"] for c in lang["options"][0]["choices"]] == ["th", "en", "ja", "km"]


async def test_daily_puzzle_subscription_needs_manage_server(service, settings):
    async with offline_bot(service, settings) as bot:
        api = FakeDiscord(bot)
        api.install()
        server = (await command_payload(bot))[1]
        group = next(o for o in server["options"] if o["name"] == "puzzle")
        assert [o["name"] for o in group["options"]] == ["subscribe", "unsubscribe"]

        data = {"id": "1", "name": "makruk-server", "type": 1,
                "options": [{"type": 2, "name": "puzzle", "options": [{"type": 1, "name": "subscribe"}]}]}
        await api.dispatch(api.interaction(2, ALICE, data))
        assert api.sent[-1].ephemeral and "Manage Server" in api.sent[-1].text
        before = len(api.sent)
        await api.dispatch(api.interaction(2, ALICE, data, permissions=MANAGE_SERVER))
        assert len(api.sent) > before and "Manage Server" not in api.sent[-1].text  # the service answered


def run_bot(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DISCORD_TOKEN": ""}
    return subprocess.run([sys.executable, "-m", "bot", "discord", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=60)


def test_dump_commands_prints_the_localized_payload_without_a_token():
    done = run_bot("--dump-commands")
    assert done.returncode == 0, done.stderr
    commands = json.loads(done.stdout)
    makruk = commands[0]
    assert makruk["name_localizations"] == {"th": "หมากรุก", "ja": "マークルック"}
    new = next(o for o in makruk["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"th": "เริ่ม", "ja": "対局"}
    colour = next(o for o in new["options"] if o["name"] == "colour")
    assert {c["value"] for c in colour["choices"]} == {"white", "black", "random"}


def parse(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    discord_main.add_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["discord", *args])


async def test_running_without_a_token_explains_what_is_missing(capsys):
    assert await discord_main.main(Settings(discord_token=None), parse()) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err
    assert await discord_main.main(Settings(discord_token=None), parse("--sync")) == 2
    assert await discord_main.main(Settings(discord_token="x"), parse("--guild", "1")) == 2


def test_the_guide_gives_the_invite_permissions_the_bot_needs():
    needed = discord.Permissions(send_messages=True, embed_links=True, attach_files=True, read_message_history=True,
                                 create_public_threads=True, send_messages_in_threads=True)
    guide = (ROOT / "docs" / "discord.md").read_text("utf-8")
    assert f"permissions={needed.value}" in guide and "scope=bot+applications.commands" in guide
