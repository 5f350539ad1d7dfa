"""The managed view of an app: every field iapkit manages, in App Store Connect's own terms, with the ids, the
history and App Store Connect's own bookkeeping (review states, version numbers) left out.

This is the oracle of the round-trip test: two apps whose managed views are equal hold the same catalog. It is
written from App Store Connect's data model, not from iapkit's records, so it checks iapkit rather than agreeing
with it. README.md ("The managed view") lists what is in it and what is not.
"""

from .reference import USD_BY_ID, decode_price_point, synthetic_price
from .resources.grace_periods import GRACE_DEFAULTS
from .resources.images import COMMITTED as IMAGE_COMMITTED
from .resources.offers import offer_price_point
from .resources.subscriptions import multi_seat_defaults
from .resources.win_back_offers import LAPSED, PAID, WAIT


def customer_price(point_id):
    d = decode_price_point(point_id) if point_id else None
    if d is None:
        return None
    return canonical(synthetic_price(d["t"], USD_BY_ID[int(d["p"])]))


def canonical(text):
    """`14.90` and `14.9` are one price."""
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def dated(prices, today, extra=None):
    """{"today": {territory: price}, "scheduled": {date: {territory: price or [price, extra]}}}: each territory's latest
    price up to `today`, and the ones after it. The history before today is App Store Connect's, not managed."""
    current, scheduled = {}, {}
    for territory, start, price, more in sorted(prices, key=lambda p: (p[1] or "")):
        if start is None or start <= today:
            current[territory] = price
        else:
            scheduled.setdefault(start, {})[territory] = [price, more] if extra else price
    return {"today": current, "scheduled": scheduled}


class ManagedView:
    """Mixin of the service: `managed_view(app)`."""

    def latest_localizations(self, owner, fields):
        versions = self.store.kid_recs(owner, "versions")
        if not versions:
            return {}
        out = {}
        for loc in self.store.kid_recs(versions[-1], "localizations"):
            a = loc["attributes"]
            out[a["locale"]] = {f: (a.get(f) or None) for f in fields}
        return out

    def availability_view(self, rec):
        if rec is None:
            return None
        territories = sorted(t["id"] for t in rec["rels"].get("availableTerritories", {}).get("data") or [])
        new = bool(rec["attributes"].get("availableInNewTerritories"))
        # Never set, and set to nowhere without new territories, are one state: sold nowhere.
        return None if not territories and not new else {"territories": territories, "newTerritories": new}

    def legacy_availability_view(self):
        """An in-app purchase made before 2023 is sold by the retired all-territories setting: everywhere, new
        territories too."""
        return {"territories": sorted(self.territory_codes()), "newTerritories": True}

    def screenshot_view(self, owner):
        shot = self.store.slot(owner, "screenshot")
        if shot is None or shot["attributes"]["assetDeliveryState"]["state"] != "COMPLETE":
            return None  # a reservation never uploaded, or a failed upload, is no screenshot
        return (shot["attributes"].get("sourceFileChecksum") or "").lower()

    def image_view(self, owner):
        """The MD5 of the product's committed promotional image; a reservation never uploaded or a failed image is
        none."""
        image = self.image_of(owner)
        if image is None or image["attributes"]["state"] not in IMAGE_COMMITTED:
            return None
        return image.get("checksum")

    def iap_prices(self, iap, today):
        schedule = self.store.slot(iap, "priceSchedule")
        if schedule is None:
            return None
        prices = [(self.territory_of(p), p["attributes"].get("startDate"),
                   customer_price(p["rels"]["inAppPurchasePricePoint"]["data"]["id"]), None)
                  for p in self.store.kid_recs(schedule, "manualPrices")]
        return dict(dated(prices, today), baseTerritory=schedule["rels"]["baseTerritory"]["data"]["id"])

    def subscription_prices(self, sub, today):
        plans = {}
        for p in self.store.kid_recs(sub, "prices"):
            a = p["attributes"]
            plans.setdefault(a.get("planType") or "UPFRONT", []).append(
                (self.territory_of(p), a.get("startDate"),
                 customer_price(p["rels"]["subscriptionPricePoint"]["data"]["id"]), bool(a.get("preserved"))))
        return {plan: dated(prices, today, extra=True) for plan, prices in plans.items()}

    def offer_terms(self, a, periods="numberOfPeriods"):
        return {"mode": a.get("offerMode"), "duration": a.get("duration"), "periods": a.get(periods)}

    @staticmethod
    def win_back_terms(a, today):
        """Eligibility, schedule, priority and promotion. A start on or before today shows as null: the offer has
        started, which is the same catalog state as starting today, and a past start can't be pushed anew."""
        lapsed = a.get(LAPSED) or {}
        start = a.get("startDate")
        return {PAID: a.get(PAID), LAPSED: {"minimum": lapsed.get("minimum"), "maximum": lapsed.get("maximum")},
                WAIT: a.get(WAIT), "startDate": start if start and start > today else None,
                "endDate": a.get("endDate"), "priority": a.get("priority"),
                "promotionIntent": a.get("promotionIntent") or "NOT_PROMOTED"}

    def priced_offers(self, sub, kids, key, extra=(), today=None):
        out = {}
        for offer in self.store.kid_recs(sub, kids):
            a = offer["attributes"]
            view = self.offer_terms(a, "periodCount" if kids == "winBackOffers" else "numberOfPeriods")
            view["name"] = a.get("name") or a.get("referenceName")
            for field in extra:
                value = a.get(field)
                view[field] = sorted(value) if isinstance(value, list) else value
            if kids == "winBackOffers":
                view.update(self.win_back_terms(a, today))
            if kids == "offerCodes":
                view.update(self.offer_code_codes_view(offer))
            view["prices"] = self.offer_prices_view(offer)
            out[a[key]] = view
        return out

    def offer_prices_view(self, offer):
        """{territory: customer price} of an offer (of a subscription or an in-app purchase); a free trial's is null."""
        return {self.territory_of(p): customer_price(offer_price_point(p)) for p in self.store.kid_recs(offer, "prices")}

    def iap_offer_codes_view(self, iap):
        """An in-app purchase's offer codes by name: who may redeem them, each territory's price, and their codes."""
        out = {}
        for offer in self.store.kid_recs(iap, "offerCodes"):
            a = offer["attributes"]
            out[a["name"]] = dict({"customerEligibilities": sorted(a["customerEligibilities"]),
                                   "prices": self.offer_prices_view(offer)}, **self.offer_code_codes_view(offer))
        return out

    def subscription_view(self, sub, today):
        a = sub["attributes"]
        intro = {}
        for offer in self.store.kid_recs(sub, "introductoryOffers"):
            o = offer["attributes"]
            plan = o.get("targetSubscriptionPlanType") or "UPFRONT"
            intro.setdefault(plan, {})[self.territory_of(offer)] = dict(
                self.offer_terms(o), price=customer_price((offer["rels"].get("subscriptionPricePoint") or {})
                                                          .get("data", {}).get("id")))
        availability = {}
        for plan in self.store.kid_recs(sub, "planAvailabilities"):
            view = self.availability_view(plan)
            if view is not None:
                availability[plan["attributes"]["planType"]] = view
        return {"name": a["name"], "period": a.get("subscriptionPeriod"), "groupLevel": a.get("groupLevel"),
                "familySharable": bool(a.get("familySharable")), "reviewNote": a.get("reviewNote") or None,
                **self.multi_seat_view(a),
                "localizations": self.latest_localizations(sub, ("name", "description")),
                "availability": availability, "prices": self.subscription_prices(sub, today),
                "introductoryOffers": intro,
                "promotionalOffers": self.priced_offers(sub, "promotionalOffers", "offerCode"),
                "offerCodes": self.priced_offers(sub, "offerCodes", "name",
                                                 ("customerEligibilities", "offerEligibility")),
                "winBackOffers": self.priced_offers(sub, "winBackOffers", "offerId", today=today),
                "screenshot": self.screenshot_view(sub), "image": self.image_view(sub)}

    @staticmethod
    def multi_seat_view(a):
        """API 4.5's multiseat status and markets (sorted). A subscription made before 4.5 answers `null` for them:
        it shows what a catalog that names none pushes, the values of a subscription made now (as a purchase made
        before 2023 shows the availability its retired attribute means)."""
        made_now = multi_seat_defaults(bool(a.get("familySharable")))
        status, markets = a.get("multiSeatStatus"), a.get("marketSettings")
        return {"multiSeatStatus": status if status is not None else made_now["multiSeatStatus"],
                "marketSettings": sorted(markets if markets is not None else made_now["marketSettings"])}

    def managed_view(self, app, deactivated=True):
        """The app's managed view; without the `deactivated` codes (offer codes, batches and custom codes App Store
        Connect keeps turned off, as history): what a push of the app's catalog makes in another app."""
        today = self.today()
        iaps = {}
        for iap in self.store.kid_recs(app, "inAppPurchases"):
            a = iap["attributes"]
            iaps[a["productId"]] = {
                "name": a["name"], "type": a["inAppPurchaseType"], "familySharable": bool(a.get("familySharable")),
                "reviewNote": a.get("reviewNote") or None,
                "localizations": self.latest_localizations(iap, ("name", "description")),
                "availability": self.legacy_availability_view() if iap.get("_legacy")
                else self.availability_view(self.store.slot(iap, "availability")),
                "prices": self.iap_prices(iap, today), "screenshot": self.screenshot_view(iap),
                "image": self.image_view(iap), "offerCodes": self.iap_offer_codes_view(iap)}
        groups = {}
        for group in self.store.kid_recs(app, "subscriptionGroups"):
            groups[group["attributes"]["referenceName"]] = {
                "localizations": self.latest_localizations(group, ("name", "customAppName")),
                "subscriptions": {s["attributes"]["productId"]: self.subscription_view(s, today)
                                  for s in self.store.kid_recs(group, "subscriptions")}}
        grace = self.grace_period(app)["attributes"]
        promoted = []
        for rec in self.promoted_purchases(app):
            product = self.promoted_product(rec)
            a = rec["attributes"]
            # `state` is App Store Connect's review bookkeeping, not managed.
            promoted.append({"productId": product["attributes"]["productId"] if product else None,
                             "visibleForAllUsers": bool(a.get("visibleForAllUsers")), "enabled": bool(a.get("enabled"))})
        if not deactivated:
            for product in list(iaps.values()) + [s for g in groups.values() for s in g["subscriptions"].values()]:
                product["offerCodes"] = self.active_codes_only(product["offerCodes"])
        return {"inAppPurchases": iaps, "subscriptionGroups": groups,
                "subscriptionGracePeriod": {k: grace.get(k) for k in GRACE_DEFAULTS},
                "promotedPurchases": promoted}

    @staticmethod
    def active_codes_only(offer_codes):
        """Offer codes' views without the deactivated ones, nor their deactivated batches and custom codes."""
        return {name: dict(view, oneTimeUseCodes=[b for b in view["oneTimeUseCodes"] if b["active"]],
                           customCodes=[c for c in view["customCodes"] if c["active"]])
                for name, view in offer_codes.items() if view["active"]}
