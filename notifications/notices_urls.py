"""URLs of the notification list: its page and its API."""

from django.urls import path

from notifications import notices_views

urlpatterns = [
    path("notifications/", notices_views.notices_page, name="notices"),
    path("notifications/read/", notices_views.notices_read, name="notices-read"),
    path("api/v1/notifications/", notices_views.NotificationsView.as_view(),
         name="api-notifications"),
    path("api/v1/notifications/read/", notices_views.NotificationsReadView.as_view(),
         name="api-notifications-read"),
]
