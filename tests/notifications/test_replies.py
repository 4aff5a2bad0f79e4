"""Replies as each mail client writes them (tests/notifications/replies/, made for these
tests: Gmail, Outlook desktop and web, Apple Mail and Thunderbird, in English, Czech and
Polish), and the commands each must yield, nothing of the quoted mail, the signature or
the client's own lines below them."""

from __future__ import annotations

from pathlib import Path

import pytest

from notifications.mail_in.commands import command_lines
from notifications.mail_in.reply_text import html_text

CORPUS = Path(__file__).parent / "replies"

COMMANDS = {
    "gmail.en.txt": ["place 3 ukraine, 2 siam", "attack ukraine from scandinavia with 3", "end"],
    "gmail.cs.txt": ["place 3 ukrajina", "occupy 3", "end"],
    "gmail.pl.txt": ["place 3 ukraina", "end"],
    "gmail-signature.en.txt": ["trade", "place 5 ural"],
    "gmail-forward.en.txt": ["resign"],
    "gmail-forward.cs.txt": ["defense one"],
    "gmail-forward.pl.txt": ["defense max", "end"],
    "outlook.en.txt": ["place 2 peru", "fortify 4 from ural to siberia"],
    "outlook.cs.txt": ["place 2 peru", "end"],
    "outlook.pl.txt": ["place 2 peru", "end"],
    "outlook-original.en.txt": ["occupy 3", "end attack"],
    "outlook-original.cs.txt": ["occupy 3", "end attack"],
    "outlook-original.pl.txt": ["occupy 3", "end attack"],
    "outlook-web.en.txt": ["claim peru"],
    "outlook-web.cs.txt": ["claim peru"],
    "outlook-web.pl.txt": ["claim peru"],
    "apple.en.txt": ["capital peru"],
    "apple.cs.txt": ["capital peru"],
    "apple-mac.cs.txt": ["place 3 peru", "end"],
    "apple.pl.txt": ["place 3 peru", "end"],
    "thunderbird.en.txt": ["neutral 2 peru", "end"],
    "thunderbird.cs.txt": ["neutral 2 peru", "end"],
    "thunderbird.pl.txt": ["neutral 2 peru", "end"],
    "thunderbird-signature.cs.txt": ["attack ukrajina from skandinavie", "occupy 3"],
    "thunderbird-forward.pl.txt": ["end turn"],
    # HTML only, as the client sends it when it sends no plain-text part.
    "gmail.en.html": ["place 3 ukraine, 2 siam", "attack ukraine from scandinavia with 3", "end"],
    "gmail.cs.html": ["place 3 ukrajina", "end"],
    "outlook.pl.html": ["place 2 peru", "end"],
    "thunderbird.cs.html": ["neutral 2 peru", "end"],
    "apple.pl.html": ["place 3 peru", "attack ukraina from peru", "end"],
}


def body(name: str) -> str:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return html_text(text) if name.endswith(".html") else text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_it_reads_only_the_commands_the_player_wrote(name):
    assert command_lines(body(name)) == COMMANDS[name]


def test_the_corpus_has_every_client_in_every_language():
    files = {path.name for path in CORPUS.iterdir()}
    clients = {(name.split(".")[0].split("-")[0], name.split(".")[1]) for name in files}

    assert files == set(COMMANDS)
    assert clients == {(client, language)
                       for client in ("gmail", "outlook", "apple", "thunderbird")
                       for language in ("en", "cs", "pl")}


@pytest.mark.parametrize("header", [
    "On Sun, Nov 29, 2026 at 2:03 AM Conquest <play+1-0-3-abc@conquest.example> wrote:",
    "On Sun, Nov 29, 2026 at 2:03 AM Conquest <play+1-0-3-abc@conquest.example>\nwrote:",
    "On Sun, Nov 29, 2026 at 2:03 AM Conquest\n<play+1-0-3-abc@conquest.example> wrote:",
    "Dne ne 29. 11. 2026 v 2:03 odesílatel Conquest <\nplay+1-0-3-abc@conquest.example> napsal:",
    "Dne 29. 11. 26 v 2:03 Conquest napsal(a):",
    "Dne 29. 11. 26 v 2:03 Conquest\nnapsal(a):",
    "W dniu 29.11.2026 o 02:03, Conquest pisze:",
    "W dniu 29.11.2026 o 02:03, Conquest\npisze:",
    "Dnia 29.11.2026 o 02:03 Conquest napisał(a):",
    "niedz., 29 lis 2026 o 02:03 Conquest napisał(a):",
    "pon., 30 lis 2026 o 02:03 Conquest\nnapisał(a):",
    "*From:* Conquest", "Od: Conquest", "----- Původní zpráva -----",
    "Oryginalna wiadomość", "Begin forwarded message:", "Začátek přeposílané zprávy:",
    "Początek przekazywanej wiadomości:", "-- ", "--",
])
def test_it_stops_at_each_client_header_whichever_way_it_is_wrapped(header):
    assert command_lines(f"place 3 peru\n{header}\nend\nresign\n") == ["place 3 peru"]


def test_a_command_above_a_wrapped_header_is_still_read():
    reply = "end\nOn Sun, Nov 29, 2026 at 2:03 AM Conquest\nwrote:\nresign"

    assert command_lines(reply) == ["end"]


def test_it_reads_every_line_of_an_html_reply_as_shown():
    html = "<p>place 3&nbsp;peru<br>attack<b> siam</b> from peru</p><div>end</div>"

    assert [line for line in html_text(html).splitlines() if line] == [
        "place 3 peru", "attack siam from peru", "end"]
