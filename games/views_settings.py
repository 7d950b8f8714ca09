"""The settings page: the player's choices for the table (marking, colours, motion), kept in
cookies of this browser, which base.html and the table read on every page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.forms import SettingsForm
from games.ownership import set_lasting_cookie
from games.views import MARK_MOVABLE_COOKIE, marks_movable

THEME_COOKIE = "addiction_theme"  # "light" or "dark"; none (or "auto") follows the device
MOTION_COOKIE = "addiction_motion"  # "on" or "off"; none (or "auto") follows the device


def chosen(request: HttpRequest) -> dict:
    """The choices this browser made, as the settings form's initial values."""
    theme = request.COOKIES.get(THEME_COOKIE)
    motion = request.COOKIES.get(MOTION_COOKIE)
    return {
        "mark_movable": marks_movable(request),
        "theme": theme if theme in ("light", "dark") else "auto",
        "motion": motion if motion in ("on", "off") else "auto",
    }


def _back(request: HttpRequest) -> str:
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return back
    return request.path


@require_http_methods(["GET", "HEAD", "POST"])
def settings_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        form = SettingsForm(initial=chosen(request))
        return render(request, "games/settings.html", {"form": form, "next": request.GET.get("next", "")})
    form = SettingsForm(request.POST)
    if not form.is_valid():
        return render(request, "games/settings.html", {"form": form, "next": request.POST.get("next", "")}, status=400)
    response = HttpResponseRedirect(_back(request))
    data = form.cleaned_data
    set_lasting_cookie(response, MARK_MOVABLE_COOKIE, "1" if data["mark_movable"] else "0")
    for name, value in ((THEME_COOKIE, data["theme"]), (MOTION_COOKIE, data["motion"])):
        if value == "auto":
            response.delete_cookie(name, samesite="Lax")
        else:
            set_lasting_cookie(response, name, value)
    messages.success(request, _("Settings saved."))
    return response
