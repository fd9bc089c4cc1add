"""The policy core: `.github/lockin.yml`, compute-API decision records, and the gate.

Pure: text in, verdicts out. Reading files and issues from GitHub or a checkout is the
caller's job (bot/review, bot/cli).
"""

from bot.policy.config import DEFAULT_POLICY, Policy, PolicyError, load_policy
from bot.policy.decisions import DecisionError, DecisionRecord, DecisionRef
from bot.policy.gate import DecisionCheck, FileGate, LinkedDecision, Verdict, evaluate

__all__ = [
    "DEFAULT_POLICY",
    "DecisionCheck",
    "DecisionError",
    "DecisionRecord",
    "DecisionRef",
    "FileGate",
    "LinkedDecision",
    "Policy",
    "PolicyError",
    "Verdict",
    "evaluate",
    "load_policy",
]
