#!/usr/bin/env python
"""Django's command-line utility for the Addiction site."""

import os
import sys

# What says a command runs in production: any of these in the environment (a deployment's
# environment file sets them all).  With none of them, manage.py is a development checkout's
# and gets the development settings (DJANGO_DEBUG=1: a throwaway secret, SQLite in ./var).
# The app servers (addiction_site/wsgi.py) never default to development: without a secret
# key they refuse to start.
PRODUCTION_VARIABLES = ("DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL")


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "addiction_site.settings")
    if not any(name in os.environ for name in PRODUCTION_VARIABLES):
        os.environ["DJANGO_DEBUG"] = "1"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
