"""docker-compose.yml as an operator starts it, on this machine's dockerd.

The stack is brought up with Debian's docker-compose from the unmodified
compose file, plus deploy/standins/host-network-build.yml, which gives the
image's build the host's network (dockerd runs without NAT here). Upstream
images that cannot be pulled are stood in for by deploy/standins/build.sh.
The test reads the database with psql inside the postgres container (the
compose file publishes no database port) and the mail from the mail sink's
API on 8025, and acts on games over the web container's published port.
"""

from __future__ import annotations

import csv
import email
import email.policy
import io
import json
import os
import shutil
import subprocess
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.deploy.stacks import PUBLIC_HOST, SITE_URL
from tests.web.pages import path_of, seat_links
from tests.worker import wait_until

BASE_DIR = Path(__file__).resolve().parent.parent.parent
PROJECT = "versailles_compose_test"
COMPOSE_FILES = ["docker-compose.yml", "deploy/standins/host-network-build.yml"]
# The services that run for good; migrate runs once and exits 0.
LONG_RUNNING = ("postgres", "redis", "web", "api", "worker", "mailer", "beat", "mailpit")
MAIL_API = "http://127.0.0.1:8025/api/v1"
UP_TIMEOUT = 600.0
MAIL_TIMEOUT = 60.0


def compose_client() -> list[str] | None:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return None


def engine_missing() -> str | None:
    if compose_client() is None:
        return "no docker-compose (Debian's docker-compose, or the compose plugin)"
    if subprocess.run(["docker", "info"], capture_output=True).returncode != 0:
        return "no Docker engine answers (deploy/standins/engine.sh starts Debian's dockerd)"
    return None


@dataclass
class Container:
    service: str
    status: str
    exit_code: int
    restarts: int
    started_at: str


class ComposeStack:
    """One project of docker-compose.yml, addressed by service name."""

    name = "compose"

    def __init__(self) -> None:
        self.command = [*(compose_client() or ["docker-compose"]), "-p", PROJECT]
        for path in COMPOSE_FILES:
            self.command += ["-f", str(BASE_DIR / path)]
        self.env = os.environ | {
            "SECRET_KEY": "compose-test-" + "k" * 40,
            "ANYMAIL_WEBHOOK_SECRET": "hooks:" + "w" * 24,
            # Links in the emails name the public address, as behind a proxy;
            # the browser comes to the published port directly.
            "ALLOWED_HOSTS": f"{PUBLIC_HOST},127.0.0.1,localhost",
            "SITE_URL": SITE_URL,
            # The test's visitors come as through one balancer, each with its
            # own address in X-Forwarded-For (the rate limits count by it).
            "TRUSTED_PROXY_HOPS": "1",
        }
        self.port = 0

    def compose(self, *args: str, timeout: float = 120.0, check: bool = True) -> str:
        done = subprocess.run(
            [*self.command, *args], cwd=BASE_DIR, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if check and done.returncode != 0:
            raise AssertionError(f"docker-compose {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def build(self, timeout: float = UP_TIMEOUT) -> None:
        """The stand-ins where needed, then the project's image."""
        subprocess.run([str(BASE_DIR / "deploy/standins/build.sh")], check=True, timeout=timeout)
        self.compose("build", timeout=timeout)

    def up(self) -> None:
        # A no-op where .ci/run built the images while the suite ran.
        self.build()
        self.compose("up", "-d", timeout=UP_TIMEOUT)
        self.port = int(self.compose("port", "web", "8000").strip().rsplit(":", 1)[1])
        wait_until(self._answers, timeout=60, what="the web container's published port", every=0.5)

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def down(self) -> None:
        self.compose("down", "-v", "--remove-orphans", timeout=300)

    def left_behind(self) -> list[str]:
        """Containers, volumes and networks of the project still there."""
        label = f"label=com.docker.compose.project={PROJECT}"
        found = []
        for kind in (["ps", "-a"], ["volume", "ls"], ["network", "ls"]):
            out = subprocess.run(["docker", *kind, "-q", "--filter", label], capture_output=True, text=True).stdout
            found += [f"{kind[0]} {line}" for line in out.split()]
        return found

    def containers(self) -> dict[str, Container]:
        ids = self.compose("ps", "-a", "-q").split()
        found = {}
        for entry in json.loads(subprocess.run(["docker", "inspect", *ids], capture_output=True, text=True).stdout):
            service = entry["Config"]["Labels"]["com.docker.compose.service"]
            state = entry["State"]
            found[service] = Container(
                service, state["Status"], state["ExitCode"], entry["RestartCount"], state["StartedAt"]
            )
        return found

    def container_id(self, service: str) -> str:
        return self.compose("ps", "-q", service).strip()

    def assert_running(self) -> dict[str, Container]:
        """Every long-running service up, never restarted; migrate exited 0."""
        containers = self.containers()
        problems = [
            f"{name}: {c.status} (exit {c.exit_code}, {c.restarts} restarts)\n{self.logs(name)}"
            for name, c in containers.items()
            if (name in LONG_RUNNING and (c.status != "running" or c.restarts))
            or (name == "migrate" and (c.status, c.exit_code) != ("exited", 0))
        ]
        missing = set(LONG_RUNNING) - set(containers)
        assert not problems and not missing, "\n".join(problems) + f"\nmissing: {sorted(missing)}"
        return containers

    def logs(self, service: str, tail: int = 40) -> str:
        return self.compose("logs", "--no-color", f"--tail={tail}", service, check=False)

    def rows(self, query: str) -> list[dict[str, str]]:
        """A query's rows read with psql in the postgres container."""
        out = self.compose(
            "exec", "-T", "postgres", "psql", "-U", "versailles", "-d", "versailles", "--csv", "-c", query
        )
        return list(csv.DictReader(io.StringIO(out)))

    def game(self, public_id: str) -> dict[str, str]:
        (row,) = self.rows(f"SELECT * FROM games_game WHERE public_id = '{public_id}'")
        return row


@dataclass
class SinkMail:
    id: str
    to: str
    message_id: str
    subject: str
    game: str
    text: str


class MailSink:
    """The messages Mailpit (or its stand-in) caught, through Mailpit's API."""

    def __init__(self) -> None:
        self._read: dict[str, SinkMail] = {}
        # Outbox ids a killed sender held in flight. The mail server may have
        # taken one the instant before the kill, with its row still "sending":
        # SMTP gives no way to send and record at once, so such a row is sent
        # again, under the same Message-ID (which mail clients show once).
        self.in_flight_when_killed: set[str] = set()

    def all(self) -> list[SinkMail]:
        with urllib.request.urlopen(f"{MAIL_API}/messages?limit=5000", timeout=10) as response:
            listed = json.load(response)["messages"]
        for entry in listed:
            if entry["ID"] not in self._read:
                self._read[entry["ID"]] = self._fetch(entry["ID"])
        return [self._read[entry["ID"]] for entry in listed]

    def _fetch(self, message_id: str) -> SinkMail:
        with urllib.request.urlopen(f"{MAIL_API}/message/{message_id}/raw", timeout=10) as response:
            message = email.message_from_bytes(response.read(), policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        return SinkMail(
            message_id,
            message["To"].addresses[0].addr_spec,
            str(message["Message-ID"]),
            str(message["Subject"]),
            str(message["X-Versailles-Game"] or ""),
            body.get_content() if body is not None else "",
        )

    def seat_link(self, to: str) -> tuple[str, str]:
        """The seat link (path) and game in the first mail to ``to``."""

        def found():
            for mail in self.all():
                if mail.to == to and seat_links(mail.text):
                    return path_of(seat_links(mail.text)[0]), mail.game
            return None

        return wait_until(found, timeout=MAIL_TIMEOUT, what=f"a mail with a seat link to {to}", every=0.5)


if __name__ == "__main__":
    # .ci/run builds the images in the background while stages 1 and 2 run
    # (a cold build mostly waits on Debian's mirror and PyPI): the same
    # project, files and environment as the tests' stack.
    ComposeStack().build(timeout=2400.0)
