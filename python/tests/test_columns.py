"""Column helpers (no pandas needed)."""

from __future__ import annotations

from mediaparse import MAIN_FIELDS, main_slots, slot


def test_slot_lookup() -> None:
    result = {"intent": "INAddMediaIntent", "mediaSearch": {"mediaName": "x", "releaseDate": {"start": "1970-01-01"}},
              "mediaDestination": {"playlistName": "road trip"}}
    assert slot(result, "mediaName") == "x"
    assert slot(result, "mediaDestination.playlistName") == "road trip"
    assert slot(result, "mediaSearch.releaseDate.start") == "1970-01-01"
    assert slot(result, "artistName") is None and slot(result, "target.area") is None
    assert main_slots(result)["intent"] == "INAddMediaIntent"
    assert list(main_slots(result)) == list(MAIN_FIELDS)
    assert main_slots(result, ["mediaName", "affinityType"]) == {"mediaName": "x", "affinityType": None}
