"""The site's URL map: web pages, admin, API schema and docs (/healthz and /readyz are
answered before any of it, by ops.health.HealthMiddleware)."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.urls import api_urlpatterns as accounts_api
from accounts.views import admin_password_change
from conversations.urls import api_urlpatterns as conversations_api
from games.api.urls import fallback as api_fallback
from moderation.api import ChatView, ReportsView
from notifications.api import VacationsView, VacationView
from ratings.urls import api_urlpatterns as ratings_api
from tournaments.urls import api_urlpatterns as tournaments_api

urlpatterns = [
    # The admin's password change counts the old password as a sign-in, as the site's does.
    path("admin/password_change/", admin.site.admin_view(admin_password_change),
         name="admin-password-change"),
    path("admin/", admin.site.urls),
    # The game API first: a command's URL is the one resolved most often.
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("lobby.api.urls")),
    path("api/v1/", include("live.urls")),
    path("api/v1/", include(accounts_api)),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI from the sidecar package, its script served apart (no inline script); the
    # page keeps a few inline styles of its own.
    path("api/v1/docs/", csp_update({"style-src": [UNSAFE_INLINE]})(
        SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
    path("api/v1/vacations/", VacationsView.as_view(), name="api-vacations"),
    path("api/v1/vacations/<int:vacation_id>/", VacationView.as_view(), name="api-vacation"),
    path("api/v1/games/<int:game_id>/chat/", ChatView.as_view(), name="api-chat"),
    path("api/v1/reports/", ReportsView.as_view(), name="api-reports"),
    path("api/v1/", include(ratings_api)),
    path("api/v1/", include(tournaments_api)),
    path("api/v1/", include(conversations_api)),
    path("mail/", include("notifications.urls")),
    path("", include("notifications.notices_urls")),
    path("", include("notifications.push_urls")),
    path("anymail/", include("anymail.urls")),
    *api_fallback,
    path("", include("accounts.urls")),
    path("", include("moderation.urls")),
    path("", include("conversations.urls")),
    path("", include("web.urls")),
]
