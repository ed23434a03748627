"""``export ID trf`` on LINE, which attaches no file to a message: the text when it fits in one
(5,000 characters), else a link that downloads the whole file (docs/line.md, Tournaments)."""

from __future__ import annotations

from tests.bot.tournament_support import stored_event

from .support import GROUP

CHAT = f"group:{GROUP}"


async def test_a_big_events_trf_is_a_link_to_the_whole_file(line):
    number = await stored_event(line.app.storage, "line", CHAT, community=GROUP)
    whole = await line.app.tournaments.trf(number)
    assert whole is not None and len(whole) > 10_000
    [message] = await line.say("Ualice001", f"export {number} trf", group=GROUP)
    assert message["type"] == "text" and len(message["text"]) < 500
    assert f"#{number}" in message["text"] and f"{len(whole)}" in message["text"]
    url = message["text"].rsplit(" ", 1)[-1]
    assert url == line.door.trf_links.url(number) and url.startswith(f"{line.base_url}/trf/")
    status, kind, body = await line.fetch(url)
    assert status == 200 and kind.startswith("text/plain") and body.decode("utf-8") == whole
    other = await stored_event(line.app.storage, "line", CHAT, community=GROUP, players=4, rounds=1)
    forged = url.replace(f"/trf/{number}-", f"/trf/{other}-").replace(f"-{number}.trf", f"-{other}.trf")
    assert (await line.fetch(forged))[0] == 404  # another event's id under this one's signature


async def test_a_small_events_trf_is_the_text_itself(line):
    number = await stored_event(line.app.storage, "line", CHAT, community=GROUP, players=4, rounds=2)
    whole = await line.app.tournaments.trf(number)
    [message] = await line.say("Ualice001", f"export {number} trf", group=GROUP)
    assert message == {"type": "text", "text": whole}
