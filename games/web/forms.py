"""Forms: they check shape and size; the services and the engine check the rules."""

from __future__ import annotations

import functools
import re
import zoneinfo
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from games.narrate import card_name, colour_name
from games.selectors.options import (
    ABSENCE_MODES,
    CLASSIC_RULESET,
    COMPUTER_EXPERT,
    COMPUTER_SIMPLE,
    COMPUTER_STRONG,
    DECISION_HOURS,
    DEFAULT_DECISION_HOURS,
    EMAIL_MODES,
    LANGUAGE_CHOICES,
    RULESET_NAMES,
    players_range,
)
from games.selectors.webhooks import WEBHOOK_KINDS

from .form_fields import hours_label, validate_name
from .open_forms import OpenSeatsFields

EMAIL_MAX_LENGTH = 254  # Seat.email

# The new game form's counts of computer players, strongest first, and their level.
COMPUTER_FIELDS = {
    "expert_computers": COMPUTER_EXPERT,
    "strong_computers": COMPUTER_STRONG,
    "simple_computers": COMPUTER_SIMPLE,
}

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})

# The regions of the time zone database, each a group of the list so that a
# player finds their city without scrolling through some 600 names.
ZONE_REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic Ocean"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific Ocean"),
}


@functools.cache
def time_zone_choices() -> list[tuple[Any, Any]]:
    """UTC first, then each region's places ("Europe" › "Berlin"), then the
    database's other names (old aliases such as "US/Eastern"), which a seat
    may already hold."""
    regions: dict[str, list[tuple[str, str]]] = {region: [] for region in ZONE_REGIONS}
    other: list[tuple[str, str]] = []
    for zone in TIME_ZONES:
        region, _slash, place = zone.partition("/")
        if region in regions and place:
            regions[region].append((zone, place.replace("_", " ")))
        elif zone != "UTC":
            other.append((zone, zone.replace("_", " ")))
    return [
        ("UTC", "UTC"),
        *[(ZONE_REGIONS[region], places) for region, places in regions.items() if places],
        (_("Other names"), other),
    ]


def players_between() -> tuple[int, int]:
    """The fewest and most players any ruleset on offer allows."""
    ranges = [players_range(name) for name in RULESET_NAMES]
    return min(low for low, _high in ranges), max(high for _low, high in ranges)


class NewGameForm(OpenSeatsFields):
    host_name = forms.CharField(label=_("Your name"), max_length=40, validators=[validate_name])
    host_email = forms.EmailField(label=_("Your email address"), max_length=254)
    other_emails = forms.CharField(
        label=_("The other players' email addresses"),
        help_text=_("One per line. Computer players can fill the seats of those you leave out."),
        widget=forms.Textarea(attrs={"rows": 5, "autocapitalize": "none", "spellcheck": "false"}),
        max_length=2000,
        required=False,
    )
    expert_computers = forms.TypedChoiceField(
        label=_("Expert computer players"), choices=[(n, n) for n in range(6)], coerce=int, initial=0, required=False,
        empty_value=0,  # type: ignore[arg-type]  # Django takes any value; its stubs, a string
        help_text=_("They play the rest of each race out before they push, and play to win the game."),
    )
    strong_computers = forms.TypedChoiceField(
        label=_("Strong computer players"), choices=[(n, n) for n in range(6)], coerce=int, initial=0, required=False,
        empty_value=0,  # type: ignore[arg-type]  # as above
        help_text=_("They weigh every bid and push; a fair test for anyone."),
    )
    simple_computers = forms.TypedChoiceField(
        label=_("Simple computer players"), choices=[(n, n) for n in range(6)], coerce=int, initial=0, required=False,
        empty_value=0,  # type: ignore[arg-type]  # as above
        help_text=_("They bid by what they can see, and play the defaults otherwise."),
    )
    decision_hours = forms.TypedChoiceField(
        label=_("Time allowed per decision"),
        choices=[(h, hours_label(h)) for h in DECISION_HOURS],
        coerce=int,
        initial=DEFAULT_DECISION_HOURS,
    )
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        choices=[(name, name) for name in RULESET_NAMES],
        initial=CLASSIC_RULESET,
    )
    # The open seats' fields (OpenSeatsFields) after the invited players'.
    field_order = [
        "host_name", "host_email", "other_emails", "expert_computers", "strong_computers", "simple_computers",
        "decision_hours",
        "ruleset", "open_seats", "listing", "game_language", "open_wait_hours", "when_open",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Stated above the form, from the rulesets rather than a literal.
        self.fewest, self.most = players_between()

    def clean_other_emails(self) -> list[str]:
        raw = [part for part in re.split(r"[\s,;]+", self.cleaned_data["other_emails"]) if part]
        for address in raw:
            try:
                validate_email(address)
                # The syntax allows longer addresses than the seat's column holds.
                if len(address) > EMAIL_MAX_LENGTH:
                    raise ValidationError("too long")
            except ValidationError:
                raise ValidationError(_("%(address)s is not an email address.") % {"address": address[:80]}) from None
        return [address.lower() for address in raw]

    def computers(self) -> list[str]:
        """The computer players' levels, once the form is valid."""
        data = self.cleaned_data
        return [level for name, level in COMPUTER_FIELDS.items() for _seat in range(data[name])]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        host, others = data.get("host_email"), data.get("other_emails")
        computers = sum(data.get(name, 0) for name in COMPUTER_FIELDS) + data.get("open_seats", 0)
        if host and others is not None:
            fewest, most = players_range(data.get("ruleset") or CLASSIC_RULESET)
            players = 1 + len(others) + computers
            if not fewest <= players <= most:
                counted = (
                    _(
                        "A game has %(low)d to %(high)d players: you, the addresses you give, the "
                        "computer players and the open seats make %(players)d."
                    )
                    if data.get("open_seats")
                    else _(
                        "A game has %(low)d to %(high)d players: you, the addresses you give and the "
                        "computer players make %(players)d."
                    )
                )
                self.add_error("other_emails", counted % {"low": fewest, "high": most, "players": players})
            elif len(set(others + [host.lower()])) != len(others) + 1:
                self.add_error("other_emails", _("Each player needs their own email address."))
        return data


class AcceptForm(forms.Form):
    colour = forms.ChoiceField(label=_("Your colour"), widget=forms.RadioSelect)
    display_name = forms.CharField(label=_("Your name in this game"), max_length=40, validators=[validate_name])
    time_zone = forms.ChoiceField(
        label=_("Your time zone"),
        choices=time_zone_choices,
        initial="UTC",
        help_text=_("Deadlines are shown in this time zone."),
    )
    # Not required: a form posted without it (an old page) takes the browser's.
    language = forms.ChoiceField(
        label=_("Your language"),
        choices=LANGUAGE_CHOICES,
        required=False,
        help_text=_("Your pages and your emails in this game are in this language."),
    )

    def __init__(self, *args, free_colours: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        colour = self.fields["colour"]
        assert isinstance(colour, forms.ChoiceField)  # as declared above
        colour.choices = [(c, colour_name(c)) for c in free_colours]


class LinkResendForm(forms.Form):
    email = forms.EmailField(label=_("Your email address"), max_length=254)


class DecisionForm(forms.Form):
    """Every decision form posts here: the decision in fields, turned into the
    engine's notation; the engine then judges it."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)
    action = forms.ChoiceField(choices=[(a, a) for a in ("bid", "pass", "roll", "push", "remove")])
    amount = forms.IntegerField(required=False, min_value=0, max_value=10**6)
    target = forms.CharField(required=False, max_length=20)

    def __init__(self, *args, colours: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self.colours = colours
        for colour in colours:
            self.fields[f"slot_{colour}"] = forms.IntegerField(required=False, min_value=1, max_value=99)

    def notation(self) -> str:
        data = self.cleaned_data
        action = data["action"]
        if action == "bid":
            if data.get("amount") is None:
                raise ValidationError(_("Say how much you bid."))
            return f"bid {data['amount']}"
        if action == "push":
            target = data.get("target") or ""
            if target != "none" and target not in self.colours:
                raise ValidationError(_("Choose a chair to push back, or no one."))
            return f"push {target}"
        if action == "remove":
            picks = []
            for colour in self.colours:
                slot = data.get(f"slot_{colour}")
                if slot is None:
                    raise ValidationError(_("Choose one card from every display, your own included."))
                picks.append(f"{colour}:{slot}")
            return "remove " + " ".join(picks)
        return action


def decision_form_data(text: str, version: int) -> dict:
    """The fields DecisionForm reads for a decision in the notation: the
    inverse of DecisionForm.notation (benchmarks and tests post with it)."""
    word, *rest = text.split()
    data = {"version": str(version), "action": word}
    if word == "bid":
        data["amount"] = rest[0]
    elif word == "push":
        data["target"] = rest[0]
    elif word == "remove":
        for pick in rest:
            colour, slot = pick.split(":")
            data[f"slot_{colour}"] = slot
    return data


class ArrangeForm(forms.Form):
    def __init__(self, *args, codes: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(c, card_name(c)) for c in dict.fromkeys(codes)]
        for slot, code in enumerate(codes, start=1):
            self.fields[f"slot_{slot}"] = forms.ChoiceField(
                label=_("Slot %(n)d") % {"n": slot}, choices=choices, initial=code
            )

    def codes(self) -> list[str]:
        return [self.cleaned_data[name] for name in self.fields]


class OrdersForm(forms.Form):
    # The auction the page was shown in: a limit "for this auction" posted
    # from a page left open since then is not armed for the next one.
    auction = forms.CharField(required=False, max_length=60, widget=forms.HiddenInput)
    auto_roll = forms.BooleanField(label=_("Roll at once whenever it is my turn"), required=False)
    bid_limit = forms.IntegerField(
        label=_("In this auction, bid for me up to"),
        required=False,
        min_value=0,
        max_value=10**6,
        help_text=_("Raises by 1 over the high bid while the price is below your limit, then passes."),
    )
    bid_every = forms.BooleanField(label=_("Use this limit in every auction, not just this one"), required=False)
    devil = forms.ChoiceField(
        label=_("When I roll the Devil, push"),
        required=False,
        choices=[
            ("", _("— ask me —")),
            ("leader", _("the chair furthest ahead")),
            ("ahead", _("the chair just ahead of mine")),
            ("none", _("no one")),
        ],
    )
    removal = forms.ChoiceField(
        label=_("When I come last, remove"),
        required=False,
        choices=[("", _("— ask me —")), ("default", _("each opponent's best bearer and my own worst"))],
    )


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)


class EmailModeForm(forms.Form):
    email_mode = forms.ChoiceField(label=_("Emails"), choices=EMAIL_MODES, widget=forms.RadioSelect)


class HelpForm(forms.Form):
    message = forms.CharField(
        label=_("Message to the moderators"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


class AbsenceForm(forms.Form):
    first_day = forms.DateField(label=_("Away from (your date)"), widget=forms.DateInput(attrs={"type": "date"}))
    days = forms.IntegerField(label=_("for how many days"), min_value=1, max_value=366)
    mode = forms.ChoiceField(label=_("Meanwhile"), choices=ABSENCE_MODES, widget=forms.RadioSelect)


class ApiTokenForm(forms.Form):
    label = forms.CharField(
        label=_("What it is for"),
        max_length=40,
        required=False,
        help_text=_("For example: my bot, or the app on my phone."),
    )


class WebhookForm(forms.Form):
    """A webhook for the seat, or for the whole table (the host's choice):
    the address is checked by the service, which resolves it."""

    kind = forms.ChoiceField(label=_("Kind"), choices=WEBHOOK_KINDS, widget=forms.RadioSelect)
    url = forms.CharField(
        label=_("Webhook address"),
        max_length=500,
        widget=forms.URLInput(attrs={"autocapitalize": "none", "spellcheck": "false", "placeholder": "https://"}),
        help_text=_("Discord: channel settings, Integrations, Webhooks. Slack: an incoming webhook of a Slack app."),
    )
    include_link = forms.BooleanField(
        label=_("Include my seat link"),
        required=False,
        help_text=_("Whoever reads that channel can then open your seat and decide for you."),
    )
    table = forms.BooleanField(label=_("For the whole table (public news only, never a link)"), required=False)
