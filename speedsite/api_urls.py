"""The REST API under /api/: token, schema and docs, then each app's endpoints (namespace "api")."""

from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from core.api_docs import RedocView, SchemaView
from core.token_api import TokenApi, TokenRevokeApi, TokenRotateApi

app_name = "api"

urlpatterns = [
    path("token/", TokenApi.as_view(), name="token"),
    path("token/rotate/", TokenRotateApi.as_view(), name="token_rotate"),
    path("token/revoke/", TokenRevokeApi.as_view(), name="token_revoke"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # The split view loads its start-up script from a URL, not inline: it works under the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", RedocView.as_view(url_name="api:schema"), name="redoc"),
    path("", include("matches.api.urls")),
    path("", include("replays.api.urls")),
    path("", include("play.api.urls")),
]
