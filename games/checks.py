"""The games app's system checks: which search core the solver runs (games/solver.py, ``CORE``),
said by ``manage.py check`` and at every server's start."""

from django.core.checks import Info, Warning, register
from django.utils.translation import gettext as _

from games import solver


@register()
def search_core(app_configs, **kwargs) -> list:
    if solver.CORE == "compiled":
        return [Info(_("The solver runs its compiled search core (games/_searchcore.c)."), id="games.I001")]
    return [
        Warning(
            _("The solver runs its pure-Python search: the compiled core was not built."),
            hint=_("Install with a C compiler and Python's headers (gcc, python3-dev), then pip install again."),
            id="games.W001",
        )
    ]
