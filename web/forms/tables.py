"""The play page's forms: practice (a ruleset and how good the bots are) and a game posted in the lobby."""

from __future__ import annotations

from django import forms

from play.bots import BOT_LABELS
from play.services import practice_rulesets, seek_rulesets
from speedrules import PRESETS


class PracticeForm(forms.Form):
    ruleset = forms.ChoiceField(
        choices=[(name, name.replace("-", " ").capitalize()) for name in practice_rulesets()],
        initial="speed",
        label="Ruleset",
    )
    level = forms.ChoiceField(
        choices=list(BOT_LABELS.items()), initial="medium", label="Bots", widget=forms.RadioSelect
    )

    def bots(self) -> list[str]:
        """One bot per other seat of the ruleset, all of the chosen level."""
        return [self.cleaned_data["level"]] * (PRESETS[self.cleaned_data["ruleset"]].players - 1)


class SeekForm(forms.Form):
    """A game posted in the lobby: a two-seat ruleset, rated or casual (its fields prefixed: the page has two forms)."""

    prefix = "seek"

    ruleset = forms.ChoiceField(
        choices=[(name, name.replace("-", " ").capitalize()) for name in seek_rulesets()],
        initial="speed",
        label="Ruleset",
    )
    kind = forms.ChoiceField(
        choices=(("rated", "Rated: the result moves both ratings"), ("casual", "Casual: ratings stay as they are")),
        initial="rated",
        label="Game",
        widget=forms.RadioSelect,
    )

    def rated(self) -> bool:
        return bool(self.cleaned_data["kind"] == "rated")
