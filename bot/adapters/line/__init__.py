"""The LINE door: a webhook server over the game service (line-bot-sdk v3, async, on aiohttp).

``main`` runs it, ``webhook`` checks and accepts LINE's requests and ``queues`` hands each
chat's events over in order, ``handler`` turns events into the service's messages and its
replies into LINE messages (built by ``replies``), ``push`` delivers the outbox's notices,
``quota`` reads the monthly message quota, ``images`` serves the board pictures LINE fetches,
``profiles`` finds display names, ``locks`` keeps a reply and a push to one chat apart.
"""
