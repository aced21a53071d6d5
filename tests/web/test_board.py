"""The board on a phone and in the email picture: it fits a 390 px phone's
column, no label is under 12 px, every chair carries its player's initial and
a shape of its own, and the last move and the placings are named."""

from __future__ import annotations

import io
import random
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape as django_escape
from django.utils.translation import gettext_lazy
from PIL import Image

from games import engine
from games.board import png as png_module
from games.board.colours import hex_of, rgb
from games.board.layout import short_labels
from games.board.png import board_png
from games.board.svg import board_svg
from games.models import Notification, Seat
from tests.factories import play_until, started_game, tokens

PHONE_COLUMN = 358  # a 390 px phone's text column, in CSS px
NAMES = {"red": "Anna", "yellow": "Bruno", "green": "Carla", "blue": "Dora", "white": "Emil", "black": "Fritz"}


def walk(players: int, done, seed: int = 0) -> engine.State:
    """A game played by random legal moves (and random chance) until ``done``."""
    rng = random.Random(seed)
    state = engine.new_game(engine.CLASSIC, engine.CLASSIC.colours[:players])
    for _ in range(20000):
        if done(state):
            return state
        assert not engine.is_over(state), "the game ended before the condition held"
        mover = engine.to_move(state)
        options = engine.chance_outcomes(state) if mover == engine.CHANCE else engine.legal_actions(state)
        state = engine.apply(state, mover, options[rng.randrange(len(options))])
    raise AssertionError("the condition was never reached")


def mid_race(players: int = 6) -> dict:
    """A race under way with a chair moved since its start."""
    return engine.observe(walk(players, lambda s: s.race is not None and s.race.last_roll is not None), None)


def after_arrivals() -> dict:
    return engine.observe(walk(6, lambda s: s.race is not None and len(s.race.arrivals) >= 2, seed=3), None)


def chair_groups(svg: str) -> dict:
    """colour -> the markup of its chair markers."""
    groups: dict = {}
    for match in re.finditer(r'<g class="chair chair-(\w+)" data-colour="(\w+)">(.*?)</g>', svg):
        groups.setdefault(match.group(2), []).append((match.group(1), match.group(3)))
    return groups


def test_the_board_scales_to_the_page_and_is_no_wider_than_a_phone_column():
    svg = board_svg(mid_race(), engine.CLASSIC, NAMES)
    root = re.match(r"<svg [^>]*>", svg).group(0)
    width = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', root)
    assert width, root
    # At 1 unit = 1 px the drawing fits the phone's column, so it is never scaled down there.
    assert float(width.group(1)) <= PHONE_COLUMN
    fixed = re.search(r'\swidth="([\d.]+)"', root)
    assert fixed is None or float(fixed.group(1)) <= PHONE_COLUMN


def test_no_text_on_the_board_is_smaller_than_12_units():
    for observation in (mid_race(), after_arrivals()):
        svg = board_svg(observation, engine.CLASSIC, NAMES)
        sizes = [float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)]
        assert sizes and min(sizes) >= 12
        assert svg.count("<text") == len(sizes)


def test_every_racing_chair_is_labelled_with_its_players_initial():
    observation = mid_race()
    svg = board_svg(observation, engine.CLASSIC, NAMES)
    groups = chair_groups(svg)
    racing = [c for c, chair in observation["race"]["chairs"].items() if chair["status"] == "racing"]
    assert racing
    for colour in racing:
        (_shape, markup), *_ = groups[colour]
        assert f">{NAMES[colour][0]}</text>" in markup
        assert NAMES[colour] in markup


def test_a_name_with_markup_in_it_is_escaped_in_the_drawing_as_django_escapes_it():
    observation = mid_race(3)
    tricky = {**NAMES, "red": "<b>Ann & \"Jo\"</b>", "yellow": gettext_lazy("O'Neill")}
    svg = board_svg(observation, engine.CLASSIC, tricky)
    assert "<b>" not in svg
    for name in (tricky["red"], tricky["yellow"]):
        assert f"<title>{django_escape(name)}" in svg


def test_without_names_a_chair_carries_its_colours_initial():
    observation = mid_race(3)
    groups = chair_groups(board_svg(observation, engine.CLASSIC))
    assert ">R</text>" in groups["red"][0][1]
    assert ">Y</text>" in groups["yellow"][0][1]


def test_players_sharing_an_initial_get_labels_that_tell_them_apart():
    labels = short_labels(["red", "yellow", "green"], {"red": "Anna", "yellow": "Anton", "green": "Bea"})
    assert labels == {"red": "An", "yellow": "At", "green": "B"}


def test_each_seat_has_a_marker_shape_of_its_own():
    groups = chair_groups(board_svg(mid_race(), engine.CLASSIC, NAMES))
    shapes = {colour: {shape for shape, _markup in markers} for colour, markers in groups.items()}
    assert all(len(kinds) == 1 for kinds in shapes.values())
    assert len({kinds.pop() for kinds in shapes.values()}) == len(shapes) == 6


def test_the_chair_that_moved_last_is_marked_and_no_other():
    observation = mid_race()
    last = observation["race"]["last_roll"]["colour"]
    groups = chair_groups(board_svg(observation, engine.CLASSIC, NAMES))
    marked = {colour for colour, markers in groups.items() if any("last-moved" in m for _s, m in markers)}
    assert marked == {last}


def test_after_arrivals_the_placings_name_the_players():
    observation = after_arrivals()
    first, second = observation["race"]["arrivals"][:2]
    svg = board_svg(observation, engine.CLASSIC, NAMES)
    assert f"1st {NAMES[first]}" in svg
    assert f"2nd {NAMES[second]}" in svg


def test_the_current_finish_is_under_the_arch_and_start_is_marked():
    svg = board_svg(mid_race(), engine.CLASSIC, NAMES)
    assert svg.count('class="arch"') == 1
    assert ">START</text>" in svg
    assert ">Shell pond</text>" in svg
    assert ">20/10/5<" in svg and ">40/20/10<" in svg


def test_the_email_picture_decodes_and_is_a_sensible_size():
    picture = board_png(after_arrivals(), engine.CLASSIC.to_json(), NAMES)
    image = Image.open(io.BytesIO(picture))
    image.load()
    assert image.format == "PNG"
    assert 600 <= image.width <= 800 and 600 <= image.height <= 1400
    assert len(picture) < 200_000


@pytest.mark.parametrize("observation", [mid_race, after_arrivals], ids=["mid_race", "after_arrivals"])
def test_the_email_picture_keeps_the_colours_it_is_drawn_in(observation):
    """Its 256 colours are the board's own, not picked per picture: every
    chair's colour comes out as it is, and no part of the picture strays far
    from the drawing in full colour."""
    picture = png_module.picture_of(observation(), engine.CLASSIC.to_json(), NAMES)
    full = png_module.drawn(*picture)
    sent = Image.open(io.BytesIO(board_png(observation(), engine.CLASSIC.to_json(), NAMES))).convert("RGB")
    differences = [abs(a - b) for a, b in zip(full.tobytes(), sent.tobytes(), strict=True)]
    assert sum(differences) / len(differences) < 1.5
    assert sum(difference > 24 for difference in differences) < len(differences) / 1000
    sent_colours = {colour for _, colour in sent.getcolors(256)}
    assert {rgb(hex_of(colour)) for colour in observation()["race"]["chairs"]} <= sent_colours


@pytest.mark.django_db
def test_the_seat_page_board_names_the_players():
    game = play_until(started_game(players=3), lambda state: state.race is not None)
    Seat.objects.filter(game=game, position=1).update(display_name="Bruno")
    page = Client().get(f"/s/{tokens(game)[0]}/").content.decode()
    board = re.search(r'<svg class="board".*?</svg>', page, re.S)
    assert board
    assert "Bruno" in board.group(0)


@pytest.mark.django_db
def test_the_turn_email_picture_carries_the_players_names():
    game = started_game(players=3)
    notification = Notification.objects.filter(game=game, picture__isnull=False).latest("pk")
    names = {s.colour: s.name for s in Seat.objects.filter(game=game)}
    assert notification.picture["names"] == names


def test_every_seat_of_a_game_at_one_version_gets_one_picture_drawn_once():
    state = walk(4, lambda s: s.race is not None and s.race.last_roll is not None, seed=5)
    png_module._png.cache_clear()
    pictures = {
        board_png(engine.observe(state, seat), engine.CLASSIC.to_json(), NAMES, game="G1") for seat in range(4)
    }
    assert len(pictures) == 1
    assert png_module._png.cache_info().misses == 1


def test_a_picture_is_never_shared_between_two_games():
    observation = mid_race(4)
    png_module._png.cache_clear()
    first = board_png(observation, engine.CLASSIC.to_json(), NAMES, game="G1")
    second = board_png(observation, engine.CLASSIC.to_json(), NAMES, game="G2")
    assert first == second
    assert png_module._png.cache_info().misses == 2


def test_a_picture_on_kept_grounds_shows_its_own_race_and_language():
    first, later = mid_race(4), after_arrivals()
    ruleset = engine.CLASSIC.to_json()
    assert board_png(first, ruleset, NAMES, game="G1") != board_png(later, ruleset, NAMES, game="G1")
    english = board_png(first, ruleset, NAMES, game="G1")
    with translation.override("de"):
        german = board_png(first, ruleset, NAMES, game="G1")
    assert german != english
