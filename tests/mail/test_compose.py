"""docker-compose.yml is valid and has the production shape the README's
"Production" section describes: PostgreSQL, Redis with AOF and noeviction, web
under gunicorn, a worker for each queue, exactly one beat (a second would only
sweep twice: docs/architecture.md#time-and-deadlines), and Mailpit."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENV = {**os.environ, "SECRET_KEY": "x", "ANYMAIL_WEBHOOK_SECRET": "postmark:" + "k" * 24}


def _compose_command() -> list[str] | None:
    """`docker compose` (v2) if the plugin answers, else `docker-compose` (v1)."""
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


COMPOSE = _compose_command()
needs_compose = pytest.mark.skipif(
    COMPOSE is None, reason="neither `docker compose` nor `docker-compose` is installed (apt install docker-compose)"
)


def _run(*args: str, env=ENV) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*COMPOSE, "-f", str(COMPOSE_FILE), *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )


def _load_yaml(text: str) -> dict:
    """PyYAML from this environment, or from the Python that runs docker-compose v1
    (it depends on PyYAML)."""
    try:
        import yaml
    except ImportError:
        pass
    else:
        return yaml.safe_load(text)
    script = Path(shutil.which("docker-compose")).read_text().splitlines()[0]
    assert script.startswith("#!"), "docker-compose is not a Python script; cannot borrow its PyYAML"
    interpreter = script[2:].strip().split()
    loaded = subprocess.run(
        [*interpreter, "-c", "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"],
        input=text, capture_output=True, text=True, check=True,
    )
    return json.loads(loaded.stdout)


@functools.cache
def _config() -> dict:
    if COMPOSE[:2] == ["docker", "compose"]:
        result = _run("config", "--format", "json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)
    result = _run("config")
    assert result.returncode == 0, result.stderr
    return _load_yaml(result.stdout)


@needs_compose
def test_docker_compose_config_validates():
    result = _run("config", "-q")
    assert result.returncode == 0, result.stderr


@needs_compose
def test_docker_compose_refuses_to_start_without_a_secret_key():
    env = {name: value for name, value in ENV.items() if name != "SECRET_KEY"}
    result = _run("config", "-q", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@needs_compose
def test_docker_compose_refuses_to_start_without_a_webhook_secret():
    env = {name: value for name, value in ENV.items() if name != "ANYMAIL_WEBHOOK_SECRET"}
    result = _run("config", "-q", env=env)
    assert result.returncode != 0
    assert "ANYMAIL_WEBHOOK_SECRET" in result.stderr


@needs_compose
def test_compose_passes_the_webhook_secret_to_web_worker_and_beat():
    services = _config()["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["environment"]["ANYMAIL_WEBHOOK_SECRET"] == ENV["ANYMAIL_WEBHOOK_SECRET"]


@needs_compose
def test_compose_runs_postgres_redis_web_worker_beat_and_mailpit():
    services = _config()["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "mailpit"} <= set(services)

    def command(name: str) -> list[str]:
        value = services[name]["command"]
        return value.split() if isinstance(value, str) else [str(part) for part in value]

    assert command("web")[0] == "gunicorn"
    assert command("worker")[:4] == ["celery", "-A", "versailles_site", "worker"]
    assert command("beat")[:4] == ["celery", "-A", "versailles_site", "beat"]
    assert services.get("beat", {}).get("deploy", {}).get("replicas", 1) == 1
    assert "postgres" in services["postgres"]["image"]
    assert "mailpit" in services["mailpit"]["image"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["REDIS_URL"].startswith("redis://")


@needs_compose
def test_compose_redis_keeps_queued_tasks_with_aof_and_noeviction():
    redis = _config()["services"]["redis"]
    value = redis["command"]
    args = value.split() if isinstance(value, str) else [str(part) for part in value]
    assert args[0] == "redis-server"
    options = dict(zip(args[1::2], args[2::2], strict=False))
    assert options.get("--appendonly") == "yes"
    assert options.get("--maxmemory-policy") == "noeviction"


@needs_compose
def test_compose_consumes_each_queue_with_its_own_worker():
    from django.conf import settings

    services = _config()["services"]

    def queues(name: str) -> str:
        value = services[name]["command"]
        args = value.split() if isinstance(value, str) else [str(part) for part in value]
        return args[args.index("-Q") + 1]

    assert queues("worker") == settings.CELERY_TASK_DEFAULT_QUEUE
    assert queues("mailer") == settings.MAIL_QUEUE
    assert services["mailer"]["environment"]["REDIS_URL"] == services["worker"]["environment"]["REDIS_URL"]
