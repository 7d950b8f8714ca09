"""Non-text cues pass 3:1 on what they sit on (WCAG 1.4.11; issue 26): the colours are read
from static/games/site.css and the contrast ratio computed as WCAG defines it."""

from __future__ import annotations

import re
from pathlib import Path

CSS = (Path(__file__).resolve().parents[2] / "static/games/site.css").read_text()


def colour(name: str, block: str = CSS) -> str:
    """The first value of custom property ``--name`` in ``block`` (the light theme's, first)."""
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", block).group(1)


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_in_place_frame_the_hint_on_a_gap_and_the_header_ring_pass_three_to_one():
    assert ".card.locked { background: var(--settled); box-shadow: inset 0 0 0 max(2px" in CSS
    assert contrast(colour("locked-edge"), colour("paper")) >= 3
    assert contrast(colour("locked-edge"), colour("settled")) >= 3
    assert "hint-to { outline: max(3px, 0.6cqi) dashed #ffffff" in CSS
    assert contrast("#ffffff", colour("felt")) >= 3
    assert ".site-header :focus-visible, .skip-link:focus-visible { outline-color: var(--focus-halo); }" in CSS
    assert contrast(colour("focus-halo"), colour("felt-dark")) >= 3
    # The dark theme's paper and frame, too.
    dark = CSS[CSS.index('[data-theme="dark"]') :]
    assert contrast(colour("locked-edge", dark), colour("paper", dark)) >= 3
