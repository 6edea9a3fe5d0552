"""Playing cards in templates: `{% card "QH" %}` draws one, `{{ "QH"|card_text }}` writes "Q♥".

static/js/replay.js builds the same markup in the browser; keep the two in step.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

SUITS = {"S": ("♠", "spades"), "H": ("♥", "hearts"), "D": ("♦", "diamonds"), "C": ("♣", "clubs")}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
COURT = {"J", "Q", "K"}


@register.filter
def card_text(card: str | None) -> str:
    """`"QH"` -> `"Q♥"`; the joker stays `"JK"`; no card is an em dash."""
    if not card:
        return "—"
    if card == "JK":
        return "JK"
    return card[:-1] + SUITS.get(card[-1], (card[-1], ""))[0]


def card_label(card: str) -> str:
    """The card read aloud: `"QH"` -> `"Queen of hearts"`, for screen readers."""
    if card == "JK":
        return "Joker"
    rank, suit = card[:-1], card[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUITS.get(suit, ('', suit))[1]}"


@register.simple_tag
def card(code: str, size: int | None = None) -> SafeString:
    """One face-up card as accessible HTML (an image with a spoken label)."""
    style = format_html(' style="--card-w:{}px"', size) if size else ""
    if code == "JK":
        return format_html(
            '<span class="pcard pcard--joker" role="img" aria-label="Joker"{}>'
            '<span class="pcard__corner pcard__corner--tl" aria-hidden="true"><span>JK</span></span>'
            '<span class="pcard__pip" aria-hidden="true">★</span>'
            '<span class="pcard__corner pcard__corner--br" aria-hidden="true"><span>JK</span></span></span>',
            style,
        )
    rank, suit = code[:-1], code[-1]
    symbol = SUITS.get(suit, (suit, ""))[0]
    classes = "pcard"
    if suit in "HD":
        classes += " pcard--red"
    if rank in COURT:
        classes += " pcard--court"
    centre = rank + symbol if rank in COURT else symbol
    corner = format_html("<span>{}</span><span>{}</span>", rank, symbol)
    return format_html(
        '<span class="{}" role="img" aria-label="{}"{}>'
        '<span class="pcard__corner pcard__corner--tl" aria-hidden="true">{}</span>'
        '<span class="pcard__pip" aria-hidden="true">{}</span>'
        '<span class="pcard__corner pcard__corner--br" aria-hidden="true">{}</span></span>',
        classes,
        card_label(code),
        style,
        corner,
        centre,
        corner,
    )
