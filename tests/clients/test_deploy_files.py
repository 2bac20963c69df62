"""deploy/ runs the same processes as ``dicehall up``: one API command, one worker command,
one REDIS_URL, in the Procfile, supervisor, docker-compose and Kubernetes alike; and its
shape scales: the API and workers without fixed host ports or single replicas, Redis with
persistence, ``maxmemory`` and no eviction (issue 14)."""

from __future__ import annotations

import re
import runpy
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from clients.cli.commands import up

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
API = ["gunicorn", "-c", "deploy/gunicorn.conf.py", "service.app:create_app()"]
WORKER = ["python", "-m", "service.worker"]


def k8s_documents() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    return docs


def workload(name: str) -> dict[str, Any]:
    """The Deployment or StatefulSet called ``name``."""
    for doc in k8s_documents():
        if doc["kind"] in ("Deployment", "StatefulSet") and doc["metadata"]["name"] == name:
            return doc
    raise AssertionError(f"no Deployment or StatefulSet {name}")


def containers(name: str) -> list[dict[str, Any]]:
    return workload(name)["spec"]["template"]["spec"]["containers"]


def test_up_starts_the_api_and_worker_commands_deploy_uses() -> None:
    command = up.api_command("127.0.0.1", 8000, None)
    assert command[1:3] == ["-m", "gunicorn"]
    assert command[command.index("-c") + 1] == str(DEPLOY / "gunicorn.conf.py")
    assert command[-1] == API[-1]
    assert up.worker_command()[1:] == WORKER[1:]
    assert up.child_env("redis://example:6379/0", False)["REDIS_URL"] == "redis://example:6379/0"


def test_procfile_runs_the_api_and_the_worker() -> None:
    processes = dict(
        line.split(": ", 1)
        for line in (DEPLOY / "Procfile").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert shlex.split(processes["web"])[1:] == API
    assert shlex.split(processes["worker"]) == WORKER


def test_supervisor_runs_the_api_and_the_worker_with_redis_url() -> None:
    text = (DEPLOY / "supervisord.conf").read_text()
    commands = [line.split("=", 1)[1] for line in text.splitlines() if line.startswith("command=")]
    assert [Path(shlex.split(c)[0]).name for c in commands] == ["gunicorn", "python"]
    assert shlex.split(commands[0])[1:] == API[1:]
    assert shlex.split(commands[1])[1:] == WORKER[1:]
    assert text.count('REDIS_URL="redis://') == 2


def test_compose_services_share_redis_and_run_the_same_commands() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert services["api"]["command"] == API
    assert services["worker"]["command"] == WORKER
    for name in ("api", "worker"):
        assert services[name]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    assert "/v1/health" in " ".join(services["api"]["healthcheck"]["test"])


def test_kubernetes_deployments_run_the_same_commands_with_redis_url() -> None:
    docs = k8s_documents()
    config = next(d for d in docs if d["kind"] == "ConfigMap")
    assert config["data"]["REDIS_URL"].startswith("redis://dicehall-redis:")
    redis_service = next(
        d for d in docs if d["kind"] == "Service" and d["metadata"]["name"] == "dicehall-redis"
    )
    assert redis_service["spec"]["ports"][0]["port"] == 6379
    (api,) = containers("dicehall-api")
    (worker,) = containers("dicehall-worker")
    assert api["command"] == API
    assert worker["command"] == WORKER
    for container in (api, worker):
        assert container["envFrom"] == [{"configMapRef": {"name": config["metadata"]["name"]}}]
    assert api["readinessProbe"]["httpGet"]["path"] == "/v1/health/ready"
    assert api["livenessProbe"]["httpGet"]["path"] == "/v1/health/live"
    assert containers("dicehall-redis")[0]["image"].startswith("redis:")


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    files = {p.name for p in (DEPLOY / "k8s").glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files


def test_health_path_is_in_the_openapi_document() -> None:
    spec = yaml.safe_load((DEPLOY.parent / "openapi.yaml").read_text())
    assert {"/v1/health", "/v1/health/live", "/v1/health/ready"} <= set(spec["paths"])


@pytest.mark.parametrize(
    ("env", "bind", "workers"),
    [
        ({}, "127.0.0.1:8000", 2),
        ({"DICEHALL_BIND": "0.0.0.0:9000", "WEB_CONCURRENCY": "5"}, "0.0.0.0:9000", 5),
    ],
)
def test_gunicorn_config_reads_its_environment(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], bind: str, workers: int
) -> None:
    for name in (
        "DICEHALL_BIND",
        "WEB_CONCURRENCY",
        "DICEHALL_ACCESS_LOG",
        "DICEHALL_WORKER_CLASS",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert (settings["bind"], settings["workers"]) == (bind, workers)
    # waiting long-polls and SSE streams park greenlets instead of pinning a process or thread
    assert settings["worker_class"] == "gevent"
    assert settings["timeout"] > 30  # the longest long-poll wait


def test_gunicorn_access_log_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DICEHALL_ACCESS_LOG", "")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["accesslog"] is None


def redis_settings(words: list[str]) -> dict[str, str]:
    """``--name value`` pairs of a redis-server command line, or ``name value`` lines."""
    pairs = {}
    for index, word in enumerate(words[:-1]):
        if word.startswith("--"):
            pairs[word[2:]] = words[index + 1]
    return pairs


def memory_bytes(amount: str) -> int:
    """``768mb`` (Redis) or ``1Gi`` (Kubernetes) in bytes."""
    number, unit = re.fullmatch(r"(\d+)\s*([A-Za-z]*)", amount).groups()  # type: ignore[union-attr]
    scale = {"": 1, "kb": 1000, "mb": 10**6, "gb": 10**9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return int(number) * scale[unit]


def test_compose_scales_the_api_behind_nginx_without_a_host_port() -> None:
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    # `--scale api=3` fails on a fixed host port: only the proxy publishes one
    assert "ports" not in services["api"]
    assert services["api"]["expose"] == ["8000"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert [p.split(":")[-1] for p in proxy["ports"]] == ["80"]
    (mount,) = proxy["volumes"]
    source = mount.split(":")[0]
    nginx = (DEPLOY / source).read_text()
    # a variable upstream re-resolved through Docker's DNS sees every api container
    assert "resolver 127.0.0.11" in nginx
    assert re.search(r"set \$api http://api:8000;", nginx)
    assert "proxy_pass $api;" in nginx
    assert "proxy_buffering off;" in nginx  # SSE feeds and long-polls pass through at once
    assert services["worker"]["deploy"]["replicas"] >= 2


def test_compose_redis_persists_and_refuses_writes_when_full() -> None:
    redis = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]["redis"]
    settings = redis_settings(redis["command"])
    assert settings["appendonly"] == "yes"
    assert memory_bytes(settings["maxmemory"]) > 0
    assert settings["maxmemory-policy"] == "noeviction"
    assert any(v.endswith(":/data") for v in redis["volumes"])


def test_supervisor_and_procfile_redis_persists_and_refuses_writes_when_full() -> None:
    # they use a Redis of the machine's, whose distribution's default is RDB snapshots only:
    # a crash would lose the moves since the last one. The settings are named for it, and
    # supervisor's own (commented) Redis has them
    supervisor = (DEPLOY / "supervisord.conf").read_text()
    (line,) = [line for line in supervisor.splitlines() if "redis-server" in line and "=" in line]
    settings = redis_settings(shlex.split(line.split("=", 1)[1]))
    assert settings["appendonly"] == "yes"
    assert settings["appendfsync"] == "everysec"
    assert memory_bytes(settings["maxmemory"]) > 0
    assert settings["maxmemory-policy"] == "noeviction"
    indented = [line.lstrip("; ").split(None, 1) for line in supervisor.splitlines()]
    named = {words[0]: words[1] for words in indented if words and words[0] in settings}
    assert named == {k: v for k, v in settings.items() if k not in ("bind", "port", "dir")}
    procfile = (DEPLOY / "Procfile").read_text()
    for setting in ("appendonly yes", "appendfsync everysec", "maxmemory-policy noeviction"):
        assert setting in procfile


def test_kubernetes_api_and_workers_are_scalable_deployments() -> None:
    for name in ("dicehall-api", "dicehall-worker"):
        deployment = workload(name)
        assert deployment["kind"] == "Deployment"
        assert deployment["spec"]["replicas"] >= 2
        (container,) = containers(name)
        assert "hostPort" not in str(container.get("ports", []))
    (api,) = containers("dicehall-api")
    assert api["readinessProbe"]["httpGet"]["path"] == "/v1/health/ready"


def test_kubernetes_redis_is_a_stateful_set_with_aof_and_maxmemory_below_its_limit() -> None:
    redis = workload("dicehall-redis")
    assert redis["kind"] == "StatefulSet"
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    (container,) = containers("dicehall-redis")
    assert {"name": claim["metadata"]["name"], "mountPath": "/data"} in container["volumeMounts"]
    assert container["readinessProbe"]
    config = next(
        d
        for d in k8s_documents()
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "dicehall-redis-config"
    )
    conf_path = container["args"][1]
    mount = next(m for m in container["volumeMounts"] if conf_path.startswith(m["mountPath"]))
    volume = next(
        v for v in redis["spec"]["template"]["spec"]["volumes"] if v["name"] == mount["name"]
    )
    assert volume["configMap"]["name"] == "dicehall-redis-config"
    lines = config["data"][Path(conf_path).name].splitlines()
    settings = dict(
        line.split(None, 1) for line in lines if line.strip() and not line.startswith("#")
    )
    assert settings["appendonly"] == "yes"
    assert settings["dir"] == "/data"
    assert settings["maxmemory-policy"] == "noeviction"
    limit = memory_bytes(container["resources"]["limits"]["memory"])
    assert 0 < memory_bytes(settings["maxmemory"]) < limit


URL = re.compile(r"\b(redis[+\w]*)://[\w:@\[][^\s`'\"]*")
"""A Redis URL with a host (not a placeholder like ``redis+cluster://...``)."""


def test_every_redis_url_the_deploy_files_suggest_has_a_scheme_dicehall_reads() -> None:
    texts = [p.read_text() for p in sorted(DEPLOY.rglob("*")) if p.is_file()]
    schemes = {match.group(1) for text in texts for match in URL.finditer(text)}
    assert schemes <= {"redis", "redis+cluster", "redis+sentinel"}, schemes
    assert "redis+cluster" in schemes and "redis+sentinel" in schemes


DEPLOY_DOC = DEPLOY.parent / "docs" / "DEPLOY.md"


def deploy_doc_commands() -> list[list[str]]:
    """The docker and kubectl commands of docs/DEPLOY.md's blocks (run where Docker or a
    cluster is; here their files and names are checked)."""
    from tests.docs.doctest_blocks import blocks, shell_commands

    commands = []
    for block in blocks("docs/DEPLOY.md"):
        if block.kind == "tested-by":
            assert block.argument == "tests/clients/test_deploy_files.py"
            commands += [shlex.split(line) for line in shell_commands(block.body)]
    return commands


def option(words: list[str], name: str) -> list[str]:
    return [words[i + 1] for i, word in enumerate(words[:-1]) if word == name]


def test_deploy_doc_docker_commands_name_files_and_services_that_exist() -> None:
    commands = [w for w in deploy_doc_commands() if w[0] == "docker"]
    assert any("compose" in w for w in commands) and any("build" in w for w in commands)
    for words in commands:
        for path in option(words, "-f"):
            assert (DEPLOY.parent / path).is_file(), words
        if "compose" in words:
            (path,) = option(words, "-f")
            services = yaml.safe_load((DEPLOY.parent / path).read_text())["services"]
            scaled = [s.split("=")[0] for s in option(words, "--scale")]
            assert scaled and set(scaled) <= set(services), words
            assert all("ports" not in services[name] for name in scaled), words


def test_deploy_doc_kubectl_commands_name_the_manifests_namespace_and_deployments() -> None:
    commands = [w for w in deploy_doc_commands() if w[0] == "kubectl"]
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    deployments = {d["metadata"]["name"] for d in k8s_documents() if d["kind"] == "Deployment"}
    assert commands
    for words in commands:
        for directory in option(words, "-k"):
            assert (DEPLOY.parent / directory / "kustomization.yaml").is_file(), words
        for namespace in option(words, "-n"):
            assert namespace == kustomization["namespace"], words
        for target in (w for w in words if w.startswith("deployment/")):
            assert target.removeprefix("deployment/") in deployments, words
        if "scale" in words:
            assert [w for w in words if w.startswith("--replicas=")], words


def test_every_redis_url_in_the_deploy_doc_and_manifests_parses() -> None:
    from service.connections import parse

    texts = [DEPLOY_DOC.read_text()] + [
        p.read_text() for p in sorted(DEPLOY.rglob("*")) if p.is_file()
    ]
    urls = {match.group(0) for text in texts for match in URL.finditer(text)}
    kinds = {parse(url.rstrip(".,;)|")).kind for url in urls}
    assert kinds == {"single", "cluster", "sentinel"}, urls


def test_every_setting_the_deploy_doc_names_is_read_by_the_service() -> None:
    named = set(re.findall(r"^\| `([A-Z_]+)`", DEPLOY_DOC.read_text(), re.M))
    named |= set(re.findall(r"^\| `[A-Z_]+`, `([A-Z_]+)`", DEPLOY_DOC.read_text(), re.M))
    read = "".join(p.read_text() for p in (DEPLOY.parent / "service").rglob("*.py"))
    read += (DEPLOY / "gunicorn.conf.py").read_text()
    assert len(named) >= 8
    assert {name for name in named if f'"{name}"' not in read} == set()
