"""Complete stacks of the service as real processes from the virtualenv,
sharing one PostgreSQL database and one Redis as several machines do (README,
"Several machines").

A stack is what one machine runs: gunicorn, a Celery worker on every queue
the settings declare, and, as an operator might by mistake, a beat. Each has
a VAR_DIR of its own, as each machine has its own disk (the beat's schedule
file, the dev mailbox); what they share is what machines share: DATABASE_URL,
REDIS_URL, SECRET_KEY and SITE_URL.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

from tests.worker import wait_until

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# The site's address behind the load balancer: in every emailed link, and
# the Host every request arrives with, whichever stack answers it.
PUBLIC_HOST = "play.versailles.test"
SITE_URL = f"http://{PUBLIC_HOST}"
# Redis database of this test alone: the suite's workers use 15, the cache
# backend's test 12, `make run` and other checkouts 0.
REDIS_DB = 11
READY_TIMEOUT = 60.0


def with_path(url: str, path: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=path))


@contextmanager
def database_of_its_own(server_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of ``server_url``, its
    URL yielded and the database dropped afterwards, whoever still holds a
    connection to it."""
    name = f"stacks_{os.getpid()}_{secrets.token_hex(4)}"
    admin = with_path(server_url, "/postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield with_path(server_url, f"/{name}")
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@dataclass
class Process:
    """One long-running command, in a session of its own so that whatever it
    forks (gunicorn's workers, the prefork pool) is stopped with it."""

    name: str
    command: list[str]
    env: dict[str, str]
    log_path: Path
    popen: subprocess.Popen | None = None

    def start(self) -> Process:
        with self.log_path.open("ab") as log:
            self.popen = subprocess.Popen(
                self.command, cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        return self

    def log(self) -> str:
        return self.log_path.read_bytes().decode(errors="replace") if self.log_path.exists() else ""

    def running(self) -> bool:
        if self.popen.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.popen.returncode}:\n{self.log()[-4000:]}")
        return True

    def wait_for_log(self, pattern: str, timeout: float = READY_TIMEOUT) -> re.Match:
        return wait_until(
            lambda: self.running() and re.search(pattern, self.log()),
            timeout=timeout,
            what=lambda: f"{pattern!r} in the log of {self.name}:\n{self.log()[-4000:]}",
        )

    def stop(self) -> None:
        # The test is over and its database is dropped next: nothing to
        # finish, so no warm shutdown. The group is the session started
        # above, whose id is the process's own.
        if self.popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)


@dataclass
class Stack:
    """One machine's processes; ``port`` is gunicorn's once it listens."""

    name: str
    var_dir: Path
    env: dict[str, str]
    queues: tuple[str, ...]
    port: int = 0
    processes: dict[str, Process] = field(default_factory=dict)

    def _start(self, role: str, *arguments: str) -> Process:
        process = Process(
            name=f"the {role} of stack {self.name}",
            command=[sys.executable, *arguments],
            env=self.env,
            log_path=self.var_dir / f"{role}.log",
        )
        self.processes[role] = process.start()
        return process

    def web_start(self) -> None:
        # Port 0: the kernel picks a free one, which gunicorn then logs; no
        # other process can take it between choosing and binding.
        self._start(
            "web",
            "-m",
            "gunicorn",
            "-c",
            "versailles_site/gunicorn_conf.py",
            "versailles_site.wsgi:application",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--threads",
            "4",
        )

    def worker_start(self) -> None:
        # Every queue, as a machine with one worker runs it; prefork with two
        # processes, so that two sweeps can run at once on one machine too.
        self._start(
            "worker",
            "-m",
            "celery",
            "-A",
            "versailles_site",
            "worker",
            "-Q",
            ",".join(self.queues),
            "-n",
            f"stack-{self.name}@%h",
            "--pool=prefork",
            "--concurrency=2",
            "-l",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        )

    def beat_start(self) -> None:
        self._start("beat", "-m", "celery", "-A", "versailles_site", "beat", "-l", "INFO")

    def web_and_worker_ready(self) -> None:
        listening = self.processes["web"].wait_for_log(r"Listening at: http://127\.0\.0\.1:(\d+)")
        self.port = int(listening.group(1))
        self.processes["worker"].wait_for_log(r" ready\.")

    def beat_ready(self) -> float:
        """When the beat started (seconds since the epoch, as time.time()):
        the time its log gives the start. Its schedule's intervals count
        from a moment after that."""
        started = self.processes["beat"].wait_for_log(
            r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+): INFO/MainProcess\] beat: Starting"
        )
        # The log's clock is the machine's local time, as is mktime's.
        return datetime.strptime(started.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()

    def beat_sent(self, entry: str) -> int:
        """How often this stack's beat has sent the schedule's ``entry``."""
        return len(re.findall(rf"Sending due task {re.escape(entry)} ", self.processes["beat"].log()))

    def task_results(self, task_name: str) -> list[str]:
        """What each run of ``task_name`` on this stack's worker returned, as logged."""
        pattern = rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded in [0-9.e-]+s: (.*)$"
        return re.findall(pattern, self.processes["worker"].log(), re.MULTILINE)

    @property
    def mail_dir(self) -> Path:
        return self.var_dir / "mail"

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()


def stack_environment(database_url: str, redis_url: str) -> dict[str, str]:
    """What every stack is started with, as every machine would be: the
    production settings (DEBUG off, connections kept), one secret key and
    one site address for all, behind one proxy."""
    env = {k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH", "EMAIL_PROVIDER", "VAR_DIR", "SITE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="versailles_site.settings",
        PYTHONUNBUFFERED="1",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        SITE_URL=SITE_URL,
        ALLOWED_HOSTS=PUBLIC_HOST,
        # The load balancer appends each visitor's address; rate limits
        # count visitors, not the balancer.
        TRUSTED_PROXY_HOPS="1",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
    )
    return env


def migrate(env: dict[str, str], var_dir: Path) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=BASE_DIR,
        env={**env, "VAR_DIR": str(var_dir)},
        check=True,
        timeout=120,
    )
