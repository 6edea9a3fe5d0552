from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/tournaments/", include("tournaments.urls")),
    path("api/", include("speedsite.api_urls")),
    path("", include("web.urls")),
]
