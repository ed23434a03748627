"""A PGN (``export``) and a TRF (``export ID trf``) on Discord: attached as a file either way, and
shown in the embed too up to one limit, ``INLINE_LIMIT``."""

from __future__ import annotations

from dataclasses import replace

from bot.adapters.discord.render import INLINE_LIMIT, Renderer
from bot.i18n import Catalog
from bot.messages import Reply


def test_a_pgn_or_a_trf_is_shown_in_the_embed_up_to_one_limit() -> None:
    render = Renderer(Catalog.load())
    for kind in ("export", "tournament_trf"):
        fits = Reply(kind=kind, text="x" * INLINE_LIMIT, language="en", data={"tournament": 7})
        too_long = replace(fits, text="x" * (INLINE_LIMIT + 1))
        shown, attached = render.reply(fits), render.reply(too_long)
        assert shown.file is not None and attached.file is not None, kind
        assert shown.embed is not None and (shown.embed.description or "").startswith("```"), kind
        assert attached.embed is not None and not (attached.embed.description or "").startswith("```"), kind
