from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.urls import auth_urlpatterns

urlpatterns = [
    path("robots.txt", TemplateView.as_view(template_name="robots.txt", content_type="text/plain"), name="robots"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("records.urls")),
    path("", include("daily.urls")),
    path("", include("accounts.urls")),
    path("", include("races.urls")),
    *auth_urlpatterns,
]
