from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import include, path, re_path
from django.utils.translation import gettext_lazy
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from config.api.parsers import BROWSABLE_API_CSP
from config.api.router import LanternAPIRoot
from config.errors import api_not_found
from config.health import healthz

#: What ReDoc's bundle needs beyond the site's policy, on its page only: it styles itself
#: with <style> elements and style attributes it writes as it draws (styled-components),
#: and runs its search in a worker made from a blob: URL. Its scripts stay the site's
#: files ('self'); its "API docs by Redocly" logo from cdn.redoc.ly is never asked for
#: (static/js/api/redoc.js drops it). The page shows only the public
#: schema, the same document /api/schema/ serves to anyone.
REDOC_CSP = {"style-src": ["'unsafe-inline'"], "worker-src": ["'self'", "blob:"]}


# The admin's header says whose it is, in the reader's language ("Django administration" did not).
admin.site.site_header = gettext_lazy("Lantern administration")
admin.site.site_title = "Lantern"


def no_favicon(request: HttpRequest) -> HttpResponse:
    """Pages that name no icon (the admin's, DRF's) make browsers ask for /favicon.ico:
    an empty answer rather than a 404 in every log."""
    return HttpResponse(status=204)


# Each app has at most two route modules, each mounted here once: ``<app>/api_urls.py``,
# its API (under /api/), and ``<app>/urls.py``, its pages (at the root, each path
# written in full, so a URL is found by searching for it). tests/ops/test_architecture.py
# holds every app to this, and checks that no route hides another.
urlpatterns = [
    path("favicon.ico", no_favicon),
    path("healthz", healthz, name="healthz"),
    # The djangojs catalog of the active language (?lang=), for the JS modules (static/js/i18n.js).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    # The API: its root lists every resource; the schema and Swagger UI describe them.
    path("api/", LanternAPIRoot.as_view(), name="api-root"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Under the site's Content-Security-Policy: Swagger UI's files are the site's
    # (drf-spectacular-sidecar) and its start-up script a second request (?script), not
    # inline.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    # ReDoc, the site's copy too, under the policy relaxed for this one page (REDOC_CSP).
    path(
        "api/redoc/",
        csp_update(REDOC_CSP)(SpectacularRedocView.as_view(url_name="api-schema")),
        name="api-redoc",
    ),
    # DRF's sign-in for the browsable API (rest_framework.urls), its page's style
    # attributes let in by their hashes as on the browsable API's own pages.
    path(
        "api/auth/",
        include(
            (
                [
                    path(
                        "login/",
                        csp_update(BROWSABLE_API_CSP)(
                            auth_views.LoginView.as_view(template_name="rest_framework/login.html")
                        ),
                        name="login",
                    ),
                    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
                ],
                "rest_framework",
            )
        ),
    ),
    path("api/", include("analysis.api_urls")),
    path("api/", include("ladder.api_urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("live.api_urls")),
    path("api/", include("recorder.api_urls")),
    path("api/", include("replay.api_urls")),
    path("api/", include("tournaments.api_urls")),
    # An /api/ path no API route matched is a JSON 404, with DEBUG on too.
    re_path(r"^api/(?P<url>.*)$", api_not_found, name="api-not-found"),
    # The pages.
    path("", include("accounts.urls")),
    path("", include("clubs.urls")),
    path("", include("dashboard.urls")),
    path("", include("ladder.urls")),
    path("", include("games.urls")),
    path("", include("live.urls")),
    path("", include("recorder.urls")),
    path("", include("reference.urls")),
    path("", include("replay.urls")),
    path("", include("tournaments.urls")),
    # Last: its club page (clubs/<slug>/) would take clubs.urls' clubs/new/.
    path("", include("pages.urls")),
]

# /api/... answers errors as JSON in the API's error shape even when no view was reached.
handler400 = "config.errors.bad_request"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
