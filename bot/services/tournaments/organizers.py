"""Who organizes an event, and where events are held (docs/tournaments.md 2.3).

The maker of an event organizes it, and on Discord anyone with Manage Server too (the door
sets ``Incoming.manager``). LINE tells bots nothing of a group's admins and the console has
one user per name, so there only the maker does. A weekly rota is replaced or stopped by its
maker (or a manager) only. A LINE 1:1 chat holds no event.
"""

from __future__ import annotations

from storage.records import Rota, Tournament

from ...messages import Incoming


def may_organize(event: Tournament, player_id: int, msg: Incoming) -> bool:
    """Whether the sender (``player_id``) may start, cancel or forbid pairs in ``event``."""
    return event.created_by == player_id or msg.manager


def is_group(msg: Incoming) -> bool:
    """Whether the chat can hold an event: anything but a LINE 1:1 chat (``user:U...``)."""
    return not (msg.platform == "line" and msg.channel.startswith("user:"))


def may_organize_rota(player_id: int, msg: Incoming) -> bool:
    """A rota is made by a server's managers on Discord; elsewhere by anyone in the group
    (its events are then organized by the rota's maker)."""
    return msg.manager or msg.platform != "discord"


def may_keep_rota(rota: Rota, player_id: int, msg: Incoming) -> bool:
    """Whether the sender may replace or stop ``rota``: its maker, or on Discord a server manager."""
    return rota.created_by == player_id or msg.manager


def may_read(event: Tournament, msg: Incoming) -> bool:
    """Whether ``tournament ID`` and ``export ID trf`` may show ``event`` here: in its own
    server or group (another community's players' names stay there)."""
    return event.platform == msg.platform and (event.community or event.channel) == (msg.community or msg.channel)


def chat_name(event: Tournament) -> str:
    """The chat an event is held in, as its platform's texts can name it (a Discord channel
    becomes a link to it)."""
    return f"<#{event.channel}>" if event.platform == "discord" else event.channel
