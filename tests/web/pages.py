"""Reading pages and emails the way a person would: links and forms only."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

SEAT_LINK = re.compile(r"https?://[^\s\"'<>]+/s/[A-Za-z0-9_\-]+/")


@dataclass
class Form:
    action: str
    method: str
    id: str | None = None
    fields: list = field(default_factory=list)  # (type, name, value, required)
    buttons: list = field(default_factory=list)  # (name, value, text)
    selects: dict = field(default_factory=dict)  # name -> (options, selected)

    def values(self) -> dict:
        """Hidden and pre-filled fields, as a browser would send them."""
        data = {}
        for kind, name, value, _ in self.fields:
            if kind in ("hidden", "text", "number", "email") and name and value is not None:
                data[name] = value
        for name, (options, selected) in self.selects.items():
            data[name] = selected if selected is not None else (options[0] if options else "")
        return data

    def radios(self) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for kind, name, value, _ in self.fields:
            if kind == "radio":
                groups.setdefault(name, []).append(value)
        return groups

    def filled_in_at_random(self, rng) -> dict:
        """What a person sends who picks any of each set of radio buttons and
        presses the form's named button."""
        data = self.values()
        for name, values in self.radios().items():
            data[name] = rng.choice(values)
        for name, value, _text in self.buttons:
            if name:
                data[name] = value
        return data


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self._select = None
        self._button = None
        self._open = False
        self.owned_elsewhere: list[tuple[str, tuple]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append(Form(action=a.get("action", ""), method=a.get("method", "get").lower(), id=a.get("id")))
            self._open = True
        elif tag == "input" and a.get("form"):
            # An input outside its form, naming it by id (as the seat page's CSRF tokens do).
            self.owned_elsewhere.append(
                (a["form"], (a.get("type", "text"), a.get("name"), a.get("value"), "required" in a))
            )
        elif not self._open:
            return
        elif tag == "input":
            self.forms[-1].fields.append((a.get("type", "text"), a.get("name"), a.get("value"), "required" in a))
        elif tag == "select":
            self._select = a.get("name")
            self.forms[-1].selects[self._select] = ([], None)
        elif tag == "option" and self._select:
            options, selected = self.forms[-1].selects[self._select]
            options.append(a.get("value"))
            if "selected" in a:
                selected = a.get("value")
            self.forms[-1].selects[self._select] = (options, selected)
        elif tag == "button":
            self._button = [a.get("name"), a.get("value"), ""]
            self.forms[-1].buttons.append(self._button)

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = False
        elif tag == "select":
            self._select = None
        elif tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._button is not None:
            self._button[2] += data.strip()


def forms_of(page, url: str = "") -> list[Form]:
    """The forms of a page as a browser sees them: ``page`` is a test
    client's response (whose address the forms' actions are relative to) or
    HTML read at ``url``. Inputs outside a form that name it by its id are
    the form's."""
    if not isinstance(page, str):
        url = url or page.wsgi_request.path
        page = page.content.decode()
    parser = _FormParser()
    parser.feed(page)
    by_id = {form.id: form for form in parser.forms if form.id}
    for form_id, field_ in parser.owned_elsewhere:
        if form_id in by_id:
            by_id[form_id].fields.append(field_)
    for form in parser.forms:
        form.action = urljoin(url, form.action)
    return parser.forms


def seat_links(text: str) -> list[str]:
    return SEAT_LINK.findall(text)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)
