"""What a game's pages show, built from the engine's observation for the
viewer (docs/architecture.md#layers): the seat page, and the parts it shares with
the spectator's and the moderators' pages."""

from __future__ import annotations

import functools
import hashlib
import zoneinfo

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from games import engine
from games.board.svg import board_svg
from games.models import Absence, ActionRecord, Game, ModerationEntry, Seat, SeatHolder
from games.narrate import describe, describe_moderation, final_standings
from games.services import statements
from games.services.links import TOKEN_MAX, seat_by_token, seat_by_unsubscribe_token, token_hash
from games.services.seats import game_seats
from games.services.timing import absence_days_left

from .decision import decision_context

# The game pages show this many of the newest entries of the history; the
# seat page only the latest few, with a link to its whole history page.
HISTORY_LIMIT = 40
SEAT_HISTORY_LIMIT = 5


def game_state(game: Game) -> engine.State:
    """The game's state, parsed once for everything a page reads of it (a
    state is never changed in place: a new one is a new object)."""
    if game.state is None:
        raise ValueError(f"game {game.public_id} has not started: it has no state")
    parsed = game.__dict__.get("_parsed_state")
    if parsed is None or parsed[0] is not game.state:
        parsed = (game.state, engine.state_from_json(game.state))
        game.__dict__["_parsed_state"] = parsed
    return parsed[1]


def observation_for(game: Game, seat: Seat | None) -> engine.Observation | None:
    if game.state is None:
        return None
    return _observed(game, seat)


def _observed(game: Game, seat: Seat | None) -> engine.Observation:
    """What ``seat`` (or a spectator, with None) may know of a started game."""
    return engine.observe(game_state(game), None if seat is None else seat.position)


def history(
    game: Game, names: dict | None = None, *, moderated: bool = True, limit: int | None = HISTORY_LIMIT
) -> list[dict]:
    """The newest ``limit`` entries (None: all), told oldest first like a
    story: each a time and the sentences of one action or moderator's step.
    ``moderated`` False: the caller knows no moderator stepped in."""
    entries = list(_logged(game, names, limit))
    moderation = (
        list(ModerationEntry.objects.filter(game_id=game.pk).order_by("-created_at")[:limit]) if moderated else []
    )
    colours = {seat.position: seat.colour for seat in game_seats(game)} if moderation else {}
    for entry in moderation:
        colour = None if entry.seat_position is None else colours.get(entry.seat_position)
        entries.append(
            {
                "seq": entry.at_seq,
                "at": entry.created_at,
                "moderation": True,
                "sentences": [
                    describe_moderation(
                        {"action": entry.action, "detail": entry.detail, "reason": entry.reason, "colour": colour},
                        names,
                    )
                ],
            }
        )
    entries.sort(key=lambda e: (e["at"], e["seq"]), reverse=True)
    return entries[:limit][::-1]


def _logged(game: Game, names: dict | None, limit: int | None) -> list[dict]:
    """The history's entries from the action log, newest first, told in the
    active language. Rolls asked for and secret draws tell nothing; counted,
    they would crowd out entries that do."""
    # A hand-written statement (games.services.statements): on the first
    # view of every version, the queryset cost twice what it took to run.
    records = statements.told_records(game.pk, game.version, limit)
    entries = (
        {
            "seq": record.seq,
            "at": record.created_at,
            "sentences": [str(text) for text in (describe(e, names) for e in record.events) if text],
            "actor": record.actor,
        }
        for record in records
    )
    # A record whose events tell nothing still takes its place among the newest.
    return [entry for entry in entries if entry["sentences"]]


# Who or what decided, when it was not the player of that seat.
_MADE_BY: dict[str, Promise] = {
    ActionRecord.Actor.DEADLINE: gettext_lazy("the deadline (the default of the rules)"),
    ActionRecord.Actor.ORDER: gettext_lazy("a standing order"),
    ActionRecord.Actor.AUTOPILOT: gettext_lazy("the autopilot"),
    ActionRecord.Actor.COMPUTER: gettext_lazy("a computer player"),
    ActionRecord.Actor.MODERATOR: gettext_lazy("a moderator"),
}
# The same, told to the player whose seat it was.
_MADE_FOR_YOU: dict[str, Promise] = {
    ActionRecord.Actor.DEADLINE: gettext_lazy("your deadline passed and the default was applied for you"),
    ActionRecord.Actor.ORDER: gettext_lazy("your standing order decided for you"),
    ActionRecord.Actor.AUTOPILOT: gettext_lazy("the autopilot decided for you"),
    ActionRecord.Actor.MODERATOR: gettext_lazy("a moderator decided for you"),
}


def decisions_since(game: Game, seq: int, names: dict, limit: int = 12, viewer: Seat | None = None) -> list[dict]:
    """What was decided after log entry ``seq``, oldest first, each with its
    time, who or what decided it, and whether it was ``viewer``'s seat: the
    answer to "why was my click too late?" and "what did I miss?". The
    chance that followed a decision (a die, a card) is told with it."""
    decisions = list(
        ActionRecord.objects.filter(game=game, seq__gt=seq)
        .exclude(actor=ActionRecord.Actor.CHANCE)
        .order_by("seq")
        .only("seq", "seat", "events", "actor", "created_at")[: limit + 1]
    )
    chance = ActionRecord.objects.filter(game=game, seq__gt=seq, actor=ActionRecord.Actor.CHANCE)
    if len(decisions) > limit:
        # Chance after the last decision shown, up to the first one left out.
        chance = chance.filter(seq__lt=decisions.pop().seq)
    chance = chance.only("seq", "seat", "events", "actor", "created_at")
    records = sorted([*decisions, *chance], key=lambda record: record.seq)
    entries: list[dict] = []
    for record in records:
        sentences = [text for text in (describe(e, names) for e in record.events) if text]
        if record.actor == ActionRecord.Actor.CHANCE and entries:
            entries[-1]["sentences"].extend(sentences)
            continue
        for_you = viewer is not None and record.actor != ActionRecord.Actor.CHANCE and record.seat == viewer.position
        entries.append(
            {
                "at": record.created_at,
                "sentences": sentences,
                "made_by": _MADE_BY.get(record.actor),
                "for_you": for_you,
                "made_for_you": _MADE_FOR_YOU.get(record.actor) if for_you else None,
            }
        )
    return [entry for entry in entries if entry["sentences"]]


def since_email(seat: Seat, since: int | None) -> list[dict]:
    """What happened after the email whose link carried game version
    ``since``; nothing for a version that is not an earlier one of this game
    (the link was opened in time, or the number was made up)."""
    game = seat.game
    if since is None or not 0 <= since < game.version:
        return []
    return decisions_since(game, since, {s.colour: s.name for s in game_seats(game)}, viewer=seat)


def local_time(moment, time_zone: str):
    if moment is None:
        return None
    try:
        zone = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return timezone.localtime(moment, zone)


def seat_for_link(token: str) -> tuple[Seat | None, str]:
    """The seat a link opens, or why it opens none: "handed_over" for the link
    of a player a moderator replaced, "invalid" for anything else."""
    seat = seat_by_token(token)
    if seat is not None:
        return seat, "ok"
    if token and len(token) <= TOKEN_MAX and SeatHolder.objects.filter(token_hash=token_hash(token)).exists():
        return None, "handed_over"
    return None, "invalid"


def seat_for_unsubscribe(token: str) -> Seat | None:
    """The seat an unsubscribe link names; a seat link names none here."""
    return seat_by_unsubscribe_token(token)


def free_colours(game: Game, seats: list[Seat]) -> list[str]:
    taken = {s.colour for s in seats if s.colour}
    return [c for c in engine.Ruleset.from_json(game.ruleset).colours if c not in taken]


def is_inviting(game: Game) -> bool:
    return game.status == Game.Status.INVITING


def masked_email(email: str) -> str:
    """"b•••@example.com": enough for the host to tell whom they invited,
    too little for the other invitees to learn an address."""
    local, at, domain = email.rpartition("@")
    if not at:
        return "•••"
    return f"{local[:1]}•••@{domain}"


def invitees(seats: list[Seat], viewer: Seat) -> list[dict]:
    """Who is in the game before it starts: a taken seat by its player's name
    and colour, one not yet taken by the name the host gave or else a masked
    address."""
    return [
        {
            "taken": seat.accepted_at is not None,
            "name": seat.display_name or masked_email(seat.email),
            "colour": seat.colour if seat.accepted_at is not None else None,
            "host": seat.is_host,
            "you": seat.pk == viewer.pk,
            # An open game's seat nobody holds yet, and one a stranger joined
            # (the host may remove them before the start: its position says which).
            "open": not seat.email and not seat.computer,
            "joined": seat.joined_at is not None,
            "position": seat.position,
        }
        for seat in sorted(seats, key=lambda seat: seat.position)
    ]


def _absences_now(seats: list[Seat]) -> dict:
    """Colour -> the absence under way or coming, shown to everyone."""
    now = timezone.now()
    shown: dict = {}
    if not any(seat.away_until and seat.away_until > now for seat in seats):
        return shown  # nobody has an absence under way or coming: no query
    for absence in Absence.objects.filter(seat__in=seats, ends_at__gt=now).order_by("starts_at"):
        colour = next(s.colour for s in seats if s.pk == absence.seat_id)
        shown.setdefault(colour, absence)
    return shown


def game_context(game: Game, seat: Seat | None, seats: list[Seat], *, moderated: bool = True) -> dict:
    """What every view of a running or finished game shows, for ``seat`` (or
    a spectator, with None), but the sections every viewer shares
    (public_sections). ``moderated`` as for history."""
    observation = _observed(game, seat)
    names = {s.colour: s.name for s in seats}
    my_turn = seat is not None and observation["to_move"] == seat.colour
    time_zone = seat.time_zone if seat else "UTC"
    return {
        "observation": observation,
        "names": names,
        "standings": final_standings(observation, names),
        "by_colour": {s.colour: s for s in seats},
        "moderated": moderated,
        "my_turn": my_turn,
        "deadline": local_time(game.deadline, time_zone),
        "time_zone": time_zone,
        "can_arrange": bool(seat and observation["players"][seat.position]["can_arrange"]),
        "racing_others": [
            colour
            for colour, chair in (observation["race"] or {"chairs": {}})["chairs"].items()
            if chair["status"] == "racing" and (seat is None or colour != seat.colour)
        ],
        "absences": _absences_now(seats),
    }


def public_sections(game: Game, names: dict, *, moderated: bool = True, history_limit: int = HISTORY_LIMIT) -> dict:
    """What the board, the players' table, the races run and the history are
    made from: from the spectator's view, whoever asks, so they hold no one's
    secret and every viewer of the game may share them. The drawing and the
    history are made only when a template asks for them: a page whose
    sections are in the cache never makes them."""
    observation = _observed(game, None)
    return {
        "public": observation,
        "races_run_key": races_run_key(observation, names),
        "board_svg": functools.cache(
            lambda: board_svg(observation, engine.Ruleset.from_json(game.ruleset), names)
        ),
        "board_svg_wide": functools.cache(
            lambda: board_svg(observation, engine.Ruleset.from_json(game.ruleset), names, wide=True)
        ),
        "history": functools.cache(lambda: history(game, names=names, moderated=moderated, limit=history_limit)),
        "history_limit": history_limit,
    }


def races_run_key(observation: engine.Observation, names: dict) -> str:
    """What the table of races run shows, in a few bytes: a race's result
    never changes once run, so the table is the same from the end of one race
    to the end of the next, whatever else happens meanwhile (the names are in
    it: a moderator may hand a seat to another player)."""
    told = "|".join(f"{colour}={name}" for colour, name in sorted(names.items()))
    return f"{len(observation['results'])}:{hashlib.sha256(told.encode()).hexdigest()[:16]}"


def seat_page(
    seat: Seat, since: int | None = None, *, moderated: bool = True, seats: list[Seat] | None = None
) -> dict:
    """Everything the seat page shows but its forms; ``inviting`` says which
    page it is, and the ``*_initial`` and flags say which forms it has.
    ``since`` is the game version of the email whose link was opened;
    ``seats`` the game's seats, if the caller read them with ``seat``."""
    game = seat.game
    seats = game_seats(game) if seats is None else seats
    context: dict = {"seat": seat, "game": game, "seats": seats, "inviting": is_inviting(game)}
    if context["inviting"]:
        context["free_colours"] = free_colours(game, seats)
        context["invitees"] = invitees(seats, seat)
        return context
    context.update(game_context(game, seat, seats, moderated=moderated))
    context.update(public_sections(game, context["names"], moderated=moderated, history_limit=SEAT_HISTORY_LIMIT))
    if context["my_turn"] and seat.colour:
        context.update(decision_context(game.ruleset, context["observation"], seat.colour))
    context["since_email"] = since_email(seat, since)
    if context["can_arrange"]:
        context["arrange_codes"] = arrange_codes(context["observation"], seat)
    return context


def seat_settings(seat: Seat) -> dict:
    """What the seat's settings page shows: the ``*_initial`` and flags say
    which of its forms it has (standing orders only while the game runs;
    absence, help and apps while it runs or is paused)."""
    game = seat.game
    running = game.status == Game.Status.RUNNING
    context: dict = {"seat": seat, "game": game, "page_seconds": 0}
    context["orders_initial"] = _orders_initial(seat) if running else None
    context["player_tools"] = running or game.status == Game.Status.PAUSED
    if context["player_tools"]:
        # A seat that never declared an absence has all its days: no query.
        context["absence_days_left"] = absence_days_left(seat) if seat.away_until else game.absence_allowance_days
    return context


def whole_history(seat: Seat) -> dict:
    """Everything that happened in the seat's game, oldest first."""
    game = seat.game
    names = {s.colour: s.name for s in game_seats(game)}
    return {"seat": seat, "game": game, "names": names, "history": history(game, names=names, limit=None)}


def arrange_codes(observation: engine.Observation | dict | None, seat: Seat) -> list[str]:
    """The codes of the seat's team in slot order, as the arrange form offers them."""
    if observation is None:
        return []
    return [card["code"] for card in observation["players"][seat.position]["display"] if card]


def seat_observation(seat: Seat) -> engine.Observation | None:
    return observation_for(seat.game, seat)


def _orders_initial(seat: Seat) -> dict:
    orders = seat.standing_orders or {}
    game = seat.game
    current = engine.auction_key(game_state(game)) if game.state else None
    scope = orders.get("bid_auction")
    # A limit for an auction that has ended is over: not shown, so saving
    # the form for another reason does not set it again.
    live_limit = orders.get("bid_limit") if scope is None or scope == current else None
    return {
        "auction": current or "",
        "auto_roll": orders.get("auto_roll", False),
        "bid_limit": live_limit,
        "bid_every": "bid_limit" in orders and scope is None,
        "devil": orders.get("devil", ""),
        "removal": orders.get("removal", ""),
    }


def game_colours(game: Game) -> tuple[str, ...]:
    """The game's colours, straight from the stored state (no extra query)."""
    return tuple(game.state["colours"]) if game.state else ()


def seat_names(game: Game) -> dict:
    """Colour -> name; from the seats a decision read under its lock when
    ``game`` is the one it returned (names never change in a decision)."""
    seats = getattr(game, "seats_at_lock", None)
    return {s.colour: s.name for s in (seats if seats is not None else game_seats(game))}


def accepted(seat: Seat) -> bool:
    return seat.accepted_at is not None


def seat_language(seat: Seat) -> str:
    """The seat's language as stored now (a form may just have changed it)."""
    return Seat.objects.filter(pk=seat.pk).values_list("language", flat=True).first() or seat.language
