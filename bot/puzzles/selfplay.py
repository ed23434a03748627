"""Candidate positions for puzzles: Fairy-Stockfish's games against itself at mixed levels.

After a few random plies a strong side (``play_nodes`` a move) plays a weak one (``weak_nodes``,
now and then its second or third choice), so games end in mates and blunders. Every move is
replayed by the project's rules (one they refuse gives way to the engine's next choice; none
left ends the game). The game's own MultiPV 3 search is the cheap screen: a position is a
candidate when the side to move sees a short mate that its second choice does not match, or a
clear gain it is not already ahead by, the second choice clearly worse, and which it was not
already winning clearly before the opponent's move (far ahead, a side nearly always has a
second, slower mate). Sittuyin's positions count only once both armies are deployed.

Most of a game's middlegame positions hold no tactic, and the weak side's own mistakes come
seldom. So at each position not yet decided, ``blunders`` legal moves the search does not rank
among its best are tried off the line (the game goes on along its own moves), and the position
after each is screened like one of the game's, from a search of ``blunder_nodes``: a blunder's
punishment, as the puzzles of real games are (the yield with and without: docs/puzzles.md).
A quick probe first (``probe_nodes``; 0 turns it off) passes over most of them: they lose too
little, or another move punishes them as well. A game offers a shot once: a candidate whose
best move (the piece and its move) one of the game's earlier candidates had is passed over (the
next plies' blunders often leave the same).

Where a count could matter (no Bia on the board, and a side with fewer than three pieces), every
position where the side to move sees a short mate is a candidate, under the count that leaves
exactly that mate's moves (``counting``): a counting race, the games' mating phase. A game ends
when the engine has seen a draw for ``drawn_plies`` plies in a row without a Bia on the board
(a count or too little material).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass

from makruk import Board, Move, starting_fen
from makruk.counting import has_unpromoted_bia

from ..engines import EnginePosition, InfoLine, SyncUciEngine
from .acceptance import MARGIN, MARGIN_MATE, MAX_SOLVER_MOVES, win_chance
from .counting import counted
from .verify import count_cannot_matter

log = logging.getLogger(__name__)

PLAY_SECONDS = 30.0
PROBE_NODES = 2_000  # the probe's budget (``PlaySettings.probe_nodes``)


@dataclass(frozen=True)
class PlaySettings:
    play_nodes: tuple[int, int] = (1500, 6000)  # the stronger side's budget per move
    weak_nodes: tuple[int, int] = (100, 700)  # the weaker side's: games must end in mates and blunders
    random_plies: tuple[int, int] = (2, 10)
    margin_cp: int = 40  # the strong side picks among moves this close to its best
    wild_rate: float = 0.12  # the weak side's share of second or third choices
    max_plies: int = 200
    min_win_cp: int = 200  # a material candidate's score at least
    # The win chance the side to move had before the opponent's move, at most (about +1,000
    # and +270 cp in Makruk): far ahead, a side has many ways to mate or win.
    max_before_mate: float = 0.6
    max_before_material: float = 0.2
    drawn_plies: int = 12  # plies in a row seen drawn without a Bia that end a game
    blunders: int = 3  # moves off the line tried at each position not yet decided
    blunder_nodes: int = 12_000  # the screen's budget after each
    # A first look after each blunder (MultiPV 2; 0: none), a sixth of a screen: the screen
    # follows only where the punisher sees a mate or ``probe_cp``, its second move at least
    # ``probe_gap`` behind. It passed 14% of the blunders and 78 of 84 candidates, and 199 of
    # the 218 bank puzzles found without it: twice the candidates per CPU for a tenth of the
    # puzzles. (Two end-to-end runs whose games parted said otherwise: docs/puzzles.md.)
    probe_nodes: int = PROBE_NODES
    probe_cp: int = 150
    probe_gap: float = 0.1
    # Without races a game ends once the side to move sees this win chance either way (about
    # +1,700 cp in Makruk): in 45 Makruk games no other candidate came after it, 17% of the CPU.
    decided: float = 0.85


def candidates(engine: SyncUciEngine, variant: str, rng: random.Random, s: PlaySettings, *,
               races: bool = True) -> Iterator[str]:
    """One game's candidate positions (FENs without history), by ply (after each position the
    ones its blunders leave), each shot once; without ``races`` (the variant has enough), no
    counting race, and the game ends once decided."""
    engine.new_game()  # a game replayed from its seed (a resumed run) searches as it did first
    start = starting_fen(variant)
    board = Board(start, variant=variant)
    moves: list[str] = []
    random_plies = rng.randint(*s.random_plies)
    strong = rng.choice((True, False))
    budget = {strong: rng.randint(*s.play_nodes), not strong: rng.randint(*s.weak_nodes)}
    found: list[tuple[str, str]] = []  # (FEN, shot), given once the game is over: the engine plays it first
    deployed = variant != "sittuyin"
    before = 0.0  # the side to move's win chance before the opponent's last move
    drawn = 0  # plies in a row the engine has seen a draw without a Bia on the board
    while len(moves) < s.max_plies and not board.is_game_over():
        legal = board.legal_moves()
        deployed = deployed or not deploying(board)
        if len(moves) < random_plies and deployed:
            move = rng.choice(legal)
        else:
            lines = screen(engine, EnginePosition(start, tuple(moves), variant=variant), budget[board.turn])
            if lines is None:
                break
            if deployed and (fen := candidate(board, lines, before, variant, s, races=races)) is not None:
                found.append((fen, shot(board, lines[0])))
            drawn = drawn + 1 if lines[0].score_cp == 0 and not has_unpromoted_bia(board.placement()) else 0
            now = win_chance(lines[0].score_cp, lines[0].mate, variant)
            if drawn >= s.drawn_plies or (not races and abs(now) >= s.decided):
                break
            # The punisher's chance before a blunder is -now: past what ``_promising`` allows,
            # no blunder can give a candidate.
            if deployed and abs(now) < s.decided and -now <= max(s.max_before_mate, s.max_before_material):
                found.extend(_blunders(engine, board, legal, start, moves, lines, now, rng, s, variant))
            before = -now  # the next mover's view
            playable = _playable(lines, legal)
            if not playable:
                log.warning("engine moves %s are illegal under our rules in %s; game ends",
                            " ".join(line.pv[0] for line in lines), board.fen())
                break
            move = Move.from_uci(_choose(playable, rng, s, wild=board.turn != strong))
        board.push(move)
        moves.append(move.uci())
    yield from one_per_shot(found)


def one_per_shot(found: list[tuple[str, str]]) -> Iterator[str]:
    """The FENs of ``found`` (FEN, ``shot``) but those whose shot an earlier one had."""
    shots: set[str] = set()
    for fen, key in found:
        if key not in shots:
            shots.add(key)
            yield fen


def _blunders(engine: SyncUciEngine, board: Board, legal: list[Move], start: str, moves: list[str],
              lines: list[InfoLine], now: float, rng: random.Random, s: PlaySettings,
              variant: str) -> Iterator[tuple[str, str]]:
    """The candidates (FEN, shot) after ``s.blunders`` of the ``legal`` moves off the line from
    ``board``, where the side to move sees ``lines`` and its win chance ``now``."""
    ranked = {line.pv[0] for line in lines}
    others = [move for move in legal if move.uci() not in ranked]
    for move in rng.sample(others, min(s.blunders, len(others))):
        after = board.copy()
        after.push(move)
        if after.is_game_over() or not count_cannot_matter(after):
            continue
        position = EnginePosition(start, (*moves, move.uci()), variant=variant)
        if s.probe_nodes and not _punishes(engine, position, variant, s):
            continue
        replies = screen(engine, position, s.blunder_nodes)
        if replies is not None and _promising(replies, -now, variant, s):
            yield puzzle_fen(after), shot(after, replies[0])


def _punishes(engine: SyncUciEngine, position: EnginePosition, variant: str, s: PlaySettings) -> bool:
    """Whether a quick look (``probe_nodes``, MultiPV 2) sees the side to move mate or reach
    ``probe_cp`` with its second choice ``probe_gap`` behind: a punishment worth the screen."""
    result = engine.go(position, nodes=s.probe_nodes, multipv=2, timeout=PLAY_SECONDS)
    lines = [x for x in sorted(result.lines, key=lambda x: x.multipv) if x.pv]
    if not lines or not (lines[0].mates or (lines[0].score_cp or 0) >= s.probe_cp):
        return False
    return _gap(lines, variant) >= s.probe_gap


def screen(engine: SyncUciEngine, position: EnginePosition, nodes: int) -> list[InfoLine] | None:
    """The side to move's MultiPV 3 lines, best first, from a search of ``nodes``; None when
    the search gave none or was stopped."""
    result = engine.go(position, nodes=nodes, multipv=3, timeout=PLAY_SECONDS)
    lines = [x for x in sorted(result.lines, key=lambda x: x.multipv) if x.pv]
    return lines if lines and not result.stopped else None


def shot(board: Board, best: InfoLine) -> str:
    """The best move as a player remembers it: the piece and its move (Ma e3 is not Rua e3)."""
    move = Move.from_uci(best.pv[0])
    piece = board.piece_at(move.from_square)
    return (piece.symbol() if piece else "") + move.uci()


def candidate(board: Board, lines: list[InfoLine], before: float, variant: str, s: PlaySettings, *,
              races: bool = True) -> str | None:
    """The position as a candidate (its FEN), or None: ``lines`` are the side to move's MultiPV
    lines, ``before`` its win chance before the opponent's last move."""
    if count_cannot_matter(board):
        return puzzle_fen(board) if _promising(lines, before, variant, s) else None
    return _counting_race(board, lines[0]) if races else None


def puzzle_fen(board: Board) -> str:
    """The position alone: no history, the half-move clock reset (no count is running)."""
    fields = board.fen().split()
    fields[4] = "0"
    return " ".join(fields)


def deploying(board: Board) -> bool:
    in_deployment = getattr(board, "in_deployment", None)
    return bool(in_deployment and in_deployment())


def _playable(lines: list[InfoLine], legal: list[Move]) -> list[InfoLine]:
    """The lines whose first move the project's rules allow. Where Fairy-Stockfish differs from
    them (11.1 on Ouk's leaps: docs/variants.md), the game goes on along its next choice."""
    allowed = {move.uci() for move in legal}
    return [line for line in lines if line.pv[0] in allowed]


def _choose(lines: list[InfoLine], rng: random.Random, s: PlaySettings, *, wild: bool) -> str:
    best = lines[0]
    if best.mates:
        return best.pv[0]
    if wild and len(lines) > 1 and rng.random() < s.wild_rate:
        return rng.choice(lines[1:]).pv[0]
    near = [line for line in lines if line.value() >= best.value() - s.margin_cp]
    return rng.choice(near).pv[0]


def _counting_race(board: Board, best: InfoLine) -> str | None:
    """The position under a count that leaves exactly the moves of the short mate the side
    to move sees (``counting``), where a count applies."""
    if not best.mates or best.mate is None or not 2 <= best.mate <= MAX_SOLVER_MOVES:
        return None
    return counted(board, best.mate)


def _promising(lines: list[InfoLine], before: float, variant: str, s: PlaySettings) -> bool:
    """A blunder's punishment, as lichess finds its candidates: the side to move was not clearly
    winning before the opponent's move, and now has a mate or a gain its second choice misses."""
    best = lines[0]
    gap = _gap(lines, variant)
    if best.mates:
        return (best.mate is not None and best.mate <= MAX_SOLVER_MOVES and gap >= 0.75 * MARGIN_MATE
                and before <= s.max_before_mate)
    return (best.score_cp is not None and best.score_cp >= s.min_win_cp and gap >= 0.75 * MARGIN
            and before <= s.max_before_material)


def _gap(lines: list[InfoLine], variant: str) -> float:
    """How far the second line's win chance is behind the best's: 2.0, the whole scale, when
    the best is the only move."""
    if len(lines) < 2:
        return 2.0
    best, second = lines[0], lines[1]
    return win_chance(best.score_cp, best.mate, variant) - win_chance(second.score_cp, second.mate, variant)
