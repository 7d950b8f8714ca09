"""Recovering an account: password reset by e-mail (Django's views), an address changed only
through a link mailed to it, and the mail settings read from the environment.

Mail goes to Django's locmem backend (pytest-django's ``mailoutbox``); links are read out of
the mails' bodies, as a player would click them.
"""

from __future__ import annotations

import os
import re
import smtplib
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.utils import timezone

from accounts import services as accounts
from accounts.models import ConfirmedAddress
from addiction_site.mail import CONSOLE, SMTP, Mail, mail_from_url, mail_settings
from tests.helpers import parse_html, text_of

PASSWORD = "plum-orchard-lantern-42"
NEW_PASSWORD = "quince-harbour-violin-77"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ada(db) -> User:
    """A player whose address is confirmed (as if she had followed the link mailed at sign-up)."""
    user = User.objects.create_user("ada", "ada@example.org", PASSWORD)
    ConfirmedAddress.objects.create(user=user, email=user.email, confirmed_at=timezone.now())
    return user


@pytest.fixture
def ada_client(client, ada) -> Client:
    client.force_login(ada)
    return client


def link_in(mail) -> str:
    """The path of the one link of this site in ``mail``'s body."""
    links = re.findall(r"https?://testserver(/\S+)", mail.body)
    assert len(links) == 1, mail.body
    return links[0]


# --------------------------------------------------------------------------- confirming the address given at sign-up


def sign_up(client, email: str, name: str = "grace"):
    return client.post(
        "/accounts/signup/",
        {"username": name, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )


def address_state(client) -> str:
    (state,) = parse_html(client.get("/accounts/")).find_all("span", data_address_state=True)
    return state["data-address-state"]


def test_signing_up_with_an_address_mails_a_link_that_confirms_it(client, db, mailoutbox):
    page = sign_up(client, "grace@example.org")
    assert "A link to confirm grace@example.org is on its way" in text_of(page)
    (mail,) = mailoutbox
    assert mail.to == ["grace@example.org"] and mail.subject == "Confirm your email address"
    assert address_state(client) == "unconfirmed"
    link = link_in(mail)
    assert "Confirm grace@example.org as the email address of the account grace?" in text_of(Client().get(link))
    assert address_state(client) == "unconfirmed"  # opening the link (a mail scanner) confirms nothing
    done = Client().post(link)  # the link works from any browser, signed in or not
    assert parse_html(done).find("p", data_confirmed=True)["data-confirmed"] == "grace@example.org"
    assert address_state(client) == "confirmed"
    assert Client().post(link).status_code == 200  # twice is the same as once


def test_an_unconfirmed_address_gets_no_reset_mail_and_the_page_says_the_same(client, db, mailoutbox):
    sign_up(client, "grace@example.org")
    mailoutbox.clear()
    stranger = Client()
    unconfirmed = reset_password(stranger, "grace@example.org")
    unknown = reset_password(stranger, "nobody@example.org")
    assert mailoutbox == []
    assert unconfirmed.status_code == unknown.status_code == 302
    assert unconfirmed["Location"] == unknown["Location"]  # nothing tells the two apart


def test_a_confirmed_address_gets_the_reset_mail(client, db, mailoutbox):
    sign_up(client, "grace@example.org")
    Client().post(link_in(mailoutbox[0]))
    mailoutbox.clear()
    reset_password(Client(), "grace@example.org")
    (mail,) = mailoutbox
    assert mail.to == ["grace@example.org"] and "/accounts/password/reset/" in link_in(mail)


def test_the_account_page_sends_the_link_again(client, db, mailoutbox):
    sign_up(client, "grace@example.org")
    first = link_in(mailoutbox[0])
    page = client.post("/accounts/address/send/")
    assert "A link is on its way to grace@example.org" in text_of(page)
    assert len(mailoutbox) == 2
    Client().post(link_in(mailoutbox[1]))
    assert address_state(client) == "confirmed"
    assert Client().get(first).status_code == 200  # the first link is as good: it names the same address
    assert client.post("/accounts/address/send/")["Location"] == "/accounts/"  # confirmed: nothing to send
    assert len(mailoutbox) == 2


def test_a_link_for_an_address_since_replaced_confirms_nothing(client, db, mailoutbox):
    sign_up(client, "grace@example.org")
    link = link_in(mailoutbox[0])
    User.objects.filter(username="grace").update(email="other@example.org")
    refused_page = Client().post(link)
    assert refused_page.status_code == 400 and refused(refused_page) == "used"
    assert not ConfirmedAddress.objects.exists()


def test_following_an_address_change_link_confirms_the_new_address(ada_client, ada, mailoutbox):
    ConfirmedAddress.objects.filter(user=ada).delete()
    ask_email_change(ada_client, "ada@lovelace.example")
    Client().post(link_in(mailoutbox[0]))
    assert address_state(ada_client) == "confirmed"
    assert ConfirmedAddress.objects.get(user=ada).email == "ada@lovelace.example"


def test_resending_is_held_to_the_addresss_hourly_share_of_mails(client, db, mailoutbox, settings):
    settings.ADDICTION_PASSWORD_RESETS_PER_HOUR = 2
    sign_up(client, "grace@example.org")  # the first mail
    assert client.post("/accounts/address/send/").status_code == 200
    refused_page = client.post("/accounts/address/send/")
    assert refused_page.status_code == 429 and "Too many mails" in text_of(refused_page)
    assert len(mailoutbox) == 2


def test_signing_up_without_mail_settings_sends_nothing_and_the_account_says_unconfirmed(
    client, db, mailoutbox, settings
):
    settings.ADDICTION_MAIL_CONFIGURED = False
    sign_up(client, "grace@example.org")
    assert mailoutbox == [] and address_state(client) == "unconfirmed"
    assert client.post("/accounts/address/send/").status_code == 503


# --------------------------------------------------------------------------- password reset


def test_the_login_page_links_to_password_reset(client, db):
    links = parse_html(client.get("/accounts/login/")).find_all("a", href="/accounts/password/reset/")
    assert [link.text for link in links] == ["Forgot your password?"]


def reset_password(client, email: str):
    return client.post("/accounts/password/reset/", {"email": email})


def test_a_forgotten_password_is_reset_through_the_mailed_link(client, ada, mailoutbox):
    response = reset_password(client, "ADA@example.org")  # Django matches the address case-insensitively
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
    assert "Check your email" in text_of(client.get(response.url))
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"] and mail.from_email == django_settings.DEFAULT_FROM_EMAIL
    assert "\n" not in mail.subject and "testserver" in mail.subject
    assert "ada" in mail.body and PASSWORD not in mail.body

    form_page = client.get(link_in(mail), follow=True)  # Django moves the token out of the address first
    assert form_page.status_code == 200 and form_page.context["validlink"]
    set_password = form_page.redirect_chain[-1][0]
    done = client.post(set_password, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done.url == "/accounts/password/reset/complete/"
    assert "Password changed" in text_of(client.get(done.url))
    ada.refresh_from_db()
    assert ada.check_password(NEW_PASSWORD) and not ada.check_password(PASSWORD)

    login = client.post("/accounts/login/", {"username": "ada", "password": NEW_PASSWORD})
    assert login.status_code == 302


def test_a_reset_link_works_once(client, ada, mailoutbox):
    reset_password(client, "ada@example.org")
    link = link_in(mailoutbox[0])
    set_password = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(set_password, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    again = Client().get(link, follow=True)
    assert again.status_code == 200 and not again.context["validlink"]
    assert "This link does not work" in text_of(again)
    assert parse_html(again).find_all("input", type="password") == []


def test_an_unknown_address_is_answered_alike_and_mails_nothing(client, ada, mailoutbox):
    response = reset_password(client, "nobody@example.org")
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
    assert mailoutbox == []


def test_the_reset_mail_is_in_the_language_of_the_request(client, ada, mailoutbox):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "it"
    reset_password(client, "ada@example.org")
    [mail] = mailoutbox
    # Django's own Italian for the sentences its admin mails too; the site's own follow its catalog.
    assert "Vai alla pagina seguente e scegli una nuova password:" in mail.body
    assert "Please go to the following page" not in mail.body


def test_without_mail_settings_the_reset_page_says_so_and_mails_nothing(client, ada, mailoutbox, settings):
    settings.ADDICTION_MAIL_CONFIGURED = False
    for response in (client.get("/accounts/password/reset/"), reset_password(client, "ada@example.org")):
        assert response.status_code == 503
        assert "This site has not been set up to send email" in text_of(response)
    assert mailoutbox == []


def test_one_address_asks_for_only_so_many_reset_mails_an_hour(ada, mailoutbox, settings):
    settings.ADDICTION_PASSWORD_RESETS_PER_HOUR = 3
    home, elsewhere = Client(REMOTE_ADDR="198.51.100.7"), Client(REMOTE_ADDR="203.0.113.9")
    answers = [reset_password(home, address).status_code for address in ("ada@example.org", "x@example.org") * 2]
    assert answers == [302, 302, 302, 429]  # unknown addresses count too: the answer tells nothing
    assert len(mailoutbox) == 2
    refused = reset_password(home, "ada@example.org")
    assert refused.status_code == 429 and "Too many password resets" in text_of(refused)
    assert len(mailoutbox) == 2
    assert reset_password(elsewhere, "ada@example.org").status_code == 302
    assert len(mailoutbox) == 3


# --------------------------------------------------------------------------- address change


def ask_email_change(client, email: str, password: str = PASSWORD):
    return client.post("/accounts/email/", {"email": email, "password": password})


def test_changing_the_address_needs_a_login(client, db):
    response = client.get("/accounts/email/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/?next=/accounts/email/")


def test_the_address_changes_only_once_the_mailed_link_is_confirmed(ada_client, ada, mailoutbox):
    response = ask_email_change(ada_client, "lovelace@example.org")
    assert response.status_code == 200 and "A link is on its way to lovelace@example.org" in text_of(response)
    [mail] = mailoutbox
    assert mail.to == ["lovelace@example.org"]
    link = link_in(mail)
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"

    stranger = Client()  # the link works from any browser: it is the proof of the address
    confirm = stranger.get(link)
    assert confirm.status_code == 200 and "Make lovelace@example.org the email address" in text_of(confirm)
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"  # opening the link (a mail scanner may) changes nothing

    done = stranger.post(link)
    assert done.status_code == 200 and "now lovelace@example.org" in text_of(done)
    ada.refresh_from_db()
    assert ada.email == "lovelace@example.org"

    for again in (stranger.get(link), stranger.post(link)):  # once only
        assert again.status_code == 400
        assert parse_html(again).find("p", class_="errors")["data-reason"] == "used"
    ada.refresh_from_db()
    assert ada.email == "lovelace@example.org"


def test_a_player_without_an_address_can_add_one(ada_client, ada, mailoutbox):
    User.objects.filter(pk=ada.pk).update(email="")
    ask_email_change(ada_client, "ada@example.net")
    ada_client.post(link_in(mailoutbox[0]))
    ada.refresh_from_db()
    assert ada.email == "ada@example.net"


@pytest.mark.parametrize(
    ("data", "field", "error"),
    [
        ({"email": "lovelace@example.org", "password": "not-my-password"}, "password", "That is not your password."),
        ({"email": "ADA@example.org", "password": PASSWORD}, "email", "That is already your address."),
        ({"email": "not an address", "password": PASSWORD}, "email", "Enter a valid email address."),
        ({"email": "", "password": PASSWORD}, "email", "This field is required."),
        ({"email": "lovelace@example.org", "password": ""}, "password", "This field is required."),
    ],
)
def test_a_refused_address_change_mails_nothing(ada_client, ada, mailoutbox, data, field, error):
    response = ada_client.post("/accounts/email/", data)
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [error]
    assert mailoutbox == []
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"


def refused(response) -> str:
    assert response.status_code == 400
    assert "This link does not work" in text_of(response)
    return parse_html(response).find("p", class_="errors")["data-reason"]


def test_an_altered_link_gets_a_clear_page_and_changes_nothing(ada_client, ada, mailoutbox):
    ask_email_change(ada_client, "lovelace@example.org")
    link = link_in(mailoutbox[0])
    token = link.split("/")[-2]
    forged = accounts.signing.dumps({"user": ada.pk, "from": "x", "to": "evil@example.org"}, salt="another salt")
    for bad in (token[:-1] + ("A" if token[-1] != "A" else "B"), token[:20], forged, "garbage"):
        assert refused(ada_client.post(f"/accounts/email/confirm/{bad}/")) == "invalid"
        assert refused(ada_client.get(f"/accounts/email/confirm/{bad}/")) == "invalid"
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"


def test_an_expired_link_gets_a_clear_page_and_changes_nothing(ada, client, monkeypatch):
    signed_at = time.time() - accounts.email_change_max_age() - 60
    with monkeypatch.context() as patch:
        patch.setattr(accounts.signing.time, "time", lambda: signed_at)
        token = accounts.email_change_token(user=ada, new_email="lovelace@example.org")
    assert refused(client.post(f"/accounts/email/confirm/{token}/")) == "expired"
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"


def test_a_link_for_a_replaced_address_no_longer_works(ada, client):
    """Two links asked for, one confirmed: the other named the address it would replace, gone now."""
    first = accounts.email_change_token(user=ada, new_email="one@example.org")
    second = accounts.email_change_token(user=ada, new_email="two@example.org")
    assert client.post(f"/accounts/email/confirm/{second}/").status_code == 200
    assert refused(client.post(f"/accounts/email/confirm/{first}/")) == "used"
    ada.refresh_from_db()
    assert ada.email == "two@example.org"


def test_an_address_change_needs_mail_settings(ada_client, mailoutbox, settings):
    settings.ADDICTION_MAIL_CONFIGURED = False
    assert ask_email_change(ada_client, "lovelace@example.org").status_code == 503
    assert mailoutbox == []


def test_a_mail_server_that_refuses_gets_a_page_saying_so(ada_client, ada, monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise smtplib.SMTPRecipientsRefused({})

    monkeypatch.setattr("accounts.views.send_mail", refuse)
    response = ask_email_change(ada_client, "lovelace@example.org")
    assert response.status_code == 503 and "The email was not sent" in text_of(response)
    assert any(record.name == "accounts" for record in caplog.records)


# --------------------------------------------------------------------------- mail settings


def test_a_mail_url_names_the_smtp_server():
    assert mail_from_url("smtp://ada:p%40ss%3Aword@mail.example.org:2525?tls=1") == Mail(
        backend=SMTP, host="mail.example.org", port=2525, user="ada", password="p@ss:word", use_tls=True
    )
    assert mail_from_url("smtp://mail.example.org?ssl=1").port == 465
    assert mail_from_url("smtp://mail.example.org?tls=yes").port == 587
    assert mail_from_url("smtp://relay.local") == Mail(host="relay.local", port=25)
    assert mail_from_url("console:") == Mail(backend=CONSOLE)


@pytest.mark.parametrize(
    "url",
    [
        "smtps://mail.example.org",
        "http://mail.example.org",
        "smtp://",
        "smtp://mail.example.org?tls=1&ssl=1",
        "smtp://mail.example.org?tsl=1",
        "smtp://mail.example.org?tls=maybe",
        "smtp://mail.example.org:port",
    ],
)
def test_a_mail_url_that_cannot_be_read_is_refused(url):
    with pytest.raises(ImproperlyConfigured):
        mail_from_url(url)


def test_mail_settings_come_from_the_url_or_djangos_variables_never_both():
    assert mail_settings({}, debug=True) == Mail(backend=CONSOLE)
    assert mail_settings({}, debug=False).configured is False
    assert mail_settings({"DJANGO_EMAIL_URL": "console:"}, debug=False) == Mail(backend=CONSOLE)
    assert mail_settings(
        {
            "EMAIL_HOST": "mail.example.org",
            "EMAIL_HOST_USER": "ada",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "1",
        },
        debug=True,
    ) == Mail(host="mail.example.org", port=587, user="ada", password="secret", use_tls=True)
    with pytest.raises(ImproperlyConfigured):
        mail_settings({"DJANGO_EMAIL_URL": "console:", "EMAIL_HOST": "mail.example.org"}, debug=False)


def test_the_settings_module_reads_the_mail_url():
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "EMAIL_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="addiction_site.settings",
        DJANGO_SECRET_KEY="x" * 60,
        DJANGO_EMAIL_URL="smtp://ada:secret@mail.example.org?tls=1",
        DEFAULT_FROM_EMAIL="play@example.org",
    )
    code = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL, "
        "s.ADDICTION_MAIL_CONFIGURED)"
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [SMTP, "mail.example.org", "587", "True", "play@example.org", "True"]


def test_the_privacy_page_names_the_operator_to_write_to(client, db, settings):
    settings.ADDICTION_OPERATOR_NAME, settings.ADDICTION_OPERATOR_EMAIL = "Example Games Ltd", "privacy@example.org"
    page = parse_html(client.get("/privacy/"))
    contact = page.find("p", data_operator="privacy@example.org")
    assert "This site is run by Example Games Ltd" in contact.text
    assert contact.find("a")["href"] == "mailto:privacy@example.org"
    settings.ADDICTION_OPERATOR_EMAIL = ""
    assert "has not named a contact here yet" in text_of(client.get("/privacy/"))
