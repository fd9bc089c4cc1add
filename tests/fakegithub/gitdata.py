"""Git objects as git computes them: blob, tree and commit SHAs, history and merge bases.

The fake stores real object ids so that SHAs the bot sees (PR head, file `sha`, tree entries)
agree with each other and with what `git hash-object` would print.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field

FILE_MODE = "100644"
TREE_MODE = "040000"


def git_sha(kind: str, data: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(data)}\0".encode() + data).hexdigest()


def blob_sha(data: bytes) -> str:
    return git_sha("blob", data)


@dataclass(frozen=True)
class TreeEntry:
    name: str
    mode: str
    sha: str

    @property
    def type(self) -> str:
        return "tree" if self.mode == TREE_MODE else "blob"


@dataclass
class Commit:
    sha: str
    tree_sha: str
    parents: list[str]
    message: str
    timestamp: int
    files: dict[str, bytes]
    author: str = "octocat"


@dataclass
class ObjectStore:
    """One store per fork network: GitHub serves a fork's commits from its parent too."""

    blobs: dict[str, bytes] = field(default_factory=dict)
    trees: dict[str, list[TreeEntry]] = field(default_factory=dict)
    commits: dict[str, Commit] = field(default_factory=dict)
    _walks: dict[str, list[tuple[str, TreeEntry]]] = field(default_factory=dict, repr=False)

    def write_tree(self, files: dict[str, bytes]) -> str:
        """Store the nested trees of a flat {path: bytes} snapshot; return the root tree SHA."""
        root: dict[str, object] = {}
        for path, data in files.items():
            *dirs, name = path.split("/")
            node = root
            for part in dirs:
                node = node.setdefault(part, {})  # type: ignore[assignment]
            sha = blob_sha(data)
            self.blobs[sha] = data
            node[name] = sha
        return self._write_node(root)

    def _write_node(self, node: dict[str, object]) -> str:
        entries = [
            TreeEntry(name, TREE_MODE, self._write_node(child))
            if isinstance(child, dict)
            else TreeEntry(name, FILE_MODE, str(child))
            for name, child in node.items()
        ]
        # git orders entries by name, with trees compared as if their name ended in "/".
        entries.sort(key=lambda e: e.name + "/" if e.type == "tree" else e.name)
        raw = b"".join(
            f"{e.mode.lstrip('0')} {e.name}\0".encode() + bytes.fromhex(e.sha) for e in entries
        )
        sha = git_sha("tree", raw)
        self.trees[sha] = entries
        return sha

    def write_commit(
        self,
        files: dict[str, bytes],
        parents: list[str],
        message: str,
        timestamp: int,
        author: str = "octocat",
    ) -> Commit:
        tree_sha = self.write_tree(files)
        ident = f"{author} <{author}@users.noreply.github.com> {timestamp} +0000"
        lines = [f"tree {tree_sha}", *(f"parent {p}" for p in parents)]
        lines += [f"author {ident}", f"committer {ident}", "", message]
        sha = git_sha("commit", ("\n".join(lines) + "\n").encode())
        commit = Commit(sha, tree_sha, list(parents), message, timestamp, dict(files), author)
        self.commits[sha] = commit
        return commit

    def walk_tree(self, tree_sha: str) -> list[tuple[str, TreeEntry]]:
        """Every entry below a tree, depth first, with its full path (git ls-tree -r -t).

        Trees are immutable (content-addressed), so each walk is computed once."""
        if tree_sha not in self._walks:
            out: list[tuple[str, TreeEntry]] = []
            for entry in self.trees[tree_sha]:
                out.append((entry.name, entry))
                if entry.type == "tree":
                    out += [(f"{entry.name}/{p}", e) for p, e in self.walk_tree(entry.sha)]
            self._walks[tree_sha] = out
        return self._walks[tree_sha]

    def ancestors(self, sha: str) -> list[str]:
        """Commits reachable from sha, nearest first (breadth first)."""
        seen: dict[str, None] = {}
        queue = deque([sha])
        while queue:
            current = queue.popleft()
            if current in seen or current not in self.commits:
                continue
            seen[current] = None
            queue.extend(self.commits[current].parents)
        return list(seen)

    def merge_base(self, base: str, head: str) -> str | None:
        base_ancestors = set(self.ancestors(base))
        return next((sha for sha in self.ancestors(head) if sha in base_ancestors), None)

    def commits_between(self, base: str, head: str) -> list[Commit]:
        """Commits reachable from head but not from base, oldest first (git log base..head)."""
        excluded = set(self.ancestors(base))
        reachable = [self.commits[s] for s in self.ancestors(head) if s not in excluded]
        return sorted(reachable, key=lambda c: len(self.ancestors(c.sha)))
