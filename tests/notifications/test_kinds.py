"""Every notification kind is declared once (notifications/kinds.py) with its words
(words/notices.py) and its mail's body (templates/mail/kinds/): a kind without them, or a
branch on the kind back in the mail's templates, fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from notifications.kinds import KINDS
from notifications.models import Notification
from words.notices import LISTED, PUSH_TITLES, SUBJECTS, listed_text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "mail"
# Mailed with a template of its own (accounts.email's link), not notification.txt.
OWN_MAIL = {Notification.CONFIRM_EMAIL}


def test_it_declares_every_kind_the_model_names():
    named = {value for name, value in vars(Notification).items()
             if name.isupper() and isinstance(value, str) and name != "DoesNotExist"}
    assert named == set(KINDS)
    assert Notification._meta.get_field("kind").choices is None


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_kind_has_its_words_and_its_mail(name):
    kind = KINDS[name]
    if kind.mailed and name not in OWN_MAIL:
        assert SUBJECTS[name]
        for ext in ("txt", "html"):
            assert (TEMPLATES / "kinds" / f"{name}.{ext}").is_file(), (name, ext)
    assert (name in PUSH_TITLES) == kind.pushed
    if kind.listed:
        assert listed_text(name, {"what": "round"}, "Game")


def test_it_has_no_words_or_mail_for_a_kind_not_declared():
    assert set(SUBJECTS) | set(PUSH_TITLES) | set(LISTED) <= set(KINDS)
    bodies = {path.stem for path in (TEMPLATES / "kinds").iterdir()}
    assert bodies <= set(KINDS)


def test_the_mails_templates_do_not_branch_on_the_kind():
    for name in ("notification.txt", "notification.html"):
        assert "kind ==" not in (TEMPLATES / name).read_text()
