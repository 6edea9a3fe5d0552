"""The REST API under /api/: token, schema and docs, then each app's endpoints (namespace "api")."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

app_name = "api"

urlpatterns = [
    path("token/", obtain_auth_token, name="token"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("", include("matches.api.urls")),
    path("", include("replays.api.urls")),
]
