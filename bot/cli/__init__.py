"""The ``lockin`` command line, one module per command (bot/cli/entry.py parses and runs
them). ``run`` is the console script's entry point, ``lockin = bot.cli:run``: ``main``
(what tests call) and a quick exit."""

import gc

# Loading the command line (the rule registry above all) builds a hundred thousand objects
# that live as long as the process, and no garbage. The cycle collector's passes over them
# were a tenth of a scan's start-up, serial time before the workers fork: it is paused
# while they load, then they are frozen (left out of its passes), as the gc module's
# documentation advises for a process that forks workers.
_collecting = gc.isenabled()
gc.disable()
try:
    from bot.cli.entry import main, run
finally:
    gc.freeze()
    if _collecting:
        gc.enable()

__all__ = ["main", "run"]
