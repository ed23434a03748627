"""The web board's HTML: one small page per game; the script (static/board.js) draws the rest
from the state JSON. The page carries the game's id, the chat's language and its UI texts (the
``web.*`` messages of the catalogue); never a token (that stays in the URL's fragment)."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from ..config import Settings
from ..i18n import Catalog
from ..services.games.queries import GameRecord


def texts(catalog: Catalog, language: str) -> dict[str, str]:
    """The page's UI texts in ``language``, without their ``web.`` prefix."""
    messages = catalog.raw(language)["messages"]
    return {key[4:]: text for key, text in messages.items() if key.startswith("web.")}


def page(catalog: Catalog, record: GameRecord, settings: Settings, state: dict[str, Any] | None = None) -> str:
    """The page of ``record``'s game; ``state`` (a watcher's) is drawn before the socket opens."""
    language = record.language
    ui = texts(catalog, language)
    boot = {"game": record.game.id, "lang": language, "text": ui, "liff": settings.liff_id, "state": state}
    title = catalog.text(language, "web.title", id=record.game.id, white=record.names["w"], black=record.names["b"])
    # No "<" in the JSON: it cannot end the script element early (or open a comment in it).
    data = json.dumps(boot, ensure_ascii=False).replace("<", "\\u003c")
    return f"""<!doctype html>
<html lang="{escape(language)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/web/static/board.css">
<script id="boot" type="application/json">{data}</script>
<script type="module" src="/web/static/board.js"></script>
</head><body>
<main id="app" data-game="{record.game.id}">
<header><h1>{escape(title)}</h1>
<span class="watchers" data-watchers title="{escape(ui["watchers"])}"></span></header>
<div class="layout">
<section class="play">
<div class="player top"><span class="name" data-name="top"></span>
<span class="clock" data-clock-slot="top"></span></div>
<div class="hand" data-hand="top"></div>
<div class="board-wrap"><div class="board" data-board></div></div>
<div class="hand" data-hand="bottom"></div>
<div class="player bottom"><span class="name" data-name="bottom"></span>
<span class="clock" data-clock-slot="bottom"></span></div>
</section>
<aside class="side">
<p class="status" data-status></p>
<p class="note" data-note></p>
<div class="actions" data-actions></div>
<div class="replay" data-replay hidden></div>
<ol class="moves" data-moves></ol>
<p class="links" data-links></p>
</aside>
</div>
</main>
<noscript>{escape(ui["noscript"])}</noscript>
</body></html>
"""


def not_found_page(catalog: Catalog, language: str) -> str:
    text = catalog.text(language, "web.not_found")
    return (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{escape(text)}</title>'
            f'</head><body><p data-status>{escape(text)}</p></body></html>')


LIFF_SDK = "https://static.line-scdn.net/liff/edge/2/sdk.js"


def liff_entry_page(liff_id: str) -> str:
    """LIFF's first stop (the endpoint URL with ``?liff.state=/g/GAME``): the LIFF SDK starts,
    reads LINE's sign-in from the URL, and then opens the game's page itself."""
    data = json.dumps(liff_id).replace("<", "\\u003c")
    return (f'<!doctype html><html><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" '
            f'content="no-referrer"><link rel="icon" href="data:,"><script src="{LIFF_SDK}"></script></head><body>'
            f'<script>sessionStorage.setItem("makruk-liff","1");'
            f'liff.init({{liffId:{data}}}).catch(function(){{document.body.textContent="LIFF"}});</script>'
            f'</body></html>')
