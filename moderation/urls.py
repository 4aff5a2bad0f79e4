"""URLs of the moderators' pages (/moderation/…) and of the players' chat box and reports."""

from django.urls import path

from moderation import views

urlpatterns = [
    path("moderation/", views.queue, name="moderation-queue"),
    path("moderation/audit/", views.audit, name="moderation-audit"),
    path("moderation/games/<int:game_id>/", views.game_page, name="moderation-game"),
    path("moderation/games/<int:game_id>/act/", views.act, name="moderation-act"),
    path("moderation/messages/<int:message_id>/hide/", views.hide, name="moderation-hide"),
    path("moderation/reports/<int:report_id>/close/", views.close, name="moderation-close"),
    path("games/<int:game_id>/chat/", views.chat, name="chat"),
    path("reports/new/", views.report_new, name="report-new"),
]
