"""The service's replies as LINE messages: texts, a board picture (or tap-to-move imagemap), quick replies.

One LINE reply holds at most five messages, so all texts of one answer come first (merged when
there are too many) and then one picture: the last one, which shows the position as it is now.
Messages are the Messaging API's JSON objects, written here (see ``api.py`` for why).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from makruk import SQUARE_NAMES, parse_square, square_thai, to_arabic_digits
from renderers import size_for_width, square_box

from ...i18n import Catalog
from ...messages import Action, BoardView, Reply, User
from ...services.games import GameService, MoveChoice
from ..text import clip
from .api import Message
from .exports import TrfLinks
from .images import IMAGEMAP_BASE, ImageStore
from .pictures import in_deployment
from .standings import StandingsPictures

MAX_MESSAGES = 5
MAX_TEXT = 5000
MAX_QUICK_REPLIES = 13
MAX_LABEL = 20
MAX_ALT_TEXT = 400  # LINE allows 1500; notifications show far less
MAX_IMAGEMAP_ACTIONS = 50


@dataclass(frozen=True)
class Chat:
    """Where an answer goes: the service's channel key, and whether it is a 1:1 chat."""

    channel: str
    one_to_one: bool


class Composer:
    def __init__(self, games: GameService, images: ImageStore, catalog: Catalog,
                 board_link: Callable[[int], str | None] = lambda game_id: None,
                 standings: StandingsPictures | None = None, trf_links: TrfLinks | None = None) -> None:
        self.games = games
        self.images = images
        self.catalog = catalog
        # The game's web board opened inside LINE (the LIFF link), None without a LIFF app.
        self.board_link = board_link
        self.standings = standings
        self.trf_links = trf_links

    async def messages(self, replies: Sequence[Reply], chat: Chat, answered: User | None, *,
                       drawn: bool = False) -> list[Message]:
        """LINE messages for one answer (at most five). ``answered`` is the person who wrote, if any:
        when it is their move, the board comes as a tap-to-move imagemap. In a group, a tournament
        game's moves and result are one line each, without the board, unless the person asked
        for it (``drawn``: ``board``, ``flip``, a tap): the group is not flooded with pictures."""
        if not chat.one_to_one and not drawn:
            replies = [_one_line(reply) if _in_event(reply) else reply for reply in replies]
        replies = [self._linked(reply) for reply in replies]
        spoken = [reply for reply in replies if reply.text.strip()]
        pictured = next((r for r in reversed(replies) if r.board is not None or r.image is not None), None)
        board = await self._picture(pictured, chat, answered) if pictured is not None else self._standings(replies)
        room = MAX_MESSAGES - (board is not None)
        if len(spoken) <= room:
            messages = [self._text(reply, chat) for reply in spoken]
        else:
            messages = _merged([reply.text for reply in spoken], room)
        if board is not None:
            messages.append(board)
        if messages and replies:
            # A game being played or finished (its replay); a challenge has no board yet.
            game = next((r.game for r in reversed(replies) if r.game is not None and r.game.status != "challenge"),
                        None)
            quick = self.quick_reply(replies[-1].actions, replies[-1].language,
                                     board=None if game is None else self.board_link(game.id))
            if quick is not None:
                messages[-1]["quickReply"] = quick
        return messages

    def quick_reply(self, actions: Sequence[Action], language: str, *, board: str | None = None
                    ) -> dict[str, Any] | None:
        """The actions as quick-reply buttons that send their command; first, with ``board``, a
        button that opens the game's web board inside LINE (no message is sent for it)."""
        items: list[dict[str, Any]] = []
        if board is not None:
            label = clip(self.catalog.text(language, "line.web_board"), MAX_LABEL)
            items.append({"type": "action", "action": {"type": "uri", "label": label, "uri": board}})
        items += [
            {"type": "action", "action": {"type": "message", "label": clip(a.label, MAX_LABEL),
                                          "text": self.command_text(a.command, language)}}
            for a in actions[:MAX_QUICK_REPLIES - len(items)]
        ]
        return {"items": items} if items else None

    def command_text(self, command: str, language: str) -> str:
        """The command as the chat's language writes it (``resign`` -> ``ยอมแพ้``), if that word
        means the same command; what a button sends shows in the chat as the person's own message."""
        if " " in command:
            return command
        words = [w for w in self.catalog.command_names(language).get(command, []) if w != command]
        if language != "en" and words and self.catalog.command_for(words[0]) == command:
            return words[0]
        return command

    def _standings(self, replies: Sequence[Reply]) -> Message | None:
        """The standings picture a tournament notice names (``Reply.data["picture"]``), if any."""
        named = next(((r.language, (r.data or {}).get("picture")) for r in reversed(replies)
                      if isinstance((r.data or {}).get("picture"), dict)), None)
        if named is None or self.standings is None:
            return None
        language, picture = named
        assert isinstance(picture, dict)
        original, preview = self.standings.urls(int(picture["tournament"]), int(picture["round"]), language)
        return {"type": "image", "originalContentUrl": original, "previewImageUrl": preview}

    # --- texts ------------------------------------------------------------------------

    def _linked(self, reply: Reply) -> Reply:
        """An event's TRF file (``export ID trf``) too long for a message: a link to download it
        instead, since LINE attaches no files to messages."""
        tournament = (reply.data or {}).get("tournament")
        if reply.kind != "tournament_trf" or len(reply.text) <= MAX_TEXT or self.trf_links is None \
                or not isinstance(tournament, int):
            return reply
        text = self.catalog.text(reply.language, "line.trf.link", id=tournament, size=len(reply.text),
                                 url=self.trf_links.url(tournament))
        return dataclasses.replace(reply, text=text)

    def _text(self, reply: Reply, chat: Chat) -> Message:
        text = reply.text[:MAX_TEXT]
        mentions = [m for m in reply.mentions if m.id] if not chat.one_to_one else []
        if not mentions or "{" in text or "}" in text:
            return {"type": "text", "text": text}
        substitution = {}
        for i, user in enumerate(mentions[:20]):
            key = f"m{i}"
            placeholder = "{" + key + "}"
            # A round's notice names the players in the standings first: they are mentioned
            # where the pairings name them, last.
            at = (text.rfind if reply.kind == "tournament_pairings" else text.find)(user.name) if user.name else -1
            text = text[:at] + placeholder + text[at + len(user.name):] if at >= 0 else f"{placeholder} {text}"
            substitution[key] = {"type": "mention", "mentionee": {"type": "user", "userId": user.id}}
        return {"type": "textV2", "text": text[:MAX_TEXT], "substitution": substitution}

    # --- the picture ------------------------------------------------------------------

    async def _picture(self, reply: Reply, chat: Chat, answered: User | None) -> Message:
        view, language = reply.board, reply.language
        choices = await self._choices(reply, view, chat, answered) if view is not None else []
        if view is not None and choices:
            if view.selected is not None:
                areas = self._destination_areas(view, view.selected, choices, language)
                return self._imagemap(view, language, areas, "line.alt.targets")
            return self._imagemap(view, language, self._piece_areas(view, choices, language), "line.alt.pieces")
        if view is not None:  # drawn when LINE asks, by whichever process it reaches
            original, preview = self.images.picture(view)
        elif reply.image is not None and reply.image.startswith(b"GIF8"):  # a replay: LINE shows no GIF
            return {"type": "text", "text": await self.images.stored_replay(reply.image)}
        elif reply.image is not None:
            original, preview = await self.images.stored(reply.image)
        else:
            raise ValueError("a picture needs a board or a PNG")
        return {"type": "image", "originalContentUrl": original, "previewImageUrl": preview}

    async def _choices(self, reply: Reply, view: BoardView, chat: Chat, answered: User | None) -> list[MoveChoice]:
        """The moves the answered person may tap, if the board shows the game as it is and it is their turn."""
        game = reply.game
        if answered is None or game is None or game.status != "active" or game.to_move != answered.id:
            return []
        # Empty if someone moved meanwhile: a plain picture cannot mislead.
        return await self.games.move_choices("line", chat.channel, answered, fen=view.fen)

    def _piece_areas(self, view: BoardView, choices: list[MoveChoice], language: str) -> list[tuple[int, str]]:
        word = self.command_text("select", language)
        origins = sorted({c.from_square for c in choices})
        return [(sq, f"{word} {_square_text(sq, view.coords)}") for sq in origins]

    def _destination_areas(self, view: BoardView, square: str, choices: list[MoveChoice],
                           language: str) -> list[tuple[int, str]]:
        selected = parse_square(square)
        moves: dict[int, str] = {}
        for choice in choices:
            if "@" in choice.uci:
                continue  # a drop on the tapped square is offered as a quick reply, one per piece
            if choice.from_square == selected and (choice.to_square not in moves or choice.uci.endswith("m")):
                moves[choice.to_square] = choice.uci  # with optional promotion, a tap promotes
        areas = sorted(moves.items())
        # Tapping another piece of one's own picks that one instead.
        areas += [a for a in self._piece_areas(view, choices, language) if a[0] != selected and a[0] not in moves]
        return areas[:MAX_IMAGEMAP_ACTIONS]

    def _imagemap(self, view: BoardView, language: str, areas: list[tuple[int, str]], alt_key: str) -> Message:
        base_url = self.images.imagemap(view)
        # While pieces are in hand (Sittuyin) they stand right of the board, which is smaller.
        board_size = size_for_width(IMAGEMAP_BASE) if in_deployment(view) else IMAGEMAP_BASE
        actions = []
        for square, text in areas:
            left, top, right, bottom = square_box(square, board_size, view.flip)
            actions.append({"type": "message", "text": text,
                            "area": {"x": left, "y": top, "width": right - left, "height": bottom - top}})
        return {
            "type": "imagemap",
            "baseUrl": base_url,
            "altText": self.catalog.text(language, alt_key)[:MAX_ALT_TEXT],
            "baseSize": {"width": IMAGEMAP_BASE, "height": board_size},
            "actions": actions,
        }


def _square_text(square: int, coords: str) -> str:
    """``e3``, or ``จ3`` when the board is labelled in Thai (the service reads both)."""
    if coords == "thai":
        return to_arabic_digits(square_thai(square))
    return SQUARE_NAMES[square]


def _in_event(reply: Reply) -> bool:
    """A reply that shows a tournament game's position after a move (or its end)."""
    return reply.game is not None and reply.game.tournament is not None and reply.kind in ("game", "game_over")


def _one_line(reply: Reply) -> Reply:
    """The move, the game's state and the clocks in one line, and no picture."""
    line = " · ".join(part.strip() for part in reply.text.splitlines() if part.strip())
    return dataclasses.replace(reply, text=line, board=None, image=None)


def _merged(texts: list[str], room: int) -> list[Message]:
    """Texts merged into as few messages as their length allows, at most ``room``."""
    merged = "\n\n".join(texts)
    parts = [merged[i:i + MAX_TEXT] for i in range(0, len(merged), MAX_TEXT)][:room]
    return [{"type": "text", "text": part} for part in parts]
