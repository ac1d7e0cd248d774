"""The live tables' websocket routes (mounted by config.asgi)."""

from django.urls import path

from live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
