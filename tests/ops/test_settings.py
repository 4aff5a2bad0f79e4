"""Operators' settings: where var/ lives, and the mail domain the site's address implies."""

from __future__ import annotations

import os
from pathlib import Path

from tests.config.test_settings import setting


def test_mail_carries_the_sites_own_domain_by_default():
    def domains(**env):
        return setting("repr((settings.CONQUEST_MAIL_DOMAIN, settings.CONQUEST_REPLY_ADDRESS))",
                       "SITE_URL", "PORT", "CONQUEST_MAIL_DOMAIN", "CONQUEST_REPLY_ADDRESS",
                       **env)

    assert domains(SITE_URL="https://play.conquest.example:8443/") == (
        "('play.conquest.example', 'play@play.conquest.example')")
    assert domains() == "('localhost', 'play@localhost')"  # make run's http://127.0.0.1:8000
    assert domains(SITE_URL="http://[::1]:8000") == "('localhost', 'play@localhost')"
    assert domains(SITE_URL="https://conquest.example",
                   CONQUEST_MAIL_DOMAIN="mail.example") == "('mail.example', 'play@mail.example')"


def test_var_is_where_conquest_var_dir_says(tmp_path):
    root = Path(__file__).resolve().parents[2]
    elsewhere = tmp_path / "conquest-var"

    assert setting("settings.VAR_DIR", "CONQUEST_VAR_DIR") == str(root / "var")
    assert setting("settings.VAR_DIR", CONQUEST_VAR_DIR=str(elsewhere)) == str(elsewhere)
    # A relative path is taken from the checkout.
    relative = os.path.relpath(tmp_path / "relative-var", root)
    assert setting("settings.VAR_DIR", CONQUEST_VAR_DIR=relative) == str(
        tmp_path / "relative-var")
    assert setting("settings.CELERY_BEAT_SCHEDULE_FILENAME",
                   CONQUEST_VAR_DIR=str(elsewhere)) == str(elsewhere / "celerybeat-schedule")
    assert (elsewhere.stat().st_mode & 0o777) == 0o700
