"""Replies as Discord messages: an embed with the text, the board as ``board.png``, components.

The embed's description is the reply's text, its image ``attachment://board.png``, its footer
the game (number, players, move); the buttons come from ``Reply.actions`` (plus Flip under a
running game's board) and the piece select from the legal moves of the side to move.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from makruk import SQUARE_NAMES, square_thai

from ...i18n import Catalog
from ...messages import GameView, Reply
from ..text import clip
from . import views

if TYPE_CHECKING:
    from ...services.games import MoveChoice

BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"
STANDINGS_FILE = "standings.png"
PGN_FILE = "makruk.pgn"
TRF_FILE = "tournament.trf"
EMBED_LIMIT = 4096
CONTENT_LIMIT = 2000  # a message's text, where the mentions go
INLINE_LIMIT = 3800  # a PGN or TRF shown in the embed too (it is attached either way)
COLOURS = {
    "error": discord.Colour(0xC0392B),
    "challenge": discord.Colour(0xE0A526),
    "game": discord.Colour(0x2E8B57),
    "game_over": discord.Colour(0x5D6D7E),
}
QUIET = discord.AllowedMentions.none()


@dataclass
class Outgoing:
    """One Discord message, as keyword arguments for ``send``/``send_message``/``followup.send``."""

    content: str | None = None
    embed: discord.Embed | None = None
    file: discord.File | None = None
    view: discord.ui.View | None = None
    allowed_mentions: discord.AllowedMentions = field(default_factory=lambda: QUIET)
    # A channel post's nonce (not for interaction answers): with it discord.py sets
    # ``enforce_nonce``, so Discord makes one message for every post that repeats it.
    nonce: str | None = None

    def kwargs(self) -> dict:
        values = {"content": self.content, "embed": self.embed, "file": self.file, "view": self.view,
                  "nonce": self.nonce}
        return {"allowed_mentions": self.allowed_mentions, **{k: v for k, v in values.items() if v is not None}}


def role_of(reply: Reply) -> str | None:
    """The role a reply mentions (``data["role"]``, a role id), if it names a valid one."""
    role = (reply.data or {}).get("role")
    return str(role) if role is not None and str(role).isdigit() else None


def trf_file(reply: Reply) -> str:
    """The name of an event's TRF file: ``tournament-7.trf``."""
    tournament = (reply.data or {}).get("tournament")
    return f"tournament-{tournament}.trf" if isinstance(tournament, int) else TRF_FILE


class Renderer:
    def __init__(self, catalog: Catalog, *, web_board: bool = False) -> None:
        self.catalog = catalog
        self.web_board = web_board  # the bot serves the games' web boards (PUBLIC_BASE_URL and WEB_SECRET)

    def t(self, language: str, key: str, **fields: object) -> str:
        return self.catalog.text(language, key, **fields)

    def reply(self, reply: Reply, *, choices: Sequence[MoveChoice] = (), nonce: str | None = None) -> Outgoing:
        """The message for ``reply``; ``choices`` (the side to move's legal moves) fill the piece select."""
        embed = discord.Embed(description=clip(reply.text, EMBED_LIMIT), colour=COLOURS.get(reply.kind))
        out = Outgoing(embed=embed, nonce=nonce)
        if reply.kind == "export":
            out.file = discord.File(io.BytesIO(reply.text.encode("utf-8")), filename=PGN_FILE)
            embed.description = (f"```\n{reply.text}\n```" if len(reply.text) <= INLINE_LIMIT
                                 else self.t(reply.language, "discord.export.attached"))
        elif reply.kind == "tournament_trf":  # export ID trf: a file, whole, however big the event
            name = trf_file(reply)
            out.file = discord.File(io.BytesIO(reply.text.encode("utf-8")), filename=name)
            embed.description = (f"```\n{reply.text}\n```" if len(reply.text) <= INLINE_LIMIT
                                 else self.t(reply.language, "discord.trf.attached", file=name))
        if reply.image is not None:
            name = (REPLAY_FILE if reply.image.startswith(b"GIF8")  # export ID gif
                    else STANDINGS_FILE if reply.kind == "tournament_standings" else BOARD_FILE)
            out.file = discord.File(io.BytesIO(reply.image), filename=name)
            embed.set_image(url=f"attachment://{name}")
        if reply.game is not None:
            embed.set_footer(text=self.footer(reply.language, reply.game))
        role = role_of(reply)
        if reply.mentions or role is not None:
            pings = [f"<@&{role}>"] if role is not None else []
            mentioned = [u for u in reply.mentions if u.id.isdigit()]
            pings += [f"<@{user.id}>" for user in mentioned]
            while len(" ".join(pings)) > CONTENT_LIMIT:  # a big event's pairings: who fits is pinged
                pings.pop()
                mentioned.pop()
            out.content = " ".join(pings) or None
            users = [discord.Object(int(u.id)) for u in mentioned]
            # exactly the role the notice names (a tournament's reminders and pairings), no other
            roles: list[discord.abc.Snowflake] | bool = [discord.Object(int(role))] if role is not None else False
            out.allowed_mentions = discord.AllowedMentions(everyone=False, roles=roles, users=users)
        out.view = views.sendable(*self.controls(reply, choices))
        return out

    def picked(self, reply: Reply, square: str, choices: Sequence[MoveChoice]) -> Outgoing:
        """Tap-to-move, second step: the board with the piece's targets marked, and where it may go."""
        out = self.reply(reply)
        select = views.dest_select(square, choices, lambda c: f"{c.san} · {c.thai}",
                                   self.t(reply.language, "discord.dest.placeholder"))
        out.view = views.sendable(select) if select else None
        return out

    def note(self, language: str, key: str, **fields: object) -> Outgoing:
        """A short text of the adapter's own (a refusal, where the board went)."""
        return Outgoing(embed=discord.Embed(description=self.t(language, key, **fields), colour=COLOURS["error"]
                                            if key.startswith(("discord.error.", "error.")) else None))

    def footer(self, language: str, game: GameView) -> str:
        if game.status == "challenge":
            return self.t(language, "discord.footer.challenge", game=game.id)
        if game.status == "active":
            return self.t(language, "discord.footer.active", game=game.id, white=game.white, black=game.black,
                          number=game.ply // 2 + 1)
        return self.t(language, "discord.footer.over", game=game.id, white=game.white, black=game.black,
                      result=game.result or "-")

    def controls(self, reply: Reply, choices: Sequence[MoveChoice]) -> list[discord.ui.Item]:
        language = reply.language
        items: list[discord.ui.Item] = []
        if choices:
            thai = reply.board is not None and reply.board.coords == "thai"

            def label(piece: str, square: int, moves: Sequence[MoveChoice]) -> tuple[str, str]:
                name = self.t(language, f"discord.piece.{piece}")
                where = square_thai(square) if thai else SQUARE_NAMES[square]
                notation = ", ".join(m.thai if language == "th" else m.san for m in moves)
                if "@" in moves[0].uci:  # Sittuyin's deployment: a square to place a piece from the hand on
                    return self.t(language, "discord.pick.drop", square=where), notation
                return self.t(language, "discord.pick.option", piece=name, square=where), notation

            select = views.piece_select(choices, label, self.t(language, "discord.pick.placeholder"))
            if select is not None:
                items.append(select)
        actions = [(a.command, a.label) for a in reply.actions]
        if reply.board is not None and reply.game is not None and reply.game.status == "active":
            actions.append(("flip", self.t(language, "discord.button.flip")))
        items += views.action_buttons(actions)
        if self.web_board and reply.game is not None and reply.game.status != "challenge" and not reply.private:
            items.append(views.WebBoardButton(reply.game.id, self.t(language, "discord.button.web")))
        return items
