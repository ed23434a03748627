"""The Discord adapter: slash commands, buttons and tap-to-move over the game service.

``main`` is the ``makruk-bot discord`` subcommand; ``client`` the bot; ``commands`` the slash
commands; ``views`` the persistent components; ``render`` replies as messages; ``door`` the
translation between Discord and the service, which answers through ``sinks`` (an interaction or
a text message) and posts boards in ``threads``; ``permissions`` the Manage Server and thread
checks; ``words`` Discord text as the service reads it; ``translate`` the command localizations.
"""
