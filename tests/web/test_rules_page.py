"""The rules page tells the numbers the engine plays by, and every decision on
the seat page points to the paragraph that explains it."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games import engine
from games.notation_words import to_notation
from games.services.game_state import load_state
from tests.factories import started_game, tokens
from tests.web.integrity_helpers import game_at_push, game_at_removal, game_at_roll

pytestmark = pytest.mark.django_db

DECISION_ANCHORS = {"bid": "auctions", "roll": "race", "push": "devil", "remove": "removal"}


def _text(html: str) -> str:
    """The page as a reader sees it: tags gone, spaces squeezed."""
    inline_gone = re.sub(r"</?(dfn|strong|em)>", "", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inline_gone))


def _rules(query: str = "") -> str:
    response = Client().get("/rules/" + query)
    assert response.status_code == 200
    return response.content.decode()


def _seat_page(game) -> tuple[str, str]:
    state = load_state(game)
    page = Client().get(f"/s/{tokens(game)[engine.to_move(state)]}/").content.decode()
    return engine.decision_kind(state), page


def _rules_links(page: str) -> set[str]:
    return set(re.findall(r'href="/rules/#([\w-]+)"', page))


@pytest.mark.parametrize("ruleset", sorted(engine.RULESETS.values(), key=lambda r: r.name), ids=lambda r: r.name)
def test_the_rules_page_states_the_numbers_of_its_ruleset(ruleset):
    query = "" if ruleset is engine.CLASSIC else f"?ruleset={ruleset.name}"
    text = _text(_rules(query))
    expected = [
        f"{ruleset.min_players} to {ruleset.max_players} players",
        f"You start with {ruleset.starting_gold} gold",
        f"A team is {ruleset.lot_size} bearer cards",
        f"they pay {ruleset.last_team_price} gold",
        f"{ruleset.display_size} numbered slots",
        f"roll a {ruleset.die_faces}-sided die",
        f"The deck holds {ruleset.deck_size} bearer cards",
        f"stops after {ruleset.roll_cap} rolls",
        f"down to space {ruleset.lowest_space}",
        f"After each of the first {ruleset.races - 1} races",
        f"Then {ruleset.substitute_auctions} more auction",
        f"After race {ruleset.races} there is no removal",
    ]
    for bearer in ruleset.bearers:
        expected.append(f"{bearer.count} ")
    missing = [phrase for phrase in expected if phrase not in text]
    assert not missing, missing


def test_the_prize_table_has_a_row_per_race_with_its_finish_and_prizes():
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>(.*?)</tr>", _rules(), re.S)
    cells = [[number] + re.findall(r"<td>([^<]*)</td>", row) for number, row in rows]
    assert cells == [
        [str(race), str(finish), *(str(prize) for prize in prizes)]
        for race, (finish, prizes) in enumerate(
            zip(engine.CLASSIC.finish_spaces, engine.CLASSIC.prizes, strict=True), start=1
        )
    ]


def test_the_rules_page_counts_every_kind_of_bearer_card_in_its_drawings():
    page = _rules()
    labels = re.findall(r'class="rules-card"[^>]*aria-label="([^"]+)"', page)
    assert len(labels) == len(engine.CLASSIC.bearers)
    for label, bearer in zip(labels, engine.CLASSIC.bearers, strict=True):
        assert label.endswith(f": {bearer.count} cards")
    assert 'class="rules-track"' in page


def test_every_paragraph_a_decision_links_to_exists_on_the_rules_page():
    page = _rules()
    for anchor in {*DECISION_ANCHORS.values(), "arrange", "pond", "prizes", "substitutes", "end", "fairness"}:
        assert f'id="{anchor}"' in page, anchor


def test_the_rules_page_runs_no_inline_script_or_style():
    page = _rules()
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert "<style" not in page


def test_an_unknown_ruleset_is_named_and_the_default_rules_are_shown():
    response = Client().get("/rules/?ruleset=nonsense")
    assert response.status_code == 404
    page = response.content.decode()
    assert "There is no ruleset called “nonsense”" in page
    assert f"You start with {engine.CLASSIC.starting_gold} gold" in _text(page)


def test_the_home_page_and_every_page_header_link_to_the_rules():
    page = Client().get("/").content.decode()
    assert page.count('href="/rules/"') >= 2


@pytest.mark.parametrize(
    "make",
    [lambda: started_game(4), game_at_roll, game_at_push, game_at_removal],
    ids=["bid", "roll", "push", "remove"],
)
def test_each_decision_form_links_to_the_paragraph_that_explains_it(make):
    kind, page = _seat_page(make())
    decide = page.split('id="decide"', 1)[1].split("</section>", 1)[0]
    assert DECISION_ANCHORS[kind] in _rules_links(decide), kind


def test_the_arrange_form_links_to_the_paragraph_on_arranging():
    _, page = _seat_page(game_at_roll())
    assert 'action="arrange"' in page  # next to the seat page: /s/<token>/arrange
    assert "arrange" in _rules_links(page)


def test_the_seat_page_explains_its_terms_in_visible_text():
    _, bidding = _seat_page(started_game(4))
    text = _text(bidding)
    assert "The lot is the set of bearer cards this auction sells" in text
    assert "Shell pond: a chair sent back" in text
    assert "Goof: a clumsy bearer" in text
    assert "<dfn>Seed commitment (SHA-256):</dfn>" in bidding
    _, pushing = _seat_page(game_at_push())
    assert "Devil: the bearer you rolled" in _text(pushing)


def _side_by_side(table: str) -> list[tuple[str, str]]:
    pairs = re.findall(r'<td lang="en"><code>([^<]*)</code></td><td lang="de"><code>([^<]*)</code></td>', table)
    return [(html.unescape(english), html.unescape(german)) for english, german in pairs]


def test_the_rules_page_shows_the_reply_notation_in_english_and_german_side_by_side():
    page = _rules()
    assert 'href="#replies"' in page
    section = page[page.index('<section id="replies">'):]
    examples, colours = (_side_by_side(table) for table in re.findall(r"<table.*?</table>", section, re.S)[:2])
    # The words (issue 12).
    for pair in [("bid 12", "biete 12"), ("pass", "passe"), ("roll", "würfeln"), ("push blue", "schieben blau"),
                 ("push none", "niemand schieben"), ("remove red:3 blue:1 green:4", "entfernen rot:3 blau:1 grün:4")]:
        assert pair in examples
    assert colours == [("red", "rot"), ("yellow", "gelb"), ("green", "grün"), ("blue", "blau"), ("white", "weiß"),
                       ("black", "schwarz")]
    # What the page teaches is what a reply is read as.
    for english, german in examples:
        assert to_notation(german) == english
