"""The check of play that knows too much after the close (``services.playcheck``; issue 33
item 2): the screen chooses the entries with decisions of their own, the check flags the
entrant who used the deal and not the honest one, with the telling decisions in words."""

from __future__ import annotations

import pytest
from playcheck_helpers import field

from tournaments.models import Entry, EntryFlag, PlayCheck
from tournaments.services import closing as closing_services
from tournaments.services import playcheck


@pytest.mark.django_db
def test_the_close_screens_and_the_check_flags_the_entrant_who_knew_the_deal() -> None:
    t, entries = field()
    closing_services.tournament_close(tournament_id=t.pk)
    chosen = playcheck.tournament_play_screen(tournament_id=t.pk)
    # only the entries with decisions of their own (the one who only joined has none)
    assert set(chosen) == {entries["valsspeler"].pk, entries["eerlijk"].pk}
    pending = PlayCheck.objects.get(entry=entries["valsspeler"])
    assert pending.status == PlayCheck.Status.PENDING and "leading" in pending.reasons
    # screened again: nothing new
    assert playcheck.tournament_play_screen(tournament_id=t.pk) == []

    cheat = playcheck.entry_play_check(entry_id=entries["valsspeler"].pk)
    honest = playcheck.entry_play_check(entry_id=entries["eerlijk"].pk)
    assert cheat is not None and honest is not None
    assert cheat.status == honest.status == PlayCheck.Status.DONE
    assert cheat.flagged and cheat.figure is not None and cheat.figure >= 3
    assert cheat.telling_count == cheat.opportunities > 0
    assert not honest.flagged and honest.figure is not None and honest.figure < 3
    assert honest.decisions > 0
    # the flag, with the telling decisions in words, Dutch and English
    flag = EntryFlag.objects.get(entry=entries["valsspeler"], kind=EntryFlag.Kind.PLAY)
    nl, en = flag.reason
    assert nl.startswith("Spel dat te veel weet") and en.startswith("Play that knows too much")
    words = flag.evidence["words"]
    assert words[0][0].startswith("Deze inschrijving: ") and words[0][1].startswith("This entry")
    assert words[2][0].startswith("Ronde ") and words[2][1].startswith("Round ")
    assert len(words) == 2 + min(playcheck.QUOTED, cheat.telling_count)
    assert flag.evidence["counts"]["telling"] == cheat.telling_count
    assert flag.evidence["figure"] == cheat.figure
    assert Entry.objects.get(pk=entries["valsspeler"].pk).under_review
    assert not EntryFlag.objects.filter(entry=entries["eerlijk"]).exists()
    assert not Entry.objects.get(pk=entries["eerlijk"].pk).under_review
    # a check done is kept
    again = playcheck.entry_play_check(entry_id=entries["valsspeler"].pk)
    assert again is not None and again.checked_at == cheat.checked_at
