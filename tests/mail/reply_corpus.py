"""Replies to a turn email as players write them, in the shapes their mail
clients give them, each with the decision it must give or None where it must
be refused. Written for this project, modelled on what Gmail (web and
Android), Outlook (desktop with Word's HTML, web, iOS), Apple Mail and iOS
Mail, Thunderbird, Yahoo, GMX and web.de put around a reply.

Placeholders, filled from the real game and turn email by the test:
{addr} the reply address; {turn} the turn email's text as received, {turn_q}
the same quoted with "> ", {turn_html} its HTML; {push}/{push_de} a colour
that may be pushed, in English and German; {remove}/{remove_de} a removal
that may be made."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate


@dataclass(frozen=True)
class Shape:
    name: str
    body: str
    # The decision it must give, in the notation; None: it must be refused.
    expect: str | None
    html: bool = False
    # What the seat is asked: "auction" (bid or pass), "roll", "push", "remove".
    asked: str = "auction"


# What clients put after the player's text (top posting) or before it (bottom).
GMAIL_EN = "\n\nOn Fri, Dec 4, 2026 at 9:15 AM Galopp Royal <{addr}> wrote:\n\n{turn_q}\n"
GMAIL_EN_WRAPPED = "\n\nOn Fri, Dec 4, 2026 at 9:15 AM Galopp Royal <\n{addr}> wrote:\n\n{turn_q}\n"
GMAIL_DE = "\n\nAm Fr., 4. Dez. 2026 um 09:15 Uhr schrieb Galopp Royal <{addr}>:\n\n{turn_q}\n"
ANDROID = "\n\nOn Fri, 4 Dec 2026, 09:15 Galopp Royal, <{addr}> wrote:\n\n{turn_q}\n"
OUTLOOK_EN = (
    "\n\n-----Original Message-----\nFrom: Galopp Royal <{addr}>\nSent: Friday, December 4, 2026 9:15 AM\n"
    "To: Anna Berg <anna@example.com>\nSubject: Galopp Royal: your turn\n\n{turn}\n"
)
OUTLOOK_DE = (
    "\n\n-----Ursprüngliche Nachricht-----\nVon: Galopp Royal <{addr}>\nGesendet: Freitag, 4. Dezember 2026 09:15\n"
    "An: Anna Berg <anna@example.com>\nBetreff: Galopp Royal: your turn\n\n{turn}\n"
)
OUTLOOK_WEB = (
    "\n\n________________________________\nFrom: Galopp Royal <{addr}>\nSent: Friday, December 4, 2026 09:15\n"
    "To: anna@example.com <anna@example.com>\nSubject: Galopp Royal: your turn\n\n{turn}\n"
)
OUTLOOK_IOS = "\n\nGet Outlook for iOS<https://aka.ms/o0ukef>" + OUTLOOK_WEB
APPLE = "\n\n> On 4 Dec 2026, at 09:15, Galopp Royal <{addr}> wrote:\n> \n{turn_q}\n"
IPHONE_EN = "\n\nSent from my iPhone\n\n> On 4 Dec 2026, at 09:15, Galopp Royal <{addr}> wrote:\n> \n{turn_q}\n"
IPHONE_DE = "\n\nVon meinem iPhone gesendet\n\n> Am 04.12.2026 um 09:15 schrieb Galopp Royal <{addr}>:\n> \n{turn_q}\n"
YAHOO = (
    "\n\n\n    On Friday, December 4, 2026 at 09:15:00 AM GMT+1, Galopp Royal <{addr}> wrote:  \n \n \n{turn}\n"
)
GMX = (
    "\n \n \n\nGesendet: Freitag, 04. Dezember 2026 um 09:15 Uhr\nVon: \"Galopp Royal\" <{addr}>\n"
    "An: anna@gmx.de\nBetreff: Galopp Royal: your turn\n{turn}\n"
)
WEBDE_APP = "\n\nGesendet mit der WEB.DE Mail App\n\nAm 04.12.26, 09:15 schrieb Galopp Royal <{addr}>:\n{turn_q}\n"
TB_EN_ABOVE = "On 04/12/2026 09:15, Galopp Royal wrote:\n{turn_q}\n\n"
TB_DE_ABOVE = "Am 04.12.26 um 09:15 schrieb Galopp Royal:\n{turn_q}\n\n"
FORWARD_EN = (
    "\n\n---------- Forwarded message ---------\nFrom: Galopp Royal <{addr}>\nDate: Fri, Dec 4, 2026 at 9:15 AM\n"
    "Subject: Galopp Royal: your turn\nTo: <anna@example.com>\n\n{turn}\n"
)
FORWARD_DE = (
    "\n\n-------- Weitergeleitete Nachricht --------\nBetreff: Galopp Royal: your turn\n"
    "Datum: Fri, 4 Dec 2026 09:15:00 +0100\nVon: Galopp Royal <{addr}>\nAn: anna@example.com\n\n{turn}\n"
)
SIGNATURE = "\n\n-- \nAnna Berg\nBergstraße 12, 10115 Berlin\nTel. +49 30 1234567\n"


def top(text: str, after: str) -> str:
    return text + after


def below(before: str, text: str, after: str = "") -> str:
    return before + text + after


# HTML bodies as the clients write them.
def gmail_html(text: str) -> str:
    return (
        f'<div dir="ltr">{text}</div><br><div class="gmail_quote gmail_quote_container">'
        '<div dir="ltr" class="gmail_attr">On Fri, Dec 4, 2026 at 9:15 AM Galopp Royal &lt;{addr}&gt; wrote:<br>'
        '</div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
        'rgb(204,204,204);padding-left:1ex">{turn_html}</blockquote></div>\n'
    )


def gmail_html_signature(text: str) -> str:
    return gmail_html(
        f'{text}<br clear="all"><br><span class="gmail_signature_prefix">-- </span><br>'
        '<div dir="ltr" class="gmail_signature"><div dir="ltr">Anna Berg<div>+49 170 1234567</div></div></div>'
    )


def gmail_html_below(text: str) -> str:
    return (
        '<div dir="ltr"><div dir="ltr"><br></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
        "On Fri, Dec 4, 2026 at 9:15 AM Galopp Royal &lt;{addr}&gt; wrote:<br></div>"
        '<blockquote class="gmail_quote">{turn_html}</blockquote></div>'
        f'<div><br></div><div>{text}</div></div>'
    )


WORD_HEAD = (
    '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40"><head>'
    '<meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=Generator content="Microsoft Word 15">'
    "<!--[if !mso]><style>v\\:* {behavior:url(#default#VML);}\no\\:* {behavior:url(#default#VML);}\n"
    "w\\:* {behavior:url(#default#VML);}\n.shape {behavior:url(#default#VML);}\n</style><![endif]-->"
    "<style><!--\n/* Font Definitions */\n@font-face\n\t{font-family:Calibri;}\np.MsoNormal, li.MsoNormal\n"
    "\t{margin:0cm;font-size:11.0pt;font-family:\"Calibri\",sans-serif;}\nspan.EmailStyle19\n\t{mso-style-type:"
    "personal-reply;}\n--></style><!--[if gte mso 9]><xml>\n<o:shapedefaults v:ext=\"edit\" spidmax=\"1026\" />\n"
    "</xml><![endif]--></head>"
)


def word_html(paragraphs: list[str], header: tuple[str, str, str, str] = ("From", "Sent", "To", "Subject")) -> str:
    """Outlook for Windows: Word's HTML, the original after a From/Sent block
    and not quoted."""
    own = "".join(f"<p class=MsoNormal><span lang=EN-US>{p}<o:p></o:p></span></p>\n" for p in paragraphs)
    sender, sent, to, subject = header
    return (
        WORD_HEAD + "<body lang=DE link=\"#0563C1\" vlink=\"#954F72\" style='word-wrap:break-word'>"
        "<div class=WordSection1>" + own + "<p class=MsoNormal><o:p>&nbsp;</o:p></p><div><div style='border:none;"
        "border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'><p class=MsoNormal><b>"
        f"<span lang=EN-US>{sender}:</span></b><span lang=EN-US> Galopp Royal &lt;{{addr}}&gt; <br><b>{sent}:</b>"
        f" Friday, December 4, 2026 9:15 AM<br><b>{to}:</b> Anna Berg &lt;anna@example.com&gt;<br><b>{subject}:</b>"
        " Galopp Royal: your turn<o:p></o:p></span></p></div></div><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
        "{turn_html}</div></body></html>"
    )


def outlook_web_html(text: str) -> str:
    return (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style type="text/css" '
        'style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head><body dir="ltr">'
        '<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Calibri, Helvetica, sans-serif;'
        f' font-size: 12pt; color: rgb(0, 0, 0);">{text}</div><div id="appendonsend"></div>'
        '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
        '<font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> Galopp Royal '
        "&lt;{addr}&gt;<br><b>Sent:</b> Friday, December 4, 2026 09:15<br><b>Subject:</b> Galopp Royal: your turn"
        "</font><div>&nbsp;</div></div>{turn_html}</body></html>"
    )


def apple_html(text: str, device: str = "") -> str:
    signature = f'<div><br id="lineBreakAtBeginningOfSignature"><div dir="ltr">{device}</div>' if device else "<div>"
    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head>'
        '<body dir="auto" style="overflow-wrap: break-word; -webkit-nbsp-mode: space; line-break: '
        f'after-white-space;">{text}<br id="lineBreakAtBeginningOfMessage">{signature}<div dir="ltr"><br>'
        '<blockquote type="cite">On 4 Dec 2026, at 09:15, Galopp Royal &lt;{addr}&gt; wrote:<br><br>'
        '</blockquote></div><blockquote type="cite"><div dir="ltr">{turn_html}</div></blockquote></div></body></html>'
    )


def thunderbird_html_below(text: str, attribution: str = "On 04/12/2026 09:15, Galopp Royal wrote:") -> str:
    return (
        '<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>'
        f'<body><div class="moz-cite-prefix">{attribution}<br></div><blockquote type="cite" '
        'cite="mid:turn@example.com">{turn_html}</blockquote>'
        f'<p>{text}</p><pre class="moz-signature" cols="72">-- \nAnna Berg\n0170 1234567</pre></body></html>'
    )


def yahoo_html(text: str) -> str:
    return (
        '<html><head></head><body><div class="ydp3c0c2f6byahoo-style-wrap" style="font-family:Helvetica Neue, '
        f'Helvetica, Arial, sans-serif;font-size:13px;"><div></div><div dir="ltr" data-setdir="false">{text}</div>'
        '<div><br></div></div><div id="yahoo_quoted_4711" class="yahoo_quoted"><div style="font-family:\'Helvetica '
        "Neue', Helvetica, Arial, sans-serif;font-size:13px;color:#26282a;\"><div>On Friday, December 4, 2026 at "
        "09:15:00 AM GMT+1, Galopp Royal &lt;{addr}&gt; wrote:</div><div><br></div><div><br></div>"
        "<div>{turn_html}</div></div></div></body></html>"
    )


def gmx_html(text: str) -> str:
    return (
        '<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;"><div>'
        f"<div>{text}</div><div>&nbsp;</div><div>&nbsp;</div>"
        '<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px 10px; border-left:2px solid '
        '#C3D9E5; word-wrap: break-word;"><div style="margin:0 0 10px 0;"><b>Gesendet:</b>&nbsp;Freitag, 04. '
        "Dezember 2026 um 09:15 Uhr<br/><b>Von:</b>&nbsp;&quot;Galopp Royal&quot; &lt;{addr}&gt;<br/><b>An:</b>"
        "&nbsp;anna@gmx.de<br/><b>Betreff:</b>&nbsp;Galopp Royal: your turn</div>"
        '<div name="quoted-content">{turn_html}</div></div></div></div></body></html>'
    )


def webde_html(text: str) -> str:
    return gmx_html(text).replace("anna@gmx.de", "anna@web.de")


# fmt: off
SHAPES: list[Shape] = [
    # Gmail, plain text, top posted.
    Shape("gmail bid", top("bid 12", GMAIL_EN), "bid 12"),
    Shape("gmail pass", top("pass", GMAIL_EN), "pass"),
    Shape("gmail capitalised", top("Bid 12", GMAIL_EN), "bid 12"),
    Shape("gmail wrapped attribution", top("Pass", GMAIL_EN_WRAPPED), "pass"),
    Shape("gmail greeting first", top("Hi,\n\nbid 12\n\nThanks,\nAnna", GMAIL_EN), "bid 12"),
    Shape("gmail greeting and polite bid", top("Hi,\n\nI bid 12 please\n\nCheers\nAnna", GMAIL_EN), "bid 12"),
    Shape("gmail bid with full stop", top("Bid 10.", GMAIL_EN), "bid 10"),
    Shape("gmail bid with exclamation", top("Bid 15!", GMAIL_EN), "bid 15"),
    Shape("gmail bid colon", top("bid: 12", GMAIL_EN), "bid 12"),
    Shape("gmail bid emoji", top("bid 15 🙂", GMAIL_EN), "bid 15"),
    Shape("gmail bid emoji with skin tone", top("bid 7 👍🏽", GMAIL_EN), "bid 7"),
    Shape("gmail bid please", top("bid 15 please", GMAIL_EN), "bid 15"),
    Shape("gmail I bid", top("I bid 15", GMAIL_EN), "bid 15"),
    Shape("gmail I'll pass", top("I'll pass this round, thanks!", GMAIL_EN), "pass"),
    Shape("gmail I pass", top("I pass", GMAIL_EN), "pass"),
    Shape("gmail number word", top("bid twelve", GMAIL_EN), "bid 12"),
    Shape("gmail hyphenated number", top("I bid twenty-four", GMAIL_EN), "bid 24"),
    Shape("gmail spaced number", top("bid twenty four please", GMAIL_EN), "bid 24"),
    Shape("gmail my bid is", top("My bid is 9", GMAIL_EN), "bid 9"),
    Shape("gmail bid in gold", top("I bid 9 gold.", GMAIL_EN), "bid 9"),
    Shape("gmail bid decimal", top("bid 9.5", GMAIL_EN), None),
    Shape("gmail bid for a colour", top("bid 9 for red", GMAIL_EN), None),
    Shape("gmail greeting on the line", top("Hi Anna, bid 12", GMAIL_EN), "bid 12"),
    Shape("gmail signature with numbers", top("bid 3" + SIGNATURE, GMAIL_EN), "bid 3"),
    Shape("gmail pass and good luck on one line", top("Pass. Good luck all!", GMAIL_EN), "pass"),
    Shape("gmail German passe and good luck", top("Ich passe. Viel Glück euch!", GMAIL_DE), "pass"),
    Shape("gmail bid or pass in two sentences", top("Bid 12. Or pass.", GMAIL_EN), None),
    Shape("gmail pass then chatter", top("pass\n\nGood luck everyone, this is fun.", GMAIL_EN), "pass"),
    Shape("gmail same decision twice", top("bid 12\n\nbid 12", GMAIL_EN), "bid 12"),
    Shape("gmail German attribution", top("biete 12", GMAIL_DE), "bid 12"),
    Shape("gmail German ich passe", top("Ich passe", GMAIL_DE), "pass"),
    Shape("gmail German greeting and bid", top("Hallo,\n\nich biete 12, danke\n\nViele Grüße\nAnna", GMAIL_DE),
          "bid 12"),
    Shape("gmail German number word", top("Biete vier", GMAIL_DE), "bid 4"),
    Shape("gmail German compound number", top("Ich biete vierundzwanzig", GMAIL_DE), "bid 24"),
    Shape("gmail German zwölf", top("biete zwölf", GMAIL_DE), "bid 12"),
    Shape("gmail German ein", top("Ich biete ein", GMAIL_DE), "bid 1"),
    Shape("gmail German eins", top("biete eins", GMAIL_DE), "bid 1"),
    Shape("gmail German passen", top("passen", GMAIL_DE), "pass"),
    Shape("gmail German Moin", top("Moin!\n\nIch passe diesmal.\n\nLG Jan", GMAIL_DE), "pass"),
    Shape("gmail German Gebot", top("Mein Gebot: 11", GMAIL_DE), "bid 11"),
    Shape("gmail German bitte", top("Biete bitte 8", GMAIL_DE), "bid 8"),
    Shape("gmail German without umlauts", top("Liebe Grüsse vorab!\nbiete zwoelf", GMAIL_DE), "bid 12"),
    # Gmail, refused.
    Shape("gmail empty", top("", GMAIL_EN), None),
    Shape("gmail only thanks", top("Thanks!", GMAIL_EN), None),
    Shape("gmail only danke", top("Danke!", GMAIL_DE), None),
    Shape("gmail only greeting and name", top("Hi,\n\nAnna", GMAIL_EN), None),
    Shape("gmail two decisions on two lines", top("bid 12\npass", GMAIL_EN), None),
    Shape("gmail two decisions on one line", top("bid 12 or pass", GMAIL_EN), None),
    Shape("gmail a question", top("Can I pass?", GMAIL_EN), None),
    Shape("gmail a question mark", top("pass?", GMAIL_EN), None),
    Shape("gmail negated", top("I won't pass", GMAIL_EN), None),
    Shape("gmail German negated", top("Ich passe nicht", GMAIL_DE), None),
    Shape("gmail maybe", top("maybe bid 12", GMAIL_EN), None),
    Shape("gmail condition", top("bid 12 if nobody else does", GMAIL_EN), None),
    Shape("gmail bare number", top("12", GMAIL_EN), None),
    Shape("gmail second thoughts", top("pass\n\nActually no, bid 14", GMAIL_EN), None),
    Shape("gmail two different bids", top("bid 12\n\nsorry, bid 13", GMAIL_EN), None),
    Shape("gmail only signature", top(SIGNATURE, GMAIL_EN), None),
    Shape("gmail yes", top("Yes", GMAIL_EN), None),
    Shape("gmail a bid too high", top("bid 500", GMAIL_EN), None),
    Shape("gmail words no number", top("I bid a lot", GMAIL_EN), None),
    # Android, Apple, iPhone.
    Shape("android bid", top("Bid 6", ANDROID), "bid 6"),
    Shape("android pass", top("pass 🙂", ANDROID), "pass"),
    Shape("apple mail bid", top("bid 5", APPLE), "bid 5"),
    Shape("apple mail greeting", top("Hello,\n\nI'd like to bid 9.\n\nBest,\nAnna", APPLE), "bid 9"),
    Shape("apple mail empty", top("", APPLE), None),
    Shape("iphone bid", top("Bid 12", IPHONE_EN), "bid 12"),
    Shape("iphone pass", top("Pass", IPHONE_EN), "pass"),
    Shape("iphone only signature", top("", IPHONE_EN), None),
    Shape("iphone German", top("Ich passe", IPHONE_DE), "pass"),
    Shape("iphone German number", top("Biete zwanzig", IPHONE_DE), "bid 20"),
    Shape("iphone German empty", top("", IPHONE_DE), None),
    # Outlook, plain text.
    Shape("outlook bid", top("bid 12", OUTLOOK_EN), "bid 12"),
    Shape("outlook greeting", top("Dear Galopp Royal,\n\nI bid 14.\n\nKind regards\nAnna Berg", OUTLOOK_EN), "bid 14"),
    Shape("outlook empty, original unquoted", top("", OUTLOOK_EN), None),
    Shape("outlook German", top("Hallo,\nich passe\nGruß\nAnna", OUTLOOK_DE), "pass"),
    Shape("outlook German empty", top("", OUTLOOK_DE), None),
    Shape("outlook web bid", top("Bid 2", OUTLOOK_WEB), "bid 2"),
    Shape("outlook web empty", top("", OUTLOOK_WEB), None),
    Shape("outlook iOS pass", top("Pass", OUTLOOK_IOS), "pass"),
    Shape("outlook iOS empty", top("", OUTLOOK_IOS), None),
    # Yahoo, GMX, web.de: the original follows unquoted.
    Shape("yahoo bid", top("bid 4", YAHOO), "bid 4"),
    Shape("yahoo empty", top("", YAHOO), None),
    Shape("gmx bid", top("Hallo,\nbiete 5\nGruß Jan", GMX), "bid 5"),
    Shape("gmx empty", top("", GMX), None),
    Shape("gmx thanks only", top("Danke", GMX), None),
    Shape("web.de app", top("Ich passe", WEBDE_APP), "pass"),
    Shape("web.de app empty", top("", WEBDE_APP), None),
    # Thunderbird and others, bottom posted and inline.
    Shape("thunderbird below", below(TB_EN_ABOVE, "bid 12", SIGNATURE), "bid 12"),
    Shape("thunderbird below with greeting", below("Hi,\n\n" + TB_EN_ABOVE, "pass\n\nCheers\nAnna"), "pass"),
    Shape("thunderbird German below", below(TB_DE_ABOVE, "Ich passe.\n\nViele Grüße\nAnna"), "pass"),
    Shape("thunderbird German below number", below(TB_DE_ABOVE, "biete vierzehn"), "bid 14"),
    Shape("thunderbird below nothing", below(TB_EN_ABOVE, "", SIGNATURE), None),
    Shape("inline answer", "On 04/12/2026 09:15, Galopp Royal wrote:\n> Bid or pass in the first start auction\n\n"
          "bid 12\n\n> If you have not decided by then, your standing orders decide\n\nThanks\nAnna\n", "bid 12"),
    Shape("inline two answers", "On 04/12/2026 09:15, Galopp Royal wrote:\n> Bid or pass?\n\nbid 12\n\n"
          "> Decide here:\n\npass\n", None),
    Shape("bottom posted gmail", below(GMAIL_EN.lstrip("\n"), "\nbid 12\n"), "bid 12"),
    Shape("quote only", "{turn_q}\n", None),
    Shape("quote then signature", "{turn_q}" + SIGNATURE, None),
    # Forwarded.
    Shape("forwarded without a word", top("", FORWARD_EN), None),
    Shape("forwarded with a bid above", top("bid 12", FORWARD_EN), "bid 12"),
    Shape("forwarded German without a word", top("", FORWARD_DE), None),
    # Other decisions.
    Shape("roll", top("roll", GMAIL_EN), "roll", asked="roll"),
    Shape("roll please", top("roll please", GMAIL_EN), "roll", asked="roll"),
    Shape("roll the dice", top("Let's roll the dice!", GMAIL_EN), "roll", asked="roll"),
    Shape("German ich würfle", top("ich würfle", GMAIL_DE), "roll", asked="roll"),
    Shape("German würfeln bitte", top("Hallo!\nWürfeln, bitte.\nLG", GMAIL_DE), "roll", asked="roll"),
    Shape("roll then thanks", top("Roll\nThanks!", IPHONE_EN), "roll", asked="roll"),
    Shape("push a colour", top("push {push}", GMAIL_EN), "push {push}", asked="push"),
    Shape("push a colour please", top("I push {push} please", GMAIL_EN), "push {push}", asked="push"),
    Shape("push nobody", top("push none", GMAIL_EN), "push none", asked="push"),
    Shape("push no one", top("I push no one", APPLE), "push none", asked="push"),
    Shape("German push a colour", top("schiebe {push_de}", GMAIL_DE), "push {push}", asked="push"),
    Shape("German colour first", top("{push_de} schieben", GMAIL_DE), "push {push}", asked="push"),
    Shape("German push nobody", top("Niemand schieben, danke", GMAIL_DE), "push none", asked="push"),
    Shape("German push keinen", top("Ich schiebe keinen", OUTLOOK_DE), "push none", asked="push"),
    Shape("push two colours", top("push {push} and none", GMAIL_EN), None, asked="push"),
    Shape("remove", top("remove {remove}", GMAIL_EN), "remove {remove}", asked="remove"),
    Shape("German remove", top("entferne {remove_de}", GMAIL_DE), "remove {remove}", asked="remove"),
    # HTML only.
    Shape("gmail html bid", gmail_html("bid 12"), "bid 12", html=True),
    Shape("gmail html greeting", gmail_html("Hi,<div><br></div><div>I bid 12 please</div><div><br></div>"
          "<div>Thanks</div>"), "bid 12", html=True),
    Shape("gmail html signature with numbers", gmail_html_signature("Bid 3"), "bid 3", html=True),
    Shape("gmail html empty", gmail_html("<br>"), None, html=True),
    Shape("gmail html bottom posted", gmail_html_below("pass"), "pass", html=True),
    Shape("gmail html German", gmail_html("Hallo,<br><br>ich biete 12, danke<br><br>Viele Grüße<br>Anna"),
          "bid 12", html=True),
    Shape("outlook word html bid", word_html(["Bid 12"]), "bid 12", html=True),
    Shape("outlook word html greeting", word_html(["Hi,", "&nbsp;", "I pass.", "&nbsp;", "Regards", "Anna"]),
          "pass", html=True),
    Shape("outlook word html German", word_html(["Hallo,", "ich biete zwölf", "Grüße", "Anna"],
          ("Von", "Gesendet", "An", "Betreff")), "bid 12", html=True),
    Shape("outlook word html empty", word_html(["&nbsp;"]), None, html=True),
    Shape("outlook word html line broken in the source", word_html(["bid\n12"]), "bid 12", html=True),
    Shape("outlook web html bid", outlook_web_html("bid 12"), "bid 12", html=True),
    Shape("outlook web html empty", outlook_web_html("<br>"), None, html=True),
    Shape("apple html pass", apple_html("Pass"), "pass", html=True),
    Shape("apple html iPhone bid", apple_html("Bid 12", "Sent from my iPhone"), "bid 12", html=True),
    Shape("apple html iPhone German", apple_html("Ich passe", "Von meinem iPhone gesendet"), "pass", html=True),
    Shape("apple html empty", apple_html("", "Sent from my iPhone"), None, html=True),
    Shape("thunderbird html below", thunderbird_html_below("bid 12"), "bid 12", html=True),
    Shape("thunderbird html German below", thunderbird_html_below(
          "ich würfle", "Am 04.12.26 um 09:15 schrieb Galopp Royal:"), "roll", html=True, asked="roll"),
    Shape("thunderbird html below nothing", thunderbird_html_below(""), None, html=True),
    Shape("yahoo html bid", yahoo_html("bid 4"), "bid 4", html=True),
    Shape("yahoo html empty", yahoo_html(""), None, html=True),
    Shape("gmx html German", gmx_html("Ich passe"), "pass", html=True),
    Shape("gmx html empty", gmx_html(""), None, html=True),
    Shape("web.de html German number", webde_html("Biete dreizehn"), "bid 13", html=True),
    Shape("web.de html two decisions", webde_html("Biete 13</div><div>passe"), None, html=True),
    Shape("html entities", gmail_html("bid&nbsp;12&nbsp;&#128578;"), "bid 12", html=True),
    Shape("html hidden text", gmail_html('<span style="display:none">pass</span>bid 12'), "bid 12", html=True),
]
# fmt: on


def filled(text: str, values: dict[str, str]) -> str:
    # Not str.format: the bodies hold CSS braces.
    for name in sorted(values, key=len, reverse=True):
        text = text.replace("{" + name + "}", values[name])
    return text


def as_sent(shape: Shape, body: str, to: str, sender: str) -> str:
    """The reply as its client sends it: HTML in base64, text quoted-printable."""
    message = EmailMessage()
    message["From"] = f"Anna Berg <{sender}>"
    message["To"] = to
    message["Subject"] = "Re: Galopp Royal: your turn"
    message["Date"] = formatdate()
    message["Message-ID"] = f"<{uuid.uuid4().hex}@client.example>"
    if shape.html:
        message.set_content(body, subtype="html", charset="utf-8", cte="base64")
    else:
        message.set_content(body, charset="utf-8", cte="quoted-printable")
    return message.as_string()
