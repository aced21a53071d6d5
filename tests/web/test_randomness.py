"""Randomness anyone can check (docs/architecture.md#randomness-you-can-check).

The seed's SHA-256 is public from the invitation on; the seed itself reaches no
page, JSON view or email before the game is over; every chance step of the log
is the outcome HMAC(seed, game, step) picks, with rejection sampling; at the end
the seed is revealed and the verify page and ``verify_game`` recompute every
outcome, and notice a log that was changed afterwards."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import NoReverseMatch, reverse

from games import engine
from games.models import ActionRecord, Game, Seat
from games.randomness import commitment, pick_index
from games.services import setup as setup_service
from games.services.setup import game_create, seat_accept
from tests.factories import COLOURS, play_steps, play_until, started_game, tokens
from tests.mail.helpers import addresses

SEED = hashlib.sha256(b"versailles: a seed for the randomness tests").hexdigest()


@pytest.fixture
def fixed_seed(monkeypatch):
    """Every game created in the test gets SEED, so a failure replays exactly."""
    monkeypatch.setattr(setup_service, "new_seed", lambda: SEED)
    return SEED


def optional_url(name: str, arg: str) -> str | None:
    try:
        return reverse(name, args=[arg])
    except NoReverseMatch:
        return None


def readable(client, game: Game) -> dict[str, str]:
    """Every page and JSON view of the game, by a name for messages."""
    game.refresh_from_db()
    urls = {}
    for position, token in tokens(game).items():
        urls[f"seat {position}'s page"] = reverse("seat", args=[token])
        urls[f"seat {position}'s JSON"] = optional_url("seat_json", token)
    urls["the spectator page"] = reverse("spectator", args=[game.public_id])
    urls["the spectator JSON"] = optional_url("spectator_json", game.public_id)
    urls["the verify page"] = reverse("verify", args=[game.public_id])
    texts = {}
    for name, url in urls.items():
        if url is None:
            continue
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        texts[name] = response.content.decode()
    return texts


def emails(game: Game) -> dict[str, str]:
    """Every email sent for this game, as written (the outbox keeps no body
    once an email is sent, so they are read from the test mailbox)."""
    seat_addresses = set(game.seats.values_list("email", flat=True))
    return {
        f"email {index} to {addresses(message)[0]}: {message.subject}": "\n".join(
            [message.subject, message.body] + [content for content, _ in getattr(message, "alternatives", [])]
        )
        for index, message in enumerate(mail.outbox)
        if addresses(message)[0] in seat_addresses
    }


def assert_seed_absent(texts: dict[str, str], seed: str) -> None:
    """Neither the seed nor any quarter of it (a partial leak) appears."""
    pieces = [seed] + [seed[i : i + 16] for i in range(0, 64, 16)]
    for name, text in texts.items():
        lowered = text.lower()
        found = [piece for piece in pieces if piece in lowered]
        assert not found, f"{name} shows the seed (or part of it) before the game is over"


def replay_chance(game: Game):
    """Replay the stored log; yield (record, state before it) for every record."""
    ruleset = engine.Ruleset.from_json(game.ruleset)
    colours = list(game.seats.order_by("position").values_list("colour", flat=True))
    state = engine.new_game(ruleset, colours)
    for record in ActionRecord.objects.filter(game=game).order_by("seq"):
        yield record, state
        state = engine.apply(state, record.seat, engine.parse(record.action, ruleset))
    assert engine.state_to_json(state) == game.state


def play_to_end(game: Game, rng: random.Random) -> Game:
    game = play_until(game, lambda state: False, rng)
    assert game.status == Game.Status.OVER
    return game


# ---- pick_index, on its own --------------------------------------------------


def hmac_value(seed: str, game: str, step: int, attempt: int) -> int:
    message = f"{game}:{step}:{attempt}".encode()
    return int.from_bytes(hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest(), "big")


def test_pick_index_is_repeatable_in_range_and_depends_on_seed_game_and_step():
    for count in (1, 2, 3, 4, 5, 7, 36, 40, 1000):
        picks = [pick_index(SEED, "g1", step, count) for step in range(50)]
        assert picks == [pick_index(SEED, "g1", step, count) for step in range(50)]
        assert all(0 <= p < count for p in picks)
    by_step = [pick_index(SEED, "g1", step, 1000) for step in range(20)]
    assert by_step != [pick_index(SEED, "g2", step, 1000) for step in range(20)]
    assert by_step != [pick_index("00" * 32, "g1", step, 1000) for step in range(20)]
    assert len(set(by_step)) > 10
    with pytest.raises(ValueError):
        pick_index(SEED, "g1", 1, 0)


def test_pick_index_is_the_first_hmac_draw_modulo_the_count_as_the_verify_page_says():
    # A count that is not a power of two, where rejection essentially never happens.
    for step in range(200):
        assert pick_index(SEED, "game", step, 3) == hmac_value(SEED, "game", step, 0) % 3


def test_pick_index_redraws_a_value_in_the_incomplete_last_block_instead_of_folding_it():
    # 2**255 + 1 outcomes: the largest multiple below 2**256 is 2**255 + 1 itself,
    # so about half of all 256-bit draws are rejected, and a modulo would have
    # folded them onto the low indexes.
    count = 2**255 + 1
    limit = (1 << 256) - (1 << 256) % count
    assert limit == count
    redrawn = 0
    for step in range(40):
        attempt = 0
        while hmac_value(SEED, "game", step, attempt) >= limit:
            attempt += 1
        expected = hmac_value(SEED, "game", step, attempt) % count
        assert pick_index(SEED, "game", step, count) == expected
        if attempt:
            redrawn += 1
            assert expected != hmac_value(SEED, "game", step, 0) % count
    assert redrawn >= 5  # about 20 of 40 are expected


@pytest.mark.parametrize("count, steps", [(3, 3000), (4, 4000), (7, 7000)])
def test_pick_index_spreads_its_outcomes_evenly(count, steps):
    tally = Counter(pick_index(SEED, "spread", step, count) for step in range(steps))
    expected = steps / count
    assert set(tally) == set(range(count))
    for outcome in range(count):
        # Each within about 4 standard deviations of steps/count.
        assert abs(tally[outcome] - expected) < 4 * (steps * (1 / count) * (1 - 1 / count)) ** 0.5, tally
    chi_square = sum((tally[o] - expected) ** 2 / expected for o in range(count))
    assert chi_square < {3: 13.8, 4: 16.3, 7: 22.5}[count]  # p = 0.001


# ---- the seed, its commitment, and the log -------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_seed_commitment_is_on_every_page_and_in_the_invitations_from_the_start(client, fixed_seed):
    game = game_create(
        host_name="Host", host_email="p0@example.com",
        other_emails=["p1@example.com", "p2@example.com"], decision_hours=24, ruleset_name="classic",
    )
    assert game.seed_commitment == commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()

    invitations = [m for m in mail.outbox if "invites you" in m.subject]
    assert len(invitations) == 3
    for message in invitations:
        assert game.seed_commitment in message.body
        assert game.seed_commitment in message.alternatives[0][0]
    # While the players are still taking their seats.
    before = readable(client, game)
    for name, text in before.items():
        if "JSON" not in name:
            assert game.seed_commitment in text, name
    assert_seed_absent(before | emails(game), SEED)

    for seat in Seat.objects.filter(game=game).order_by("position"):
        seat_accept(seat=seat, colour=COLOURS[seat.position], display_name=f"P{seat.position}", time_zone="UTC")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    for name, text in readable(client, game).items():
        assert game.seed_commitment in text, name


@pytest.mark.django_db(transaction=True)
@pytest.mark.heavy
def test_the_seed_stays_secret_until_the_end_and_then_every_outcome_can_be_checked(client, fixed_seed):
    rng = random.Random(3)
    game = started_game(3)
    looked = 0

    def look():
        nonlocal looked
        assert_seed_absent(readable(client, game) | emails(game), SEED)
        looked += 1

    look()  # the first auction
    game = play_until(game, lambda s: s.phase == "race", rng)
    look()  # race 1
    game = play_until(game, lambda s: s.phase == "removal", rng)
    look()  # the break after race 1
    game = play_until(game, lambda s: s.phase == "substitute_auction", rng)
    look()
    game = play_until(game, lambda s: s.race is not None and s.race.number == 6, rng)
    look()  # race 6
    # Through race 6 decision by decision: the seed appears with the very last one only.
    while game.status == Game.Status.RUNNING:
        for url in (reverse("verify", args=[game.public_id]), optional_url("spectator_json", game.public_id)):
            if url:
                assert SEED not in client.get(url).content.decode()
        play_steps(game, 1, rng)
    assert looked == 5

    # The end: revealed on every page and in the last emails, and checkable.
    texts = readable(client, game)
    for name in ("seat 0's page", "seat 1's page", "seat 2's page", "the spectator page", "the verify page"):
        assert SEED in texts[name], name
    if "the spectator JSON" in texts:
        assert SEED in texts["the spectator JSON"]
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert len(over) == 3 and all(SEED in m.body for m in over)

    chance_steps = ActionRecord.objects.filter(game=game, seat=engine.CHANCE).count()
    verify = texts["the verify page"]
    assert f"{chance_steps} chance outcomes recomputed from the seed." in verify
    assert "All match the log." in verify
    assert (
        "The seed&#x27;s SHA-256 matches the commitment." in verify
        or "The seed's SHA-256 matches the commitment." in verify
    )
    assert "Replaying the log gives the stored final state." in verify
    assert "Mismatch" not in verify and "NOT" not in verify

    out = StringIO()
    call_command("verify_game", game.public_id, stdout=out)
    printed = out.getvalue()
    assert f"chance steps recomputed: {chance_steps}" in printed
    assert SEED in printed
    assert "every chance outcome follows from the seed" in printed


@pytest.mark.django_db
def test_every_chance_step_in_the_log_is_the_outcome_the_seed_picks():
    game = started_game(4)
    game = play_until(game, lambda s: s.race is not None and s.race.number == 2, random.Random(4))
    kinds = Counter()
    seqs = []
    for record, before in replay_chance(game):
        seqs.append(record.seq)
        if record.seat != engine.CHANCE:
            assert engine.to_move(before) == record.seat
            continue
        assert engine.to_move(before) == engine.CHANCE
        outcomes = engine.chance_outcomes(before)
        index = pick_index(game.seed, game.public_id, record.seq, len(outcomes))
        assert engine.parse(record.action, before.ruleset) == outcomes[index], record.seq
        assert record.actor == ActionRecord.Actor.CHANCE
        kinds[record.action.split()[0]] += 1
    assert seqs == list(range(1, game.version + 1))
    # The start player, card draws from decks of many sizes, and die rolls.
    assert kinds["start"] == 1 and kinds["draw"] >= 24 and kinds["die"] >= 10


def same_bearer_other_face(game: Game):
    """A die record of races 1-5 and another face whose bearer is of the same
    kind: changing it breaks the seed but not the rest of the log."""
    for record, before in replay_chance(game):
        if record.seat != engine.CHANCE or not record.action.startswith("die ") or before.race.number > 5:
            continue
        display = before.displays[before.race.turn]
        face = int(record.action.split()[1])
        code = before.ruleset.code_of(display[face - 1])
        for other in range(1, len(display) + 1):
            if other != face and before.ruleset.code_of(display[other - 1]) == code:
                return record, face, other
    raise AssertionError("no display in this game held two bearers of one kind")


@pytest.mark.django_db
def test_a_die_roll_changed_in_the_log_is_reported_by_the_verify_page_and_fails_verify_game(client, fixed_seed):
    game = play_to_end(started_game(3), random.Random(6))
    call_command("verify_game", game.public_id, stdout=StringIO())  # untouched, it passes

    record, face, other = same_bearer_other_face(game)
    ActionRecord.objects.filter(pk=record.pk).update(action=f"die {other}")
    mismatch = f"step {record.seq}: log says 'die {other}', seed gives 'die {face}'"

    page = client.get(reverse("verify", args=[game.public_id]))
    assert page.status_code == 200
    html = page.content.decode().replace("&#x27;", "'")
    assert "Mismatches:" in html
    assert mismatch in html
    assert "All match the log." not in html

    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", game.public_id, stdout=out)
    assert mismatch in out.getvalue()


@pytest.mark.django_db
def test_a_die_roll_changed_so_that_the_rest_of_the_log_no_longer_fits_is_reported_too(client, fixed_seed):
    """A forged roll usually makes later decisions impossible; verifying must
    still answer with a report and a CommandError, not a crash."""
    game = started_game(3)
    game = play_until(game, lambda s: s.race is not None and s.race.number == 2, random.Random(8))
    record = ActionRecord.objects.filter(game=game, action__startswith="die ").order_by("seq").first()
    face = int(record.action.split()[1])
    # Stand the whole game's remaining log on a different first roll, and a face that does not exist.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    for forged in (f"die {face % 4 + 1}", "die 9"):
        ActionRecord.objects.filter(pk=record.pk).update(action=forged)
        page = client.get(reverse("verify", args=[game.public_id]))
        assert page.status_code == 200, forged
        assert "All match the log." not in page.content.decode()
        with pytest.raises(CommandError):
            call_command("verify_game", game.public_id, stdout=StringIO())


@pytest.mark.django_db
def test_verify_game_refuses_an_unfinished_game_and_an_unknown_one(fixed_seed):
    game = started_game(3)
    with pytest.raises(CommandError, match="over"):
        call_command("verify_game", game.public_id, stdout=StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("verify_game", "no-such-game", stdout=StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("verify_game", "987654", stdout=StringIO())
