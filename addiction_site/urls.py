from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from accounts.urls import auth_urlpatterns


class StaticRedirect(RedirectView):
    """A redirect to a static file by its hashed name (``file``), read at each request."""

    file = ""

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static(self.file)


urlpatterns = [
    path("robots.txt", TemplateView.as_view(template_name="robots.txt", content_type="text/plain"), name="robots"),
    # Browsers and bookmark tools ask /favicon.ico whatever the page links: the site's icon, by
    # its hashed name (static() is read at each request, once the manifest is there).
    path("favicon.ico", StaticRedirect.as_view(file="games/icon-192.png"), name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("records.urls")),
    path("", include("daily.urls")),
    path("", include("accounts.urls")),
    path("", include("races.urls")),
    path("puzzles/", include("puzzles.urls")),
    *auth_urlpatterns,
]
