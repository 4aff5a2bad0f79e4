from django.apps import AppConfig


class WebConfig(AppConfig):
    """The website: the pages, their forms and the board (templates/ and static/ hold
    their files)."""

    name = "web"
    verbose_name = "Web pages"
