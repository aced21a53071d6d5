"""The words around a decision in a reply, in English and German: greetings
and thanks, filler, number words. The decision's own words (verbs, colours,
"none") are games.notation_words'; this adds the forms people write that the
rules page need not list ("Gebot", "würfele")."""

from __future__ import annotations

from games import notation_words

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def folded(word: str) -> str:
    """Compared as notation_words compares: any case, "ü" as "ue", "ß" as "ss"."""
    return word.casefold().translate(_UMLAUTS)


def _listed(words: str) -> list[str]:
    """Words written as one string, for lists long enough to read better so."""
    return [folded(word) for word in words.split()]


_MORE_VERBS = {"bid": ("gebot",), "roll": ("würfele", "wuerfle")}
VERBS: dict[str, str] = {
    folded(word): notation
    for notation, languages in notation_words.VERBS.items()
    for word in [w for spelled in languages.values() for w in spelled] + list(_MORE_VERBS.get(notation, ()))
}
NOBODY = {folded(w) for words in notation_words.NOBODY.values() for w in words} | {
    "nobody", "no", "noone", "no-one", "keinen", "keiner",
}

# Greeting and closing words: a line of a few words that starts with one of
# them, and speaks of no decision, is courtesy, not the reply's content.
COURTESY = set(
    _listed(
        "hi hello hey dear hallo moin servus liebe lieber liebes hej howdy greetings good morning evening "
        "guten morgen tag abend grüß gruess gott "
        "thanks thank thx ty cheers danke dankeschön vielen dank merci best regards kind warm all yours "
        "sincerely viele liebe grüße grüsse gruß lg vg mfg bg beste schöne herzliche freundlichen mit "
        "bye ciao tschüss bis bald later see you"
    )
)
_STARTS_COURTESY = set(
    _listed(
        "hi hello hey dear hallo moin servus liebe lieber liebes hej howdy greetings good guten grüß "
        "thanks thank thx ty cheers danke dankeschön vielen merci best regards kind warm yours sincerely "
        "viele grüße grüsse gruß lg vg mfg bg beste schöne herzliche mit bye ciao tschüss bis see"
    )
)

# Words around a decision that change nothing of it. Words that could
# ("not", "nicht", "maybe", "if", "again") are not here: a line with them is
# no decision.
FILLER = set(
    _listed(
        "i i'll ill i'd id i'm will would like to want wanna shall please pls plz kindly "
        "ok okay so then just now here my is for me let let's lets this round time go "
        "ich möchte moechte will würde wuerde gern gerne bitte dann jetzt mal diesmal hier mein meine ist "
        "also and und & the den a gold "
        # Thanks and greetings said on the decision's own line.
        "hi hello hey hallo moin servus thanks thank you thx ty cheers danke dankeschön vielen dank merci "
        "lg vg grüße gruß"
    )
)
# "Roll the dice": "die" is no filler (German "die" is an article, and the
# engine's "die 3" a chance outcome), "dice" is harmless.
FILLER |= {"dice"}

# A line with one of these is never read as a decision ("I won't pass").
NEGATIONS = set(_listed("not don't dont won't wont never no nicht kein keine keinen nie niemals doch"))

_ONES_EN = _listed(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
)
_TENS_EN = _listed("twenty thirty forty fifty sixty seventy eighty ninety")
_ONES_DE = _listed(
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
    "sechzehn siebzehn achtzehn neunzehn"
)
_TENS_DE = _listed("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")


def _number_words() -> dict[str, int]:
    numbers = {word: value for value, word in enumerate(_ONES_EN)}
    numbers |= {word: value for value, word in enumerate(_ONES_DE)}
    for index, (english, german) in enumerate(zip(_TENS_EN, _TENS_DE, strict=True)):
        tens = 20 + 10 * index
        numbers[english] = numbers[german] = tens
        for unit in range(1, 10):
            numbers[f"{english}-{_ONES_EN[unit]}"] = numbers[f"{english}{_ONES_EN[unit]}"] = tens + unit
            # "einundzwanzig": the unit as it is said before "und" ("ein", not "eins").
            said = "ein" if unit == 1 else _ONES_DE[unit]
            numbers[f"{said}und{german}"] = tens + unit
    numbers |= {"ein": 1, "hundred": 100, "hundert": 100, "einhundert": 100, "onehundred": 100}
    return numbers


NUMBERS = _number_words()


def is_courtesy(words: list[str]) -> bool:
    """A greeting or closing line ("Hi all", "Viele Grüße", "Thanks!"), in
    folded words."""
    return bool(words) and len(words) <= 6 and any(word in _STARTS_COURTESY for word in words[:3]) and not any(
        word in VERBS or any(ch.isdigit() for ch in word) for word in words
    )
