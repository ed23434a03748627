"""Every tie-break of an event's system is shown by its name in the chat's language: each of
them in a row of text, the picture's columns explained by its legend and the rest named in
the order ties go by; ``tournament rules`` gives each abbreviation beside its full name."""

from __future__ import annotations

import re

import pytest

from bot.i18n import LANGUAGES, Catalog
from bot.services.tournaments import picture, present
from bot.services.tournaments.present import texts
from bot.tournaments.tiebreaks import TIEBREAKS, Row, System

CATALOG = Catalog.load()
VALUES = {"buchholz_cut1": 9.5, "buchholz": 11.0, "sonneborn_berger": 7.25, "direct_encounter": 1.0, "wins": 3.0,
          "koya": 2.5, "performance": 1712.0}
SYSTEMS: tuple[System, ...] = ("swiss", "roundrobin", "arena")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("system", SYSTEMS)
def test_a_row_of_text_shows_every_tiebreak_of_the_system_by_its_local_name(language: str, system: System) -> None:
    t = texts(CATALOG, language)
    row = Row(1, 1, "ann", 3.5, {name: VALUES[name] for name in TIEBREAKS[system]})
    line = present.standings_text(t, 7, [row], system, round_number=4).splitlines()[1]
    where = [line.index(t(f"tournament.tiebreak.{name}")) for name in TIEBREAKS[system]]
    assert where == sorted(where), line  # in the order ties are broken by


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_give_each_abbreviation_beside_its_name(language: str) -> None:
    for name in {n for system in SYSTEMS for n in TIEBREAKS[system]}:
        short = CATALOG.text(language, f"tournament.tiebreak.{name}")
        how = CATALOG.text(language, f"tournament.tiebreak.{name}.how")
        named = re.split(r"[:：៖]", how, maxsplit=1)[0]
        assert short in named, (language, name, short, named)
        if language in ("ja", "km", "th") and name in ("koya", "performance"):
            assert short not in ("Koya", "Perf"), (language, name)  # in the language, not in English


def test_thai_wins_has_its_abbreviation_in_the_rules() -> None:
    assert CATALOG.text("th", "tournament.tiebreak.wins.how").startswith("จำนวนชนะ (ชนะ):")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_picture_names_the_order_of_the_tiebreaks_it_has_no_column_for(language: str) -> None:
    t = texts(CATALOG, language)
    swiss = picture.order_line(t, TIEBREAKS["swiss"])
    for n, name in enumerate(TIEBREAKS["swiss"]):
        shown = t(f"tournament.tiebreak.{name}") if n < picture.COLUMNS else \
            picture._name(t(f"tournament.tiebreak.{name}.how"))
        assert shown in swiss, (language, name, swiss)
    assert picture.COLUMNS == 3 and str(picture.COLUMNS) in swiss
