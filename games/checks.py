"""The games app's system checks: ``manage.py check`` (and every server's start) says when the
solver fell back to its pure-Python search because the compiled core was not built
(games/solver.py, ``CORE``; /metrics says which core runs either way)."""

import os

from django.core.checks import Info, register
from django.utils.translation import gettext as _

from games import solver


@register()
def search_core(app_configs, **kwargs) -> list:
    # Silent when the compiled core runs, or when ADDICTION_SEARCH_CORE asked for the Python one:
    # `check --deploy` says "no issues" there.  An Info, not a Warning: the site runs the same
    # without the core, only its searches are slower, and a machine with no compiler may deploy.
    if solver.CORE == "compiled" or os.environ.get("ADDICTION_SEARCH_CORE") == "python":
        return []
    return [
        Info(
            _("The solver runs its pure-Python search: its compiled core (games/_searchcore.c) was not built."),
            hint=_("Install gcc and Python's headers (python3-dev), then run pip install again: hints will be faster."),
            id="games.I001",
        )
    ]
