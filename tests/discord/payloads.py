"""The people, ids and payloads of Discord's objects that the fake (``fakes.py``) and the tests
build: users and members, channels, threads and direct messages, a slash command's options.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 900000000000000003
CHANNEL_ID = 900000000000000004
COMMAND_ID = 900000000000000005
TIMESTAMP = "2026-01-01T00:00:00+00:00"
EPHEMERAL = 64
ALL_PERMISSIONS = discord.Permissions.all().value
MEMBER_PERMISSIONS = discord.Permissions(send_messages=True, read_message_history=True, view_channel=True,
                                         use_application_commands=True).value
BOT_PERMISSIONS = discord.Permissions(send_messages=True, embed_links=True, attach_files=True,
                                      create_public_threads=True, send_messages_in_threads=True,
                                      read_message_history=True, view_channel=True).value


@dataclass(frozen=True)
class Person:
    id: int
    name: str

    def user(self) -> dict:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "avatar": None,
                "global_name": self.name}

    def member(self, permissions: int = MEMBER_PERMISSIONS, *, with_user: bool = True) -> dict:
        data = {"roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0, "nick": None,
                "avatar": None, "premium_since": None, "pending": False, "permissions": str(permissions),
                "communication_disabled_until": None}
        if with_user:
            data["user"] = self.user()
        return data


ALICE = Person(700000000000000001, "alice")
BOB = Person(700000000000000002, "bob")
CAROL = Person(700000000000000003, "carol")
MAKRUK = Person(BOT_ID, "Makruk")


def text_channel(channel_id: int, name: str = "makruk") -> dict:
    return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID), "name": name, "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}


def thread_channel(thread_id: int, parent_id: int, name: str, owner_id: int = BOT_ID) -> dict:
    return {"id": str(thread_id), "type": 11, "guild_id": str(GUILD_ID), "parent_id": str(parent_id),
            "owner_id": str(owner_id), "name": name, "last_message_id": None, "rate_limit_per_user": 0,
            "message_count": 0, "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "archive_timestamp": TIMESTAMP,
                                "locked": False}}


def dm_channel(person: Person) -> dict:
    return {"id": str(person.id + 1), "type": 1, "recipients": [person.user()], "last_message_id": None,
            "flags": 0}


@dataclass(frozen=True)
class Attachment:
    """A file given to an attachment option (``FakeDiscord.attachment``)."""

    id: int
    filename: str
    content: bytes

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/attachments/{CHANNEL_ID}/{self.id}/{self.filename}"

    def data(self) -> dict:
        return {"id": str(self.id), "filename": self.filename, "size": len(self.content), "url": self.url,
                "proxy_url": self.url}


def command_options(options: dict[str, Any]) -> tuple[list[dict], dict]:
    data: list[dict] = []
    resolved: dict[str, dict[str, dict]] = {}
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, Attachment):
            data.append({"type": 11, "name": name, "value": str(value.id)})
            resolved.setdefault("attachments", {})[str(value.id)] = value.data()
        elif isinstance(value, Person):
            data.append({"type": 6, "name": name, "value": str(value.id)})
            resolved.setdefault("users", {})[str(value.id)] = value.user()
            resolved.setdefault("members", {})[str(value.id)] = value.member(with_user=False)
        elif isinstance(value, bool):
            data.append({"type": 5, "name": name, "value": value})
        elif isinstance(value, int):
            data.append({"type": 4, "name": name, "value": value})
        else:
            data.append({"type": 3, "name": name, "value": value})
    return data, resolved
