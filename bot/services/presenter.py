"""Turns game states into localized replies: text, board image, suggested actions, game view."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from makruk import SQUARE_NAMES, Board, Move
from makruk.types import DROP_LETTERS
from storage.records import ChannelSettings, ClockState, Color, Game, Player

from ..i18n import Catalog
from ..messages import Action, BoardView, GameView, Reply, User
from .clock_text import clock_line, control_text, duration_text
from .notation import move_text

log = logging.getLogger(__name__)

HELP_COMMANDS = ("new", "accept", "decline", "move", "board", "flip", "resign", "draw", "count", "stopcount",
                 "undo", "setup", "history", "export", "games", "lang", "notation", "rating", "top", "help")
# Shown in help after the game's commands; the Discord door has slash commands for these too.
MORE_HELP = ("hint", "review", "analyse", "puzzle", "puzzlerating", "giveup", "streak", "puzzletop", "subscribe",
             "unsubscribe", "notices")
# Shown last, and again by ``tournament help`` with the words after ``tournament``.
TOURNAMENT_HELP = ("tournament", "join", "withdraw", "pairings", "standings", "berserk")
IMAGE_SIZE = 800
RESULT_KEYS = {"1-0": "result.white", "0-1": "result.black", "1/2-1/2": "result.draw"}
Render = Callable[[BoardView], "bytes | None"]  # draws a board picture (None: replies carry no image)


class Presenter:
    def __init__(self, catalog: Catalog, render: Render | None = None) -> None:
        self.catalog = catalog
        self._render = render

    def t(self, language: str, key: str, **fields: object) -> str:
        return self.catalog.text(language, key, **fields)

    # --- simple replies ---------------------------------------------------------------

    def error(self, language: str, code: str, *, private: bool = True, **fields: object) -> Reply:
        key = f"error.{code}"
        if not self.catalog.has(key):
            key = "error.illegal.other" if code.startswith("illegal.") else "error.internal"
        return Reply(kind="error", text=self.t(language, key, **fields), language=language, error=code, private=private)

    def info(self, language: str, key: str, *, kind: str = "info", **fields: object) -> Reply:
        return Reply(kind=kind, text=self.t(language, key, **fields), language=language)

    def help(self, language: str) -> Reply:
        lines = [self.t(language, "help.title")]
        lines += [self._help_line(language, command) for command in HELP_COMMANDS + MORE_HELP]
        lines.append(self.t(language, "help.moves"))
        lines.append(self.t(language, "help.live"))
        lines.append(self.t(language, "help.tournaments.title"))
        lines += [self._help_line(language, command) for command in TOURNAMENT_HELP]
        return Reply(kind="help", text="\n".join(lines), language=language)

    def tournament_help(self, language: str) -> Reply:
        """``tournament help``: the tournament commands and every word after ``tournament``."""
        lines = [self.t(language, "help.tournaments.title")]
        lines += [self._help_line(language, command) for command in TOURNAMENT_HELP]
        lines.append(self.t(language, "help.tournament.usage"))
        return Reply(kind="help", text="\n".join(lines), language=language)

    def _help_line(self, language: str, command: str) -> str:
        """``• command / its words: what it does``, in ``language``."""
        words = [command] + [w for w in self.catalog.command_names(language).get(command, []) if w != command]
        return f"• {' / '.join(words[:3])}: {self.t(language, f'help.{command}')}"

    def when(self, language: str, moment: datetime | None) -> str:
        """A deadline (UTC, at most days ahead, so without its year) as the language writes dates."""
        if moment is None:
            return "-"
        return self.t(language, "time.deadline", day=moment.day, month=self.t(language, f"time.month.{moment.month}"),
                      time=moment.strftime("%H:%M"))

    def duration(self, language: str, seconds: int) -> str:
        """A time per move in the largest whole unit: ``1 day``, ``1 ថ្ងៃ``, ``90 นาที``.

        Numbers are Western digits in every language, Khmer too (its CLDR default): moves,
        ratings and times are typed with them.
        """
        return duration_text(lambda key, **fields: self.t(language, key, **fields), seconds)

    def challenge(self, language: str, game: Game, names: dict[str, str], opponent: Player | None) -> Reply:
        side = "w" if game.white is not None and game.white.player_id == game.created_by else "b"
        challenger, colour = names[side], self.t(language, f"colour.{side}")
        if opponent is not None:
            text = self.t(language, "challenge.to", challenger=challenger, opponent=opponent.display_name,
                          colour=colour)
        else:
            text = self.t(language, "challenge.open", challenger=challenger, colour=colour)
        rules = {"promotion": self.t(language, f"promotion.{game.promotion}"),
                 "perpetual": self.t(language, f"perpetual.{game.perpetual}")}
        if game.time_control is None:
            text += "\n" + self.t(language, "challenge.rules", time=self.duration(language, game.move_seconds), **rules)
        else:
            control = control_text(lambda key, **fields: self.t(language, key, **fields), game.time_control)
            text += "\n" + self.t(language, "clock.rules", control=control, **rules)
        actions = (Action("accept", self.t(language, "action.accept")),
                   Action("decline", self.t(language, "action.decline")))
        if game.variant != "makruk":
            text += "\n" + self.t(language, "challenge.variant", variant=self.t(language, f"variant.{game.variant}"))
        view = GameView(game.id, game.start_fen, "w", 0, None, None, names["w"], names["b"], status="challenge",
                        variant=game.variant)
        return Reply(kind="challenge", text=text, language=language, actions=actions, game=view)

    # --- game replies -----------------------------------------------------------------

    def game(self, language: str, game: Game, board: Board, names: dict[str, str], event: str, *,
             last: Move | None, flip: bool, settings: ChannelSettings, actor: User,
             selected: int | None = None, clocks: ClockState | None = None) -> Reply:
        """The reply that shows ``game`` after ``event``; a live game's ``clocks`` (at the
        moment of the reply) in its text and under its picture."""
        lines = []
        to_move: Color = "w" if board.turn else "b"
        mover = "b" if board.turn else "w"
        if event == "moved" and last is not None:
            board.pop()
            notation = move_text(language, board, last, settings.notation)
            board.push(last)
            lines.append(self.t(language, "game.moved", name=names[mover], move=notation))
        elif event == "selected":
            lines.append(self.t(language, "game.selected", count=len(board_targets(board, selected))))
        elif event in ("game_started", "count_declared", "count_stopped", "draw_offered", "undo_asked", "undone"):
            lines.append(self._event_text(language, event, game, board, names, actor))
        lines.append(self._status(language, game, board, names))
        clock = None if clocks is None else clock_line(lambda key, **fields: self.t(language, key, **fields),
                                                       clocks, names)
        lines.append(clock or "")
        view = GameView(game.id, board.fen(), to_move, board.ply, game.result, game.reason, names["w"], names["b"],
                        status=game.status, variant=game.variant, tournament=game.tournament_id,
                        clocks=None if clocks is None else (clocks.white_ms, clocks.black_ms, clocks.running))
        board_view = BoardView(
            fen=board.fen(),
            flip=self._orientation(game, board, settings) != flip,
            last_move=last.uci() if last else None,
            coords=settings.coordinates or ("thai" if language == "th" else "latin"),
            selected=SQUARE_NAMES[selected] if selected is not None else None,
            targets=tuple(SQUARE_NAMES[m.to_square] for m in board.legal_moves() if m.from_square == selected)
            if selected is not None else (),
            variant=game.variant,
            clocks=clock,
        )
        return Reply(
            kind="game" if game.status == "active" else "game_over",
            text="\n".join(line for line in lines if line),
            language=language,
            board=board_view,
            actions=(self._drops_on(language, board, selected, settings.notation)
                     + self._actions(language, game, board)) if game.status == "active" else (),
            game=view,
        )

    def _drops_on(self, language: str, board: Board, selected: int | None,
                  notation: str | None) -> tuple[Action, ...]:
        """Tap-to-move in Sittuyin's deployment: a tapped square offers each piece that may go there."""
        if selected is None:
            return ()
        return tuple(Action(m.uci(), move_text(language, board, m, notation))
                     for m in board.legal_moves() if m.drop and m.to_square == selected)

    def _event_text(self, language, event, game, board, names, actor) -> str:
        if event == "game_started":
            return self.t(language, "game.started", white=names["w"], black=names["b"])
        if event == "count_declared":
            count = board.count
            if count is None:
                return ""
            side = "w" if count.side else "b"
            other = "b" if count.side else "w"
            return self.t(language, f"count.declared.{count.kind}", name=names[side], other=names[other],
                          limit=count.limit)
        if event == "count_stopped":
            return self.t(language, "count.stopped", name=actor.name)
        if event == "draw_offered":
            return self.t(language, "draw.offered", name=actor.name)
        if event == "undo_asked":
            return self.t(language, "undo.asked", name=actor.name)
        return self.t(language, "undo.done")

    def _status(self, language: str, game: Game, board: Board, names: dict[str, str]) -> str:
        if game.status == "aborted" and game.reason == "first_move":  # a live game's first move not made
            return self.t(language, f"reason.{game.reason}", name=names["w" if board.turn else "b"])
        if game.status == "aborted" and game.reason == "double_forfeit":  # a tournament game neither player came to
            return self.t(language, "reason.double_forfeit", white=names["w"], black=names["b"])
        if game.status == "finished":
            result = RESULT_KEYS[game.result or "1/2-1/2"]
            return self.t(language, result, white=names["w"], black=names["b"]) + " " + \
                self.t(language, f"reason.{game.reason}")
        to_move = "w" if board.turn else "b"
        parts = []
        if game.variant != "makruk":  # the header names any other member of the family
            parts.append(self.t(language, "game.variant", variant=self.t(language, f"variant.{game.variant}")))
        colour = self.t(language, f"colour.{to_move}")
        parts.append(self.t(language, "game.to_move", name=names[to_move], colour=colour))
        if board.in_deployment():
            parts.append(self.t(language, "game.in_hand", white=_hand(board, True), black=_hand(board, False)))
            if _person_places(game, board):
                parts.append(self.t(language, "game.deploy"))
        if board.is_check():
            parts.append(self.t(language, "game.check"))
        if board.count is not None:
            parts.append(self.t(language, "count.status", done=board.count.done, limit=board.count.limit))
        if game.draw_offer:
            parts.append(self.t(language, "draw.pending", name=names[game.draw_offer]))
        if game.takeback_offer:
            parts.append(self.t(language, "undo.pending", name=names[game.takeback_offer]))
        return " ".join(parts)

    def _orientation(self, game: Game, board: Board, settings: ChannelSettings) -> bool:
        """Whether the board is shown from Black's side by default."""
        if settings.orientation in ("white", "black"):
            return settings.orientation == "black"
        for color in ("w", "b"):
            seat = game.seat(color)
            if seat is not None and seat.is_engine:
                return color == "w"  # against the bot, always the person's side
        return not board.turn  # otherwise the side to move

    def _actions(self, language: str, game: Game, board: Board) -> tuple[Action, ...]:
        actions = [Action("board", self.t(language, "action.board"))]
        if _person_places(game, board):
            actions.append(Action("setup", self.t(language, "action.setup")))
        if board.can_declare_count():
            actions.append(Action("count", self.t(language, "action.count")))
        if board.can_stop_count():
            actions.append(Action("stopcount", self.t(language, "action.stopcount")))
        actions += [
            Action("draw", self.t(language, "action.draw")),
            Action("undo", self.t(language, "action.undo")),
            Action("resign", self.t(language, "action.resign")),
        ]
        return tuple(actions)

    def replay(self, game: Game, *, flip: bool = False, coords: str = "latin") -> bytes | None:
        """The game as a looping GIF (None where the renderers are not installed)."""
        try:
            from renderers import render_gif
        except ImportError:
            log.warning("renderers are not available; no replay")
            return None
        return render_gif(game.start_fen, [m.uci for m in game.moves], variant=game.variant, flip=flip,
                          coords=coords)

    def render(self, view: BoardView) -> bytes | None:
        if self._render is None:
            try:
                from renderers import render_board
            except ImportError:
                log.warning("renderers are not available; replies carry no image")
                self._render = lambda view: None
            else:
                def render_view(view: BoardView) -> bytes:
                    return render_board(view.fen, variant=view.variant, size=IMAGE_SIZE, flip=view.flip,
                                        last_move=view.last_move, coords=view.coords, selected=view.selected,
                                        targets=view.targets, arrows=view.arrows, caption=view.clocks)
                self._render = render_view
        return self._render(view)


def board_targets(board: Board, square: int | None) -> set[int]:
    return {m.to_square for m in board.legal_moves() if m.from_square == square}


def _person_places(game: Game, board: Board) -> bool:
    """A person is to place a piece from the hand (Sittuyin's deployment; the bot places its own)."""
    seat = game.seat("w" if board.turn else "b")
    return bool(board.pocket(board.turn)) and not (seat is not None and seat.is_engine)


def _hand(board: Board, color: bool) -> str:
    """The pieces ``color`` holds, by the letters drops are written with: ``K F R×2 S×2 N×2``."""
    held = [DROP_LETTERS[kind] + (f"×{n}" if n > 1 else "") for kind, n in board.pocket(color).items()]
    return " ".join(held) or "-"
