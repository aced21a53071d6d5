"""A real Celery worker in a subprocess, pointed at the test database.

No eager mode: the test process enqueues through the broker exactly as the web
process does (games.services.enqueue with TASKS_INLINE off), and a separate worker
process picks the tasks up, so the enqueue-after-commit rule, acks_late and the
outbox are exercised for real.

Each test gets its own VAR_DIR (the dev mailbox) and the broker of its test
process (tests/parallel.py): the filesystem broker's folders under the
process's VAR_DIR, or, when REDIS_URL is set, the process's own Redis
database, emptied before and after, so neither a developer's `make run` nor
another xdist worker shares a queue with it.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests import parallel
from versailles_site.celery import app

BASE_DIR = Path(__file__).resolve().parent.parent
READY_TIMEOUT = 40.0


def wait_until(
    predicate: Callable[[], object],
    *,
    timeout: float = 30.0,
    what: Callable[[], str] | str = "condition",
    every: float = 0.1,
):
    """Poll ``predicate`` until it returns something truthy; return that.
    ``what`` says, on timeout, what was awaited (a callable: worked out then)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what() if callable(what) else what}")
        time.sleep(every)


def database_env() -> dict[str, str]:
    """Environment that makes another process open this test's database."""
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return {"SQLITE_PATH": str(name)}
    parts = urlsplit(os.environ["DATABASE_URL"].strip())
    return {"DATABASE_URL": urlunsplit(parts._replace(path=f"/{name}"))}


def _broker_folders() -> dict[str, Path]:
    """The filesystem broker's folders of this test process, as the settings
    made them under its VAR_DIR (tests/parallel.py)."""
    options = app.conf.broker_transport_options
    return {
        "queue": Path(options["data_folder_in"]),
        "processed": Path(options["processed_folder"]),
        "control": Path(options["control_folder"]),
    }


def _emptied(folders: dict[str, Path]) -> None:
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)


@dataclass
class CeleryEnv:
    """Where this test's worker keeps its broker folder and mailbox."""

    var_dir: Path
    env: dict[str, str]
    redis_url: str | None

    @property
    def mail_dir(self) -> Path:
        return self.var_dir / "mail"

    def mails(self) -> list[email.message.EmailMessage]:
        if not self.mail_dir.is_dir():
            return []
        return [
            email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            for path in sorted(self.mail_dir.glob("*.eml"))
        ]

    def recipients(self) -> list[str]:
        # The addresses alone: the To header names the player too.
        return sorted(address.addr_spec for message in self.mails() for address in message["To"].addresses)

    def flush_redis(self) -> None:
        import redis

        redis.Redis.from_url(self.redis_url).flushdb()

    def run(self, code: str) -> subprocess.Popen:
        """Start ``manage.py shell -c code`` against this test's database and broker."""
        return subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=BASE_DIR,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )


@pytest.fixture
def celery_env(transactional_db, settings, tmp_path) -> Iterator[CeleryEnv]:
    """Test process and worker share a database and a broker of this test's own."""
    settings.TASKS_INLINE = False
    var_dir = tmp_path / "var"
    var_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH", "EMAIL_PROVIDER")}
    env.update(database_env())
    env.update(
        # The site's settings, but polling the filesystem broker ten times a second.
        DJANGO_SETTINGS_MODULE="tests.worker_settings",
        VAR_DIR=str(var_dir),
        PYTHONUNBUFFERED="1",
    )
    # The worker takes its tasks from the broker this process's Celery app
    # publishes to as the settings made it, this process's own
    # (tests/parallel.py), emptied before and after: the app's connections
    # are never pointed elsewhere.
    redis_url = parallel.redis_url("app")
    if redis_url:
        assert app.conf.broker_url == redis_url, app.conf.broker_url
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
        folders = _broker_folders()
        assert app.conf.broker_url == "filesystem://" and folders["queue"].parent.parent == parallel.VAR_DIR
        env["TEST_BROKER_DIR"] = str(folders["queue"].parent)
        _emptied(folders)
    celery = CeleryEnv(var_dir=var_dir, env=env, redis_url=redis_url)
    if redis_url:
        celery.flush_redis()
    yield celery
    if redis_url:
        celery.flush_redis()
    else:
        _emptied(folders)


@dataclass
class Worker:
    """One `celery worker` process; its output goes to a log file."""

    env: CeleryEnv
    pool: str
    log_path: Path
    # Empty: every queue the settings declare, as `make run` starts it.
    queues: tuple[str, ...] = ()
    process: subprocess.Popen | None = None
    _log_start: int = 0
    _started: list = field(default_factory=list)

    def start(self) -> Worker:
        assert self.process is None or self.process.poll() is not None, "worker already running"
        self._log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        command = [
            sys.executable, "-m", "celery", "-A", "versailles_site", "worker",
            f"--pool={self.pool}", "--concurrency=1", "-l", "INFO",
            "-n", f"test-{uuid.uuid4().hex[:8]}@%h",
            # Nothing to gossip with or wait for: start faster.
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]
        if self.queues:
            command += ["-Q", ",".join(self.queues)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=BASE_DIR, env=self.env.env, stdout=log, stderr=subprocess.STDOUT
            )
        self._started.append(self.process)
        wait_until(self._ready, timeout=READY_TIMEOUT, what=f"the Celery worker to be ready:\n{self.log()}")
        return self

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the Celery worker exited with {self.process.returncode}:\n{self.log()}")
        return " ready." in self.log(since_start=True)

    def log(self, since_start: bool = False) -> str:
        if not self.log_path.exists():
            return ""
        data = self.log_path.read_bytes()
        return data[self._log_start:].decode(errors="replace") if since_start else data.decode(errors="replace")

    def wait_for_log(self, text: str, timeout: float = 30.0, count: int = 1) -> None:
        wait_until(
            lambda: self.log(since_start=True).count(text) >= count,
            timeout=timeout,
            what=f"{text!r} in the worker log:\n{self.log()}",
        )

    def results(self, task_name: str) -> list[str]:
        """What each finished run of ``task_name`` returned, as logged, in order."""
        pattern = re.compile(rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded in [0-9.e-]+s: (.*)$", re.M)
        return pattern.findall(self.log())

    def pool_child(self) -> int:
        """The pid of the prefork pool's one child (the process running tasks)."""
        assert self.pool == "prefork"

        def child():
            children = []
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.process.pid:
                    children.append(int(stat.parent.name))
            return children[0] if len(children) == 1 else None

        return wait_until(child, timeout=10, what="the prefork pool's child process")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run, nothing is acknowledged."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        # The test is over and its broker and mailbox are thrown away, so no
        # need for a warm shutdown (which takes seconds on either broker).
        for process in self._started:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture
def celery_worker(celery_env, tmp_path) -> Iterator[Callable[..., Worker]]:
    """Start a worker with ``celery_worker()`` (solo pool) or
    ``celery_worker(pool="prefork")``; all are stopped when the test ends,
    before the test database is flushed."""
    workers: list[Worker] = []

    def start(pool: str = "solo", queues: tuple[str, ...] = ()) -> Worker:
        worker = Worker(env=celery_env, pool=pool, log_path=tmp_path / f"worker-{len(workers)}.log", queues=queues)
        workers.append(worker)
        return worker.start()

    yield start
    for worker in workers:
        worker.stop()
