"""Subscription offers: introductory offers, promotional offers, offer codes and win-back offers, with their
per-territory prices (which in-app purchases' offer codes share)."""

from ..core.errors import entity_error, not_found, state_error
from ..reference import ref
from .offer_codes import OFFER_CODE_FAMILIES
from .product_states import APPROVED_OR_LATER

ROUTES = [
    ("GET", "/v1/subscriptions/{id}/introductoryOffers", "subscriptions_introductoryOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/promotionalOffers", "subscriptions_promotionalOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionPromotionalOffers/{id}/prices", "subscriptionPromotionalOffers_prices_getToManyRelated",
     "get_kids"),
    ("GET", "/v1/subscriptions/{id}/offerCodes", "subscriptions_offerCodes_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/winBackOffers", "subscriptions_winBackOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/winBackOffers/{id}/prices", "winBackOffers_prices_getToManyRelated", "get_kids"),
    ("POST", "/v1/subscriptionIntroductoryOffers", "subscriptionIntroductoryOffers_createInstance", "create_intro_offer"),
    ("DELETE", "/v1/subscriptionIntroductoryOffers/{id}", "subscriptionIntroductoryOffers_deleteInstance",
     "delete_plain"),
    ("DELETE", "/v1/subscriptions/{id}/relationships/introductoryOffers",
     "subscriptions_introductoryOffers_deleteToManyRelationship", "delete_intro_offer_links"),
    ("POST", "/v1/subscriptionPromotionalOffers", "subscriptionPromotionalOffers_createInstance", "create_priced_offer"),
    ("PATCH", "/v1/subscriptionPromotionalOffers/{id}", "subscriptionPromotionalOffers_updateInstance",
     "update_promotional_offer"),
    ("DELETE", "/v1/subscriptionPromotionalOffers/{id}", "subscriptionPromotionalOffers_deleteInstance",
     "delete_plain"),
    ("POST", "/v1/subscriptionOfferCodes", "subscriptionOfferCodes_createInstance", "create_priced_offer"),
    ("POST", "/v1/winBackOffers", "winBackOffers_createInstance", "create_priced_offer"),
    ("PATCH", "/v1/winBackOffers/{id}", "winBackOffers_updateInstance", "update_win_back_offer"),
    ("DELETE", "/v1/winBackOffers/{id}", "winBackOffers_deleteInstance", "delete_plain"),
]

# Pay as you go: the most billing periods per subscription period (from the reference facts).
PERIOD_OF = {"ONE_WEEK": 12, "ONE_MONTH": 12, "TWO_MONTHS": 6, "THREE_MONTHS": 4, "SIX_MONTHS": 2, "ONE_YEAR": 1}
UP_FRONT_DURATIONS = {"ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"}
MAX_PROMOTIONAL_OFFERS = 10
# offer type -> (the product's child list, the offer's price type)
PRICED_OFFERS = {"subscriptionPromotionalOffers": ("promotionalOffers", "subscriptionPromotionalOfferPrices"),
                 "subscriptionOfferCodes": ("offerCodes", "subscriptionOfferCodePrices"),
                 "winBackOffers": ("winBackOffers", "winBackOfferPrices"),
                 "inAppPurchaseOfferCodes": ("offerCodes", "inAppPurchaseOfferPrices")}
# An offer price's point: (relationship, point type). Subscription offers' prices name a `subscriptionPricePoint`,
# in-app purchase offer codes' a `pricePoint` (the document's InAppPurchaseOfferPrice).
SUBSCRIPTION_POINT = ("subscriptionPricePoint", "subscriptionPricePoints")
OFFER_PRICE_POINTS = {"inAppPurchaseOfferPrices": ("pricePoint", "inAppPurchasePricePoints")}


def price_point_rel(price_type):
    return OFFER_PRICE_POINTS.get(price_type, SUBSCRIPTION_POINT)


def offer_price_point(price):
    """The price point id of a stored offer price, or None (a free trial's)."""
    return ((price["rels"].get(price_point_rel(price["type"])[0]) or {}).get("data") or {}).get("id")


class Offers:
    def check_offer_rules(self, sub, a, periods_field="numberOfPeriods", base="/data", period=None):
        """Offer shapes; `period` is the subscription's period when the same request sets it."""
        if not self.settings["strictOfferRules"]:
            return
        mode, duration, n = a["offerMode"], a["duration"], a[periods_field]
        pointer = base + "/attributes/"
        if n < 1:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "%s must be at least 1" % periods_field,
                               pointer + periods_field)
        if mode in ("FREE_TRIAL", "PAY_UP_FRONT") and n != 1:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "%s offers run for exactly one period" % mode,
                               pointer + periods_field)
        if mode == "PAY_UP_FRONT" and duration not in UP_FRONT_DURATIONS:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "Pay up front offers last 1, 2, 3 or 6 months or 1 year", pointer + "duration")
        if mode == "PAY_AS_YOU_GO":
            period = period or sub["attributes"].get("subscriptionPeriod")
            if period is None:
                raise state_error("Set the subscription's duration before creating pay-as-you-go offers")
            if duration != period:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "Pay as you go offers are billed every %s" % period, pointer + "duration")
            if n > PERIOD_OF[period]:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "At most %d periods for a %s subscription" % (PERIOD_OF[period], period),
                                   pointer + periods_field)

    # -- introductory offers
    def create_intro_offer(self, c):
        data = c.body["data"]
        sub = self.related_need(data, "subscription", "subscriptions")
        return self.created(self.commit_intro_offer(sub, self.plan_intro_offer(sub, data, "/data")), c)

    def plan_intro_offer(self, sub, item, base, period=None, taken=()):
        """Checks an introductory offer, standalone (`base` /data) or inline (/included/N), changing nothing.
        `taken`: territories given an offer earlier in the same request."""
        a = item["attributes"]
        territory, point = self.priced_point(sub, item.get("relationships") or {}, base + "/relationships")
        if territory is None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED", "An introductory offer is set per territory",
                               base + "/relationships/territory")
        self.check_offer_rules(sub, a, base=base, period=period)
        if a["offerMode"] != "FREE_TRIAL" and point is None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED", "A paid offer needs a price point",
                               base + "/relationships/subscriptionPricePoint")
        if territory in taken or any(self.territory_of(o) == territory
                                     for o in self.store.kid_recs(sub, "introductoryOffers")):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID.DUPLICATE",
                               "The subscription already has an introductory offer in %s" % territory,
                               base + "/relationships/territory")
        return {"territory": territory, "point": point, "attributes": a}

    def commit_intro_offer(self, sub, plan):
        rels = {"territory": {"data": ref("territories", plan["territory"])}}
        if plan["point"]:
            rels["subscriptionPricePoint"] = {"data": ref("subscriptionPricePoints", plan["point"])}
        a = plan["attributes"]
        rec = {"type": "subscriptionIntroductoryOffers", "id": self.store.new_id(False),
               "attributes": {k: a.get(k) for k in ("startDate", "endDate", "duration", "offerMode", "numberOfPeriods",
                                                   "targetSubscriptionPlanType")}, "rels": rels}
        return self.store.add_kid(sub, "introductoryOffers", rec)

    def delete_intro_offer_links(self, c):
        """Removes the listed introductory offers, all or none: each must be one of this subscription's."""
        sub = self.store.need("subscriptions", c.id)
        doomed = []
        for i, link in enumerate(c.body["data"]):
            offer = self.store.get("subscriptionIntroductoryOffers", link["id"])
            if offer is None:
                raise not_found("There is no introductory offer with id '%s'" % link["id"], "/data/%d" % i)
            if (offer.get("parent") or [None, None])[1] != sub["id"]:
                raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                   "The introductory offer '%s' belongs to another subscription" % link["id"],
                                   "/data/%d" % i)
            doomed.append(offer)
        for offer in doomed:
            if self.store.get(offer["type"], offer["id"]) is not None:  # listed twice: removed once
                self.store.remove(offer)
        return 204, None

    # -- offers priced per territory
    def offer_prices(self, c, owner, price_type, mode, territories=None):
        """The request's inline prices as [(territory, point id)]: each a territory of its own (one of
        `territories` when given), with a point of the product (`owner`) in that territory. A free trial (`mode`)
        leaves every point out; a paid subscription offer may leave it out in some territories, where it is then free
        (the document makes the point optional: our reading), but not in all of them."""
        out, seen = [], set()
        point_rel, point_type = price_point_rel(price_type)
        for i, item in self.inline(c, "prices", price_type):
            territory, point = self.priced_point(owner, item.get("relationships") or {},
                                                 "/included/%d/relationships" % i, point_rel, point_type)
            if territory is None:
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "An offer price needs a territory",
                                   "/included/%d/relationships/territory" % i)
            if point is None and mode is None:  # an in-app purchase's offer code prices every territory at a point
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "An offer price needs a price point",
                                   "/included/%d/relationships/%s" % (i, point_rel))
            if territory in seen:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Two prices for %s" % territory, "/included/%d" % i)
            if territories is not None and territory not in territories:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "The product is not available in %s" % territory,
                                   "/included/%d/relationships/territory" % i)
            seen.add(territory)
            out.append((territory, point))
        if mode not in (None, "FREE_TRIAL") and out and all(point is None for _, point in out):
            raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED",
                               "A paid offer needs a price point in at least one territory; free everywhere is a free trial",
                               "/data/relationships/prices")
        return out

    def add_offer_prices(self, offer, price_type, prices):
        point_rel, point_type = price_point_rel(price_type)
        for territory, point in prices:
            rels = {"territory": {"data": ref("territories", territory)}}
            if point:
                rels[point_rel] = {"data": ref(point_type, point)}
            self.store.add_kid(offer, "prices", {"type": price_type, "id": self.store.new_id(False), "attributes": {},
                                                 "rels": rels})

    def create_priced_offer(self, c):
        data = c.body["data"]
        a = data["attributes"]
        sub = self.related_need(data, "subscription", "subscriptions")
        type_ = data["type"]
        kids, price_type = PRICED_OFFERS[type_]
        siblings = self.store.kid_recs(sub, kids)
        if type_ == "subscriptionPromotionalOffers":
            self.check_promotional_offer(sub, a, "/data")
        elif type_ == "winBackOffers":
            # App Store Connect Help, Set up win-back offers: "Your subscription needs to be approved by App Review
            # before you can create a win-back offer".
            if sub["attributes"].get("state") not in APPROVED_OR_LATER:
                raise state_error("The subscription '%s' is %s: win-back offers are created only for a subscription App "
                                  "Review has approved" % (sub["attributes"]["productId"], sub["attributes"].get("state")),
                                  "/data/relationships/subscription")
            if any(o["attributes"]["offerId"] == a["offerId"] for o in siblings):
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "The offer identifier '%s' is already used by this subscription" % a["offerId"],
                                   "/data/attributes/offerId")
            a = self.win_back_create_attributes(a)
            self.check_offer_rules(sub, a, "periodCount")
        else:
            self.check_customer_eligibilities(a)
            self.check_offer_rules(sub, a)
        prices = self.offer_prices(c, sub, price_type, a["offerMode"])
        return self.created(self.commit_priced_offer(sub, type_, a, prices), c)

    @staticmethod
    def check_customer_eligibilities(a):
        """An offer code (of a subscription or an in-app purchase) is for at least one kind of customer."""
        if not a["customerEligibilities"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "Choose at least one customer eligibility",
                               "/data/attributes/customerEligibilities")

    def commit_priced_offer(self, owner, type_, a, prices):
        kids, price_type = PRICED_OFFERS[type_]
        rec = {"type": type_, "id": self.store.new_id(False), "attributes": dict(a), "rels": {}}
        if type_ in OFFER_CODE_FAMILIES:  # an offer code starts on, with no codes yet
            rec["attributes"]["active"] = True
            self.count_offer_codes(rec)
        if type_ == "subscriptionPromotionalOffers":
            rec["rels"]["subscription"] = {"data": ref("subscriptions", owner["id"])}
        self.store.add_kid(owner, kids, rec)
        self.add_offer_prices(rec, price_type, prices)
        return rec

    def check_promotional_offer(self, sub, a, base, period=None, new_codes=(), new_count=0):
        """At most 10 per subscription, offer codes unique; `new_codes`/`new_count`: offers created earlier in the
        same request."""
        siblings = self.store.kid_recs(sub, "promotionalOffers")
        if len(siblings) + new_count >= MAX_PROMOTIONAL_OFFERS:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "A subscription can have at most %d promotional offers" % MAX_PROMOTIONAL_OFFERS,
                               base + "/relationships/subscription")
        if a["offerCode"] in new_codes or any(o["attributes"]["offerCode"] == a["offerCode"] for o in siblings):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "The offer identifier '%s' is already used by this subscription" % a["offerCode"],
                               base + "/attributes/offerCode")
        self.check_offer_rules(sub, a, base=base, period=period)

    def update_promotional_offer(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionPromotionalOffers", c.id)
        if "prices" in (c.body["data"].get("relationships") or {}):
            sub = self.store.parent(rec)
            prices = self.offer_prices(c, sub, "subscriptionPromotionalOfferPrices", rec["attributes"]["offerMode"])
            for old in self.store.kid_recs(rec, "prices"):
                self.store.remove(old)
            self.add_offer_prices(rec, "subscriptionPromotionalOfferPrices", prices)
        return self.updated(rec, c)
