"""What a person does in the browser: read the dev mailbox, open a seat link,
click a decision. Each step goes through the page as shown, never around it."""

from __future__ import annotations

import re
import subprocess
import sys
import time

from games.narrate import describe_notation
from tests.browser.plan import Move
from tests.worker import BASE_DIR

MAIL_TIMEOUT = 40.0


class Mailbox:
    """The dev mailbox page (/dev/mailbox/), where `make run` keeps the mail."""

    def __init__(self, site):
        self.site = site
        self.page = site.page()

    def open_message(self, to: str, subject: str, timeout: float = MAIL_TIMEOUT) -> str:
        """Wait for a message to ``to`` whose subject holds ``subject``; open
        it and return its text."""
        deadline = time.monotonic() + timeout
        while True:
            self.page.goto(f"{self.site.url}/dev/mailbox/")
            row = self.page.locator("tr").filter(has=self.page.locator("td", has_text=to)).filter(has_text=subject)
            if row.count():
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"no mail to {to} about {subject!r} within {timeout:.0f} s")
            time.sleep(0.25)
        row.first.locator("a").click()
        self.page.wait_for_load_state()
        return self.page.locator("pre").inner_text()

    def show_html(self):
        """The open message's HTML part, as a mail program shows it."""
        with self.page.expect_navigation():
            self.page.get_by_role("link", name="Show the HTML part").click()
        return self.page

    def seat_link(self, to: str, subject: str) -> str:
        self.open_message(to, subject)
        # Not a decision link: those open a confirmation page (games/web/confirm.py).
        return self.page.locator("pre a[href*='/s/']:not([href*='/confirm?'])").first.get_attribute("href")

    def count(self, to: str, subject: str) -> int:
        self.page.goto(f"{self.site.url}/dev/mailbox/")
        return self.page.locator("tr").filter(has=self.page.locator("td", has_text=to)).filter(has_text=subject).count()


class Player:
    """One person at one seat, with the seat link from their invitation."""

    def __init__(self, site, link: str, name: str, viewport: dict | None = None):
        self.site = site
        self.link = link
        self.name = name
        # Colour -> player name, for the confirmation "Done: you pushed Bruno back."
        self.names: dict = {}
        self.page = site.page(viewport)

    def open(self):
        response = self.page.goto(self.link)
        assert response.status == 200, f"{self.name}'s seat page answered {response.status}"
        return self.page

    def take_seat(self, colour: str, time_zone: str) -> None:
        page = self.open()
        page.check(f"input[name=colour][value={colour}]")
        page.fill("input[name=display_name]", self.name)
        page.select_option("select[name=time_zone]", time_zone)
        self._submit(page.get_by_role("button", name="Take my seat"))
        self.expect_text("You have taken your seat.")

    def decision_kind(self) -> str | None:
        decide = self.page.locator("#decide")
        if not decide.count():
            return None
        heading = decide.locator("h2").inner_text()
        for kind, words in (
            ("bid", "Your bid"), ("roll", "roll"), ("push", "Devil"), ("remove", "remove one bearer"),
        ):
            if words in heading:
                return kind
        raise AssertionError(f"unknown decision heading {heading!r}")

    def decide(self, move: Move, reload: bool = True) -> None:
        """Make ``move`` with the decision form the page shows."""
        page = self.open() if reload else self.page
        word, *rest = move.text.split()
        assert self.decision_kind() == word if word != "pass" else self.decision_kind() == "bid", (
            f"{self.name} expected to {move.text} but the page offers {self.decision_kind()}"
        )
        decide = page.locator("#decide")
        assert decide.locator("a[href*='/rules/#']").count(), f"{self.name}'s {word} form does not link to the rules"
        if word == "bid":
            decide.locator("input[name=amount]").fill(rest[0])
            button = decide.get_by_role("button", name="Bid", exact=True)
        elif word == "pass":
            button = decide.locator("button[value=pass]")
        elif word == "roll":
            button = decide.locator("button[value=roll]")
        elif word == "push":
            decide.locator(f"input[name=target][value={rest[0]}]").check()
            button = decide.get_by_role("button", name="Confirm")
        elif word == "remove":
            for pick in rest:
                colour, slot = pick.split(":")
                decide.locator(f"input[name=slot_{colour}][value='{slot}']").check()
            button = decide.get_by_role("button", name="Remove these bearers")
        else:
            raise AssertionError(f"no form for {move.text}")
        self._submit(button)
        if word == "roll":
            # A roll is answered with the die and where it carried the chair.
            body = self.page.locator("body").inner_text()
            assert re.search(r"Done: you rolled \d: .+ carries you (forward|back) \d", body), _short(body)
            return
        self.expect_text(f"Done: {describe_notation(move.text, self.names)}.")

    def arrange(self, codes: list[str]) -> None:
        page = self.open()
        form = page.locator("form#form-arrange")
        for slot, code in enumerate(codes, start=1):
            form.locator(f"select[name=slot_{slot}]").select_option(code)
        self._submit(form.get_by_role("button"))
        self.expect_text("Your team is arranged.")

    def open_settings(self):
        """The seat's settings page, by its link on the seat page."""
        page = self.open()
        with page.expect_navigation():
            page.locator("nav.seat-nav a[href=settings]").click()
        assert page.url.endswith("/settings"), page.url
        return page

    def set_orders(self, *, bid_limit: int, devil: str) -> None:
        page = self.open_settings()
        form = page.locator("form#form-orders")
        form.locator("input[name=auto_roll]").check()
        form.locator("input[name=bid_limit]").fill(str(bid_limit))
        form.locator("input[name=bid_every]").check()
        form.locator("select[name=devil]").select_option(devil)
        form.locator("select[name=removal]").select_option("default")
        self._submit(form.get_by_role("button", name="Save standing orders"))
        self.expect_text("Your standing orders are saved.")

    def _submit(self, button) -> None:
        with self.page.expect_navigation():
            button.click()

    def expect_text(self, text: str) -> None:
        body = self.page.locator("body").inner_text()
        assert text in body, f"{self.name}'s page does not say {text!r}:\n{_short(body)}"


def sign_in_moderator(site, username: str = "mia", password: str = "a long secret 42"):
    """A moderator made with `manage.py createmoderator`, signed in through
    the login page; the page it returns shows the dashboard."""
    created = subprocess.run(
        [sys.executable, "manage.py", "createmoderator", username, "--password", password],
        cwd=BASE_DIR, env=site.env.env, capture_output=True, text=True, timeout=60,
    )
    assert created.returncode == 0, created.stderr
    page = site.page()
    page.goto(f"{site.url}/mod/")
    assert "/mod/login/" in page.url
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    return page


def _short(text: str) -> str:
    return re.sub(r"\n\s*\n", "\n", text)[:3000]
