"""The Discord adapter: slash commands, buttons and tap-to-move over the game service.

``main`` is the ``makruk-bot discord`` subcommand; ``client`` the bot; ``commands`` the slash
commands; ``views`` the persistent components; ``render`` replies as messages; ``door`` the
translation between Discord and the service; ``translate`` the command localizations.
"""
