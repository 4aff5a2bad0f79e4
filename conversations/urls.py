"""URLs of private messages: the pages (/messages/…), the moderators' page of a reported
message, and the API (/api/v1/messages/…)."""

from django.urls import path

from conversations import api, views

api_urlpatterns = [
    path("messages/", api.ConversationsView.as_view(), name="api-messages"),
    path("messages/<str:username>/", api.ConversationView.as_view(), name="api-conversation"),
    path("messages/<str:username>/block/", api.BlockView.as_view(), name="api-message-block"),
    path("messages/<str:username>/unblock/", api.UnblockView.as_view(),
         name="api-message-unblock"),
    path("messages/<str:username>/report/", api.ReportView.as_view(),
         name="api-message-report"),
]

urlpatterns = [
    path("messages/", views.conversations_page, name="messages"),
    path("messages/<str:username>/", views.conversation_page, name="conversation"),
    path("messages/<str:username>/block/", views.block_page, name="message-block"),
    path("messages/<str:username>/unblock/", views.unblock_page, name="message-unblock"),
    path("messages/<str:username>/report/<int:message_id>/", views.report_page,
         name="message-report-new"),
    path("moderation/private-messages/<int:report_id>/", views.moderate_report,
         name="message-report"),
]
