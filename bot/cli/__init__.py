"""The ``lockin`` command line, one module per command (bot/cli/entry.py parses and runs
them). ``run`` is the console script's entry point, ``lockin = bot.cli:run``: ``main``
(what tests call) and a quick exit."""

from bot.cli.entry import main, run

__all__ = ["main", "run"]
