"""The family in chat: ``new ... makpong|ouk|asean|sittuyin`` starts that variant, which shows in
the challenge, the header, the history and the PGN; Sittuyin's deployment is played by drops or
``setup auto``; each variant's refusals are its own."""

from __future__ import annotations

from datetime import timedelta

import pytest

from makruk import Board, starting_fen
from storage.records import NewGame, Seat


async def seed(storage, clock, variant: str, fen: str) -> None:
    """A game of alice (White) and bob from ``fen``, as if started in the chat."""
    alice = await storage.get_or_create_player("console", "alice", "alice")
    bob = await storage.get_or_create_player("console", "bob", "bob")
    await storage.create_game(NewGame(
        platform="console", channel="c1", community="guild", variant=variant, white=Seat.human(alice.id),
        black=Seat.human(bob.id), start_fen=fen, promotion="forced", perpetual="forbid", move_seconds=86400,
        rated=True, created_by=alice.id, status="active", deadline=clock.now() + timedelta(days=1),
    ))


async def start(chat, variant_word: str, *, language: str = "en") -> None:
    await chat.ok("alice", f"new @bob {variant_word}", "bob")
    await chat.ok("bob", "accept")


@pytest.mark.parametrize(("word", "variant", "name"), [
    ("makpong", "makpong", "Makpong"), ("ouk", "cambodian", "Ouk Chatrang"), ("อุก", "cambodian", "Ouk Chatrang"),
    ("asean", "asean", "ASEAN"), ("シットゥイン", "sittuyin", "Sittuyin"),
])
async def test_new_with_a_variant_word_starts_that_variant(chat, storage, word, variant, name):
    challenge = (await chat.ok("alice", f"new @bob {word}", "bob"))[0]
    assert name in challenge.text and challenge.game is not None and challenge.game.variant == variant
    started = (await chat.ok("bob", "accept"))[0]
    assert started.game is not None and started.game.variant == variant and started.board is not None
    assert started.board.variant == variant and name in started.text
    game = await storage.active_game("console", "c1")
    assert game is not None and game.variant == variant and game.start_fen == starting_fen(variant)
    assert Board(started.game.fen, variant=variant).fen() == starting_fen(variant)


async def test_two_variant_words_are_refused(chat):
    await chat.refused("alice", "new @bob ouk asean", "bad_option", "bob")


async def test_ouk_khun_leaps_in_chat_and_the_export_names_the_variant(chat):
    await start(chat, "ouk")
    moved = (await chat.ok("alice", "Kb2"))[0]
    assert moved.game is not None and " Ede " in moved.game.fen
    await chat.ok("bob", "e8c7")  # Black's Khun leaps too
    history = (await chat.ok("alice", "history"))[0].text
    assert "Kb2" in history and "Kc7" in history
    pgn = (await chat.ok("alice", "export"))[0].text
    assert '[Variant "cambodian"]' in pgn and "[FEN" not in pgn and "1. Kb2 Kc7" in pgn


async def test_makpong_refuses_a_khun_fleeing_check_with_its_own_reason(chat, storage, clock):
    await seed(storage, clock, "makpong", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1")
    refusal = await chat.refused("alice", "Kd1", "illegal.khun_may_not_flee")
    assert "Makpong" in refusal.text
    await chat.ok("alice", "Kxe2")  # taking the checker is the Khun's one way out


async def test_sittuyin_deployment_by_typed_drops_and_refusals(chat):
    await start(chat, "sittuyin")
    await chat.refused("alice", "e4e5", "illegal.must_drop")
    await chat.refused("alice", "R@a2", "illegal.bad_drop")  # a Rua goes on the back rank only
    dropped = (await chat.ok("alice", "R@a1"))[0]
    assert "In hand: White K F R S×2 N×2, Black K F R×2 S×2 N×2." in dropped.text
    assert "Place a piece" in dropped.text
    thai = (await chat.ok("bob", "ร@ญ8"))[0]  # Thai piece letter and file, Arabic rank
    assert thai.game is not None and thai.game.fen.startswith("7r/")
    assert any(a.command == "setup" for a in thai.actions)


async def test_setup_auto_places_a_side_s_pieces_on_each_of_its_turns(chat, storage):
    await start(chat, "sittuyin")
    replies = await chat.ok("alice", "setup auto")
    assert "alice lets the bot place their pieces." in replies[0].text
    assert replies[-1].game is not None and replies[-1].game.turn == "b"  # White's first piece was placed at once
    await chat.refused("alice", "setup auto", "setup_already_auto")
    for letter, square in [("K", "b7"), ("F", "d6"), ("R", "a8"), ("R", "h8"), ("S", "c7"), ("S", "f7"),
                           ("N", "b6"), ("N", "g7")]:
        replies = await chat.ok("bob", f"{letter}@{square}")
    game = await storage.active_game("console", "c1")
    assert game is not None
    board = Board(game.start_fen, variant="sittuyin")
    board.replay([m.uci for m in game.moves])
    assert not board.in_deployment() and board.turn  # both hands empty; White to move
    assert len(game.moves) == 16 and all(m.uci[1] == "@" for m in game.moves)
    await chat.refused("bob", "setup auto", "no_deployment")
    assert replies[-1].game is not None and replies[-1].game.turn == "w"


async def test_an_unknown_word_after_setup_is_refused(chat):
    await start(chat, "sittuyin")
    await chat.refused("alice", "setup please", "bad_option")
    await chat.refused("alice", "setup auto auto", "bad_option")
    await chat.ok("alice", "setup")  # alone, it means auto


async def test_asean_letters_and_promotion_choices(chat, storage, clock):
    await start(chat, "asean")
    assert (await chat.ok("alice", "Bd2"))[0].game is not None  # ASEAN's Khon is written B


async def test_asean_promotes_to_the_piece_named(chat, storage, clock):
    await seed(storage, clock, "asean", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    choices = await chat.refused("alice", "b7b8", "ambiguous")  # the four pieces are offered
    assert all(f"b8={letter}" in choices.text for letter in "QRNB")
    moved = (await chat.ok("alice", "b8=R"))[0]
    assert moved.game is not None and moved.game.fen.startswith("1R2k3/") and "b8=R" in moved.text


async def test_sittuyin_promotion_in_place_and_its_conditions(chat, storage, clock):
    await seed(storage, clock, "sittuyin", "4k3/8/2n5/3P4/8/8/P7/K7[] w - - 0 1")
    await chat.refused("alice", "d5d5f", "illegal.promotion_not_allowed")  # the new Sit-ke would attack c6
    await chat.ok("alice", "d5e4f")
    game = await storage.active_game("console", "c1")
    assert game is not None and game.moves[-1].san == "d5e4=F"


@pytest.mark.parametrize("variant", ["makpong", "ouk", "karouk", "asean", "sittuyin"])
async def test_the_bot_answers_in_every_variant(chat, storage, variant):
    replies = await chat.ok("alice", f"new bot 2 {variant}")
    game = await storage.active_game("console", "c1")
    assert game is not None and game.variant != "makruk"
    if variant == "sittuyin":
        replies = await chat.ok("alice", "setup")  # the bot places both sides' pieces, one a turn
        game = await storage.active_game("console", "c1")
        assert game is not None and len(game.moves) == 16
        assert replies[-1].game is not None and replies[-1].game.turn == "w"
    board = Board(game.start_fen, variant=game.variant)
    board.replay([m.uci for m in game.moves])
    move = sorted(board.legal_moves(), key=lambda m: m.uci())[0]
    replies = await chat.ok("alice", move.uci())
    game = await storage.active_game("console", "c1") or await storage.last_game("console", "c1")
    assert game is not None and (len(game.moves) % 2 == 0 or game.status == "finished")  # the bot answered


async def test_only_a_person_is_asked_to_place_a_piece(chat):
    """Against the bot (White here, so it drops first), only replies that leave the person to
    place a piece ask for one and offer ``setup``."""
    for text in ("new bot 1 black sittuyin", "K@b7"):
        replies = [r for r in await chat.ok("alice", text) if r.game is not None]
        assert replies
        for reply in replies:
            persons_turn = reply.game is not None and reply.game.turn == "b"
            assert ("Place a piece" in reply.text) == persons_turn, reply.text
            assert any(a.command == "setup" for a in reply.actions) == persons_turn
