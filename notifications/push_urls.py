"""URLs of web push and the installed app (the service worker and the manifest sit at the
site's root: a worker's scope is at most its own path's)."""

from django.urls import path

from notifications import push_views

urlpatterns = [
    path("sw.js", push_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", push_views.manifest, name="manifest"),
    path("api/v1/push/", push_views.PushSubscriptionsView.as_view(), name="api-push"),
]
