"""Where file contents come from: a directory on disk, a git revision, two trees to compare.

Every source reports a missing path, a missing revision or a non-repository as a
``SourceError`` whose message is one line meant for the user.
"""


class SourceError(Exception):
    """A source cannot be read; ``str(error)`` is one line for the user."""
