"""The practice form: a ruleset of speed-table/1 and how good the bots are."""

from __future__ import annotations

from django import forms

from play.bots import BOT_LABELS
from play.services import practice_rulesets
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
