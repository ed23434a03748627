"""What a puzzle command or answer changes is stored with its answer, in one transaction (issue
27): a message handled again after its process died finds both, and applies nothing twice."""

from __future__ import annotations

from datetime import date, time

from bot.messages import Incoming, User
from bot.services.outbox import event_keys

from .support import MATE2


def message(text: str, event: str, *, retried: bool = False, user: str = "alice") -> Incoming:
    return Incoming("line", "room", User(user, user), text, event=event, retried=retried)


async def stored_answers(storage, event: str) -> list[str]:
    return [row.kind for row in await storage.notices_with_keys(event_keys("line", event))]


async def open_daily_post(storage):
    sub = await storage.subscribe("line", "room", time(0, 0), "Asia/Bangkok", "en")
    return await storage.record_post(sub.id, date(2026, 11, 30), MATE2.id)


async def test_a_wrong_try_handled_again_counts_once_and_gives_its_stored_answer(games, storage) -> None:
    post = await open_daily_post(storage)
    first = await games.handle(message("Rc3", "ev-wrong"))
    assert [r.kind for r in first] == ["puzzle_wrong"] and "Tries: 1" in first[0].text
    assert await stored_answers(storage, "ev-wrong") == ["answer"]  # stored with the try

    again = await games.handle(message("Rc3", "ev-wrong", retried=True))  # its process died after the commit
    assert [(r.kind, r.text) for r in again] == [(r.kind, r.text) for r in first]
    attempt = await storage.get_attempt(post.id, (await storage.find_player("line", "alice")).id)
    assert attempt.tries == 1  # not counted twice


async def test_the_solving_move_stores_the_attempt_the_progress_and_the_answer_together(games, storage) -> None:
    post = await open_daily_post(storage)
    await games.handle(message("c2h2", "ev-1"))
    solved = await games.handle(message("Rg1#", "ev-2"))
    assert solved[0].kind == "puzzle_solved" and "Daily streak: 1 (best 1)" in solved[0].text
    player = await storage.find_player("line", "alice")
    progress = await storage.get_progress(post.id, player.id)
    assert progress is not None and progress.ply == 3  # saved with the solve
    assert await stored_answers(storage, "ev-2") == ["answer"]

    again = await games.handle(message("Rg1#", "ev-2", retried=True))
    assert [r.text for r in again] == [r.text for r in solved]
    attempt = await storage.get_attempt(post.id, player.id)
    assert attempt.solved and attempt.tries == 1
    assert (await storage.get_streak("line", "room", player.id)).current == 1


async def test_an_extra_puzzle_handled_again_is_posted_once(games, storage) -> None:
    shown = await games.handle(message("puzzle", "ev-extra"))
    assert [r.kind for r in shown] == ["puzzle"]
    assert await stored_answers(storage, "ev-extra") == ["answer"]
    again = await games.handle(message("puzzle", "ev-extra", retried=True))
    assert [r.text for r in again] == [r.text for r in shown]
    assert len(await storage.recent_posts("line", "room")) == 1


async def test_a_subscription_handled_again_is_answered_from_the_outbox(games, storage) -> None:
    shown = await games.handle(message("subscribe 08:00 Asia/Bangkok", "ev-sub"))
    assert [r.kind for r in shown] == ["puzzle_subscription"]
    assert await stored_answers(storage, "ev-sub") == ["answer"]
    assert [r.text for r in await games.handle(message("subscribe 08:00 Asia/Bangkok", "ev-sub", retried=True))] == [
        r.text for r in shown]
