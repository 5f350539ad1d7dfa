"""App Store Connect's request budget: per API key (the token's `kid`), counted over a rolling window (an hour by
default), reported on every response as `X-Rate-Limit: user-hour-lim:LIMIT;user-hour-rem:REMAINING;`.

Requests are counted in one-second buckets, so the memory a key needs is bounded by the window's length in seconds,
whatever the limit. Refused (429) requests are not counted: they don't push the window further out.
"""

import collections
import math


class RateBudget:
    def __init__(self, limit=3600, window=3600):
        self.limit, self.window = limit, window
        self.used = {}  # key id -> deque of [second, requests]

    def _bucket(self, kid, now):
        q = self.used.setdefault(kid, collections.deque())
        while q and q[0][0] <= now - self.window:  # bounded: each pass drops one bucket
            q.popleft()
        return q

    def remaining(self, kid, now):
        return max(self.limit - sum(n for _, n in self._bucket(kid, now)), 0)

    def take(self, kid, now):
        """Counts one request of `kid`; returns (allowed, remaining after it)."""
        q = self._bucket(kid, now)
        used = sum(n for _, n in q)
        if used >= self.limit:
            return False, 0
        second = int(now)
        if q and q[-1][0] == second:
            q[-1][1] += 1
        else:
            q.append([second, 1])
        return True, self.limit - used - 1

    def retry_after(self, kid, now):
        """Seconds until the oldest counted requests of `kid` leave the window."""
        q = self._bucket(kid, now)
        return max(1, int(math.ceil(q[0][0] + self.window - now))) if q else 1

    def set_remaining(self, remaining, kids, now):
        """As if `limit - remaining` requests of each key had just been made."""
        for kid in kids:
            spent = max(self.limit - remaining, 0)
            self.used[kid] = collections.deque([[int(now), spent]] if spent else [])

    def forget(self):
        self.used = {}

    def header(self, kid, now):
        return "user-hour-lim:%d;user-hour-rem:%d;" % (self.limit, self.remaining(kid, now))
