"""The site in Italian, Spanish, Dutch and Hindi: pages come out translated, catalogs are whole.

The catalogs live in locale/<lang>/LC_MESSAGES/django.po, with the compiled django.mo beside
them (committed, so a fresh clone needs no gettext).  After changing a template's words:
``python manage.py makemessages -l it -l es -l nl -l hi --ignore=.venv --ignore=tests
--ignore=benchmarks --ignore=scripts --ignore=staticfiles``, translate the new entries, then
``python manage.py compilemessages --ignore=.venv``.  The catalog tests below fail until then.
"""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

from tests.helpers import grid, parse_html, text_of

LANGUAGES = ["it", "es", "nl", "hi"]
LOCALE = Path(settings.LOCALE_PATHS[0])

# For each language: (translated phrase, the English it replaces), as the pages show them.
HOME = {
    "it": ("Gioca una smazzata a caso", "Play a random deal"),
    "es": ("Jugar un reparto al azar", "Play a random deal"),
    "nl": ("Speel een willekeurige verdeling", "Play a random deal"),
    "hi": ("कोई भी बाज़ी खेलें", "Play a random deal"),
}
GAME = {  # a new game has 3 shuffles left: the plural forms of both strings
    "it": [("Rimescolate rimaste", "Shuffles left"), ("Rimescola (ne restano 3)", "Shuffle (3 left)")],
    "es": [("Barajadas restantes", "Shuffles left"), ("Barajar (quedan 3)", "Shuffle (3 left)")],
    "nl": [("Schudbeurten over", "Shuffles left"), ("Schudden (nog 3 keer)", "Shuffle (3 left)")],
    "hi": [("बचे शफ़ल", "Shuffles left"), ("शफ़ल करें (3 बचे)", "Shuffle (3 left)")],
}
# What a card's label says for the card at row 1, column 1 (words of cards.py's card names).
CARD_LABEL = {
    "it": r"^(Due|Tre|Quattro|Cinque|Sei|Sette|Otto|Nove|Dieci|Fante|Donna|Re) di (picche|cuori|quadri|fiori), "
    r"riga 1, colonna 1, (si può spostare|al suo posto|non si può spostare)$",
    "es": r"^(Dos|Tres|Cuatro|Cinco|Seis|Siete|Ocho|Nueve|Diez|Jota|Reina|Rey) "
    r"de (picas|corazones|diamantes|tréboles), "
    r"fila 1, columna 1, (se puede mover|en su sitio|no se puede mover)$",
    "nl": r"^(Schoppen|Harten|Ruiten|Klaveren) (twee|drie|vier|vijf|zes|zeven|acht|negen|tien|boer|vrouw|heer), "
    r"rij 1, kolom 1, (kan verplaatst worden|op zijn plaats|kan niet verplaatst worden)$",
    "hi": r"^(हुकुम|पान|ईंट|चिड़ी) (का|की) (दो|तीन|चार|पाँच|छह|सात|आठ|नौ|दस|गुलाम|बेगम|बादशाह), "
    r"पंक्ति 1, स्तंभ 1, (चलने योग्य|अपनी जगह पर|चलने योग्य नहीं)$",
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_page_is_translated(client, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get("/")
    assert response.status_code == 200
    text = text_of(response)
    translated, english = HOME[lang]
    assert translated in text
    assert english not in text
    assert parse_html(response).find("html")["lang"] == lang


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_started_from_a_deal_link_is_translated(client, lang):
    response = client.post("/deal/7/start/", HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    assert response.status_code == 200
    text = text_of(response)
    for translated, english in GAME[lang]:
        assert translated in text
        assert english not in text
    board = grid(response)
    assert re.match(CARD_LABEL[lang], board.slots["0-0"].label), board.slots["0-0"].label
    assert not [cell.label for cell in board.slots.values() if re.search(r"\b(row|column|Gap)\b", cell.label)]


@pytest.mark.django_db
def test_the_language_selector_switches_the_site(client):
    response = client.post("/i18n/setlang/", {"language": "nl", "next": "/how-to-play/"})
    assert response.status_code == 302 and response.url == "/how-to-play/"
    text = text_of(client.get("/how-to-play/"))
    assert "Zo speel je Addiction-patience" in text
    assert "How to play Addiction Solitaire" not in text
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "How to play Addiction Solitaire" in text_of(client.get("/how-to-play/"))


# --------------------------------------------------------------------------- the catalogs


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file as makemessages writes it (blank lines between entries), the
    header first; obsolete "#~" entries are left out."""
    entries = []
    lines = path.read_text(encoding="utf-8").splitlines()
    block = []
    for number, raw in enumerate([*lines, ""], 1):
        if raw.strip():
            block.append((number, raw.strip()))
            continue
        entry, target = Entry(line=block[0][0] if block else number), None
        for at, line in block:
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                assert target is not None, f"{path}:{at}: a string continues nothing"
                _append(entry, target, ast.literal_eval(line))
            else:
                target, _, value = line.partition(" ")
                _append(entry, target, ast.literal_eval(value), start=True)
        if target is not None:  # a block of comments only (an obsolete entry) has none
            entries.append(entry)
        block = []
    return entries


def _append(entry: Entry, target: str, value: str, *, start: bool = False) -> None:
    if target in ("msgctxt", "msgid", "msgid_plural"):
        setattr(entry, target, value if start else (getattr(entry, target) or "") + value)
    elif target == "msgstr" or re.fullmatch(r"msgstr\[\d+\]", target):
        index = 0 if target == "msgstr" else int(target[7:-1])
        entry.msgstr[index] = value if start else entry.msgstr[index] + value
    else:
        raise AssertionError(f"unknown keyword {target!r}")


_PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]|%%")


def catalog(lang: str) -> tuple[Entry, list[Entry]]:
    path = LOCALE / lang / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"no catalog for {lang}: run makemessages"
    header, *entries = read_po(path)
    assert header.msgid == "" and header.msgctxt is None, "the catalog has no header"
    return header, entries


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_of_the_catalog_is_translated_and_none_is_fuzzy(lang):
    header, entries = catalog(lang)
    assert "fuzzy" not in header.flags, "the header is marked fuzzy"
    meta = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert meta.get("Language") == lang
    nplurals = int(re.match(r"nplurals=(\d+);", meta["Plural-Forms"]).group(1))
    assert len(entries) > 100
    problems = []
    for entry in entries:
        where = f"line {entry.line}: {entry.msgid[:50]!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{where} is fuzzy")
        forms = nplurals if entry.msgid_plural is not None else 1
        if sorted(entry.msgstr) != list(range(forms)) or not all(entry.msgstr.values()):
            problems.append(f"{where} is not translated (in every plural form)")
        wanted = set(_PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in entry.msgstr.values():
            if text and set(_PLACEHOLDER.findall(text)) != wanted:
                problems.append(f"{where} changes the placeholders: {text!r}")
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalog_is_up_to_date(lang):
    """django.mo says what django.po says: compilemessages was run after the last edit."""
    _, entries = catalog(lang)
    mo = LOCALE / lang / "LC_MESSAGES" / "django.mo"
    assert mo.exists(), f"{mo} is missing: run compilemessages"
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in entries:
        if entry.msgid_plural is None:
            got = compiled.pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else compiled.gettext(entry.msgid)
            if got != entry.msgstr[0]:
                stale.append(entry.msgid[:50])
            continue
        for n in (0, 1, 2, 5, 1_000_000):
            args = (entry.msgid, entry.msgid_plural, n)
            got = compiled.npgettext(entry.msgctxt, *args) if entry.msgctxt else compiled.ngettext(*args)
            if got != entry.msgstr[compiled.plural(n)]:
                stale.append(f"{entry.msgid[:50]} (n={n})")
    assert stale == []


# Django's own words on the account pages, in the site's tone (accounts/django_words.py): the
# informal "you" in Spanish and Dutch, Hindi in Hindi, one word for password.
DJANGO_WORDS = {
    "es": ("Las dos contraseñas no coinciden.", "Tu contraseña no puede tener solo cifras."),
    "nl": ("De twee wachtwoorden zijn niet gelijk.", "Je wachtwoord mag niet alleen uit cijfers bestaan."),
    "hi": ("दोनों पासवर्ड एक जैसे नहीं हैं।", "आपका पासवर्ड सिर्फ़ अंकों से नहीं बन सकता।"),
    "it": ("Le due password non sono uguali.", "La tua password non può essere fatta solo di cifre."),
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_djangos_own_words_on_the_sign_up_page_are_said_in_the_sites_tone(client, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    mismatch, rules = DJANGO_WORDS[lang]
    page = client.get("/accounts/signup/")
    assert rules in text_of(page)  # the password rules are listed under the field
    refused = client.post(
        "/accounts/signup/", {"username": "ada", "password1": "plum-orchard-42", "password2": "plum-orchard-43"}
    )
    assert refused.status_code == 400 and mismatch in text_of(refused)  # the form again, with what is wrong
