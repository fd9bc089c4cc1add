"""The policy core: `.github/lockin.yml` (``config``), compute-API decision records
(``decisions``), the gate (``gate``), baselines, approvals, the register and the plan.

Pure: text in, verdicts out. Reading files and issues from GitHub or a checkout is the
caller's job (bot/review, bot/cli). Nothing is imported here: `lockin scan` reads the
configuration and never loads the gate's modules.
"""
