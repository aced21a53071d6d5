"""The forms of open games: the open seats on the new-game form, joining,
"Play now" and the lobby's filters."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.selectors.options import (
    DECISION_HOURS,
    DEFAULT_DECISION_HOURS,
    LANGUAGE_CHOICES,
    OPEN_WAIT_HOURS,
    WHEN_OPEN_CHOICES,
    WHEN_OPEN_FILL,
)
from games.services.open_games import Opening

from .form_fields import hours_label, validate_name

LISTED, LINK_ONLY = "listed", "link"


class OpenSeatsFields(forms.Form):
    """The new-game form's part about seats left for strangers. Every field
    may be left out, so a form posted without them makes the game it always made."""

    open_seats = forms.TypedChoiceField(
        label=_("Open seats for strangers"), choices=[(n, n) for n in range(6)], coerce=int, initial=0,
        required=False, empty_value=0,  # type: ignore[arg-type]  # Django takes any value; its stubs, a string
        help_text=_("Seats anyone may join by confirming their email address."),
    )
    listing = forms.ChoiceField(
        label=_("Who can find the open seats"),
        choices=[(LISTED, _("anyone: listed in the lobby")), (LINK_ONLY, _("only those I give the join link"))],
        initial=LISTED, required=False, widget=forms.RadioSelect,
    )
    game_language = forms.ChoiceField(
        label=_("Language of the game"), choices=LANGUAGE_CHOICES, required=False,
        help_text=_("The lobby lists the game under it; strangers' seats start in it."),
    )
    open_wait_hours = forms.TypedChoiceField(
        label=_("How long the open seats wait for players"),
        choices=[(h, hours_label(h)) for h in OPEN_WAIT_HOURS], coerce=int, initial=24, required=False,
        empty_value=24,  # type: ignore[arg-type]  # as above
    )
    when_open = forms.ChoiceField(
        label=_("If seats are still open then"), choices=WHEN_OPEN_CHOICES, initial=WHEN_OPEN_FILL,
        required=False, widget=forms.RadioSelect,
    )

    def opening(self, default_language: str) -> Opening | None:
        """The host's choices, once the form is valid; None without open seats."""
        data = self.cleaned_data
        if not data.get("open_seats"):
            return None
        return Opening(
            seats=data["open_seats"], listed=data.get("listing") != LINK_ONLY,
            language=data.get("game_language") or default_language,
            wait_hours=data.get("open_wait_hours") or 24, when_open=data.get("when_open") or WHEN_OPEN_FILL,
        )


class JoinForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=40, validators=[validate_name])
    email = forms.EmailField(
        label=_("Your email address"), max_length=254,
        help_text=_("We send a link there; your seat is held once you confirm it. Nobody else sees the address."),
    )


class QuickPlayForm(JoinForm):
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)
    decision_hours = forms.TypedChoiceField(
        label=_("Time allowed per decision"), choices=[(h, hours_label(h)) for h in DECISION_HOURS], coerce=int,
        initial=DEFAULT_DECISION_HOURS,
    )


class LobbyFilterForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=[("", _("any"))] + LANGUAGE_CHOICES, required=False)
    pace = forms.TypedChoiceField(
        label=_("Time per decision"), choices=[("", _("any"))] + [(h, hours_label(h)) for h in DECISION_HOURS],
        coerce=int, required=False, empty_value=None,
    )
