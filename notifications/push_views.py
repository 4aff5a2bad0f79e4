"""Web push's and the installed app's endpoints: the browser's subscription (API), the
service worker at the site's root, and the web app manifest."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response

from lib.api.errors import Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView
from notifications import push, subscriptions
from notifications.models import PushSubscription

THEME_COLOUR = "#7a1f1f"
BACKGROUND_COLOUR = "#f4efe6"


class KeysIn(serializers.Serializer):
    p256dh = serializers.CharField(help_text="The browser's P-256 key, base64url")
    auth = serializers.CharField(help_text="The browser's auth secret, base64url")


class SubscriptionIn(serializers.Serializer):
    endpoint = serializers.URLField(help_text="The push service's URL for this browser")
    keys = KeysIn()


class PushOut(serializers.Serializer):
    enabled = serializers.BooleanField(help_text="Whether this site sends web push")
    public_key = serializers.CharField(allow_null=True,
                                       help_text="The VAPID applicationServerKey, base64url")
    browsers = serializers.IntegerField(help_text="Browsers of yours that are subscribed")


def state(user) -> dict:
    enabled = push.enabled()
    return {"enabled": enabled, "public_key": push.public_key() if enabled else None,
            "browsers": PushSubscription.objects.filter(user=user).count()}


class PushSubscriptionsView(ApiView):
    """This browser's web push subscription: POST keeps it (from PushManager.subscribe()'s
    toJSON()), DELETE `{endpoint}` forgets it; GET says whether the site pushes, with its
    key."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: PushOut, 401: Error})
    def get(self, request):
        return Response(state(request.user))

    @extend_schema(request=SubscriptionIn, responses={201: PushOut, 400: Error, 409: Error})
    @refuses({400: ["push_service_refused"], 409: ["push_off"]})
    def post(self, request):
        if not push.enabled():
            return error(409, "push_off", "this site does not send web push")
        subscriptions.do_subscribe(request.user, request.data,
                                   request.headers.get("User-Agent", ""))
        return Response(state(request.user), status=201)

    @extend_schema(request=SubscriptionIn, responses={200: PushOut, 400: Error, 404: Error})
    # (a DELETE's body is not in the schema, so its 400 is not found by itself)
    @refuses({400: ["bad_request"], 404: ["not_found"]})
    def delete(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        if not subscriptions.do_unsubscribe(request.user, data.get("endpoint")):
            return error(404, "not_found", "no such subscription of yours")
        return Response(state(request.user))


@cache_control(no_cache=True)
def service_worker(request):
    """The service worker, from the site's root so that its scope is the whole site."""
    script = render_to_string("notifications/sw.js", {
        "icon": static("icons/icon-192.png"), "badge": static("icons/badge-96.png")})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(max_age=3600)
def manifest(request):
    """The web app manifest: the site installs on a phone's home screen."""
    icons = [{"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in (192, 512)]
    icons += [{"src": static("icons/maskable-512.png"), "sizes": "512x512",
               "type": "image/png", "purpose": "maskable"},
              {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"}]
    return JsonResponse({
        "name": "Conquest", "short_name": "Conquest",
        "description": _("Play the classic world-conquest board game, a move a day or a "
                         "move a minute."),
        "id": "/", "start_url": "/games/", "scope": "/", "display": "standalone",
        "theme_color": THEME_COLOUR, "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }, content_type="application/manifest+json")
