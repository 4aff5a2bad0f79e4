"""URLs of the notification list: its page and its API."""

from django.urls import path

from notifications import inbox_views

urlpatterns = [
    path("notifications/", inbox_views.inbox_page, name="inbox"),
    path("notifications/read/", inbox_views.inbox_read, name="inbox-read"),
    path("api/v1/notifications/", inbox_views.NotificationsView.as_view(),
         name="api-notifications"),
    path("api/v1/notifications/read/", inbox_views.NotificationsReadView.as_view(),
         name="api-notifications-read"),
]
