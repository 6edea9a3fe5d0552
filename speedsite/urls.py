from django.contrib import admin
from django.urls import include, path

from core.handlers import error_preview
from web.forms.login import AdminLoginForm

# The admin's login checks the username's length as the site's does (web.forms.login).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    # The site's own error pages, seen with DEBUG (the demo), where errors show Django's debug pages.
    path("errors/<int:status>/", error_preview, name="error_preview"),
    path("api/errors/<int:status>/", error_preview, name="api_error_preview"),
    path("api/tournaments/", include("tournaments.urls")),
    path("api/", include("speedsite.api_urls")),
    path("", include("web.urls")),
]

# JSON under /api/, the site's pages elsewhere (core.handlers).
handler400 = "core.handlers.bad_request"
handler403 = "core.handlers.permission_denied"
handler404 = "core.handlers.page_not_found"
handler500 = "core.handlers.server_error"
