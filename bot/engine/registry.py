"""The rule registry: data/ecosystems.yml and one data/rules/<ecosystem>.yml per ecosystem.

Adding an ecosystem means adding rows (and their example snippets) there, never control flow:
a row names its region kind (bot/engine/regions.py KINDS), the languages it applies to
(names or groups from data/languages.yml), a regex and the literal keywords that gate it.

The keywords are a contract: every match of the pattern lies on a line holding one of them
(for string kinds: inside a string holding one), because the engine runs the pattern only
there. ``requires``/``unless`` are file-level regexes on the code (comments removed).

Every file is checked against data/rules.schema.json when the registry loads: a key the schema
does not name (``unles:``) is a RuleFileError naming the file, the rule and the key, never a
silent fall-back to defaults. ``why`` and ``instead`` are the rule's page (``lockin rules ID``,
docs/rules.md): why the code would not move, and what it would move to.
"""

from __future__ import annotations

import ast
import difflib
import json
import marshal
import re
from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass, field
from functools import cache
from keyword import kwlist
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.engine import literal_first as literal_first_module
from bot.engine import literals
from bot.engine.keywords import KeywordIndex
from bot.engine.languages import LANGUAGES, expand, heuristic_keywords
from bot.engine.literal_first import literal_first
from bot.engine.model import VENDORS, Layer, Rule
from bot.engine.precompiled import (
    DATA,
    Precompiled,
    cache_dir,
    fixed_regex,
    load_yaml,
    module_sources,
)
from bot.engine.regions import KINDS, STRING_KINDS

if TYPE_CHECKING:  # types only: the validator is built on a cache miss alone
    from importlib.resources.abc import Traversable

    import fastjsonschema

RULE_ID = fixed_regex(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")


class RuleFileError(ValueError):
    """A rule file that does not follow data/rules.schema.json (or names unknown things)."""


class Ecosystem(NamedTuple):
    name: str
    title: str
    vendors: frozenset[str]


@dataclass(frozen=True, slots=True)
class Example:
    path: str
    code: str
    lines: tuple[int, int] | None = None  # the exact finding a positive example must yield


class Examples:
    """A registry load's examples (the rows' positive and negative snippets), decoded on
    first use: only the tests and the rules page read them, and decoding and building the
    three thousand of them was 4 ms of every start-up."""

    __slots__ = ("_encoded", "_rows")

    def __init__(self, encoded: bytes) -> None:
        """``encoded``: ``marshal`` of each row's ``examples`` mapping, in row order."""
        self._encoded = encoded
        self._rows: list[tuple[tuple[Example, ...], tuple[Example, ...]]] | None = None

    def of(self, row: int) -> tuple[tuple[Example, ...], tuple[Example, ...]]:
        """The positive and negative examples of the load's ``row``-th row."""
        if self._rows is None:
            self._rows = [
                (_examples(mapping.get("positive", [])), _examples(mapping.get("negative", [])))
                for mapping in marshal.loads(self._encoded)
            ]
        return self._rows[row]


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """A registry row: the public Rule plus what the engine needs to find its regions."""

    rule: Rule
    kind: str
    languages: frozenset[str]
    pattern: re.Pattern[str] | None
    keywords: tuple[str, ...]  # the text must hold one of these before the pattern runs
    requires: re.Pattern[str] | None  # file-level: the masked code must match
    unless: re.Pattern[str] | None  # file-level: the masked code must not match
    # A region whose first line (as written) matches is not claimed: `unset VAR`.
    unless_line: re.Pattern[str] | None
    # Its snippets, read through ``positive`` and ``negative``: the same rows from any load
    # are equal specs, whichever load decoded their examples.
    examples: Examples = field(compare=False, repr=False)
    row: int = field(compare=False, repr=False)
    # A region whose head (its code from its first line down to the end of the line where
    # the pattern matches) matches is not claimed: a Kokkos lambda given a host policy.
    unless_head: re.Pattern[str] | None = None
    # Lines after a keyword line the pattern's lookahead may read: a match starts on a
    # keyword line, but what it needs to follow may open the next one (a wrapped body).
    lookahead_lines: int = 0
    # A match counts only where the statement holding it, read from its start up to the
    # match, matches this: a bare `cudart` is a CUDA library inside `target_link_libraries(`,
    # on whichever line of the command it stands (``Source.finditer``).
    within_statement: re.Pattern[str] | None = None
    # String kinds: a literal whose whole body matches this (a lone `#version 450` line) only
    # starts a program, claimed when more literals continue it (``regions._continued``).
    lone_prefix: re.Pattern[str] | None = None
    # String kinds: a lone prefix goes on into a program through the literals joined after
    # it only when one of them matches this (``regions._continued``).
    lone_continues: re.Pattern[str] | None = None
    # C++ namespaces that are the library's own: in a file that opens one of them (the
    # library's own source), the pattern's matches naming it are no call of the library.
    own_namespaces: tuple[str, ...] = ()
    # The same-file functions its regions call (and theirs) are its regions too: a SYCL
    # kernel lambda's helpers compile for the device with it.
    callees: bool = False

    @property
    def positive(self) -> tuple[Example, ...]:
        """Snippets the rule must find (with the exact span when ``lines`` says so)."""
        return self.examples.of(self.row)[0]

    @property
    def negative(self) -> tuple[Example, ...]:
        """Snippets the rule must not find."""
        return self.examples.of(self.row)[1]


def _tables(cache: Path | None) -> tuple[Any, Any]:
    """data/ecosystems.yml and data/renamed-rules.yml, parsed once per content like the
    rule files (a warm start-up parses no YAML)."""
    files = [(name, (DATA / name).read_bytes()) for name in _TABLES]
    store = Precompiled(cache, files, name="tables")
    ecosystems, renamed = store.documents(
        lambda: [load_yaml(data.decode("utf-8")) for _, data in files]
    )
    store.save()
    return ecosystems, renamed


_TABLES = ("ecosystems.yml", "renamed-rules.yml")


_SCHEMA_FILE = DATA / "rules.schema.json"


@cache
def _rule_schema() -> dict[str, Any]:
    return json.loads(_SCHEMA_FILE.read_text("utf-8"))


@cache
def _file_validator() -> Callable[[Any], Any]:
    # A compiled validator (fastjsonschema generates Python for the schema): with terse
    # exceptions importing and compiling it costs about 15 ms at start-up, where importing
    # jsonschema alone costs about 90 ms (or fastjsonschema's detailed exceptions 30 ms more),
    # and every run of every command loads the registry. _schema_problem recovers the detail.
    import fastjsonschema  # late: a warm cache checks no rule file (about 7 ms to import)

    return fastjsonschema.compile(_rule_schema(), detailed_exceptions=False)


_STEP = fixed_regex(r"\.(\w+)|\[(\d+)\]")
_FAILURE = fixed_regex(r"^data((?:\.\w+|\[\d+\])*) (.*)$", re.S)
_UNKNOWN = fixed_regex(r"must not contain \{(.*)\} properties")


def _schema_at(path: list[str | int]) -> dict[str, Any]:
    """The part of the rule-file schema that describes the value at ``path``."""
    root = _rule_schema()
    node = root
    for step in path:
        while "$ref" in node:
            node = root["definitions"][node["$ref"].rsplit("/", 1)[-1]]
        node = node["items"] if isinstance(step, int) else node.get("properties", {})[step]
    while "$ref" in node:
        node = root["definitions"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _schema_problem(doc: Any, exc: fastjsonschema.JsonSchemaValueException) -> str:
    """Where in ``doc`` the schema failed, said as a rule author reads it."""
    failure = _FAILURE.match(str(exc.message))
    if failure is None:
        return str(exc.message)
    path: list[str | int] = [
        int(index) if index else str(key) for key, index in _STEP.findall(failure.group(1))
    ]
    message = failure.group(2)
    where = ""
    if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], int):
        row = doc["rules"][path[1]]
        rule_id = row.get("id") if isinstance(row, dict) else None
        where = f"rule {rule_id or '#' + str(path[1] + 1)}: "
        shown = path[2:]
    else:
        shown = path
    at = ".".join(str(p) for p in shown)
    unknown = _UNKNOWN.search(message)
    if unknown:
        known = list(_schema_at(path).get("properties", {}))
        keys = sorted(str(k) for k in ast.literal_eval("{" + unknown.group(1) + "}"))
        hints = [difflib.get_close_matches(key, known, n=1) for key in keys]
        said = ", ".join(
            f"{key!r}" + (f" (did you mean {hint[0]!r}?)" if hint else "")
            for key, hint in zip(keys, hints, strict=True)
        )
        return f"{where}unknown key {said}{' in ' + at if at else ''}; known: {', '.join(known)}"
    return f"{where}{at or 'the file'} {message}"


def _validated(name: str, data: bytes) -> Any:
    # Late: only a cache miss parses and checks rule files (see _tables).
    import fastjsonschema
    import yaml

    try:
        doc = load_yaml(data.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise RuleFileError(f"{name}: not YAML: {exc}") from None
    try:
        _file_validator()(doc)
    except fastjsonschema.JsonSchemaValueException as exc:
        raise RuleFileError(f"{name}: {_schema_problem(doc, exc)}") from None
    return doc


#: A rule's pattern source -> the compiled regex (rewritten by ``literal_first``).
Compile = Callable[[str], re.Pattern[str]]


def _compile(source: str) -> re.Pattern[str]:
    return re.compile(literal_first(source), re.M)


def _regex(source: str | None, compile_: Compile) -> re.Pattern[str] | None:
    return compile_(source) if source else None


def _examples(rows: list[dict[str, Any]]) -> tuple[Example, ...]:
    return tuple(
        Example(row["path"], row["code"], tuple(row["lines"]) if "lines" in row else None)
        for row in rows
    )


def _vendors(names: list[str], where: str) -> frozenset[str]:
    unknown = set(names) - set(VENDORS)
    if unknown:
        raise ValueError(f"{where}: unknown vendors {sorted(unknown)}")
    return frozenset(names)


def _load_ecosystems(table: Any) -> dict[str, Ecosystem]:
    return {
        name: Ecosystem(name, row["title"], _vendors(row["vendors"], f"ecosystem {name}"))
        for name, row in table.items()
    }


def _spec(
    row: dict[str, Any],
    default_ecosystem: str,
    ecosystems: dict[str, Ecosystem],
    examples: Examples,
    row_index: int,
    compile_: Compile = _compile,
) -> RuleSpec:
    rule_id = row["id"]
    ecosystem = row.get("ecosystem", default_ecosystem)
    if ecosystem not in ecosystems:
        raise RuleFileError(f"rule {rule_id}: undeclared ecosystem {ecosystem!r}")
    if row["kind"] not in KINDS:
        raise RuleFileError(f"rule {rule_id}: unknown kind {row['kind']!r}")
    if row.get("pattern") is None and row["kind"] != "file":
        raise RuleFileError(f"rule {rule_id}: kind {row['kind']!r} needs a pattern")
    vendors = (
        _vendors(row["vendors"], rule_id) if "vendors" in row else ecosystems[ecosystem].vendors
    )
    keywords = tuple(row.get("keywords", ()))
    if any(not keyword or "\n" in keyword for keyword in keywords):
        raise ValueError(f"{rule_id}: keywords must be non-empty and on one line")
    return RuleSpec(
        rule=Rule(
            rule_id,
            Layer(row["layer"]),
            ecosystem,
            vendors,
            row["summary"],
            why=row.get("why", ""),
            instead=row.get("instead", ""),
        ),
        kind=row["kind"],
        languages=expand(row["languages"]),
        pattern=_regex(row.get("pattern"), compile_),
        keywords=keywords,
        requires=_regex(row.get("requires"), compile_),
        unless=_regex(row.get("unless"), compile_),
        unless_line=_regex(row.get("unless_line"), compile_),
        examples=examples,
        row=row_index,
        unless_head=_regex(row.get("unless_head"), compile_),
        lookahead_lines=row.get("lookahead_lines", 0),
        within_statement=_regex(row.get("within_statement"), compile_),
        lone_prefix=_regex(row.get("lone_prefix"), compile_),
        lone_continues=_regex(row.get("lone_continues"), compile_),
        own_namespaces=tuple(row.get("own_namespaces", ())),
        callees=row.get("callees", False),
    )


def load_specs(
    folder: Traversable, ecosystems: dict[str, Ecosystem], cache: Path | None = None
) -> tuple[RuleSpec, ...]:
    """The rows of every ``*.yml`` in ``folder``, checked (RuleFileError when one is wrong).

    With a ``cache`` folder the parsed files and compiled regexes are kept there
    (bot/engine/precompiled.py), with what the engine derives from the patterns (their
    ``literal_first`` rewrites, what ``literals`` learns of them); the rows' own checks
    below run on every load.
    """
    entries = sorted((e for e in folder.iterdir() if e.name.endswith(".yml")), key=lambda e: e.name)
    files = [(entry.name, entry.read_bytes()) for entry in entries]
    schema = ("rules.schema.json", _SCHEMA_FILE.read_bytes())
    store = Precompiled(cache, [schema, *files, *_deriving_code()])
    docs = store.documents(lambda: [_validated(name, data) for name, data in files])
    encoded = store.derived("examples")
    if encoded is None:  # the rows as parsed: their examples are kept apart from them
        mappings = [row.pop("examples", {}) for doc in docs for row in doc["rules"]]
        store.keep("examples", encoded := marshal.dumps(mappings))
    examples = Examples(encoded)
    rewritten: dict[str, str] = dict(store.derived("rewritten") or {})

    def compile_rule(source: str) -> re.Pattern[str]:
        pattern = rewritten.get(source)
        if pattern is None:
            pattern = rewritten[source] = literal_first(source)
        return store.regex(pattern, re.M)

    specs: list[RuleSpec] = []
    for (name, _), doc in zip(files, docs, strict=True):
        try:
            for row in doc["rules"]:  # the n-th row's examples are the n-th mapping
                specs.append(
                    _spec(row, doc["ecosystem"], ecosystems, examples, len(specs), compile_rule)
                )
        except ValueError as exc:
            raise RuleFileError(f"{name}: {exc}") from None
    seen: set[str] = set()
    for spec in specs:
        if spec.rule.id in seen:
            raise RuleFileError(f"duplicate rule id {spec.rule.id}")
        seen.add(spec.rule.id)
    store.keep("rewritten", rewritten)
    _learn_patterns(store, specs)
    store.save()
    return tuple(specs)


def _deriving_code() -> list[tuple[str, bytes]]:
    """The source of the code whose results the cache keeps beside the documents: another
    version of it is another cache key, so nothing it derived before is read."""
    return module_sources(literal_first_module, literals)


def _learn_patterns(store: Precompiled, specs: list[RuleSpec]) -> None:
    """What ``literals`` learns of each rule pattern, from the cache: otherwise every process
    that classifies (each worker of a census) parses the patterns it meets again, about
    0.05 s of CPU each over the bench corpus. Computed for all of them only where the cache
    keeps it; without a cache each process learns on first use, as before."""
    patterns = [
        pattern
        for spec in specs
        for pattern in (spec.pattern, spec.requires, spec.unless, spec.unless_line)
        if pattern is not None
    ]
    known: dict[tuple[str, int], literals.Learnt] | None = store.derived("literals")
    if known is None:
        if not store.writable:
            return
        known = {(p.pattern, p.flags): literals.learnt(p) for p in patterns}
        store.keep("literals", known)
    for pattern in patterns:
        learnt = known.get((pattern.pattern, pattern.flags))
        if learnt is not None:
            literals.learn(pattern, learnt, store.regex)


_ECOSYSTEM_TABLE, _RENAMED_TABLE = _tables(cache_dir())
_ECOSYSTEMS = _load_ecosystems(_ECOSYSTEM_TABLE)
SPECS: tuple[RuleSpec, ...] = load_specs(DATA / "rules", _ECOSYSTEMS, cache_dir())
ECOSYSTEMS: MappingProxyType[str, Ecosystem] = MappingProxyType(_ECOSYSTEMS)
RULES: MappingProxyType[str, Rule] = MappingProxyType({s.rule.id: s.rule for s in SPECS})


def load_renamed(table: Any, rules: Set[str]) -> dict[str, str]:
    """data/renamed-rules.yml's ``renamed`` map, checked: old ids gone, new ids live."""
    renamed = table.get("renamed") if isinstance(table, dict) else None
    if not isinstance(renamed, dict):
        raise RuleFileError("renamed-rules.yml: `renamed` must be a map of old id -> new id")
    for old, new in renamed.items():
        if not (isinstance(old, str) and RULE_ID.match(old)):
            raise RuleFileError(f"renamed-rules.yml: {old!r} is not a rule id")
        if old in rules:
            raise RuleFileError(f"renamed-rules.yml: {old} is a rule today; it cannot redirect")
        if new not in rules:
            raise RuleFileError(f"renamed-rules.yml: {old} -> {new!r}: no such rule")
    return dict(renamed)


#: Old rule id -> the id the rule has now (data/renamed-rules.yml).
RENAMED: MappingProxyType[str, str] = MappingProxyType(load_renamed(_RENAMED_TABLE, RULES.keys()))


def current_id(rule_id: str) -> str:
    """The id a rule has now: ``rule_id`` itself, or what a renamed id became."""
    return RENAMED.get(rule_id, rule_id)


@cache
def _keyword_index(keywords: frozenset[str]) -> KeywordIndex:
    """One index per distinct keyword set: the languages of a lexer family share theirs."""
    return KeywordIndex(keywords)


# Literals of file-level conditions this short are left to ``str.__contains__``: one or two
# characters (``{``, ``__``) occur in most files, often near the start, and would flood the
# keyword automaton with matches.
_LOOKED_UP_MIN = 3
# So are the reserved words of C, C++ and Python (and the preprocessor's directives): a
# condition's ``int``, ``def`` or ``import`` stands in nearly every file of its language,
# where ``in`` finds it at once, and the automaton reported each of its occurrences (a third
# of all its matches on the bench corpus, 0.015 s of CPU).
_EVERYWHERE = frozenset(kwlist) | frozenset(
    "alignas alignof asm auto bool break case catch char class const constexpr continue "  # noqa: SIM905
    "decltype default define delete do double elif else endif enum explicit extern false "
    "float for friend goto if ifdef ifndef include inline int long mutable namespace new "
    "noexcept nullptr operator pragma private protected public register return short signed "
    "sizeof static struct switch template this throw true try typedef typename undef union "
    "unsigned using virtual void volatile while".split()
)


@cache
def _family_keywords(family: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The keywords, in code and in string literals, of the rules of every language of the
    lexer family ``family``; then the literals their file-level conditions look for
    (``literals.looked_up``), which the code keywords include.

    A language's automaton searches for these rather than for its own keywords only: the
    languages of a family share most of them (of the C family's 602, C, C++, CUDA and
    headers hold 541 to 573, HIP and SYCL over 400), and a DFA over 600 keywords takes
    about 4 ms to build, so one per language cost each worker of a census some 20 ms over
    the bench corpus, where one per family costs 4. A keyword only another language's rules
    hold is found and selects no rule (``LanguageRules``): a few percent more matches,
    searched as fast.

    The conditions' literals ride along: the pass that finds the keywords then says which of
    them a file holds, where each was a scan of the whole file (``gl_`` and ``texture``, in
    every C file with a `void`), and most are not there, so each scan ran to the end. So do
    the keywords of the family's language heuristics (``languages.refine``), which a
    header or a .cu file was searched for in a pass of its own.
    """
    languages = {name for name, language in LANGUAGES.items() if language.family.name == family}
    code: set[str] = set()
    strings: set[str] = set()
    looked_up: set[str] = set()
    for spec in SPECS:
        if languages.isdisjoint(spec.languages):
            continue
        if spec.keywords:
            (strings if spec.kind in STRING_KINDS else code).update(spec.keywords)
        for condition in (spec.requires, spec.unless):
            if condition is not None:
                looked_up.update(
                    literal
                    for literal in literals.looked_up(condition)
                    if len(literal) >= _LOOKED_UP_MIN and literal not in _EVERYWHERE
                )
    code |= heuristic_keywords(family)
    return frozenset(code | looked_up), frozenset(strings), frozenset(looked_up)


class LanguageRules:
    """The rules that apply to one language, indexed by the keywords that gate them: in the
    code, or for string kinds, inside a string literal. The keyword indexes are its lexer
    family's (``_family_keywords``), or empty when the language has no such rule."""

    def __init__(self, indexes: list[int], family: str) -> None:
        gated = [i for i in indexes if SPECS[i].keywords]
        strings = [i for i in gated if SPECS[i].kind in STRING_KINDS]
        code = [i for i in gated if i not in strings]
        #: Rules checked on every file of the language.
        self.always = frozenset(i for i in indexes if i not in gated)
        in_code, in_strings, looked_up = _family_keywords(family)
        self.keywords = _keyword_index(in_code if code else frozenset())
        #: Literal -> False for each literal of a condition the keyword automaton looks for:
        #: a file's ``literals`` memo, once the keywords it holds are set True.
        self.unseen = dict.fromkeys(looked_up if code else (), False)
        self.string_keywords = _keyword_index(in_strings if strings else frozenset())
        # The family's keywords no rule of this language holds select none.
        self._by_keyword = dict.fromkeys(in_code, ()) | _by_keyword(code)
        self._by_string_keyword = dict.fromkeys(in_strings, ()) | _by_keyword(strings)

    def candidates(self, in_code: Iterable[str], in_literals: Iterable[str]) -> list[int]:
        """Indexes into SPECS, in registry order, of the rules worth running on a file that
        holds the keywords ``in_code`` in its code and ``in_literals`` in string literals."""
        return sorted(
            self.always.union(
                *map(self._by_keyword.__getitem__, in_code),
                *map(self._by_string_keyword.__getitem__, in_literals),
            )
        )


def _by_keyword(indexes: list[int]) -> dict[str, tuple[int, ...]]:
    """Keyword -> the rules (of ``indexes``) it gates."""
    found: dict[str, list[int]] = {}
    for i in indexes:
        for keyword in SPECS[i].keywords:
            found.setdefault(keyword, []).append(i)
    return {keyword: tuple(rules) for keyword, rules in found.items()}


class _RulesByLanguage(dict[str, LanguageRules]):
    """Each language's rules, indexed the first time a file of that language comes: a scan
    meets a few of the languages, and a keyword automaton costs milliseconds to build. A
    dict all the same, so a lookup of a language already met costs nothing more."""

    def __missing__(self, lang: str) -> LanguageRules:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        indexes = [i for i, s in enumerate(SPECS) if lang in s.languages]
        rules = self[lang] = LanguageRules(indexes, LANGUAGES[lang].family.name)
        return rules


#: Language name -> the rules that apply to it.
RULES_BY_LANGUAGE: dict[str, LanguageRules] = _RulesByLanguage()


def rule(rule_id: str) -> Rule:
    """The registry row ``rule_id`` (KeyError if unknown)."""
    return RULES[rule_id]
