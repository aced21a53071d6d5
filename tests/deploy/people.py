"""People at the stacks' tables, through the load balancer: each reads the
mail, opens their seat link and posts the page's forms over HTTP, whichever
stack answers. Nothing here goes round a page."""

from __future__ import annotations

import email
import email.policy
import http.client
import re
import threading
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from tests.deploy.stacks import PUBLIC_HOST, SITE_URL, Stack, wait_until
from tests.web.pages import Form, forms_of, path_of, seat_links

MAIL_TIMEOUT = 40.0


@dataclass
class Answer:
    status: int
    location: str
    text: str
    stack: str


class Visitor:
    """A browser behind the load balancer: one cookie jar for the site,
    whichever machine answers (they all stand behind one address), and its
    own address in X-Forwarded-For, as the balancer appends it."""

    def __init__(self, address: str):
        self.address = address
        self.cookies: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, stack: Stack, path: str) -> Answer:
        return self._request(stack, "GET", path)

    def post(self, stack: Stack, path: str, fields: dict) -> Answer:
        return self._request(stack, "POST", path, urlencode(fields))

    def _request(self, stack: Stack, method: str, path: str, body: str | None = None) -> Answer:
        headers = {"Host": PUBLIC_HOST, "X-Forwarded-For": self.address, "Accept-Language": "en"}
        with self._lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if body is not None:
            # A browser posting a form names the page's origin.
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "Origin": SITE_URL})
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            self._keep(response.headers.get_all("Set-Cookie") or [])
            return Answer(response.status, response.headers.get("Location", ""), text, stack.name)
        finally:
            connection.close()

    def _keep(self, set_cookies: list[str]) -> None:
        with self._lock:
            for header in set_cookies:
                jar = SimpleCookie()
                jar.load(header)
                for name, morsel in jar.items():
                    # Django deletes a cookie by sending it expired.
                    if morsel["max-age"] == "0" or morsel["expires"].endswith("1970 00:00:00 GMT"):
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value


@dataclass
class Mail:
    path: Path
    to: str
    message_id: str
    game: str
    text: str


class Mailboxes:
    """The dev mailboxes of every stack: what each stack's worker sent."""

    def __init__(self, stacks: list[Stack]):
        self.stacks = stacks
        self._read: dict[tuple[str, int, int], Mail] = {}
        self._lock = threading.Lock()

    def all(self) -> list[Mail]:
        mails = []
        for stack in self.stacks:
            if stack.mail_dir.is_dir():
                mails += [mail for path in sorted(stack.mail_dir.glob("*.eml")) if (mail := self._mail(path))]
        return mails

    def _mail(self, path: Path) -> Mail | None:
        # The dev mailbox writes in place: a file seen mid-write is read
        # again once its size or time has changed.
        try:
            stat = path.stat()
        except FileNotFoundError:
            return None
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with self._lock:
            if key in self._read:
                return self._read[key]
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        if not message["Message-ID"] or body is None:
            return None
        mail = Mail(
            path,
            # The address alone: the To header names the player too.
            message["To"].addresses[0].addr_spec,
            str(message["Message-ID"]),
            str(message["X-Versailles-Game"] or ""),
            body.get_content(),
        )
        with self._lock:
            self._read[key] = mail
        return mail

    def seat_link(self, to: str) -> tuple[str, str]:
        """The seat link (path) and game in the first mail to ``to``."""

        def found():
            for mail in self.all():
                if mail.to == to and seat_links(mail.text):
                    return path_of(seat_links(mail.text)[0]), mail.game
            return None

        return wait_until(found, timeout=MAIL_TIMEOUT, what=f"a mail with a seat link to {to}", every=0.2)


def act_forms(html: str, url: str) -> list[Form]:
    """The decision forms of the page read at ``url`` (their actions are
    relative to it)."""
    return [form for form in forms_of(html, url) if form.action.endswith("/act")]


def versions_shown(html: str, url: str) -> list[int]:
    """The decision version in every decision form of a page."""
    return [int(form.values()["version"]) for form in act_forms(html, url)]


def decision_filled_in(html: str, url: str, rng) -> tuple[str, dict]:
    """Where a person posts and what, from the decision forms of their page:
    in an auction a bid of the least allowed (a third of the time, while it
    is affordable) or a pass; otherwise any choice of each set of radio
    buttons."""
    forms = act_forms(html, url)
    bid = next((form for form in forms if form.values().get("action") == "bid"), None)
    if bid is not None:
        low, high = (int(n) for n in re.search(r'name="amount"[^>]*min="(\d+)"[^>]*max="(\d+)"', html).groups())
        if low <= high and rng.random() < 0.33:
            return bid.action, bid.values() | {"amount": str(low)}
        passing = next(form for form in forms if ("action", "pass") in [(b[0], b[1]) for b in form.buttons])
        return passing.action, passing.values() | {"action": "pass"}
    (form,) = forms
    return form.action, form.filled_in_at_random(rng)


@dataclass
class Person:
    position: int
    email: str
    visitor: Visitor
    link: str = ""


@dataclass
class Table:
    """One game as the test plays it: its people (computer players are no
    one's), and what the test saw the stacks commit."""

    label: str
    people: list[Person]
    computers: tuple[int, int] = (0, 0)  # strong, simple
    public_id: str = ""
    pk: int = 0
    # The newest decision version the database had after a decision this
    # test saw applied: no page read afterwards, from any stack, may show
    # an older one.
    committed: int = 0
    # (position, version) of every decision a stack answered "Done" to.
    applied: list[tuple[int, int]] = field(default_factory=list)

    def open(self, stacks: list[Stack], mailboxes: Mailboxes) -> None:
        """The host starts the game on the new-game form of the first stack;
        each person takes their seat from the invitation's link, reading
        the page from one stack and posting to the other."""
        host = self.people[0]
        page = host.visitor.get(stacks[0], "/new/")
        (form,) = [form for form in forms_of(page.text) if "host_email" in [f[1] for f in form.fields]]
        fields = form.values() | {
            "host_name": f"Host {self.label}",
            "host_email": host.email,
            "other_emails": "\n".join(person.email for person in self.people[1:]),
            "strong_computers": str(self.computers[0]),
            "simple_computers": str(self.computers[1]),
        }
        answer = host.visitor.post(stacks[1], "/new/", fields)
        assert (answer.status, answer.location) == (302, "/new/sent/"), answer.text[:2000]
        for person in self.people:
            person.link, self.public_id = mailboxes.seat_link(person.email)
        for index, person in enumerate(self.people):
            reader, poster = stacks[index % 2], stacks[(index + 1) % 2]
            page = person.visitor.get(reader, person.link)
            (form,) = [form for form in forms_of(page.text) if form.action.endswith("/accept")]
            fields = form.values() | {
                "colour": form.radios()["colour"][0],
                "display_name": f"P{person.position} {self.label}",
                "time_zone": "Europe/Berlin",
                "language": "en",
            }
            answer = person.visitor.post(poster, form.action, fields)
            assert answer.status == 302, answer.text[:2000]

    def waiting(self, stack: Stack) -> list[tuple[Person, Answer]]:
        """Every person's page from ``stack``; those with a decision to make.
        A page showing a decision older than one already committed fails."""
        movers = []
        for person in self.people:
            page = person.visitor.get(stack, person.link)
            assert page.status == 200, page.text[:2000]
            shown = versions_shown(page.text, person.link)
            assert all(version >= self.committed for version in shown), (
                f"stack {stack.name} showed {self.label}'s seat {person.position} the decision of version "
                f"{min(shown)} after version {self.committed} was committed"
            )
            if shown:
                movers.append((person, page))
        return movers
