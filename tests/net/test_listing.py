"""One table, one entry in every list (``rum500 list``, ``--json``, the lobby): after a
failover or a handoff the table's new host may be announced as ``Kitchen-2`` (the old
host's records still cached) beside the old ``Kitchen`` — same TXT ``id``. The list shows
it once, under the table's own name (TXT ``table``), at the host seen last."""

from __future__ import annotations

from zeroconf.asyncio import AsyncServiceInfo

from net.discovery import Listing, TableInfo, table_from_service
from net.protocol import SERVICE_TYPE

TABLE_ID = "3fa665586b75938c"


def announced(instance: str, address: str, port: int, table: str, table_id: str) -> TableInfo:
    """The TableInfo a browser makes of this announcement."""
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"{instance}.{SERVICE_TYPE}",
        port=port,
        properties={"v": "1", "table": table, "id": table_id, "seats": "3/4"},
        parsed_addresses=[address],
    )
    table_info = table_from_service(info)
    assert table_info is not None
    return table_info


def test_a_tables_name_is_its_own_not_the_service_instance_name() -> None:
    t = announced("Kitchen-2", "10.0.0.3", 40233, "Kitchen", TABLE_ID)
    assert (t.name, t.service) == ("Kitchen", f"Kitchen-2.{SERVICE_TYPE}")
    assert t.key == f"id {TABLE_ID}"


def test_after_a_failover_the_table_is_listed_once_at_its_new_host() -> None:
    listing = Listing()
    old = announced("Kitchen", "10.0.0.1", 5500, "Kitchen", TABLE_ID)
    new = announced("Kitchen-2", "10.0.0.3", 40233, "Kitchen", TABLE_ID)
    assert listing.see("added", old) == ("added", old)
    assert listing.see("added", new) == ("updated", new)  # not a second table
    assert listing.see("updated", old) is None  # the old one's records still live: hidden
    assert listing.see("removed", old) is None  # its goodbye (or its dead port) changes nothing
    assert [list(s) for s in listing.tables.values()] == [[new.service]]
    assert listing.see("removed", new) == ("removed", new)
    assert listing.tables == {}


def test_the_newest_host_gone_the_other_is_shown_again() -> None:
    listing = Listing()
    old = announced("Kitchen", "10.0.0.1", 5500, "Kitchen", TABLE_ID)
    new = announced("Kitchen-2", "10.0.0.3", 40233, "Kitchen", TABLE_ID)
    listing.see("added", old)
    listing.see("added", new)
    assert listing.see("removed", new) == ("updated", old)


def test_two_tables_of_one_name_are_two_entries() -> None:
    listing = Listing()
    a = announced("Kitchen", "10.0.0.1", 5500, "Kitchen", TABLE_ID)
    b = announced("Kitchen-2", "10.0.0.2", 5500, "Kitchen-2", "bbbbbbbbbbbbbbbb")
    assert listing.see("added", a) == ("added", a)
    assert listing.see("added", b) == ("added", b)
    assert len(listing.tables) == 2
