"""The precompiled registry (bot/engine/precompiled.py): the same rows as parsing the rule
files, never stale, safe for concurrent processes and unwritable folders."""

from __future__ import annotations

import marshal
import os
import re
import shutil
import subprocess
import sys
import time
from array import array
from importlib import resources
from pathlib import Path

import pytest

from bot.engine import ECOSYSTEMS, languages, literals, registry
from bot.engine import literal_first as literal_first_module
from bot.engine.precompiled import KEEP, Precompiled, cache_dir
from bot.engine.registry import SPECS, RuleFileError, RuleSpec, load_specs

BUNDLED = Path(str(resources.files("bot.engine").joinpath("data/rules")))


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """A copy of the bundled rule files that a test may edit."""
    return Path(shutil.copytree(BUNDLED, tmp_path / "rules"))


def _cached_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("registry-*.marshal"))


def _load(rules: Path, cache: Path | None) -> tuple[RuleSpec, ...]:
    return load_specs(rules, dict(ECOSYSTEMS), cache)


def test_a_cached_load_gives_the_rows_parsing_gives(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    parsed = _load(rules, None)
    first = _load(rules, cache)  # writes the cache
    (path,) = _cached_files(cache)
    assert path.stat().st_mode & 0o777 == 0o644  # other users of a shared cache read it
    second = _load(rules, cache)  # reads it
    # RuleSpec equality compares every field but the examples (below); compiled patterns
    # compare their programs.
    assert first == parsed
    assert second == parsed
    assert second == SPECS
    examples = [(spec.positive, spec.negative) for spec in parsed]
    assert [(spec.positive, spec.negative) for spec in second] == examples
    assert all(positive and negative for positive, negative in examples)


def test_the_examples_are_kept_apart_from_the_rows(rules: Path, tmp_path: Path) -> None:
    """Three thousand snippets only the tests and the rules page read: the cached rows hold
    none, and a load decodes them when one is first asked for."""
    cache = tmp_path / "cache"
    _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    rows = [row for doc in stored["documents"] for row in doc["rules"]]
    assert rows
    assert not any("examples" in row for row in rows)
    assert len(marshal.loads(stored["derived"]["examples"])) == len(rows)
    spec = next(s for s in _load(rules, cache) if s.rule.id == "cuda.kernel")
    assert any("__global__" in example.code for example in spec.positive)


def test_every_cached_regex_is_the_program_re_compile_builds(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _load(rules, cache)
    patterns = [
        p
        for spec in _load(rules, cache)
        for p in (spec.pattern, spec.requires, spec.unless, spec.unless_line)
        if p is not None
    ]
    assert len(patterns) > 100
    for pattern in patterns:
        rebuilt = re.compile(pattern.pattern, pattern.flags)
        assert pattern == rebuilt
        assert pattern.groupindex == rebuilt.groupindex
        assert pattern.groups == rebuilt.groups


def _patterns(specs: tuple[RuleSpec, ...]) -> list[re.Pattern[str]]:
    return [
        p
        for spec in specs
        for p in (spec.pattern, spec.requires, spec.unless, spec.unless_line)
        if p is not None
    ]


def test_what_literals_learns_of_a_pattern_comes_from_the_cache_unchanged(
    rules: Path, tmp_path: Path
) -> None:
    """A pattern's rewrite and what its matches need, read back from the cache, are what
    a process without the cache computes: in a fresh interpreter, nothing learnt before."""
    cache = tmp_path / "cache"
    _load(rules, cache)  # writes the cache, rewrites and analyses included
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    assert len(stored["derived"]["literals"]) > 100
    probe = (
        "import sys; from pathlib import Path; from bot.engine import ECOSYSTEMS, literals;"
        "from bot.engine.registry import load_specs;"
        "cache = Path(sys.argv[2]) if sys.argv[2] else None;"
        "specs = load_specs(Path(sys.argv[1]), dict(ECOSYSTEMS), cache);"
        "print(repr(sorted((p.pattern, p.flags, literals.learnt(p)) for s in specs"
        " for p in (s.pattern, s.requires, s.unless, s.unless_line) if p is not None)))"
    )
    env = {**os.environ, "LOCKIN_CACHE_DIR": ""}  # the registry import itself: no cache
    answers = [
        subprocess.run(
            [sys.executable, "-c", probe, str(rules), folder],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
        for folder in ("", str(cache))
    ]
    assert answers[0] == answers[1]
    assert answers[0].count("(") > 300


def test_a_cached_analysis_is_what_a_second_load_learns(rules: Path, tmp_path: Path) -> None:
    """Proof that the analyses are read: one changed inside the file (same key) comes back."""
    cache = tmp_path / "cache"
    _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    first = _patterns(_load(rules, cache))[0]
    stored["derived"]["literals"][(first.pattern, first.flags)] = (
        "read from the cache",
        None,
        None,
        None,
        None,
    )
    path.write_bytes(marshal.dumps(stored))
    reloaded = _patterns(_load(rules, cache))[0]
    assert literals.learnt(reloaded)[0] == "read from the cache"


def test_a_patterns_variants_come_compiled_from_the_cache(rules: Path, tmp_path: Path) -> None:
    """A pattern opening with ^ is searched through its variant opening with a newline, and
    one with slow alternatives without them: both compiled at load from the cache's programs,
    not by each worker that meets them. A variant changed inside the file comes back."""
    cache = tmp_path / "cache"
    _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    at_line = next(p for p in _patterns(_load(rules, cache)) if literals.learnt(p)[3])
    slow = next(p for p in _patterns(_load(rules, cache)) if literals.learnt(p)[2])
    assert literals.learnt(at_line)[3] == "\\n(?:" + at_line.pattern[1:] + ")"
    for pattern, index in ((at_line, 3), (slow, 2)):
        learnt = list(stored["derived"]["literals"][(pattern.pattern, pattern.flags)])
        learnt[index] = "read from the cache" if index == 3 else (learnt[2][0], "from the cache")
        if index == 2:  # the variant's anchors, which finditer reads, come from the cache too
            learnt[4] = (learnt[4][0], ("cached anchor",), learnt[4][2])
        stored["derived"]["literals"][(pattern.pattern, pattern.flags)] = tuple(learnt)
    path.write_bytes(marshal.dumps(stored))
    specs = _load(rules, cache)
    at_line = next(p for p in _patterns(specs) if p.pattern == at_line.pattern)
    slow = next(p for p in _patterns(specs) if p.pattern == slow.pattern)
    assert literals._after_newline(at_line).pattern == "read from the cache"
    variant = literals._WITHOUT_SLOW[id(slow)][1]
    assert variant.pattern == "from the cache"
    assert literals.anchors(variant) == ("cached anchor",)


def test_the_code_that_derives_from_the_patterns_is_part_of_the_key(
    rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another version of literal_first or literals never reads what this one derived."""
    cache = tmp_path / "cache"
    _load(rules, cache)
    code = registry._deriving_code()
    assert [name for name, _ in code] == ["bot.engine.literal_first", "bot.engine.literals"]
    edited = [(name, source + b"# edited\n") for name, source in code]
    monkeypatch.setattr(registry, "_deriving_code", lambda: edited)
    _load(rules, cache)
    assert len(_cached_files(cache)) == 2


def test_the_cache_is_what_a_second_load_reads(rules: Path, tmp_path: Path) -> None:
    """Proof that the file is used: a summary changed inside it (same key) comes back."""
    cache = tmp_path / "cache"
    _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    stored["documents"][0]["rules"][0]["summary"] = "read from the cache"
    path.write_bytes(marshal.dumps(stored))
    assert _load(rules, cache)[0].rule.summary == "read from the cache"


def test_editing_a_rule_file_is_never_answered_from_the_cache(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    before = {s.rule.id: s for s in _load(rules, cache)}
    numba = rules / "numba.yml"
    text = numba.read_text()
    assert "pattern: '^[ \\t]*@(?:numba\\.)?cuda\\.jit\\b'" in text
    numba.write_text(
        text.replace("@(?:numba\\.)?cuda\\.jit\\b", "@(?:numba\\.)?cuda\\.(?:jit|njit)\\b").replace(
            "summary: a Numba CUDA kernel", "summary: an edited Numba CUDA kernel"
        )
    )
    after = {s.rule.id: s for s in _load(rules, cache)}
    edited = after["numba.cuda-jit"]
    assert edited.rule.summary.startswith("an edited Numba CUDA kernel")
    old = before["numba.cuda-jit"].pattern
    assert edited.pattern is not None
    assert old is not None
    assert edited.pattern.search("@cuda.njit")
    assert not old.search("@cuda.njit")
    assert len(_cached_files(cache)) == 2  # one per content, the old one kept for a while
    # Reverting the edit finds the first file again, with the first rows.
    numba.write_text(text)
    assert {s.rule.id: s for s in _load(rules, cache)} == before


def test_a_new_or_removed_rule_file_changes_the_key(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    count = len(_load(rules, cache))
    (rules / "numba.yml").unlink()
    assert len(_load(rules, cache)) < count
    assert not any(s.rule.id.startswith("numba.") for s in _load(rules, cache))


def test_a_broken_file_is_still_an_error_and_is_never_cached(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _load(rules, cache)
    (rules / "numba.yml").write_text(
        (rules / "numba.yml").read_text().replace("requires:", "requirez:", 1)
    )
    for _ in range(2):
        with pytest.raises(RuleFileError, match=r"^numba.yml: rule numba.cuda-jit: unknown key"):
            _load(rules, cache)
    assert len(_cached_files(cache)) == 1  # only the good registry's file


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "foreign"])
def test_a_damaged_cache_file_is_a_miss_and_is_rewritten(
    rules: Path, tmp_path: Path, damage: str
) -> None:
    cache = tmp_path / "cache"
    good = _load(rules, cache)
    (path,) = _cached_files(cache)
    data = path.read_bytes()
    damaged = {
        "truncate": data[: len(data) // 2],
        "garbage": b"\x00not marshal at all" * 10,
        "empty": b"",
        "foreign": marshal.dumps({"key": "another key", "documents": [], "programs": {}}),
    }[damage]
    path.write_bytes(damaged)
    assert _load(rules, cache) == good
    assert marshal.loads(path.read_bytes()) == marshal.loads(data)  # written again, whole


def test_a_program_the_regex_engine_refuses_is_compiled_again(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    good = _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    for key, (flags, code, *rest) in stored["programs"].items():
        not_an_opcode = array("I", [0xFFFF]).tobytes()
        stored["programs"][key] = (flags, not_an_opcode + code, *rest)
    path.write_bytes(marshal.dumps(stored))
    assert _load(rules, cache) == good


def test_a_program_of_the_wrong_shape_is_compiled_again(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    good = _load(rules, cache)
    (path,) = _cached_files(cache)
    stored = marshal.loads(path.read_bytes())
    for key, (flags, code, *rest) in stored["programs"].items():
        stored["programs"][key] = (flags, code[:-1], *rest)  # a word cut short
    stored["programs"][next(iter(stored["programs"]))] = (0, b"")  # too few parts
    path.write_bytes(marshal.dumps(stored))
    assert _load(rules, cache) == good


def test_an_unwritable_cache_folder_means_no_cache(rules: Path, tmp_path: Path) -> None:
    # A folder under a plain file cannot be made, whoever runs the test (root included).
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    cache = blocker / "cache"
    loaded = _load(rules, cache)
    assert loaded == _load(rules, None)
    assert not cache.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-folder", "rules"]
    # Nothing is derived ahead of use (every rule pattern's analyses) for a cache that
    # cannot keep it; a folder still to be made under a writable one can.
    assert not Precompiled(cache, []).writable
    assert Precompiled(tmp_path / "new" / "cache", []).writable


def test_a_read_only_cache_file_is_still_read(rules: Path, tmp_path: Path) -> None:
    """An image built with a warm cache and run as another user: read, never rewritten."""
    cache = tmp_path / "cache"
    good = _load(rules, cache)
    (path,) = _cached_files(cache)
    path.chmod(0o444)
    cache.chmod(0o555)
    try:
        assert _load(rules, cache) == good
        assert _cached_files(cache) == [path]
    finally:
        cache.chmod(0o755)


def test_old_cache_files_are_pruned(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    old = time.time() - 86400
    left = cache / ".registry-killed"  # a process killed while writing
    left.write_bytes(b"half")
    os.utime(left, (old, old))
    writing = cache / ".registry-writing"  # one writing now
    writing.write_bytes(b"")
    for n in range(KEEP + 3):
        stale = cache / f"registry-cpython-311-0-{n:032d}.marshal"
        stale.write_bytes(b"")
        os.utime(stale, (old + n, old + n))
    _load(rules, cache)
    kept = _cached_files(cache)
    assert len(kept) == KEEP + 1  # the current file and the newest KEEP others
    assert cache / f"registry-cpython-311-0-{KEEP + 2:032d}.marshal" in kept
    assert cache / f"registry-cpython-311-0-{0:032d}.marshal" not in kept
    assert not left.exists()
    assert writing.exists()


_PROBE = """
import hashlib, sys
from pathlib import Path
from bot.engine import ECOSYSTEMS, languages, literals, registry
from bot.engine import literal_first as literal_first_module
from bot.engine.registry import load_specs
specs = load_specs(Path(sys.argv[1]), dict(ECOSYSTEMS), Path(sys.argv[2]))
print(len(specs), hashlib.sha256(repr(specs).encode()).hexdigest())
"""


def test_concurrent_processes_share_one_cache_safely(rules: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the frozensets' order in repr
    expected = subprocess.run(
        [sys.executable, "-c", _PROBE, str(rules), str(tmp_path / "alone")],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    for _ in range(2):  # a cold start, all writing at once; then all reading
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", _PROBE, str(rules), str(cache)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for _ in range(6)
        ]
        for run in runs:
            out, err = run.communicate()
            assert run.returncode == 0, err
            assert out == expected
    assert [p.name for p in cache.iterdir()] == [p.name for p in _cached_files(cache)]
    assert len(_cached_files(cache)) == 1  # no temporary file left behind


def test_cache_folder_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOCKIN_CACHE_DIR", str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"
    monkeypatch.setenv("LOCKIN_CACHE_DIR", "")
    assert cache_dir() is None
    monkeypatch.delenv("LOCKIN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "lockin"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "lockin"


def test_the_language_table_loads_the_same_through_its_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LOCKIN_CACHE_DIR", "")
    parsed = languages._load()
    monkeypatch.setenv("LOCKIN_CACHE_DIR", str(tmp_path))
    assert languages._load() == parsed  # writes the cache
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["languages"]
    assert languages._load() == parsed  # reads it


def test_the_language_heuristics_come_rewritten_from_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Rewriting a heuristic's pattern (literal_first) compiles it twice to check it: done
    once per content, kept in the cache, and read back (a rewrite changed in the file comes
    back); another version of the rewriting code is another key."""
    monkeypatch.setenv("LOCKIN_CACHE_DIR", str(tmp_path))
    languages._load()
    (path,) = tmp_path.glob("languages-*.marshal")
    stored = marshal.loads(path.read_bytes())
    rewritten = stored["derived"]["rewritten"]
    source = next(s for s, r in rewritten.items() if r != s)
    rewritten[source] = "read from the cache"
    path.write_bytes(marshal.dumps(stored))
    patterns = [h.pattern.pattern for h in languages._load()[5] if h.pattern is not None]
    assert "read from the cache" in patterns
    edited = literal_first_module.__file__
    assert edited is not None
    monkeypatch.setattr(
        languages.literal_first_module, "__file__", str(tmp_path / "literal_first.py")
    )
    Path(tmp_path / "literal_first.py").write_text(Path(edited).read_text() + "# edited\n")
    languages._load()
    assert len(list(tmp_path.glob("languages-*.marshal"))) == 2


def test_the_glob_words_come_from_the_cache_as_computed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What the globs need is learnt by compiling each of them: kept with the language
    table's cache, and read back from it."""
    monkeypatch.setenv("LOCKIN_CACHE_DIR", "")
    computed = languages._load()[8]
    monkeypatch.setenv("LOCKIN_CACHE_DIR", str(tmp_path))
    languages._load()
    (path,) = tmp_path.glob("languages-*.marshal")
    stored = marshal.loads(path.read_bytes())
    assert stored["derived"]["glob_words"] == computed.pattern
    assert "Dockerfile" in computed.pattern.split("|")
    stored["derived"]["glob_words"] = "read|from|the|cache"
    path.write_bytes(marshal.dumps(stored))
    assert languages._load()[8].pattern == "read|from|the|cache"


def test_the_syntax_patterns_come_from_the_cache_as_built(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The master regex of each language described by its syntax, and the globs' regex, are
    built once per content, kept with the language table's cache and read back from it;
    another version of the code building them (syntax.py, lexer.py) is another key."""
    monkeypatch.setenv("LOCKIN_CACHE_DIR", "")
    built = languages._load()
    monkeypatch.setenv("LOCKIN_CACHE_DIR", str(tmp_path))
    languages._load()
    (path,) = tmp_path.glob("languages-*.marshal")
    stored = marshal.loads(path.read_bytes())
    patterns = stored["derived"]["patterns"]
    assert patterns["Perl"] == built[0]["Perl"].family.tokens.pattern
    assert built[3] is not None
    assert stored["derived"]["glob_pattern"] == built[3].pattern
    patterns["Perl"], stored["derived"]["glob_pattern"] = "(?P<comment>read)", "from|the|cache"
    path.write_bytes(marshal.dumps(stored))
    cached = languages._load()
    assert cached[0]["Perl"].family.tokens.pattern == "(?P<comment>read)"
    assert cached[3] is not None
    assert cached[3].pattern == "from|the|cache"
    for module in (languages.syntax, languages.lexer):
        source = module.__file__
        assert source is not None
        edited = tmp_path / f"{module.__name__}.py"
        edited.write_text(Path(source).read_text() + "# edited\n")
        monkeypatch.setattr(module, "__file__", str(edited))
    assert languages._load() == built
    assert len(list(tmp_path.glob("languages-*.marshal"))) == 2


def test_a_store_keeps_only_the_programs_its_load_asked_for(tmp_path: Path) -> None:
    """A store keyed by no source (the engine's own regexes) does not grow as patterns are
    edited: a save keeps the programs of the regexes asked for since the load."""
    first = Precompiled(tmp_path, [], name="fixed")
    first.regex("old+", 0)
    first.regex(b"bytes+", re.M)
    first.save()
    second = Precompiled(tmp_path, [], name="fixed")
    assert second.hit
    assert second.regex(b"bytes+", re.M) == re.compile(b"bytes+", re.M)
    second.regex("new+", 0)  # a miss: the store is written again
    second.save()
    (path,) = tmp_path.glob("fixed-*.marshal")
    assert set(marshal.loads(path.read_bytes())["programs"]) == {
        (b"bytes+", int(re.M)),
        ("new+", 0),
    }


_ENGINE_COMPILES = """
import re, sys
compiled = []
original = re._compile
def counting(pattern, flags):
    caller = sys._getframe(2).f_code.co_filename
    if "/bot/engine/" in caller.replace("\\\\", "/"):
        compiled.append(pattern)
    return original(pattern, flags)
re._compile = counting
import bot.engine
print(len(compiled))
"""


def test_the_engines_own_regexes_come_compiled_from_the_cache(tmp_path: Path) -> None:
    """The token, region and statement patterns written in the engine's modules are compiled
    once, then read from the cache: a second process compiles none of them."""

    def compiles(cache: str) -> int:
        env = {**os.environ, "LOCKIN_CACHE_DIR": cache}
        run = subprocess.run(
            [sys.executable, "-c", _ENGINE_COMPILES], capture_output=True, text=True, env=env
        )
        assert run.returncode == 0, run.stderr
        return int(run.stdout)

    assert compiles("") > 80  # no cache: every one
    assert compiles(str(tmp_path)) > 80  # the first process with a cache fills it
    assert len(list(tmp_path.glob("fixed-*.marshal"))) == 1
    assert compiles(str(tmp_path)) == 0
