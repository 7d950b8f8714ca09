"""Django's own words that our account pages show, listed so that our catalogues carry them.

Django translates these with its own catalogues, whose tone is not ours (a formal "you" in
Spanish and Dutch, English left in Hindi, two words for "password").  Translations in the
project's catalogues (LOCALE_PATHS) come first, so listing the exact msgids here lets
``makemessages`` put them in locale/*/django.po, where they are translated in the site's
words.  Nothing imports this module: it exists for ``makemessages`` alone.  When Django
changes one of these texts, the page shows Django's own translation again until the new
text is listed here.
"""

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_WORDS = [
    # django.contrib.auth.models.User and the sign-up form
    gettext_noop("username"),
    gettext_noop("password"),
    gettext_noop("email address"),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Enter the same password as before, for verification."),
    # django.contrib.auth.password_validation
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
    ),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    # django.contrib.auth.forms: logging in, changing and resetting a password
    gettext_noop("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    gettext_noop("This account is inactive."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Email"),
    # django.forms
    gettext_noop("This field is required."),
    gettext_noop("Enter a valid email address."),
]
