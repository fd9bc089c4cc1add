"""deploy/ agrees with the server: ports, probe paths, setting names and the command it runs.

Nothing here is a copied constant: ports and setting names come from the settings loader, probe
paths from the real app's router, and the container's health check is run against a live server.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from bot.runtime.settings import Settings, SettingsError
from bot.server.app import create_app
from tests.deploy.conftest import REPO_ROOT, StartServer
from tests.fakegithub.auth import generate_private_key

DEPLOY = REPO_ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
LOCKIN_SERVE = ["lockin", "serve"]


# -- readers -----------------------------------------------------------------------------------
def _kubernetes_documents() -> list[dict[str, Any]]:
    docs = []
    for path in sorted(KUBERNETES.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            assert isinstance(doc, dict), path
            docs.append(doc)
    return docs


def _one(kind: str) -> dict[str, Any]:
    (doc,) = [d for d in _kubernetes_documents() if d["kind"] == kind]
    return doc


def _container() -> dict[str, Any]:
    (container,) = _one("Deployment")["spec"]["template"]["spec"]["containers"]
    return container


def _dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    logical, pending = [], ""
    for line in (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    return [(text.split(None, 1)[0].upper(), text.split(None, 1)[1].strip()) for text in logical]


def _final_stage() -> list[tuple[str, str]]:
    instructions = _dockerfile_instructions()
    last_from = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    return instructions[last_from:]


def _dockerfile_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for op, args in stage:
        if op == "ENV":
            env.update(word.split("=", 1) for word in shlex.split(args))
    return env


def _systemd_unit() -> dict[str, list[tuple[str, str]]]:
    """Sections of the unit; a key may repeat (SystemCallFilter=), so values stay in order."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    text = (DEPLOY / "systemd" / "lockin.service").read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def _values(section: list[tuple[str, str]], key: str) -> list[str]:
    return [v for k, v in section if k == key]


def _env_names(container: Mapping[str, Any]) -> Iterator[str]:
    for entry in container.get("env", []):
        yield entry["name"]


def _container_environment() -> dict[str, str]:
    """What the Deployment puts in the container's environment, Secret values from the example."""
    container = _container()
    configmaps = {
        d["metadata"]["name"]: d["data"]
        for d in _kubernetes_documents()
        if d["kind"] == "ConfigMap"
    }
    secrets = {
        d["metadata"]["name"]: d["stringData"]
        for d in _kubernetes_documents()
        if d["kind"] == "Secret"
    }
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(configmaps[source["configMapRef"]["name"]])
    for entry in container.get("env", []):
        if "value" in entry:
            env[entry["name"]] = entry["value"]
        else:
            ref = entry["valueFrom"]["secretKeyRef"]
            env[entry["name"]] = secrets[ref["name"]][ref["key"]]
    return env


def _defaults() -> Settings:
    return Settings.from_env({}, env_file=None)


def _assert_settings_read(environ: Mapping[str, str]) -> Settings:
    """Every name is one the loader reads: taking it away changes where a setting came from."""
    settings = Settings.from_env(environ, env_file=None)
    for name in environ:
        other = _sources_or_error({k: v for k, v in environ.items() if k != name})
        if isinstance(other, str):  # e.g. APP_ID without PRIVATE_KEY: the error names it
            assert "missing" in other, name
        else:
            assert other != settings.sources, f"{name} is not a setting the server reads"
    return settings


def _sources_or_error(environ: Mapping[str, str]) -> dict[str, str] | str:
    try:
        return Settings.from_env(environ, env_file=None).sources
    except SettingsError as exc:
        return str(exc)


def _routes() -> set[str]:
    app = create_app(_defaults())
    return {resource.canonical for resource in app.router.resources()}


# -- Kubernetes ----------------------------------------------------------------------------------
def test_every_kubernetes_manifest_parses_and_names_itself() -> None:
    docs = _kubernetes_documents()
    kinds = sorted(d["kind"] for d in docs)
    assert kinds == sorted(
        [
            "ConfigMap",
            "Deployment",
            "HorizontalPodAutoscaler",
            "Kustomization",
            "PodDisruptionBudget",
            "Secret",
            "Service",
        ]
    )
    for doc in docs:
        assert doc["apiVersion"], doc
        assert doc["kind"] == "Kustomization" or doc["metadata"]["name"] == "lockin", doc
    assert _one("HorizontalPodAutoscaler")["apiVersion"] == "autoscaling/v2"


def test_kustomization_lists_every_manifest_but_the_secret_example() -> None:
    listed = set(_one("Kustomization")["resources"])
    on_disk = {p.name for p in KUBERNETES.glob("*.yaml")}
    assert listed == on_disk - {"kustomization.yaml", "secret.example.yaml"}


def test_deployment_port_and_probes_match_the_server() -> None:
    container = _container()
    settings = _assert_settings_read(_container_with_real_key())
    (port,) = container["ports"]
    assert port["containerPort"] == settings.port == _defaults().port
    routes = _routes()
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        check = container[probe]["httpGet"]
        assert check["path"] == path
        assert check["path"] in routes
        assert check["port"] in (port["name"], port["containerPort"])


def _container_with_real_key() -> dict[str, str]:
    env = _container_environment()
    env["PRIVATE_KEY"] = generate_private_key()[0]
    return env


def test_deployment_environment_is_settings_the_server_reads() -> None:
    env = _container_with_real_key()
    settings = _assert_settings_read(env)
    assert settings.configured
    secret_keys = set(_one("Secret")["stringData"])
    from_secret = {e["name"] for e in _container().get("env", []) if "valueFrom" in e}
    assert from_secret == secret_keys == {"APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET"}
    # The optional Redis setting (issue 7) is documented in the ConfigMap under its real name.
    configmap = (KUBERNETES / "configmap.yaml").read_text(encoding="utf-8")
    assert "# REDIS_URL:" in configmap
    assert Settings.from_env({"REDIS_URL": "redis://r:6379/0"}, env_file=None).redis_url


def test_deployment_runs_lockin_serve_as_non_root_on_a_read_only_root() -> None:
    container = _container()
    pod = _one("Deployment")["spec"]["template"]["spec"]
    assert container.get("command", []) + container.get("args", []) == LOCKIN_SERVE
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["resources"]["requests"]["cpu"]
    assert container["resources"]["limits"]["memory"]
    # Room for the server's own drain before Kubernetes kills the pod.
    assert pod["terminationGracePeriodSeconds"] > _defaults().shutdown_timeout


def test_service_hpa_and_pdb_point_at_the_deployment() -> None:
    deployment = _one("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    service, pdb, hpa = (
        _one("Service"),
        _one("PodDisruptionBudget"),
        _one("HorizontalPodAutoscaler"),
    )
    assert service["spec"]["selector"].items() <= labels.items()
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    (port,) = _container()["ports"]
    assert service["spec"]["ports"][0]["targetPort"] in (port["name"], port["containerPort"])
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    assert hpa["spec"]["minReplicas"] > pdb["spec"]["minAvailable"]


# -- Dockerfile ----------------------------------------------------------------------------------
def test_dockerfile_is_multi_stage_and_runs_lockin_serve_as_non_root() -> None:
    instructions = _dockerfile_instructions()
    assert sum(op == "FROM" for op, _ in instructions) >= 2
    final = _final_stage()
    ops = dict(final)
    assert json.loads(ops["CMD"]) == LOCKIN_SERVE
    user = [args for op, args in final if op == "USER"][-1]
    assert user.split(":")[0] not in ("root", "0")
    assert "ENTRYPOINT" not in ops
    # The final stage installs wheels built by the builder; it compiles nothing.
    final_text = " ".join(args for _, args in final)
    assert "from=builder" in final_text
    for tool in ("gcc", "build-essential", "apt-get install", "pip wheel"):
        assert tool not in final_text, tool


def test_dockerfile_port_and_environment_match_the_server() -> None:
    final = _final_stage()
    env = _dockerfile_env(final)
    server_env = {k: v for k, v in env.items() if not k.startswith(("PYTHON", "PIP_"))}
    settings = _assert_settings_read(server_env)
    exposed = [args for op, args in final if op == "EXPOSE"]
    assert exposed == [str(settings.port)]
    assert settings.port == _defaults().port
    assert settings.host == "0.0.0.0"  # reachable from outside the container


async def test_dockerfile_healthcheck_passes_against_a_live_server_and_fails_without(
    start_server: StartServer,
) -> None:
    healthcheck = dict(_final_stage())["HEALTHCHECK"]
    argv = json.loads(healthcheck.split("CMD", 1)[1])
    assert argv[:2] == ["python", "-c"]
    assert "/healthz" in argv[2]
    assert "/healthz" in _routes()
    server = await start_server()
    port = server.url.rsplit(":", 1)[1]
    command = [sys.executable, *argv[1:]]
    ok = await _run(command, {"PORT": port})
    assert ok.returncode == 0, ok.stderr
    closed = await _run(command, {"PORT": "1"})
    assert closed.returncode != 0


async def _run(argv: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    process = await asyncio.create_subprocess_exec(
        *argv,
        env={"PATH": os.environ["PATH"], **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    return subprocess.CompletedProcess(argv, process.returncode or 0, out.decode(), err.decode())


def test_docker_build_context_excludes_secrets_and_the_venv() -> None:
    ignore = (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
    assert "*" in ignore  # allow-list: everything else is excluded, .env and .venv included
    copied = {
        word.rstrip("/")
        for op, args in _dockerfile_instructions()
        if op == "COPY" and "--from" not in args
        for word in args.split()[:-1]
        if not word.startswith("--")
    }
    assert copied <= {line.lstrip("!").rstrip("/") for line in ignore if line.startswith("!")}
    # What building the wheel needs: the project file, its readme, the package, and the build
    # hook with the manifest it copies into the package (app.yml, the setup page's template).
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = project["tool"]["setuptools"]["packages"]["find"]["include"]
    needed = {"pyproject.toml", project["project"]["readme"], "setup.py", "app.yml"}
    needed |= {pattern.rstrip("*") for pattern in packages}
    assert needed <= copied


# -- systemd and the command itself --------------------------------------------------------------
def test_systemd_unit_runs_lockin_serve_hardened() -> None:
    unit = _systemd_unit()
    service = unit["Service"]
    (exec_start,) = _values(service, "ExecStart")
    argv = shlex.split(exec_start)
    assert [Path(argv[0]).name, *argv[1:]] == LOCKIN_SERVE
    assert _values(service, "EnvironmentFile")
    # lockin reads the credentials' .env from its working directory: the state directory.
    (state,) = _values(service, "StateDirectory")
    assert _values(service, "WorkingDirectory") == [f"/var/lib/{state}"]
    assert _values(service, "User") not in ([], ["root"])
    for key, value in (
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("CapabilityBoundingSet", ""),
    ):
        assert _values(service, key) == [value], key
    environment = dict(v.split("=", 1) for v in _values(service, "Environment"))
    _assert_settings_read(environment)
    assert unit["Install"] == [("WantedBy", "multi-user.target")]


def test_lockin_serve_is_the_installed_command() -> None:
    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert LOCKIN_SERVE[0] in scripts
    done = subprocess.run(
        [sys.executable, "-m", "bot", *LOCKIN_SERVE[1:], "--help"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "lockin serve" in done.stdout


def test_deploy_files_hold_no_real_key() -> None:
    """The Secret example has placeholders only: a real key would start its base64 with MII."""
    files = [p for p in DEPLOY.rglob("*") if p.is_file()]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"PRIVATE KEY-----\s*MII", text), path


def test_redis_overlay_adds_a_worker_that_reads_the_same_settings_and_redis_url() -> None:
    overlay = DEPLOY / "kubernetes-redis"
    kustomization = yaml.safe_load((overlay / "kustomization.yaml").read_text(encoding="utf-8"))
    assert "../kubernetes" in kustomization["resources"]
    for name in [*kustomization["resources"][1:], *(p["path"] for p in kustomization["patches"])]:
        assert (overlay / name).is_file(), name
    worker = yaml.safe_load((overlay / "worker.yaml").read_text(encoding="utf-8"))
    pod = worker["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    assert container["args"] == ["lockin", "worker"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    # The worker takes the web Deployment's credentials and ConfigMap, patched with REDIS_URL.
    secrets = [e for e in _container()["env"] if "valueFrom" in e]
    assert container["env"] == secrets
    assert container["envFrom"] == _container()["envFrom"]
    patch = yaml.safe_load((overlay / "redis-url.yaml").read_text(encoding="utf-8"))
    assert patch["metadata"]["name"] == _one("ConfigMap")["metadata"]["name"]
    env = {**_container_with_real_key(), **patch["data"]}
    settings = Settings.from_env(env, env_file=None)
    assert settings.configured
    assert settings.redis_url == patch["data"]["REDIS_URL"]
    assert pod["terminationGracePeriodSeconds"] > settings.shutdown_timeout
