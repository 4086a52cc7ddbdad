"""The one MetaData that migrations are compared against: the records plus the embedded live store table."""

from service.store.live.sql import define_live_entries
from service.store.records.models import Base
from service.store.records import clocks  # noqa: F401  (its tables are part of the records)

metadata = Base.metadata
live_entries = define_live_entries(metadata)
