"""Signing in through the browser's own login form, as a player with a password would."""

from __future__ import annotations

from django.contrib.auth import get_user_model

PASSWORD = "a-long-browser-password-3"


def account(name: str):
    """The user `name` (name@example.com) with PASSWORD, made if they are new."""
    User = get_user_model()
    found = User.objects.filter(username=name).first()
    return found or User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(browser, base: str, name: str, contexts: list,
              size: tuple[int, int] | None = None, javascript: bool = True):
    """A page of a new browser context (closed by `contexts`) where `name` signed in with
    the login form and landed on the lobby; `size` is the viewport, width by height."""
    account(name)
    options = {"java_script_enabled": javascript}
    if size is not None:
        options["viewport"] = {"width": size[0], "height": size[1]}
    context = browser.new_context(**options)
    contexts.append(context)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/?next=/games/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/games/")
    return page
