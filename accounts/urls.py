"""URLs of the address confirmation."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/confirm/resend/", views.resend_confirmation, name="email-confirm-resend"),
    path("accounts/confirm/<str:token>/", views.confirm_email, name="email-confirm"),
]
