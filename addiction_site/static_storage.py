"""Production's static files: whitenoise's compressed copies with hashed names, and the game
page's ES modules importing one another by those names."""

from whitenoise.storage import CompressedManifestStaticFilesStorage

# ``import {...} from "./table.js";`` and ``import "./table.js";`` in static/games/*.js, with
# the relative path rewritten to the hashed name ("./table.1a2b3c4d5e6f.js").  Without it a
# page's hashed game.js would import the unhashed modules, kept an hour where the page's are
# kept a year (deploy/nginx.conf), so one deploy's page could run another's modules.  Django's
# own patterns for this (support_js_module_import_aggregation) read every script collected and
# stop collectstatic at django-htmx's extensions, whose JSDoc comments hold import("../htmx");
# these read our own modules only.
MODULE_IMPORT = (
    r"""(?P<matched>(?P<head>\bimport\b[^;"'`]*?["'])(?P<url>\.{1,2}/[^"']+)(?P<tail>["']\s*;))""",
    "%(head)s%(url)s%(tail)s",
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("games/*.js", (MODULE_IMPORT,)))
