"""The pull-request check: a PR's change in non-portable lines, its decision gate, its outputs.

``run_check`` is the one entry point (webhook handlers and ``/lockin recount`` call it); the
modules beside it each hold one step: listing the PR's files, reading blobs, resolving the
policy and decision records, and writing the check run and the sticky comment.
"""
