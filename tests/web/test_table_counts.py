"""The players' table counts the deck and the discard pile in words that
agree with the number, in both languages."""

from django.template.loader import render_to_string
from django.utils import translation


def _table(deck: int, discard: int, language: str) -> str:
    observation = {"players": [], "to_move": None, "race": None, "deck_size": deck, "discard_size": discard}
    with translation.override(language):
        return render_to_string(
            "game/_table.html", {"observation": observation, "names": {}, "by_colour": {}, "absences": {}}
        )


def test_one_card_in_the_deck_is_one_card_not_one_cards():
    page = _table(1, 2, "en")
    assert "Deck: 1 card ·" in page
    assert "discard pile: 2 cards" in page


def test_german_counts_one_card_in_the_singular_too():
    page = _table(1, 1, "de")
    assert "Nachziehstapel: 1 Karte ·" in page
    assert "Ablagestapel: 1 Karte<" in page
