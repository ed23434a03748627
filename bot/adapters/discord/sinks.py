"""Where an answer goes: ``Responder`` answers an interaction, ``MessageSink`` a text message.

Both show a rendered ``Outgoing`` publicly or (where Discord can) to the user only, say whether
a game thread may be opened where the user spoke, and close the answer when it is complete.
"""

from __future__ import annotations

from typing import Protocol

import discord

from .permissions import may_open_threads
from .render import Outgoing


class Sink(Protocol):
    @property
    def channel(self) -> object:
        """The Discord channel the user spoke in (for the service's channel key and game threads)."""

    @property
    def channel_id(self) -> int | None: ...

    def may_create_threads(self) -> bool: ...

    async def send(self, out: Outgoing, *, private: bool) -> discord.Message | None: ...

    async def close(self, pointer: Outgoing | None) -> None:
        """After the replies: ``pointer`` (where the board went) if nothing was said here."""


class Responder:
    """Answers one interaction, publicly or to the user only, whatever state it is in.

    A component is deferred silently, so each answer is a new message with its own visibility.
    A slash command can only be deferred with a "thinking…" message whose visibility is fixed:
    the first answer of that visibility replaces it; if the first answer has the other one, the
    thinking message is deleted first and the answer follows as a new message.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self._thinking: bool | None = None  # a thinking message waits; True if it is private
        self._spoke = False

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Responder:
        """The interaction's responder (one per interaction: it knows what was already said)."""
        responder: Responder = interaction.extras.setdefault("makruk.responder", cls(interaction))
        return responder

    @property
    def channel(self) -> object:
        return self.interaction.channel

    @property
    def channel_id(self) -> int | None:
        return self.interaction.channel_id

    def may_create_threads(self) -> bool:
        return may_open_threads(self.interaction.app_permissions)

    async def defer(self, *, private: bool = False) -> None:
        response = self.interaction.response
        if response.is_done():
            return
        if self.interaction.type is discord.InteractionType.component and not private:
            await response.defer()
        else:
            await response.defer(thinking=True, ephemeral=private)
            self._thinking = private

    async def send(self, out: Outgoing, *, private: bool) -> discord.Message | None:
        self._spoke = True
        response = self.interaction.response
        if not response.is_done():
            callback = await response.send_message(ephemeral=private, **out.kwargs())
            return callback.resource if isinstance(callback.resource, discord.Message) else None
        if self._thinking is not None and self._thinking != private:
            await self.interaction.delete_original_response()
        self._thinking = None
        return await self.interaction.followup.send(ephemeral=private, wait=True, **out.kwargs())

    async def clear_components(self) -> None:
        """Takes the components off the message the user clicked."""
        if self.interaction.message is not None:
            await self.interaction.edit_original_response(view=None)

    async def close(self, pointer: Outgoing | None) -> None:
        """After the replies: where the board went, if nothing was said here; no hanging "thinking…"."""
        if not self._spoke and pointer is not None:
            await self.send(pointer, private=True)
        elif self._thinking is not None:
            await self.interaction.delete_original_response()
            self._thinking = None


class MessageSink:
    """Answers a text message in its channel (Discord has no private answers to plain messages)."""

    def __init__(self, message: discord.Message) -> None:
        self.message = message
        self._spoke = False

    @property
    def channel(self) -> object:
        return self.message.channel

    @property
    def channel_id(self) -> int | None:
        return self.message.channel.id

    def may_create_threads(self) -> bool:
        guild, channel = self.message.guild, self.message.channel
        if guild is None or guild.me is None or not isinstance(channel, (discord.abc.GuildChannel, discord.Thread)):
            return guild is not None  # unknown here: try, and fall back if Discord refuses
        return may_open_threads(channel.permissions_for(guild.me))

    async def send(self, out: Outgoing, *, private: bool) -> discord.Message:
        first = not self._spoke
        self._spoke = True
        if first:  # a reply; a plain message if the user deleted theirs meanwhile
            reference = self.message.to_reference(fail_if_not_exists=False)
            return await self.message.channel.send(reference=reference, **out.kwargs())
        return await self.message.channel.send(**out.kwargs())

    async def close(self, pointer: Outgoing | None) -> None:
        if not self._spoke and pointer is not None:
            await self.send(pointer, private=True)
