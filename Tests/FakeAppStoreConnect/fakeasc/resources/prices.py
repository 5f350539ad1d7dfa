"""Price points (the USD grid and its synthetic equivalents in every territory), equalizations, and subscription
prices."""

import datetime

from ..core.errors import ApiError, entity_error, not_found, parameter_error
from ..reference import CURRENCY, FREE_POINT, USD_POINTS, Points, decode_price_point, ref

ROUTES = [
    ("GET", "/v2/inAppPurchases/{id}/pricePoints", "inAppPurchasesV2_pricePoints_getToManyRelated", "get_price_points"),
    ("GET", "/v1/subscriptions/{id}/pricePoints", "subscriptions_pricePoints_getToManyRelated", "get_price_points"),
    ("GET", "/v1/subscriptionPricePoints/{id}/equalizations", "subscriptionPricePoints_equalizations_getToManyRelated",
     "get_equalizations"),
    ("GET", "/v1/inAppPurchasePricePoints/{id}/equalizations", "inAppPurchasePricePoints_equalizations_getToManyRelated",
     "get_equalizations"),
    ("GET", "/v1/subscriptions/{id}/prices", "subscriptions_prices_getToManyRelated", "get_kids"),
    ("POST", "/v1/subscriptionPrices", "subscriptionPrices_createInstance", "create_subscription_price"),
    ("DELETE", "/v1/subscriptionPrices/{id}", "subscriptionPrices_deleteInstance", "delete_subscription_price"),
]


class Prices:
    def get_price_points(self, c):
        if c.op.startswith("inAppPurchases"):
            owner, type_ = self.store.need("inAppPurchases", c.id), "inAppPurchasePricePoints"
            numbers = [n for n, _ in USD_POINTS]
        else:
            owner, type_ = self.store.need("subscriptions", c.id), "subscriptionPricePoints"
            numbers = [n for n, _ in USD_POINTS if n != FREE_POINT]  # subscriptions can't be free
        territories = self.territory_codes()
        if "filter[territory]" in c.q:
            wanted = set(c.q["filter[territory]"].split(","))
            unknown = wanted - set(CURRENCY)
            if unknown:
                raise parameter_error("unknown territory %s" % ", ".join(sorted(unknown)), "filter[territory]")
            territories = [t for t in self.territory_codes() if t in wanted]
        return 200, self.page(Points(type_, owner["id"], territories, numbers), c.q, c.path)

    def get_equalizations(self, c):
        """The same point number in every other territory: a subscription's or an in-app purchase's."""
        owner_type, type_, what = (("inAppPurchases", "inAppPurchasePricePoints", "in-app purchase")
                                   if c.op.startswith("inAppPurchase") else
                                   ("subscriptions", "subscriptionPricePoints", "subscription"))
        d = decode_price_point(c.id)
        if d is None or self.store.get(owner_type, d["s"]) is None:
            raise not_found("There is no %s price point with id '%s'" % (what, c.id))
        territories = [t for t in self.territory_codes() if t != d["t"]]
        if "filter[territory]" in c.q:
            wanted = set(c.q["filter[territory]"].split(","))
            territories = [t for t in territories if t in wanted]
        return 200, self.page(Points(type_, d["s"], territories, [int(d["p"])]), c.q, c.path)

    def priced_point(self, owner, rels, pointer, point_rel="subscriptionPricePoint",
                     point_type="subscriptionPricePoints"):
        """Checks a (territory, price point) pair against the product owning the points (a subscription's
        `subscriptionPricePoint`, or an in-app purchase's, named `point_rel`); returns (territory, point id).
        `pointer` is the JSON pointer of the relationships object, for errors."""
        point = ((rels.get(point_rel) or {}).get("data") or {}).get("id")
        t_ref = ((rels.get("territory") or {}).get("data") or {}).get("id")
        if t_ref is not None and t_ref not in CURRENCY:
            raise not_found("There is no territory '%s'" % t_ref, pointer + "/territory")
        if point is None:
            return t_ref, None
        d = self.owned_point(point, owner, point_type, pointer + "/" + point_rel)
        if t_ref is not None and t_ref != d["t"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The price point is for %s, not %s" % (d["t"], t_ref), pointer + "/territory")
        return d["t"], point

    def create_subscription_price(self, c):
        data = c.body["data"]
        sub = self.related_need(data, "subscription", "subscriptions")
        price = self.plan_subscription_price(sub, data, "/data")
        if self.settings["firstPriceByPostFails"] and not self.store.kid_ids(sub, "prices"):
            # As reported of App Store Connect: a subscription's first prices only come through the inline creates
            # of PATCH /v1/subscriptions; this POST fails without creating anything.
            raise ApiError(500, "UNEXPECTED_ERROR", "An unexpected error occurred on the server side.",
                           "The subscription has no price yet; set its first prices with PATCH /v1/subscriptions/%s "
                           "and included subscriptionPrices" % sub["id"])
        rec = self.commit_subscription_price(sub, price)
        self.metadata_changed(sub)
        return self.created(rec, c)

    def plan_subscription_price(self, sub, item, base):
        """Checks a subscription price, standalone (`base` /data) or inline (/included/N), changing nothing."""
        a = item.get("attributes") or {}
        territory, point = self.priced_point(sub, item.get("relationships") or {}, base + "/relationships")
        if point is None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED", "A price needs a price point",
                               base + "/relationships/subscriptionPricePoint")
        self.check_start_date(a.get("startDate"), base + "/attributes/startDate")
        # The standard plan bills the whole period up front; MONTHLY is the 12-month commitment paid monthly.
        return {"territory": territory, "point": point, "startDate": a.get("startDate"),
                "planType": a.get("planType") or "UPFRONT", "preserved": bool(a.get("preserveCurrentPrice"))}

    def today(self):
        return self.settings.get("today") or datetime.datetime.now(datetime.timezone.utc).date().isoformat()

    def check_future_day(self, text, name, pointer):
        """`text` (a price's `name` date) must be a real day after today; None passes."""
        if text is None:
            return
        try:
            day = datetime.date.fromisoformat(text)
        except (TypeError, ValueError):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "%s must be a date (YYYY-MM-DD)" % name, pointer)
        if day.isoformat() <= self.today():
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "%s %s is not in the future (today is %s)" % (name, text, self.today()), pointer)

    def check_start_date(self, start, pointer):
        """A price with a start date is a scheduled change: the date must be a real day after today."""
        self.check_future_day(start, "startDate", pointer)

    def check_end_date(self, attrs, pointer):
        """A price with an end date is a sale: the end is a real day after today and after the sale's start."""
        end = attrs.get("endDate")
        self.check_future_day(end, "endDate", pointer)
        if end is not None and attrs.get("startDate") is not None and end <= attrs["startDate"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "endDate %s is not after startDate %s" % (end, attrs["startDate"]), pointer)

    @staticmethod
    def sales_overlap(a, b):
        """Whether two prices with end dates (sales) share a day; a price without an end is no sale."""
        if a.get("endDate") is None or b.get("endDate") is None:
            return False
        return (a.get("startDate") or "") < b["endDate"] and (b.get("startDate") or "") < a["endDate"]

    def delete_subscription_price(self, c):
        rec = self.store.need("subscriptionPrices", c.id)
        start = rec["attributes"].get("startDate")
        if start is None or start <= self.today():
            raise ApiError(409, "ENTITY_ERROR", "A price that has started cannot be deleted",
                           "Only a scheduled price (one whose startDate is after today) can be deleted")
        sub = self.store.parent(rec)
        self.store.remove(rec)
        self.metadata_changed(sub)
        return 204, None

    def commit_subscription_price(self, sub, p):
        for old in self.store.kid_recs(sub, "prices"):
            if (self.territory_of(old), old["attributes"].get("startDate"), old["attributes"].get("planType")) == \
                    (p["territory"], p["startDate"], p["planType"]):
                self.store.remove(old)  # same territory, start date and plan: the new price replaces it
        return self.new_subscription_price(sub, p["territory"], p["point"], p["startDate"], p["planType"],
                                           p["preserved"])

    def new_subscription_price(self, sub, territory, point, start=None, plan="UPFRONT", preserved=False):
        rec = {"type": "subscriptionPrices", "id": self.store.new_id(False),
               "attributes": {"startDate": start, "preserved": preserved, "planType": plan},
               "rels": {"territory": {"data": ref("territories", territory)},
                        "subscriptionPricePoint": {"data": ref("subscriptionPricePoints", point)}}}
        return self.store.add_kid(sub, "prices", rec)
