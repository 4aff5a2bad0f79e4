"""Players in a real browser: their accounts, and a browser context they are signed in to."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

PASSWORD = "a-long-browser-password-3"


def account(name: str):
    """The user `name` (name@example.com) with PASSWORD, made if they are new."""
    User = get_user_model()
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def sign_in(context, base: str, user) -> None:
    """Hand the browser context `user`'s session as its cookie. The session is made as
    signing in makes one (Django's login() and its signals, through the test client):
    a new context costs chromium a login page, a form's post and a lobby less (about 0.5 s
    of CPU each). `signed_in(form=True)` signs in through the login form itself."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": base}])


def signed_in(browser, base: str, name: str, contexts: list,
              size: tuple[int, int] | None = None, javascript: bool = True,
              at: str = "/games/", form: bool = False):
    """A page of a new browser context (closed by `contexts`) where `name` is signed in,
    open at `at` (the lobby unless told); `size` is the viewport, width by height.
    `form=True` signs in with the login form, as a player with a password would, and lands
    on the lobby."""
    user = account(name)
    options = {"java_script_enabled": javascript}
    if size is not None:
        options["viewport"] = {"width": size[0], "height": size[1]}
    context = browser.new_context(**options)
    contexts.append(context)
    page = context.new_page()
    if form:
        page.goto(f"{base}/accounts/login/?next=/games/")
        page.fill("#id_username", name)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{base}/games/")
        return page
    sign_in(context, base, user)
    page.goto(f"{base}{at}")
    return page
