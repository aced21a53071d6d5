"""A player's home: one page listing every game an address plays, opened by
a link of its own (services.links) that expires and can be revoked."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import HomeLink

from .links import home_link_fill

# How long the link to a player's games opens their list.
HOME_LINK_DAYS = 30


def home_link_issue(*, email: str) -> HomeLink:
    link = HomeLink(email=email, expires_at=timezone.now() + timedelta(days=HOME_LINK_DAYS))
    home_link_fill(link)
    link.save()
    return link


def home_link_revoke(*, link: HomeLink) -> None:
    """The link opens nothing any more; asking for the links again makes a new one."""
    if link.revoked_at is None:
        HomeLink.objects.filter(pk=link.pk, revoked_at=None).update(revoked_at=timezone.now())


def home_link_state(link: HomeLink) -> str:
    """"open", "revoked" or "expired"."""
    if link.revoked_at is not None:
        return "revoked"
    return "expired" if link.expires_at <= timezone.now() else "open"
