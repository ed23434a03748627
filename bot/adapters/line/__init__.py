"""The LINE door: a webhook server over the game service (line-bot-sdk v3, async, on aiohttp).

``main`` runs it, ``webhook`` checks and accepts LINE's requests, ``handler`` turns events into
the service's messages and its replies into LINE messages (built by ``replies``), ``images``
serves the board pictures LINE fetches, ``profiles`` finds display names.
"""
