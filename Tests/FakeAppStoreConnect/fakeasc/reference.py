"""Reference data the fake serves: App Store Connect's USD price grid, its locales, storefront territories, and
the deterministic synthetic prices of the other territories. Price point ids are opaque and product-specific like
Apple's: base64url of `{"s": product id, "t": territory, "p": point number}`."""

import functools
import hashlib
import json
import os

from .core.encoding import b64url, b64url_decode
from .territories import CODES as TERRITORY_CODES, CURRENCY  # noqa: F401  (re-exported for the resources)

# The data files stay beside fake_asc.py, where scripts/codegen/generate-reference-data.py writes them.
DATA_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZERO_DECIMAL = {"CLP", "COP", "HUF", "IDR", "INR", "JPY", "KRW", "KZT", "NGN", "PKR", "TWD", "TZS", "VND"}


def load_json(name):
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as f:
        return json.load(f)


USD_POINTS = [(p["id"], p["usd"]) for p in load_json("usd-price-points.json")["points"]]
USD_BY_ID = dict(USD_POINTS)
LOCALES = set(load_json("locales.json")["locales"])
FREE_POINT = 10000


# A few currencies priced the way the App Store prices them (whole rupees ending in 9, yen in tens, reais ending in
# .90), so catalogs can name real-looking territory prices; the rest use a synthetic factor.
STOREFRONT_PRICES = {
    "INR": lambda usd: "%d" % (int(round(usd * 85)) // 10 * 10 + 9),
    "JPY": lambda usd: "%d" % (int(round(usd * 15)) * 10),
    "BRL": lambda usd: "%d.90" % int(usd * 5.5),
}


# Pure, and asked for again on every page of points: cached, they were a tenth of the fake's time in a round trip.
@functools.lru_cache(maxsize=None)
def synthetic_price(territory, usd):
    """Deterministic local price for a USD point: a per-territory factor, rounded to the currency's precision."""
    if territory == "USA":
        return usd
    cents = int(round(float(usd) * 100))
    if cents == 0:
        return "0.0"
    if CURRENCY[territory] in STOREFRONT_PRICES:
        return STOREFRONT_PRICES[CURRENCY[territory]](float(usd))
    factor = 0.6 + (int(hashlib.sha256(territory.encode()).hexdigest()[:6], 16) % 1000) / 1000.0
    if CURRENCY[territory] in ZERO_DECIMAL:
        return "%d" % round(cents * factor * 1.5)
    return "%.2f" % (cents * factor / 100.0)


def proceeds(price, share=0.7):
    return "%.2f" % (float(price) * share)


def ref(type_, id_):
    return {"type": type_, "id": id_}


@functools.lru_cache(maxsize=1 << 16)
def price_point_id(owner, territory, number):
    return b64url(json.dumps({"s": owner, "t": territory, "p": str(number)}, separators=(",", ":")).encode())


def decode_price_point(id_):
    try:
        d = json.loads(b64url_decode(id_))
        if set(d) == {"s", "t", "p"} and d["t"] in CURRENCY and int(d["p"]) in USD_BY_ID:
            return d
    except Exception:
        pass
    return None


def point_rec(type_, owner, territory, number):
    """A price point record, built on demand (points are never stored)."""
    price = synthetic_price(territory, USD_BY_ID[number])
    attrs = {"customerPrice": price, "proceeds": proceeds(price)}
    if type_ == "subscriptionPricePoints":
        attrs["proceedsYear2"] = proceeds(price, 0.85)
    return {"type": type_, "id": price_point_id(owner, territory, number), "attributes": attrs,
            "rels": {"territory": {"data": ref("territories", territory)}}, "virtual": True}


class Points:
    """A lazily built list of price points (territories x grid), so a page never materialises 140,000 points."""

    def __init__(self, type_, owner, territories, numbers):
        self.type, self.owner, self.territories, self.numbers = type_, owner, territories, numbers

    def __len__(self):
        return len(self.territories) * len(self.numbers)

    def __getitem__(self, sl):
        n = len(self.numbers)
        return [point_rec(self.type, self.owner, self.territories[i // n], self.numbers[i % n])
                for i in range(*sl.indices(len(self)))]
