"""The package as a user gets it: an sdist and a wheel built from this checkout, installed in
a fresh virtual environment (dependencies from the package index), run from outside the
source tree with the README's own command lines; and the GitHub Action's install step run
for real. Install times are printed (`pytest -s`) for the record, never asserted."""

from __future__ import annotations

import email.parser
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import DISTRIBUTION
from tests.action.runner import ActionRun, Cache, run_action
from tests.action.test_action import Upstream, pull_request_event
from tests.cli.gitrepo import commit, git, init
from tests.cli.test_cli import KERNEL, POLICY
from tests.support.readme import commands

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DATA_SUFFIXES = {".yml", ".yaml", ".json", ".html", ".svg"}
#: The App's dependencies (the `app` extra), and the modules they install.
SERVER_STACK = {"aiohttp", "gidgethub", "sqlalchemy", "alembic", "aiosqlite", "jinja2", "pyjwt"}
SERVER_MODULES = {"aiohttp", "gidgethub", "sqlalchemy", "alembic", "aiosqlite", "jinja2", "jwt"}


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: nothing pointing into this checkout."""
    keep = ("PATH", "HOME", "LANG", "TMPDIR", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL")
    return {name: os.environ[name] for name in keep if name in os.environ} | extra


@dataclass
class Dist:
    sdist: Path
    wheel: Path


@dataclass
class Installed:
    bin: Path
    wheel: Path
    seconds: float

    def run(self, line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
        """A README command line, its first word taken from the environment's bin."""
        words = shlex.split(line)
        return _run([str(self.bin / words[0]), *words[1:]], cwd=cwd, env=_clean_env(**env))


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    out = tmp_path_factory.mktemp("dist")
    # The sdist first, then the wheel built from the unpacked sdist: the sdist is complete.
    built = _run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)])
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = out.glob("lockin_gpu-*.tar.gz")
    (wheel,) = out.glob("lockin_gpu-*.whl")
    print(f"\nwheel {wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB")
    return Dist(sdist, wheel)


@pytest.fixture(scope="module")
def installed(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    venv = tmp_path_factory.mktemp("user") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    environment = Installed(venv / "bin", dist.wheel, 0.0)
    # The README's install line, the package name replaced by the wheel just built.
    (install,) = [line for line in commands("Command line") if line.startswith("pip install")]
    assert shlex.split(install) == ["pip", "install", DISTRIBUTION]
    started = time.monotonic()
    done = environment.run(f"pip install --quiet {dist.wheel}", cwd=venv)
    environment.seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    print(
        f"\nfresh venv: pip install of the wheel and its dependencies {environment.seconds:.0f} s,"
        f" {_megabytes(venv):.0f} MB"
    )
    return environment


def _megabytes(path: Path) -> float:
    return (
        sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6
    )


def _package_data() -> set[str]:
    """The data files of the package in this checkout: rules, schemas, templates."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "bot").rglob("*")
        if path.suffix in DATA_SUFFIXES and "__pycache__" not in path.parts
    }


def test_wheel_holds_the_code_rules_schemas_templates_and_app_manifest(dist: Dist) -> None:
    names = set(zipfile.ZipFile(dist.wheel).namelist())
    data = _package_data()
    assert "bot/policy/lockin.schema.json" in data
    assert any(name.startswith("bot/engine/data/rules/") for name in data)
    assert any(name.startswith("bot/server/templates/") for name in data)
    assert data <= names
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "bot").rglob("*.py")}
    assert sources <= names
    assert not {name for name in names if name.startswith("tests/")}
    # The App manifest's one source is the top-level app.yml; the wheel carries it unchanged.
    packaged = zipfile.ZipFile(dist.wheel).read("bot/server/app.yml")
    assert packaged == (ROOT / "app.yml").read_bytes()


def test_wheel_metadata_fits_a_package_index(dist: Dist) -> None:
    with zipfile.ZipFile(dist.wheel) as wheel:
        (meta_name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        meta = email.parser.Parser().parsestr(wheel.read(meta_name).decode())
        (entry_name,) = [n for n in wheel.namelist() if n.endswith("entry_points.txt")]
        entry_points = wheel.read(entry_name).decode()
    assert meta["Name"] == DISTRIBUTION
    assert meta["Version"] not in ("", "0.0.0")
    assert 20 < len(meta["Summary"]) <= 200
    assert meta["License-Expression"] == "MIT"
    # 3.11.5: before it, CPython's possessive quantifiers, which the rules use, could match
    # where the pattern without them does not (gh-106052): wrong verdicts, no error.
    assert meta["Requires-Python"] == ">=3.11.5"
    classifiers = meta.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(c.startswith("Topic ::") for c in classifiers)
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    assert (
        meta.get_content_type() == "text/markdown" or "markdown" in meta["Description-Content-Type"]
    )
    assert "lockin = bot.cli:run" in entry_points
    assert dist.wheel.name.startswith(f"lockin_gpu-{meta['Version']}-")
    # The command line alone by default; the App's server stack is an extra.
    requires = meta.get_all("Requires-Dist") or []
    plain = {
        r.split(";")[0].split(">")[0].split("[")[0].strip() for r in requires if "extra ==" not in r
    }
    assert not plain & SERVER_STACK, plain
    assert {"aiohttp", "gidgethub", "sqlalchemy"} <= {
        r.split(">")[0].split("[")[0].strip() for r in requires if 'extra == "app"' in r
    }
    # The Action's reads of reviews: the GitHub client without the rest of the server.
    assert {"aiohttp", "gidgethub", "pyjwt"} == {
        r.split(">")[0].split("[")[0].strip() for r in requires if 'extra == "github"' in r
    }


def test_sdist_holds_what_the_wheel_is_built_from_and_the_glue(dist: Dist) -> None:
    with tarfile.open(dist.sdist) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {
        "pyproject.toml",
        "README.md",
        "PKG-INFO",
        "action.yml",
        ".pre-commit-hooks.yaml",
    } <= names
    assert _package_data() <= names
    assert "examples/workflows/lockin.yml" in names
    assert not {name for name in names if name.startswith((".venv/", "bench/corpus/"))}


def test_installed_package_runs_from_outside_the_checkout(
    installed: Installed, tmp_path: Path
) -> None:
    where = installed.run("python -c 'import bot; print(bot.__file__)'", cwd=tmp_path)
    assert where.stdout.startswith(str(installed.bin.parent)), where.stdout
    version = installed.run("lockin --version", cwd=tmp_path)
    assert version.returncode == 0
    wheel_version = installed.wheel.name.split("-")[1]
    assert version.stdout.strip() == f"lockin {wheel_version}"
    scan = installed.run(f"lockin scan {ROOT / 'examples' / 'repo'} --format json", cwd=tmp_path)
    assert scan.returncode == 0, scan.stderr
    totals = json.loads(scan.stdout)["totals"]
    assert totals["layers"]["kernel"] > 0
    assert totals["nvidia_locked_lines"] > 0
    serve = installed.run("lockin serve --help", cwd=tmp_path)
    assert serve.returncode == 0, serve.stderr
    assert "usage: lockin serve" in serve.stdout
    assert "WEBHOOK_SECRET" in serve.stdout


def test_a_plain_install_is_the_cli_without_the_server_stack(
    installed: Installed, tmp_path: Path
) -> None:
    modules = sorted(SERVER_MODULES)
    probe = f"import importlib.util as u; print(*[m for m in {modules!r} if u.find_spec(m)])"
    stack = _run([str(installed.bin / "python"), "-c", probe], cwd=tmp_path, env=_clean_env())
    assert stack.returncode == 0, stack.stderr
    assert stack.stdout.split() == []
    for line in (
        f"lockin scan {EXAMPLES / 'repo'}",
        f"lockin diff {EXAMPLES / 'change' / 'before'} {EXAMPLES / 'change' / 'after'}",
        f"lockin report {EXAMPLES / 'repo'} -o {tmp_path / 'report.html'}",
        "lockin rules cuda.kernel",
    ):
        result = installed.run(line, cwd=tmp_path)
        assert result.returncode in (0, 1), (line, result.stderr)
        assert "Traceback" not in result.stderr
    serve = installed.run("lockin serve", cwd=tmp_path)
    assert serve.returncode == 2
    assert serve.stderr.count("\n") == 1, serve.stderr
    assert f"pip install '{DISTRIBUTION}[app]'" in serve.stderr


def test_readme_command_line_section_runs_as_written(installed: Installed, tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {".github/lockin.yml": POLICY, "model.py": "import torch\n"}, "base")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"ops/new.cu": KERNEL}, "a kernel")
    lines = [line for line in commands("Command line") if line.startswith("lockin ")]
    assert len(lines) >= 2
    for line in lines:
        result = installed.run(line.replace("path/to/repo", str(repo)), cwd=tmp_path)
        expected = 1 if line.startswith("lockin diff") else 0  # HEAD adds an undecided kernel
        assert result.returncode == expected, (line, result.stderr)
        assert "ops/new.cu" in result.stdout or "could not move off NVIDIA" in result.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_readme_app_section_serves_the_setup_page_from_the_packaged_manifest(
    installed: Installed, tmp_path: Path
) -> None:
    install, serve = commands("GitHub App")
    assert shlex.split(install) == ["pip", "install", f"{DISTRIBUTION}[app]"]
    done = installed.run(f"pip install --quiet '{installed.wheel}[app]'", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    *assignments, program, command = shlex.split(serve)
    assert (program, command) == ("lockin", "serve")
    env = dict(a.split("=", 1) for a in assignments)
    port = _free_port()
    # An empty working directory: no app.yml, no .env. The manifest is the package's own.
    # The setup page asks every visitor for the setup token (a reverse tunnel looks local).
    token = "packaged-setup-token"
    process = subprocess.Popen(
        [str(installed.bin / "lockin"), "serve"],
        cwd=tmp_path,
        env=_clean_env(**env, HOST="127.0.0.1", PORT=str(port), SETUP_TOKEN=token),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        page = _poll(f"http://127.0.0.1:{port}/setup?token={token}", process)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    assert "Register GitHub App" in page
    assert "lockin.example.com" in page  # the webhook URL from BASE_URL, in the manifest


def _poll(url: str, process: subprocess.Popen) -> str:
    """The page once the server answers; fails if the server exits first or refuses. Cookies
    are kept, as a browser keeps the setup page's token cookie across its redirect."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    while True:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
        try:
            with opener.open(url, timeout=5) as response:
                return response.read().decode()
        except urllib.error.HTTPError as refused:  # an answer, not a server still starting
            raise AssertionError(f"{url}: {refused.code} {refused.read().decode()[:500]}") from None
        except OSError:
            time.sleep(0.1)


def test_action_install_step_installs_lockin_once_then_restores_it_from_the_cache(
    tmp_path: Path,
) -> None:
    upstream = Upstream(tmp_path)
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    # The action's repository as github.com serves its tags: `v1` moves with each release.
    server = tmp_path / "server"
    releases = init(server / "lockin-dev" / "lockin")
    commit(releases, {"a": "1\n"}, "release")
    git(releases, "tag", "v1.2.3")
    git(releases, "tag", "v1")
    cache = Cache(tmp_path / "actions-cache")
    tool_cache = tmp_path / "hostedtoolcache"

    def run(temp: Path) -> tuple[float, ActionRun]:
        temp.mkdir()
        started = time.monotonic()
        done = run_action(
            workspace=upstream.clone(),
            temp=temp,
            event_name="pull_request",
            event_path=pull_request_event(tmp_path, upstream.base, head),
            # No LOCKIN_PYTHON: the real install.
            environ={
                "PATH": _clean_env()["PATH"],
                "GITHUB_SERVER_URL": server.as_uri(),
                "RUNNER_TOOL_CACHE": str(tool_cache),
            },
            action_ref="v1",  # `uses: ...@v1`: the action's source has no .git
            cache=cache,
        )
        return time.monotonic() - started, done

    first_seconds, first = run(tmp_path / "runner-temp-1")
    python = first.steps["install"]["python"]
    assert python.startswith(f"{tool_cache}/lockin/lockin-"), python
    assert (first.code, first.outputs["verdict"]) == (1, "failure"), first.stderr[-3000:]
    assert first.steps["cache"] == {"cache-hit": "false"}
    assert first.steps["install"]["save"]  # saved although the gate failed the job
    where = _run([python, "-c", "import bot; print(bot.__file__)"], cwd=tmp_path, env=_clean_env())
    assert where.stdout.startswith(str(tool_cache)), where.stdout
    version = _run([str(Path(python).parent / "lockin"), "--version"], env=_clean_env())
    assert version.stdout.strip() == "lockin 1.2.3"
    assert first.outputs["version"] == "1.2.3"

    # A fresh runner: nothing kept but the Actions cache.
    shutil.rmtree(tool_cache)
    second_seconds, second = run(tmp_path / "runner-temp-2")
    assert second.steps["cache"] == {"cache-hit": "true"}
    assert "save" not in second.steps["install"]
    assert second.steps["install"]["python"] == python
    assert (second.code, second.outputs["version"]) == (1, "1.2.3"), second.stderr[-3000:]
    installs = [
        sum(run.seconds[s] for s in ("prepare", "cache", "install")) for run in (first, second)
    ]
    print(
        f"\naction run with the install: {first_seconds:.1f} s (install steps "
        f"{installs[0]:.1f} s); on a fresh runner with the cache: {second_seconds:.1f} s "
        f"(install steps {installs[1]:.1f} s: {second.seconds})"
    )
