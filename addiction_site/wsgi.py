"""WSGI entry point: gunicorn addiction_site.wsgi."""

import os

from django.core.wsgi import get_wsgi_application

from addiction_site.request_body import ContentTypeGuard

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "addiction_site.settings")

# Wrapped so that a Content-Type Django cannot parse gets the site's 400 page, not a bare 500.
application = ContentTypeGuard(get_wsgi_application())
