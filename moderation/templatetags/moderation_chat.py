"""{% chat_for game as chat %}: the chat box's context, so that the game page can include
templates/moderation/_chat.html without its view knowing about chat."""

from django import template

from games.store.seats import read_seats

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_for(context, game):
    if context.get("chat"):  # the chat views pass it ready made
        return context["chat"]
    from moderation.views import chat_context

    request = context.get("request")
    if request is None or game is None:
        return {}
    # The game page passes the seats it read with the game; another page reads them now.
    seats = context.get("seats")
    return chat_context(request, game, read_seats(game) if seats is None else seats)
