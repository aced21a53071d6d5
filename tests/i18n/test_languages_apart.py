"""One game, one German seat and three English ones (issue 12): played to its
end through the pages and the emails, nothing the German seat reads is an
English sentence of the catalogue, and nothing the English seats read is a
German one. The catalogue itself lists what to look for, so a string added
to the code and its translation is looked for too."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.board.svg import board_svg
from games.mail.compose import email_render
from games.models import Game, Seat
from games.services.game_state import load_state
from games.services.inbound import inbound_store
from games.services.links import seat_token
from games.services.setup import game_create, link_resend, seat_accept
from games.services.sweeps import deadlines_sweep, reminders_sweep
from tests.factories import play_until
from tests.mail.helpers import addresses, reply
from tests.web.pages import Form, forms_of, path_of, seat_links

from .catalogue import GERMAN_PO, read_po
from .fragments import found_in, fragments, read_html, read_plain

pytestmark = pytest.mark.django_db(transaction=True)

# Words of neither language, so that no fragment is found in a name.
NAMES = ("Quarvenik", "Zolbathy", "Mirrqelo", "Duxtrapho")
EMAILS = ("quarvenik@example.com", "zolbathy@example.com", "mirrqelo@example.com", "duxtrapho@example.com")
GERMAN_SEAT = 0
# Decisions made on the pages before standing orders play out the rest; enough
# to see an auction, a race with its Devil pushes and a removal.
PAGE_DECISIONS = 70
STANDING_ORDERS = {"auto_roll": "on", "bid_limit": "4", "bid_every": "on", "devil": "leader", "removal": "default"}
GERMAN_BROWSER = "de-DE,de;q=0.9"
ENGLISH_BROWSER = "en-GB,en;q=0.9"


@dataclass
class Seen:
    language: str
    where: str
    text: str


@dataclass
class Player:
    position: int
    email: str
    language: str
    # Each device a browser of its own; a seat's pages follow the seat's
    # language whichever one opens them.
    devices: list[Client]
    link: str = ""
    uses: int = 0

    def device(self) -> Client:
        self.uses += 1
        return self.devices[self.uses % len(self.devices)]


@dataclass
class Table:
    players: list[Player]
    seen: list[Seen] = field(default_factory=list)
    # Pages whose <html lang> is not the language they should be in.
    mislabelled: list[str] = field(default_factory=list)
    mails_read: int = 0
    # What has happened once in each language: ("reply", "de"), ...
    done: set[tuple[str, str]] = field(default_factory=set)

    def first_time(self, what: str, player: Player) -> bool:
        """True once per kind of event and language, so that each language
        meets the rarer roads once and the game stays short."""
        if (what, player.language) in self.done:
            return False
        self.done.add((what, player.language))
        return True

    def player_by_email(self, email: str) -> Player:
        return next(player for player in self.players if player.email == email)

    def page(self, language: str, where: str, response) -> str:
        assert response.status_code in (200, 409), f"{where}: {response.status_code}"
        markup = response.content.decode()
        read = read_html(markup)
        self.seen.append(Seen(language, where, read.text))
        if read.language != language:
            self.mislabelled.append(f"{where}: <html lang={read.language!r}>, not {language!r}")
        return markup

    def seat_page(self, player: Player, path: str, where: str, device: Client | None = None) -> str:
        device = device or player.device()
        return self.page(player.language, f"seat {player.position}: {where}", device.get(path))

    def seat_post(self, player: Player, path: str, data: dict, where: str, device: Client | None = None) -> str:
        device = device or player.device()
        response = device.post(path, data, follow=True)
        self.read_mail()
        return self.page(player.language, f"seat {player.position}: {where}", response)

    def read_mail(self) -> None:
        """Each new email, in the language its seat had when it was sent: an
        invitation speaks the host's, as the seat has no language of its own
        until the player chooses one."""
        languages = {seat.email: seat.language for seat in Seat.objects.all()}
        for message in mail.outbox[self.mails_read :]:
            (address,) = addresses(message)
            kind = ",".join(getattr(message, "tags", None) or ["?"])
            player = self.player_by_email(address)
            where = f"seat {player.position}: email {kind!r} ({message.subject})"
            language = languages[address]
            self.seen.append(Seen(language, where + " subject", read_plain(message.subject)))
            self.seen.append(Seen(language, where + " text", read_plain(message.body)))
            for content, mimetype in message.alternatives:
                if mimetype == "text/html":
                    self.seen.append(Seen(language, where + " HTML", read_html(content).text))
        self.mails_read = len(mail.outbox)

    def turn_mails(self) -> list:
        return [message for message in mail.outbox if "turn" in (getattr(message, "tags", None) or [])]


def _page_form(markup: str) -> Form:
    """The form a public page is for, not the language switch in its header."""
    (form,) = [form for form in forms_of(markup) if form.method == "post" and "/i18n/" not in form.action]
    return form


def _browser(accept_language: str) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=accept_language)


def _speaks(browser: Client) -> str:
    """What public pages and an invitation show this browser."""
    return "de" if browser.defaults.get("HTTP_ACCEPT_LANGUAGE") == GERMAN_BROWSER else "en"


def _seated_table() -> Table:
    """The German host asks for the game from a German browser; the others
    take their seats, one of them from a German browser choosing English."""
    host = Player(GERMAN_SEAT, EMAILS[0], "de", [_browser(GERMAN_BROWSER), _browser(ENGLISH_BROWSER)])
    others = [
        Player(1, EMAILS[1], "en", [_browser(GERMAN_BROWSER)]),
        Player(2, EMAILS[2], "en", [_browser(ENGLISH_BROWSER)]),
        Player(3, EMAILS[3], "en", [Client()]),
    ]
    table = Table(players=[host, *others])
    browser = host.devices[0]
    new_page = table.page("de", "host: the new-game page", browser.get("/new/"))
    form = _page_form(new_page)
    data = form.values() | {"host_name": NAMES[0], "host_email": EMAILS[0], "other_emails": "\n".join(EMAILS[1:])}
    table.page("de", "host: game created", browser.post(form.action or "/new/", data, follow=True))
    for message in mail.outbox:
        (link,) = set(seat_links(message.body))
        table.player_by_email(addresses(message)[0]).link = path_of(link)
    table.read_mail()
    for player in table.players:
        _take_seat(table, player)
    assert Game.objects.get().status == Game.Status.RUNNING
    return table


def _take_seat(table: Table, player: Player) -> None:
    device = player.devices[0]
    # Until the seat chooses, its page speaks the browser's language.
    browser_language = _speaks(device)
    markup = table.page(browser_language, f"seat {player.position}: invitation", device.get(player.link))
    (form,) = [form for form in forms_of(markup) if form.action.endswith("/accept")]
    assert form.values()["language"] == browser_language, "the browser's language is offered first"
    data = form.values() | {
        "colour": form.radios()["colour"][0],
        "display_name": NAMES[player.position],
        "time_zone": "Europe/Berlin",
        "language": player.language,
    }
    table.seat_post(player, form.action, data, "seat taken", device=device)


def _reply_by_email(table: Table, player: Player, message) -> None:
    """A bid decision answered by a reply instead of the page: "passe" from
    the German seat, "pass" from an English one."""
    first_line = "passe" if player.language == "de" else "pass"
    inbound_store(raw=reply(to=message.reply_to[0], sender=player.email, first_line=first_line))
    table.read_mail()


def _let_the_clock_run(table: Table) -> None:
    """The seat to move forgets: a reminder comes, then the deadline decides."""
    game = Game.objects.get()
    with time_machine.travel(game.reminder_at, tick=False):
        reminders_sweep()
    with time_machine.travel(game.deadline, tick=False):
        deadlines_sweep()
    table.read_mail()


def _decide(table: Table, message, rng: random.Random) -> bool:
    """Answer the decision on the seat page the emailed link opens; False if
    that page asks nothing (the decision was made meanwhile)."""
    player = table.player_by_email(addresses(message)[0])
    if table.first_time("deadline", player):
        _let_the_clock_run(table)
        return True
    (link,) = set(seat_links(message.body))
    device = player.device()
    markup = table.seat_page(player, path_of(link), "decision page", device=device)
    forms = [form for form in forms_of(markup, path_of(link)) if form.action.endswith("/act")]
    if not forms:
        return False
    bid_form = next((form for form in forms if form.values().get("action") == "bid"), None)
    if bid_form is not None:
        if table.first_time("reply", player):
            _reply_by_email(table, player, message)
            return True
        if rng.random() < 0.3:
            lowest = re.search(r'min="(\d+)"', markup).group(1)
            data = bid_form.values() | {"amount": lowest}
            action = bid_form.action
        else:
            pass_form = next(form for form in forms if ("action", "pass") in [(b[0], b[1]) for b in form.buttons])
            data = pass_form.values() | {"action": "pass"}
            action = pass_form.action
    else:
        (form,) = forms
        data = form.filled_in_at_random(rng)
        action = form.action
    table.seat_post(player, action, data, "after a decision", device=device)
    if table.first_time("double click", player):
        table.seat_post(player, action, data, "the same decision sent twice", device=device)
    return True


def _play_on_the_pages(table: Table, rng: random.Random, decisions: int) -> None:
    """Follow each decision email's link, as its seat would."""
    handled = 0
    made = 0
    while made < decisions:
        turns = table.turn_mails()
        if handled >= len(turns):
            return
        made += _decide(table, turns[handled], rng)
        handled += 1


def _standing_orders_for_everyone(table: Table) -> None:
    for player in table.players:
        settings = player.link + "settings"
        markup = table.seat_page(player, settings, "settings page with the orders form")
        (form,) = [form for form in forms_of(markup, path_of(settings)) if form.action.endswith("/orders")]
        table.seat_post(player, form.action, form.values() | STANDING_ORDERS, "standing orders saved")


def _look_around(table: Table, player: Player) -> str:
    """The seat page at the end, and every page of the site it links to."""
    markup = table.seat_page(player, player.link, "seat page at the end", device=player.devices[0])
    browser = player.devices[0]
    browser_language = _speaks(browser)
    paths = {href.split("#")[0] for href in re.findall(r'href="(/[^"]*)"', markup)}
    for path in sorted(paths - {player.link}):
        if path.startswith(("/static/", "/favicon")):
            continue
        language = player.language if path.startswith("/s/") else browser_language
        table.page(language, f"seat {player.position}'s browser: {path}", browser.get(path, follow=True))
    return markup


def _ask_for_links_again(table: Table, player: Player) -> None:
    browser = player.devices[0]
    browser_language = _speaks(browser)
    markup = table.page(browser_language, f"seat {player.position}'s browser: /link/", browser.get("/link/"))
    form = _page_form(markup)
    response = browser.post(form.action or "/link/", form.values() | {"email": player.email}, follow=True)
    table.page(browser_language, f"seat {player.position}'s browser: links sent", response)
    table.read_mail()


def _german(english: str) -> str:
    with translation.override("de"):
        return gettext(english)


@pytest.mark.heavy
def test_the_german_seat_reads_no_english_sentence_and_the_english_seats_no_german_one():
    rng = random.Random(12)
    table = _seated_table()
    _play_on_the_pages(table, rng, PAGE_DECISIONS)
    for player in table.players[:2]:
        _ask_for_links_again(table, player)
    _standing_orders_for_everyone(table)
    _play_on_the_pages(table, rng, decisions=10_000)
    game = Game.objects.get()
    assert game.status == Game.Status.OVER, "standing orders should have played the game to its end"
    final_pages = {player.position: _look_around(table, player) for player in table.players}

    # It was read at all, and in the right language: a page showing nothing
    # would contain no wrong sentence either.
    german_page = read_html(final_pages[GERMAN_SEAT]).text
    english_page = read_html(final_pages[2]).text
    for english in ("What happened", "Final standings"):
        assert _german(english) != english, f"{english!r} has no German translation"
        assert _german(english).casefold() in german_page
        assert english.casefold() in english_page
    table.read_mail()
    german_mails = [seen for seen in table.seen if seen.language == "de" and "email" in seen.where]
    assert any("'turn'" in seen.where for seen in german_mails), "the German seat got no decision email"

    catalogue = fragments(read_po(GERMAN_PO))
    wrong: dict[str, list[str]] = {}
    for seen in table.seen:
        foreign = catalogue.english if seen.language == "de" else catalogue.german
        for fragment in found_in(seen.text, foreign):
            wrong.setdefault(fragment, []).append(seen.where)
    listed = [f"{fragment!r} in:\n    " + "\n    ".join(places) for fragment, places in sorted(wrong.items())]
    # Both lists at once, so one run names every page and email to fix.
    assert not wrong and not table.mislabelled, "\n".join(
        [f"{len(wrong)} sentences in the wrong language:", *listed, *table.mislabelled]
    )



# Issue 29: words too short to be a sentence of the catalogue, each looked for
# where it used to slip through: a card's code in an email's team table, a
# computer player named in the host's language, a date's month, a plural, an
# abbreviation nobody explained.


def _words_in(text: str, words: tuple[str, ...]) -> list[str]:
    """Each of ``words`` that stands in ``text`` as a whole word: case aside,
    but an abbreviation in capitals must stand as written."""
    found = []
    for word in words:
        flags = 0 if word.isupper() else re.IGNORECASE
        if re.search(r"(?<![^\W_])" + re.escape(word) + r"(?![^\W_])", text, flags):
            found.append(word)
    return found


def _mixed_table(*, host_language: str, decision_hours: int = 24) -> tuple[Game, dict[int, Seat]]:
    """A host speaking ``host_language``, a German seat, an English seat and
    the two computer players the host asked for."""
    game = game_create(
        host_name=NAMES[0], host_email=EMAILS[0], other_emails=list(EMAILS[1:3]), decision_hours=decision_hours,
        ruleset_name="classic", language=host_language, computers=["strong", "simple"],
    )
    languages = {0: host_language, 1: "de", 2: "en"}
    for seat in Seat.objects.filter(game=game, computer="").order_by("position"):
        seat_accept(
            seat=seat, colour=("red", "yellow", "green")[seat.position], display_name=NAMES[seat.position],
            time_zone="Europe/Berlin", language=languages[seat.position],
        )
    game.refresh_from_db()
    return game, {seat.position: seat for seat in Seat.objects.filter(game=game).select_related("game")}


def _text_of(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, f"{path}: {response.status_code}"
    return read_html(response.content.decode()).text


def _mail_text(message) -> str:
    (html,) = [content for content, mimetype in message.alternatives if mimetype == "text/html"]
    return message.body + "\n" + read_html(html).text


def test_computer_players_are_named_in_the_language_of_whoever_reads_the_page():
    _game, seats = _mixed_table(host_language="en")
    german = _text_of(Client(), f"/s/{seat_token(seats[1])}/")
    english = _text_of(Client(), f"/s/{seat_token(seats[2])}/")
    assert "starker computer 1" in german and "einfacher computer 1" in german
    assert "strong computer 1" in english and "simple computer 1" in english
    assert not _words_in(german, ("strong computer", "simple computer"))
    assert not _words_in(english, ("starker computer", "einfacher computer"))


def test_a_german_seats_decision_email_names_cards_and_computer_players_in_german():
    game, seats = _mixed_table(host_language="en")

    def named_card_shown_and_german_to_move(state) -> bool:
        players = engine.observe(state, None)["players"]
        shown = [card["code"] for player in players for card in player["display"] if card]
        return engine.to_move(state) == 1 and any(code in ("goof", "devil") for code in shown)

    play_until(game, named_card_shown_and_german_to_move, random.Random(29))
    game.refresh_from_db()
    assert engine.to_move(load_state(game)) == 1, "the game ended before a Goof or a Devil was shown"
    # The test's transactions commit: each email was sent as its decision committed.
    german_mail, english_mail = (
        [m for m in mail.outbox if addresses(m) == [seats[position].email] and "turn" in m.tags][-1]
        for position in (1, 2)
    )
    german, english = _mail_text(german_mail), _mail_text(english_mail)
    assert _words_in(german, ("tollpatsch", "teufel")), "the team table shows no named card"
    assert _words_in(german, ("starker computer",))
    assert not _words_in(german, ("goof", "devil", "strong computer", "simple computer"))
    assert _words_in(english, ("strong computer",)) and not _words_in(english, ("starker computer",))


def test_a_german_player_home_writes_its_date_in_german():
    with time_machine.travel("2026-12-03 15:09Z", tick=False):
        _mixed_table(host_language="en")
        mail.outbox.clear()
        assert link_resend(email=EMAILS[1])
        (link,) = re.findall(r"https?://\S+/h/\S+/", mail.outbox[-1].body)
        german = _text_of(_browser(GERMAN_BROWSER), path_of(link))
        english = _text_of(_browser(ENGLISH_BROWSER), path_of(link))
    assert re.search(r"\b\d{1,2}\. januar 2027\b", german), german
    assert not _words_in(german, ("jan", "january"))
    assert re.search(r"\b\d{1,2} jan 2027\b", english), english


def test_one_hour_per_decision_is_said_in_the_singular_in_both_languages():
    game = game_create(
        host_name=NAMES[0], host_email=EMAILS[0], other_emails=list(EMAILS[1:3]), decision_hours=1,
        ruleset_name="classic", language="de",
    )
    seat = Seat.objects.select_related("game").get(game=game, email=EMAILS[1])
    german = _text_of(_browser(GERMAN_BROWSER), f"/s/{seat_token(seat)}/")
    english = _text_of(_browser(ENGLISH_BROWSER), f"/s/{seat_token(seat)}/")
    assert "bis zu 1 stunde zeit" in german and not _words_in(german, ("stunden",))
    assert "up to 1 hour." in english and not _words_in(english, ("hours",))
    context = {"game": game, "seat": seat, "host": {"name": NAMES[0]}, "players": 3, "link": "https://x.example/"}
    for language, singular, plural in (("en", "up to 1 hour.", "hours"), ("de", "bis zu 1 stunde zeit.", "stunden")):
        _subject, text, html = email_render("invite", context, language)
        for read in (normal_text(text), read_html(html).text):
            assert singular in read and not _words_in(read, (plural,)), read


def normal_text(text: str) -> str:
    return " ".join(text.split()).casefold()


def test_a_german_board_names_a_prize_in_a_word_not_an_abbreviation():
    game, seats = _mixed_table(host_language="en")
    play_until(game, lambda state: bool(engine.observe(state, None)["results"]), random.Random(6))
    game.refresh_from_db()
    observation = engine.observe(load_state(game), 1)
    assert observation["results"], "the game ended before a race did"
    with translation.override("de"):
        german = board_svg(observation, engine.Ruleset.from_json(game.ruleset), {})
    assert "Geld)" in german
    assert not _words_in(german, ("GE",))
    # The note under the board explains the prize in the word the board uses.
    page = _text_of(_browser(GERMAN_BROWSER), f"/s/{seat_token(seats[1])}/")
    assert "„+20 geld“" in page
    assert not _words_in(page, ("GE",))
