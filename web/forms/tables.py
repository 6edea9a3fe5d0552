"""The practice form: a ruleset of speed-table/1 and how good the bots are."""

from __future__ import annotations

from django import forms

from speedrules import PRESETS

#: The presets a table plays: speed-table/1 covers two to four seats playing alone (not the extension's games).
TABLE_PRESETS: tuple[str, ...] = tuple(
    name for name, rules in PRESETS.items() if 2 <= rules.players <= 4 and not rules.teams and not rules.tableau
)
LEVELS = (("easy", "Easy: slow hands"), ("medium", "Medium"), ("hard", "Hard: quick hands"))


class PracticeForm(forms.Form):
    ruleset = forms.ChoiceField(
        choices=[(name, name.replace("-", " ").capitalize()) for name in TABLE_PRESETS],
        initial="speed",
        label="Ruleset",
    )
    level = forms.ChoiceField(choices=LEVELS, initial="medium", label="Bots", widget=forms.RadioSelect)

    def bots(self) -> list[str]:
        """One bot per other seat of the ruleset, all of the chosen level."""
        return [self.cleaned_data["level"]] * (PRESETS[self.cleaned_data["ruleset"]].players - 1)
