"""Buttons and selects under the bot's messages, with stable ``custom_id``s.

Every component is a ``DynamicItem`` whose ``custom_id`` says everything needed to act on it;
the game comes from the interaction's channel. The classes are registered once at start-up
(``bot.add_dynamic_items(*DYNAMIC_ITEMS)``), so components on messages sent before a restart
keep working:

    makruk:btn:<command>    a button that sends ``<command>`` (resign, draw, flip, count, accept, ...)
    makruk:pick:piece       the select of the pieces that can move (value: the piece's square)
    makruk:dest:<square>    the select of where the piece on <square> may go (value: the move in UCI)
    makruk:web:<game>       the game's web board: a link for the presser alone (see Door.web_board)

Views are only containers for sending: they are stopped before they are sent, so discord.py
keeps no per-message state (whose timeout would unregister the dynamic items).

>>> BUTTON_ID.fullmatch("makruk:btn:resign")["command"]
'resign'
>>> DEST_ID.fullmatch("makruk:dest:b1")["square"]
'b1'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import discord

from makruk import SQUARE_NAMES

if TYPE_CHECKING:
    from ...services.games import MoveChoice
    from .door import Door

# Commands a button may send, with its style; the service decides whether each is allowed now.
BUTTON_STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "board": discord.ButtonStyle.secondary,
    "flip": discord.ButtonStyle.secondary,
    "count": discord.ButtonStyle.primary,
    "stopcount": discord.ButtonStyle.primary,
    "draw": discord.ButtonStyle.secondary,
    "undo": discord.ButtonStyle.secondary,
    "setup": discord.ButtonStyle.primary,
    "resign": discord.ButtonStyle.danger,
}
LOOK_COMMANDS = frozenset({"board", "flip"})  # answered to the presser only: no channel spam
MAX_OPTIONS = 25  # Discord's limit for one select
BUTTON_ROWS = (1, 2)  # row 0 holds the piece select

# (piece, square, its moves) -> the option's label and description
PieceLabel = Callable[[str, int, Sequence["MoveChoice"]], tuple[str, str]]

BUTTON_ID = re.compile(rf"makruk:btn:(?P<command>{'|'.join(BUTTON_STYLES)})")
PIECE_ID = re.compile(r"makruk:pick:piece")
DEST_ID = re.compile(r"makruk:dest:(?P<square>[a-h][1-8])")
WEB_ID = re.compile(r"makruk:web:(?P<game>\d{1,18})")
WEB_ROW = 3  # below the action buttons


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_ID):
    def __init__(self, command: str, label: str, *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=BUTTON_STYLES[command],
                                           custom_id=f"makruk:btn:{command}"), row=row)
        self.command = command

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["command"], label or match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        door = _door(interaction)
        await door.guarded(interaction, door.press(interaction, self.command))


class PieceSelect(discord.ui.DynamicItem[discord.ui.Select], template=PIECE_ID):
    def __init__(self, options: Sequence[discord.SelectOption] = (), placeholder: str | None = None,
                 *, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id="makruk:pick:piece", placeholder=placeholder,
                                           options=list(options)[:MAX_OPTIONS]), row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PieceSelect:
        return cls(*_select_options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        door = _door(interaction)
        await door.guarded(interaction, door.pick(interaction, self.item.values[0]))


class DestSelect(discord.ui.DynamicItem[discord.ui.Select], template=DEST_ID):
    def __init__(self, square: str, options: Sequence[discord.SelectOption] = (), placeholder: str | None = None,
                 *, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"makruk:dest:{square}", placeholder=placeholder,
                                           options=list(options)[:MAX_OPTIONS]), row=row)
        self.square = square

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DestSelect:
        return cls(match["square"], *_select_options(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        door = _door(interaction)
        await door.guarded(interaction, door.play(interaction, self.item.values[0]))


class WebBoardButton(discord.ui.DynamicItem[discord.ui.Button], template=WEB_ID):
    """Opens the game's web board: each presser gets a link of their own, signed for them."""

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary,
                                           custom_id=f"makruk:web:{game_id}"), row=WEB_ROW)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> WebBoardButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), label or "web")

    async def callback(self, interaction: discord.Interaction) -> None:
        door = _door(interaction)
        await door.guarded(interaction, door.web_board(interaction, self.game_id))


DYNAMIC_ITEMS = (ActionButton, PieceSelect, DestSelect, WebBoardButton)


@runtime_checkable
class HasDoor(Protocol):
    """What a component needs of the client it reaches: the door (``MakrukBot.door``). The
    client builds on this module, so this module knows it only by that."""

    door: Door


def _door(interaction: discord.Interaction) -> Door:
    if not isinstance(interaction.client, HasDoor):
        raise TypeError(f"a Makruk component reached {type(interaction.client).__name__}, not the Makruk bot")
    return interaction.client.door


def _select_options(item: discord.ui.Item[Any]) -> tuple[list[discord.SelectOption], str | None]:
    """The options and placeholder of a select Discord sent back."""
    if isinstance(item, discord.ui.Select):
        return item.options, item.placeholder
    return [], None


def sendable(*items: discord.ui.Item) -> discord.ui.View | None:
    """A view holding ``items``, already stopped (see the module's docstring); None if empty."""
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def action_buttons(actions: Sequence[tuple[str, str]]) -> list[ActionButton]:
    """Buttons for ``(command, label)`` pairs, five to a row below the piece select."""
    known = [(command, label) for command, label in actions if command in BUTTON_STYLES]
    return [ActionButton(command, label, row=BUTTON_ROWS[min(i // 5, len(BUTTON_ROWS) - 1)])
            for i, (command, label) in enumerate(known[:5 * len(BUTTON_ROWS)])]


def piece_select(choices: Sequence[MoveChoice], label: PieceLabel, placeholder: str) -> PieceSelect | None:
    """The pieces that can move, one option per square; ``label(piece, square, moves)`` names one.
    A side has at most 16 pieces, so they always fit in one select."""
    by_square: dict[int, list[MoveChoice]] = {}
    for choice in choices:
        by_square.setdefault(choice.from_square, []).append(choice)
    if not by_square:
        return None
    options = []
    for square, moves in sorted(by_square.items()):
        name, description = label(moves[0].piece, square, moves)
        options.append(discord.SelectOption(label=name[:100], value=SQUARE_NAMES[square],
                                            description=description[:100] or None))
    return PieceSelect(options, placeholder[:150], row=0)


def dest_select(square: str, choices: Sequence[MoveChoice], label: Callable[[MoveChoice], str],
                placeholder: str) -> DestSelect | None:
    """Where the piece on ``square`` may go; ``label(choice)`` names a move. Values are UCI."""
    options = [discord.SelectOption(label=label(c)[:100], value=c.uci, description=c.uci)
               for c in choices if SQUARE_NAMES[c.from_square] == square]
    if not options:
        return None
    return DestSelect(square, options, placeholder[:150], row=0)

