"""Signing up; logging in and out and changing passwords are django.contrib.auth's own views."""

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games.forms import SignUpForm
from games.throttle import signup_allowed, signup_counted


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in; the games played as a guest in this browser come along.

    An address that has created its hour's share of accounts gets the page's note instead
    of the form (429), until an hour has passed since the oldest of them.
    """
    if request.user.is_authenticated:
        return redirect("games:my_games")
    if not signup_allowed(request):
        return render(request, "registration/signup.html", {"throttled": True}, status=429)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        signup_counted(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("games:my_games")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)
