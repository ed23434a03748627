"""Operations: Prometheus metrics (``metrics``), the health check (``health``) and the two
HTTP endpoints that serve them (``http``). See docs/operations.md.

``metrics`` imports nothing of the bot, so that the engines and the services may count with
it; ``health`` and ``http`` sit beside the doors (they take a running ``bot.app.App``).
"""
