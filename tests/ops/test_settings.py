"""Operators' settings: where var/ lives, and the mail domain the site's address implies."""

from __future__ import annotations

from tests.test_settings import setting


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
