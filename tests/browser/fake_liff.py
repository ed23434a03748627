"""A stand-in for the LIFF SDK in the browser: the page that LINE opens as a LIFF app asks
``window.liff`` for the user's ID token; this one hands over a token the test signed with its
own key (``tests/web/test_liff.py``'s ``LineKeys``, whose key set the server is told to fetch)."""

from __future__ import annotations

import json


def fake_liff(id_token: str | None, user_id: str = "") -> str:
    """A script for ``BrowserContext.add_init_script`` that stands in for the LIFF SDK: logged in
    inside LINE, with ``id_token`` (None: not logged in; ``login()`` is then recorded, not followed)."""
    state = json.dumps({"idToken": id_token, "userId": user_id})
    return f"""(() => {{
  const state = {state};
  window.__liffCalls = [];
  const call = (name, value) => {{ window.__liffCalls.push(name); return value; }};
  window.liff = {{
    id: null,
    init: (config) => {{ window.liff.id = config && config.liffId; return Promise.resolve(call("init")); }},
    ready: Promise.resolve(),
    isInClient: () => call("isInClient", true),
    isLoggedIn: () => call("isLoggedIn", state.idToken !== null),
    login: () => call("login"),
    logout: () => call("logout"),
    getIDToken: () => call("getIDToken", state.idToken),
    getDecodedIDToken: () => call("getDecodedIDToken", state.idToken && {{ sub: state.userId }}),
    getProfile: () => Promise.resolve(call("getProfile", {{ userId: state.userId, displayName: state.userId }})),
    getLanguage: () => call("getLanguage", "th"),
    getOS: () => call("getOS", "android"),
    getContext: () => call("getContext", {{ type: "group", userId: state.userId }}),
    closeWindow: () => call("closeWindow"),
  }};
}})();"""
