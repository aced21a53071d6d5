"""An HTML-only reply as the lines a person sees, without what they quoted.

Outlook (HTML made by Word), Apple Mail, Gmail and the webmailers send some
replies as HTML alone. The standard library's html.parser turns them into
text; what is quoted (a blockquote, Gmail's and Yahoo's quote containers,
GMX's and web.de's) becomes one ">" line, so the reader knows a quote stood
there, and everything after Outlook's reply header is left out.

html.parser takes time quadratic in the length of some broken input (each
"<" that is never closed makes it look to the end again). ``_safe`` first
cuts the HTML, in one pass, into text and tags that are all closed, so the
parser only ever sees complete constructs."""

from __future__ import annotations

from html.parser import HTMLParser

# What a reply's HTML may hold and still be read; a real one is far shorter.
HTML_LIMIT = 400_000
# A tag longer than this keeps its name only (no reply needs such attributes).
TAG_LIMIT = 2_000
_HIDDEN = {"head", "title", "xml", "template", "noscript"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
_BLOCK = {
    "p", "div", "br", "tr", "li", "ul", "ol", "table", "hr", "pre", "section", "article", "header", "footer",
    "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "td", "th", "center",
}
# Classes, ids and names of the containers mail clients put a quote in.
_QUOTE_MARKS = ("gmail_quote", "yahoo_quoted", "aol_quoted", "moz-forward-container", "quote", "quoted-content")
_SIGNATURE_MARKS = ("gmail_signature", "moz-signature", "signature")
# Outlook (desktop and web) puts the original after one of these, not inside it.
_ORIGINAL_FOLLOWS = ("divrplyfwdmsg", "appendonsend", "outlookmessageheader", "mail-editor-reference-message-container")


def _safe(html: str) -> str:
    """The HTML with every tag closed and no comment, script or style: a "<"
    that starts no complete tag is text, and a comment never closed ends the
    document (as browsers read it). Linear: every search starts where the
    last one ended, and one that found nothing is not repeated."""
    lower = html.lower()
    out: list[str] = []
    n = len(html)
    i = 0
    next_gt = -2  # -2: not searched yet; -1: no ">" after here at all
    while i < n:
        lt = html.find("<", i)
        if lt < 0:
            out.append(html[i:])
            break
        out.append(html[i:lt])
        if lower.startswith("<!--", lt):
            end = html.find("-->", lt + 4)
            if end < 0:
                break
            i = end + 3
            continue
        if next_gt != -1 and next_gt <= lt:
            next_gt = html.find(">", lt)
        if next_gt == -1:
            out.append("&lt;")
            i = lt + 1
            continue
        following = html.find("<", lt + 1, next_gt)
        opener = html[lt + 1 : lt + 2]
        if following >= 0 or not (opener.isalpha() or opener in "/!?"):
            out.append("&lt;")
            i = lt + 1
            continue
        tag = html[lt : next_gt + 1]
        i = next_gt + 1
        if opener in "!?":
            continue  # a doctype, Word's <![if ...]>, a processing instruction
        name = lower[lt + 1 : next_gt].split(None, 1)[0].rstrip("/") if opener.isalpha() else ""
        if name in ("style", "script"):
            end = lower.find(f"</{name}", i)
            if end < 0:
                break
            i = end
            continue
        out.append(_tidy(tag, name))
    return "".join(out)


def _tidy(tag: str, name: str) -> str:
    if len(tag) > TAG_LIMIT:
        return f"<{name}>" if name else "<x>"
    for quote in "\"'":
        if tag.count(quote) % 2:
            tag = tag.replace(quote, "")
    return tag


class _Lines(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = ""  # the tag name of the element being left out
        self.depth = 0
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if self.skipping:
            self.depth += tag == self.skipping
            return
        marks = " ".join((value or "").lower() for key, value in attrs if key in ("class", "id", "name"))
        style = " ".join((value or "").lower() for key, value in attrs if key == "style").replace(" ", "")
        if any(mark in marks for mark in _ORIGINAL_FOLLOWS):
            self.parts.append("\n>\n")
            self.done = True
        elif tag == "blockquote" or any(mark in marks.split() for mark in _QUOTE_MARKS):
            self._skip(tag, "\n>\n")
        elif tag in _VOID:
            self.parts.append("\n" if tag in _BLOCK else "")
        elif tag in _HIDDEN or "display:none" in style or any(mark in marks for mark in _SIGNATURE_MARKS):
            self._skip(tag, "\n")
        elif tag in _BLOCK:
            self.parts.append("\n")

    def _skip(self, tag: str, leaving: str) -> None:
        self.parts.append(leaving)
        self.skipping, self.depth = tag, 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping and not self.done and tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping:
                self.depth -= 1
                if not self.depth:
                    self.skipping = ""
            return
        if not self.done and tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self.skipping or self.done:
            return
        # In HTML a line break in the source is a space; only blocks make lines.
        words = " ".join(data.split())
        if words:
            lead = " " if data[:1].isspace() else ""
            tail = " " if data[-1:].isspace() else ""
            self.parts.append(lead + words + tail)


def html_lines(html: str) -> str:
    """The text a reader of this HTML sees, line by line, quotes as ">"."""
    reader = _Lines()
    reader.feed(_safe(html[:HTML_LIMIT]))
    reader.close()
    return "\n".join(line.strip() for line in "".join(reader.parts).replace("\xa0", " ").splitlines())
