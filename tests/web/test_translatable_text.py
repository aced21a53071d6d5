"""The English source is written so that another language can be complete:
every message a page asks for reaches the catalogue whole, a plural is two
whole forms, and labels made once at import are worded when a page shows
them, in that page's language."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.template.base import TokenType
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils.functional import Promise
from django.utils.translation.template import templatize

from games.web.forms import ArrangeForm, NewGameForm

TEMPLATES = Path(settings.BASE_DIR) / "templates"
TEMPLATE_NAMES = sorted(
    str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*") if path.suffix in (".html", ".txt")
)
# How makemessages sees a template: templatize() turns each message into a
# gettext call that xgettext then reads.
EXTRACTED = re.compile(r"""gettext\(u('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)""")


def _nodes(name: str, kind) -> list:
    template = engines["django"].engine.get_template(name)
    return template.nodelist.get_nodes_by_type(kind)


def _extracted(name: str) -> set[str]:
    code = templatize((TEMPLATES / name).read_text(), origin=str(TEMPLATES / name))
    return {ast.literal_eval(literal) for literal in EXTRACTED.findall(code)}


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_every_message_a_template_translates_reaches_the_catalogue_whole(name):
    extracted = _extracted(name)
    for node in _nodes(name, TranslateNode):
        message = node.filter_expression.var.literal
        if node.message_context is None and isinstance(message, str):
            assert message in extracted, f"makemessages would cut {message[:60]!r}…"


def _glued(tokens) -> list[str]:
    """A value with letters stuck to it ("{{ label }}s"): the English plural
    ending, which no translation can take off."""
    return [
        f"{{{{ {before.contents} }}}}{after.contents[:12]}"
        for before, after in zip(tokens, tokens[1:], strict=False)
        if before.token_type == TokenType.VAR and after.token_type == TokenType.TEXT and after.contents[:1].isalpha()
    ]


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_no_message_glues_an_english_ending_onto_a_filled_in_word(name):
    for node in _nodes(name, BlockTranslateNode):
        assert not _glued(node.singular) + _glued(node.plural or []), name


def test_the_time_allowed_per_decision_is_worded_when_the_form_is_shown():
    labels = [label for _value, label in NewGameForm().fields["decision_hours"].choices]
    # Made at import, but each still a promise: worded in the language of
    # the page that shows it, not frozen in the language of the import.
    assert all(isinstance(label, Promise) for label in labels)
    assert [str(label) for label in labels[:2]] == ["1 hour", "6 hours"]
    assert str(labels[-1]) == "7 days"


def test_the_arrange_form_offers_named_cards_and_posts_their_codes():
    form = ArrangeForm(codes=["+5", "goof", "devil", "+2"])
    assert form.fields["slot_1"].choices == [("+5", "+5"), ("goof", "Goof"), ("devil", "Devil"), ("+2", "+2")]
