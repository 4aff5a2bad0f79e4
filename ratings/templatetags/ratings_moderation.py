"""{% rating_section game %}: the rating part of a game's moderation page (whether the game
counted, a moderator's void of it, and the form that voids it), so that the moderation
view need not know about ratings."""

from __future__ import annotations

from django import template

from ratings.models import GameResult, RatingVoid

register = template.Library()


@register.inclusion_tag("ratings/_moderate.html", takes_context=True)
def rating_section(context, game):
    return {
        "game": game,
        "result": GameResult.objects.filter(game=game).first(),
        "voided": RatingVoid.objects.filter(game=game).select_related("voided_by").first(),
        "you_play": context.get("you_play"),
        "csrf_token": context.get("csrf_token"),
    }
