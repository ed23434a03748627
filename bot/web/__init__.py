"""The web board: one page per game (``/g/{game}``), its state as JSON, and a WebSocket that
pushes every change and takes the players' moves (issue 24). A door, like ``bot/adapters``:
it builds ``Incoming`` messages for the game service and never decides a rule itself.

routes.py (the HTTP routes and the server), hub.py (watchers and pushes), socket.py (one
WebSocket: auth, commands, rate limit), state.py (a game as the page shows it), tokens.py and
liff.py (who may move), links.py (the links a door hands out), pieces.py (the piece art)."""
