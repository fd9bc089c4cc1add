"""The analysis engine: bytes and paths in, findings out. No network, no GitHub.

``classify(path, data)`` places every code line of one file in a layer; ``RULES`` is the
rule registry (id -> Rule), ``ECOSYSTEMS`` the ecosystems it names (name -> Ecosystem).
"""

from bot.engine.classify import classify
from bot.engine.precompiled import keep_fixed
from bot.engine.registry import ECOSYSTEMS, RULES, Ecosystem, rule

keep_fixed()  # every module above has compiled its regexes

__all__ = ["ECOSYSTEMS", "RULES", "Ecosystem", "classify", "rule"]
