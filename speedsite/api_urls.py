"""The REST API under /api/: token, schema and docs, then each app's endpoints (namespace "api")."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .api_docs import RedocView
from .token_api import TokenApi

app_name = "api"

urlpatterns = [
    path("token/", TokenApi.as_view(), name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view loads its start-up script from a URL, not inline: it works under the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", RedocView.as_view(url_name="api:schema"), name="redoc"),
    path("", include("matches.api.urls")),
    path("", include("replays.api.urls")),
    path("", include("play.api.urls")),
]
