from django.contrib import admin
from django.urls import include, path

from games.urls import auth_urlpatterns

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    *auth_urlpatterns,
]
