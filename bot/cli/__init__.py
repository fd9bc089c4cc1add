"""The ``lockin`` command line, one module per command (bot/cli/entry.py parses and runs
them). ``main`` is the console script's entry point, ``lockin = bot.cli:main``."""

from bot.cli.entry import main

__all__ = ["main"]
