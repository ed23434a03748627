"""Display names: asked of LINE's profile APIs once, kept for a while, never too many."""

from __future__ import annotations

from bot.adapters.line.profiles import Profiles

from .support import ALICE, BOB, CAROL, GROUP, ROOM


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_names_are_cached_for_a_while_and_the_cache_stays_small(line):
    ticks = Ticks()
    profiles = Profiles(line.door.api, ttl=100, failure_ttl=10, max_entries=2, clock=ticks)
    assert await profiles.name(ALICE) == "Alice"  # 1:1: get_profile
    assert await profiles.name(BOB, group_id=GROUP) == "Bob Builder"
    assert await profiles.name(CAROL, room_id=ROOM) == "Carol"
    assert line.fake.profile_lookups() == [f"/v2/bot/profile/{ALICE}", f"/v2/bot/group/{GROUP}/member/{BOB}",
                                           f"/v2/bot/room/{ROOM}/member/{CAROL}"]
    assert await profiles.name(CAROL, room_id=ROOM) == "Carol"
    assert len(line.fake.profile_lookups()) == 3  # kept
    assert await profiles.name(ALICE) == "Alice"
    assert len(line.fake.profile_lookups()) == 4  # Alice was the oldest of three: dropped
    ticks.now = 101
    assert await profiles.name(CAROL, room_id=ROOM) == "Carol"
    assert len(line.fake.profile_lookups()) == 5  # expired


async def test_unknown_people_are_not_asked_about_again_at_once(line):
    ticks = Ticks()
    profiles = Profiles(line.door.api, failure_ttl=10, clock=ticks)
    assert await profiles.name(BOB) is None  # not a friend: LINE answers 404
    assert await profiles.name(BOB) is None
    assert len(line.fake.profile_lookups()) == 1
    ticks.now = 11
    line.fake.friends[BOB] = "Bob\n  Builder "
    assert await profiles.name(BOB) == "Bob Builder"  # tidied for chat text
