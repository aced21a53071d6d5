"""The words of the reply notation (games/notation_words.py): German and
English read alike, and the notation shown back in the player's language."""

from __future__ import annotations

import pytest

from games import engine
from games.notation_words import EXAMPLES, LANGUAGES, in_language, to_notation

# The words (issue 12), written here as the reader of a German reply
# would expect them, not taken from the module under test.
GERMAN_COLOURS = {
    "red": "rot", "yellow": "gelb", "green": "grün", "blue": "blau", "white": "weiß", "black": "schwarz",
}
GERMAN_ACTIONS = {
    "bid 12": "biete 12",
    "pass": "passe",
    "roll": "würfeln",
    "push blue": "schieben blau",
    "push none": "niemand schieben",
    "remove red:3 blue:1 green:4": "entfernen rot:3 blau:1 grün:4",
}
WITHOUT_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


@pytest.mark.parametrize("english, german", GERMAN_ACTIONS.items())
def test_every_verb_reads_the_same_in_german_and_in_english(english, german):
    assert to_notation(german) == english
    assert to_notation(english) == english


@pytest.mark.parametrize("english, german", GERMAN_ACTIONS.items())
def test_every_verb_is_shown_to_a_german_seat_in_german_and_to_an_english_seat_as_it_is(english, german):
    assert in_language(english, "de") == german
    assert in_language(english, "en") == english


@pytest.mark.parametrize("colour", engine.CLASSIC.colours)
def test_every_colour_of_the_game_has_its_german_word_both_ways(colour):
    german = GERMAN_COLOURS[colour]
    assert to_notation(f"schieben {german}") == f"push {colour}"
    assert to_notation(f"entfernen {german}:2") == f"remove {colour}:2"
    assert in_language(f"push {colour}", "de") == f"schieben {german}"
    assert in_language(f"remove {colour}:2", "de") == f"entfernen {german}:2"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("notation", [*EXAMPLES, *(f"push {colour}" for colour in engine.CLASSIC.colours)])
def test_what_a_seat_is_shown_reads_back_as_the_same_action(notation, language):
    assert to_notation(in_language(notation, language)) == notation
    assert engine.parse(to_notation(in_language(notation, language))) == engine.parse(notation)


@pytest.mark.parametrize("english, german", GERMAN_ACTIONS.items())
def test_capitals_and_umlauts_written_out_read_as_the_word(english, german):
    assert to_notation(german.upper()) == english
    assert to_notation(german.translate(WITHOUT_UMLAUTS)) == english
    assert to_notation(german.upper().translate(WITHOUT_UMLAUTS)) == english


@pytest.mark.parametrize("first_line", ["würfle", "Wuerfle", "schiebe niemand", "schieben niemand", "blau schieben"])
def test_other_german_forms_a_player_may_write_are_read_too(first_line):
    assert engine.parse(to_notation(first_line)) in (engine.Roll(), engine.Push(None), engine.Push("blue"))


def test_words_it_does_not_know_are_left_for_the_engine_to_name():
    assert to_notation("hallo zusammen") == "hallo zusammen"
    with pytest.raises(engine.NotationError) as error:
        engine.parse(to_notation("schieben lila"))
    assert "lila" in error.value.translated(lambda text: text)


def test_a_language_without_words_of_its_own_is_shown_english():
    assert in_language("push blue", "fr") == "push blue"
    assert in_language("push blue", "de-at") == "schieben blau"
