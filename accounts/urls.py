"""URLs of the address confirmation, of asking for a password reset and of changing the
password (these two ahead of Django's own accounts/ URLs, which web.urls includes); and
the API's sign-up, token and preferences endpoints, under /api/v1/."""

from django.urls import path

from accounts import api, views

urlpatterns = [
    path("accounts/confirm/resend/", views.resend_confirmation, name="email-confirm-resend"),
    path("accounts/confirm/<str:token>/", views.confirm_email, name="email-confirm"),
    path("accounts/password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password_change/", views.PasswordChangeView.as_view(),
         name="password_change"),
]

api_urlpatterns = [
    path("accounts/", api.AccountsView.as_view(), name="api-accounts"),
    path("auth/token/", api.TokenView.as_view(), name="api-token"),
    path("preferences/", api.PreferencesView.as_view(), name="api-preferences"),
]
