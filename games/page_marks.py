"""Stand-ins a kept page holds where each request fills in its own.

The seat's link and the form's CSRF token are letters only, so that escaping
and URL reversing leave them as they are; so no name may hold one
(services/names.py), or a page filled in for a viewer would show the
viewer's own link, or token, where that name stands."""

SEAT_LINK = "SEATLINKxPLACEHOLDERx7d2e91"
CSRF_TOKEN = "CSRFxPLACEHOLDERx4b8c06"
EVERY_MARK = (SEAT_LINK, CSRF_TOKEN)
# Where each viewer's own cards go in the sections every viewer of a game
# shares: an HTML comment, which no escaped text (a player's name) can make,
# so names need no check for it.
OWN_CARDS = "<!--own-cards-in-the-lot-->"
