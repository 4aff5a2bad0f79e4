"""Where a player's own words end in a reply: the quote headers, separators, forwarded-mail
markers and signatures that mail clients write (Gmail, Outlook desktop and web, Apple Mail,
Thunderbird, in English, Czech and Polish), and the text of a reply sent as HTML only.

The patterns follow those of the reply parsers that mail services keep (GitHub's
email_reply_parser, mail-parser-reply), narrowed to what a reply carrying commands holds:
no command starts with a dash or a mail header's field name ("From:", "Od:"), holds an
address in <…>, or ends in "wrote:", so such a line ends the reply without guessing.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# A quote header's last words: "… wrote:", "… napsal(a):", "… pisze:".
_HEADER_END = (r"(?:wrote|napsal|napsala|napsal\(a\)|napisał|napisała|napisał\(a\)|"
               r"pisze|nadesłał)\s*:")
# How a quote header starts when a client wraps it over lines (Gmail wraps at 78 columns):
# English "On …", Czech "Dne …", Polish "W dniu …", "Dnia …", or Gmail's Polish weekday.
_HEADER_START = re.compile(
    r"^(?:on|dne|w dniu|dnia|wiadomość napisana przez|"
    r"(?:pon|wt|śr|czw|pt|sob|niedz|ndz)\.,?)\s", re.IGNORECASE)
_HEADER_END_RE = re.compile(rf"{_HEADER_END}$", re.IGNORECASE)
# Apple Mail's Czech and Polish headers, and most others, name the sender's address ("29. 11.
# 2026 v 2:03, Conquest <…>:"), as do Outlook's fields and a forwarded mail's: a command
# holds no address.
_ADDRESSED_HEADER = re.compile(r"<[^<>\s]+@[^<>\s]+>")
# Outlook's quoted message headers (desktop and web; bold in some plain-text renderings),
# in each language: From/Sent/To/Subject/Date/Cc, Od/Odesláno/Komu/Předmět/Datum/Kopie,
# Od/Wysłano/Wysłane/Do/Temat/Data/DW.
_FIELD = re.compile(
    r"^\*?(?:from|sent|to|subject|date|cc|od|odesláno|komu|předmět|datum|kopie|"
    r"wysłano|wysłane|do|temat|data|dw)\*?:\*?(?:\s|$)", re.IGNORECASE)
# Forwarded and original-message markers, with or without their dashes.
_MARKER = re.compile(
    r"^[-_=*\s]*(?:original message|forwarded message|begin forwarded message|"
    r"původní zpráva|původní e-mail|přeposlaná zpráva|začátek přeposílané zprávy|"
    r"oryginalna wiadomość|wiadomość oryginalna|przekazana wiadomość|"
    r"wiadomość przekazana dalej|początek przekazywanej wiadomości)\b", re.IGNORECASE)
# What phones and Outlook add below the reply, and the usual sign-offs (a short line).
_SENT_FROM = re.compile(
    r"^(?:sent from|get outlook for|odesláno z|odesláno ze|stáhněte si outlook|"
    r"wysłano z|wysłane z|pobierz outlook)\b", re.IGNORECASE)
_SIGN_OFF = re.compile(
    r"^(?:best regards|kind regards|regards|best wishes|thanks|thank you|cheers|"
    r"s pozdravem|se pozdravem|zdravím|díky|děkuji|s úctou|"
    r"pozdrawiam|pozdrowienia|z poważaniem|z powazaniem|dzięki|dziękuję)\b.{0,30}$",
    re.IGNORECASE)


def _ends_here(lines: list[str], at: int) -> bool:
    """Whether the reply ends at line `at` (stripped lines): the player wrote none of it."""
    line = lines[at]
    if line.startswith(">"):
        return False  # quoted: skipped, whatever it says
    if line.startswith("--") or re.fullmatch(r"_{10,}", line):
        return True  # a signature ("-- "), Outlook's separator, "-----Original Message-----"
    if (_MARKER.match(line) or _FIELD.match(line) or _SENT_FROM.match(line)
            or _SIGN_OFF.match(line) or _ADDRESSED_HEADER.search(line)):
        return True
    if _HEADER_END_RE.search(line):
        return True
    # A header wrapped over up to three lines: its start here, its end below.
    if _HEADER_START.match(line):
        return any(_HEADER_END_RE.search(text) for text in lines[at + 1:at + 3])
    return False


def reply_lines(body: str) -> list[str]:
    """The stripped lines the player wrote, before whatever the client added below them;
    quoted lines (">") are left out wherever they stand."""
    lines = [line.strip() for line in (body or "").splitlines()]
    kept = []
    for at, line in enumerate(lines):
        if _ends_here(lines, at):
            break
        if line and not line.startswith(">"):
            kept.append(line)
    return kept


# Elements whose text is no part of the reply (quoted mail, styles) and those after which
# nothing is: each client's container of the quoted message or of the signature.
_SKIPPED = {"blockquote", "style", "script", "head", "title"}
_QUOTE_CLASSES = {"gmail_quote", "gmail_attr", "gmail_signature", "gmail_signature_prefix",
                  "moz-cite-prefix", "moz-signature", "moz-forward-container",
                  "applemailquote"}
_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend", "signature", "ms-outlook-mobile-signature"}
_BLOCKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
           "ul", "ol", "section", "article", "hr"}


class _ReplyText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0  # how deep in elements whose text is skipped
        self.ended = False

    def handle_starttag(self, tag, attrs):
        if self.ended:
            return
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").lower().split())
        if (tag == "hr" or classes & _QUOTE_CLASSES
                or (attributes.get("id") or "").lower() in _QUOTE_IDS):
            self.ended = True  # the client's own part starts here: the reply is above
            return
        if tag in _BLOCKS:
            self.parts.append("\n")
        self.skipping += tag in _SKIPPED

    def handle_endtag(self, tag):
        if tag in _SKIPPED:
            self.skipping = max(self.skipping - 1, 0)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.ended and not self.skipping:
            # As a browser shows it: a run of spaces and line breaks is one space.
            self.parts.append(re.sub(r"\s+", " ", data))


def html_text(html: str) -> str:
    """The text of an HTML-only reply, one line for each line the player saw, without the
    quoted message and signature the client put below it."""
    parser = _ReplyText()
    parser.feed(html or "")
    parser.close()
    return "\n".join(line.strip() for line in "".join(parser.parts).splitlines())
