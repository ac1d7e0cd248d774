from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import router
from config.health import healthz
from games import views as game_views

urlpatterns = [
    path("", game_views.index, name="index"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("dashboard.urls")),
    path("", include("clubs.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/auth/", include("rest_framework.urls")),
    path("", include("replay.urls")),
    path("", include("ladder.urls")),
    path("", include("recorder.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include(router.urls)),
    path("tournaments/", include("tournaments.urls")),
    path("rules/", include("reference.urls")),
    path("", include("recorder.page_urls")),
    path("", include("games.urls")),
]

# /api/... answers errors as JSON in the API's error shape even when no view was reached.
handler400 = "config.errors.bad_request"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
