"""Accounts: signing up, the account page, address confirmation and change, the data
download, deletion, the privacy page.  Logging in and out, changing and resetting passwords are django.contrib.auth's
own views (password reset only told which templates to mail)."""

import logging
import smtplib
from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from accounts.forms import ConfirmedPasswordResetForm, EmailChangeForm, PasswordConfirmForm, SignUpForm
from accounts.receivers import SIGNING_UP
from accounts.services import (
    EmailChangeRefused,
    account_data,
    account_data_filename,
    account_delete,
    address_confirm,
    address_confirm_read,
    address_confirm_token,
    address_confirmed,
    email_change_confirm,
    email_change_max_age,
    email_change_read,
    email_change_token,
)
from accounts.throttle import (
    confirmation_mail_allowed,
    confirmation_mail_counted,
    password_reset_allowed,
    password_reset_counted,
    signup_allowed,
    signup_counted,
)
from addiction_site.ownership import GUEST_COOKIE
from games.preferences import CHOICES, VARIANT_COOKIE

logger = logging.getLogger("accounts")


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
        setattr(request, SIGNING_UP, True)  # the next page welcomes the player (accounts/receivers.py)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if user.email and settings.ADDICTION_MAIL_CONFIGURED:
            _mail_confirmation_said(request)
        return redirect("games:my_games")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


def mail_not_configured(request: HttpRequest) -> HttpResponse:
    """The site has no mail settings (production without DJANGO_EMAIL_URL or EMAIL_HOST): say so."""
    return render(request, "registration/mail_not_configured.html", status=503)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, mailing the link in the site's words and the request's language,
    and only to a confirmed address; the page that follows says the same either way."""

    form_class = ConfirmedPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def dispatch(self, request, *args, **kwargs):
        if not settings.ADDICTION_MAIL_CONFIGURED:
            return mail_not_configured(request)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        """Mail the link, unless this address has asked for its hour's share of them (429)."""
        if not password_reset_allowed(self.request):
            return self.render_to_response(self.get_context_data(form=form, throttled=True), status=429)
        password_reset_counted(self.request)
        return super().form_valid(form)


@login_required
@require_safe
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in player's account: their address, and links to change it or the password,
    to download their data and to delete the account."""
    return render(request, "registration/account.html", {"address_confirmed": address_confirmed(_player(request))})


def _player(request: HttpRequest) -> User:
    """The signed-in player, in a view behind ``login_required``."""
    return cast(User, request.user)


def _mail_link(request: HttpRequest, templates: str, to: str, link: str) -> bool:
    """Mail ``link`` to ``to`` in the words of ``registration/<templates>_subject.txt`` and
    ``_email.txt``; False if the mail server would not take it."""
    context = {
        "user": request.user,
        "new_email": to,
        "link": request.build_absolute_uri(link),
        "valid_days": email_change_max_age() // (24 * 60 * 60),
    }
    subject = "".join(render_to_string(f"registration/{templates}_subject.txt", context, request).splitlines())
    body = render_to_string(f"registration/{templates}_email.txt", context, request)
    try:
        send_mail(subject, body, None, [to])
    except (smtplib.SMTPException, OSError):
        logger.exception("account %s: the %s link could not be mailed", request.user.pk, templates)
        return False
    return True


def _mail_email_change(request: HttpRequest, new_email: str) -> bool:
    """Mail the link that makes ``new_email`` the account's address to it."""
    token = email_change_token(user=_player(request), new_email=new_email)
    return _mail_link(request, "email_change", new_email, reverse("accounts:email_change_confirm", args=[token]))


def _mail_confirmation(request: HttpRequest) -> bool:
    """Mail the link that confirms the account's present address to it (counted against the
    request's address's hourly share of such mails)."""
    player = _player(request)
    confirmation_mail_counted(request)
    token = address_confirm_token(user=player)
    return _mail_link(request, "address_confirm", player.email, reverse("accounts:address_confirm", args=[token]))


def _mail_confirmation_said(request: HttpRequest) -> None:
    """After signing up with an address: mail its confirmation link, and say so on the next page."""
    email = _player(request).email
    if not confirmation_mail_allowed(request):
        messages.warning(
            request,
            _("Confirm your address from your account page: too many mails have been sent from here in the last hour."),
        )
    elif _mail_confirmation(request):
        messages.info(
            request,
            _("A link to confirm %(email)s is on its way: follow it, and password reset links can go there.")
            % {"email": email},
        )
    else:
        messages.warning(
            request, _("The link to confirm your address could not be mailed. Ask for it again from your account page.")
        )


@login_required
@require_http_methods(["POST"])
def address_confirm_send(request: HttpRequest) -> HttpResponse:
    """The account page's "send the link again": mail the present address its confirmation link."""
    if not settings.ADDICTION_MAIL_CONFIGURED:
        return mail_not_configured(request)
    player = _player(request)
    if not player.email or address_confirmed(player):
        return redirect("accounts:account")
    if not confirmation_mail_allowed(request):
        return render(request, "registration/address_confirm_sent.html", {"throttled": True}, status=429)
    if not _mail_confirmation(request):
        return render(request, "registration/mail_failed.html", status=503)
    return render(request, "registration/address_confirm_sent.html", {"email": player.email})


@require_http_methods(["GET", "POST"])
def address_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: its page asks to confirm (mail scanners that follow links change nothing),
    and its post confirms.  An expired, altered or outdated link gets a page that says which."""
    try:
        user = address_confirm(token) if request.method == "POST" else address_confirm_read(token)
    except EmailChangeRefused as refused:
        return render(request, "registration/email_change_refused.html", {"reason": refused.reason}, status=400)
    template = "address_confirm_done.html" if request.method == "POST" else "address_confirm.html"
    return render(request, f"registration/{template}", {"account": user})


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    """A new address, with the password: a link mailed to it sets it once followed."""
    if not settings.ADDICTION_MAIL_CONFIGURED:
        return mail_not_configured(request)
    form = EmailChangeForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        new_email = form.cleaned_data["email"]
        if not _mail_email_change(request, new_email):
            return render(request, "registration/mail_failed.html", status=503)
        return render(request, "registration/email_change_sent.html", {"new_email": new_email})
    return render(request, "registration/email_change_form.html", {"form": form}, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def email_change_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: its page asks to confirm (mail scanners that follow links change nothing),
    and its post sets the address.  An expired, altered or used link gets a page that says which."""
    try:
        change = email_change_confirm(token) if request.method == "POST" else email_change_read(token)
    except EmailChangeRefused as refused:
        return render(request, "registration/email_change_refused.html", {"reason": refused.reason}, status=400)
    template = "email_change_done.html" if request.method == "POST" else "email_change_confirm.html"
    return render(request, f"registration/{template}", {"change": change})


@login_required
@require_safe
@never_cache
def account_data_download(request: HttpRequest) -> StreamingHttpResponse:
    """The player's data as a JSON file: account, games with their logs, board entries."""
    player = _player(request)
    response = StreamingHttpResponse(account_data(player), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, account_data_filename(player)) or "attachment"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete_page(request: HttpRequest) -> HttpResponse:
    """Delete the account, its games and board entries, once the password is given; then signed out."""
    form = PasswordConfirmForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        player = _player(request)
        logout(request)
        account_delete(user=player)
        return redirect("accounts:account_deleted")  # a reload shows the page again, and resends nothing
    return render(request, "registration/account_delete.html", {"form": form}, status=400 if form.errors else 200)


@require_safe
def account_deleted_page(request: HttpRequest) -> HttpResponse:
    """Where deleting an account lands: it says so, and what went with it."""
    return render(request, "registration/account_deleted.html")


@require_safe
def privacy(request: HttpRequest) -> HttpResponse:
    """What the site keeps, for how long (read from the settings), and how to take it away."""
    day = 24 * 60 * 60
    return render(
        request,
        "accounts/privacy.html",
        {
            "session_cookie": settings.SESSION_COOKIE_NAME,
            "csrf_cookie": settings.CSRF_COOKIE_NAME,
            "language_cookie": settings.LANGUAGE_COOKIE_NAME,
            "guest_cookie": GUEST_COOKIE,
            **{f"{name}_cookie": choice.cookie for name, choice in CHOICES.items()},
            "variant_cookie": VARIANT_COOKIE,
            "session_days": settings.SESSION_COOKIE_AGE // day,
            "csrf_days": settings.CSRF_COOKIE_AGE // day,
            "language_days": settings.LANGUAGE_COOKIE_AGE // day if settings.LANGUAGE_COOKIE_AGE else None,
            "guest_unplayed_days": settings.ADDICTION_GUEST_UNPLAYED_DAYS,
            "guest_idle_days": settings.ADDICTION_GUEST_IDLE_DAYS,
            "login_record_days": settings.ADDICTION_LOGIN_RECORD_DAYS,
            "lock_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
            "link_days": settings.PASSWORD_RESET_TIMEOUT // day,
            "operator_name": settings.ADDICTION_OPERATOR_NAME,
            "operator_email": settings.ADDICTION_OPERATOR_EMAIL,
        },
    )
