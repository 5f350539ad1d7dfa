"""The log of API requests and upload PUTs that `GET /__fake/requests` answers, with a count per operation that
survives the log's cap (benchmarks count requests per operation and per product from it)."""

import collections

MAX_ENTRIES = 200000  # beyond this the oldest entries are dropped (and counted in `dropped`)


class RequestLog:
    def __init__(self):
        self.clear()

    def add(self, entry):
        self.entries.append(entry)
        self.by_operation[entry.get("operation") or "unrouted"] += 1
        if len(self.entries) > MAX_ENTRIES:
            del self.entries[:len(self.entries) - MAX_ENTRIES]
            self.dropped += 1

    def clear(self):
        self.entries = []
        self.by_operation = collections.Counter()
        self.dropped = 0

    def document(self):
        return {"requests": self.entries, "byOperation": dict(self.by_operation), "dropped": self.dropped}
