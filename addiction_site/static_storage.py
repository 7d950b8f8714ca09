"""Production's static files: whitenoise's compressed copies with hashed names, the game
page's ES modules importing one another by those names, and the site's own scripts and
stylesheet without their comments and spaces."""

from fnmatch import fnmatch

import rcssmin
import rjsmin
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

# ``import {...} from "./table.js";`` and ``import "./table.js";`` in static/games/*.js, with
# the relative path rewritten to the hashed name ("./table.1a2b3c4d5e6f.js").  Without it a
# page's hashed game.js would import the unhashed modules, kept an hour where the page's are
# kept a year (deploy/nginx.conf.template), so one deploy's page could run another's modules.  Django's
# own patterns for this (support_js_module_import_aggregation) read every script collected and
# stop collectstatic at django-htmx's extensions, whose JSDoc comments hold import("../htmx");
# these read our own modules only.
MODULE_IMPORT = (
    r"""(?P<matched>(?P<head>\bimport\b[^;"'`]*?["'])(?P<url>\.{1,2}/[^"']+)(?P<tail>["']\s*;))""",
    "%(head)s%(url)s%(tail)s",
)


# The site's own files, written to be read (their comments say why each part is there): the
# copies collectstatic makes are minified (rjsmin, rcssmin), which takes a quarter off a first
# visit's bytes even gzipped (benchmarks/README.md, "What the site sends").  Vendored files
# (htmx, the admin's) come minified already, or are left as their authors ship them.
MINIFIED = {"games/*.js": rjsmin.jsmin, "races/*.js": rjsmin.jsmin, "games/*.css": rcssmin.cssmin}


def minifier(name: str):
    """The minifier of a collected file's ``name``, or None."""
    return next((minify for pattern, minify in MINIFIED.items() if fnmatch(name, pattern)), None)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("games/*.js", (MODULE_IMPORT,)))

    def _save(self, name, content):
        """Every copy collectstatic writes of the site's own scripts and stylesheet (the
        file, then its hashed name) is written minified.  The hash is still the source's,
        which decides the minified copy."""
        if (minify := minifier(name)) is not None:
            content.seek(0)
            content = ContentFile(minify(content.read().decode("utf-8")).encode("utf-8"))
        return super()._save(name, content)
