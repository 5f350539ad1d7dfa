"""Offer codes' codes, of subscriptions and in-app purchases alike: batches of one-time use codes (their values read
as CSV) and custom codes, and deactivating an offer code with them; and in-app purchases' offer codes themselves. The
limits are App Store Connect Help's where it gives them, else our reading (README, "Offer codes")."""

import calendar
import collections
import datetime
import random
import re

from ..core.errors import entity_error, state_error
from .product_states import APPROVED_OR_LATER
from ..core.jsonapi import Text
from ..reference import ref
from .win_back_offers import day, invalid


def owner_routes(owner):
    """The routes of an offer code and its codes, the same for subscriptions' and in-app purchases' (`owner` the
    prefix of the types)."""
    offer, batches, custom = owner + "OfferCodes", owner + "OfferCodeOneTimeUseCodes", owner + "OfferCodeCustomCodes"
    return [
        ("GET", "/v1/%s/{id}" % offer, offer + "_getInstance", "get_instance"),
        ("PATCH", "/v1/%s/{id}" % offer, offer + "_updateInstance", "update_offer_code"),
        ("GET", "/v1/%s/{id}/prices" % offer, offer + "_prices_getToManyRelated", "get_kids"),
        ("GET", "/v1/%s/{id}/oneTimeUseCodes" % offer, offer + "_oneTimeUseCodes_getToManyRelated", "get_kids"),
        ("GET", "/v1/%s/{id}/customCodes" % offer, offer + "_customCodes_getToManyRelated", "get_kids"),
        ("POST", "/v1/" + batches, batches + "_createInstance", "create_one_time_codes"),
        ("GET", "/v1/%s/{id}" % batches, batches + "_getInstance", "get_instance"),
        ("PATCH", "/v1/%s/{id}" % batches, batches + "_updateInstance", "update_code_activity"),
        ("GET", "/v1/%s/{id}/values" % batches, batches + "_values_getToOneRelated", "get_one_time_code_values"),
        ("POST", "/v1/" + custom, custom + "_createInstance", "create_custom_code"),
        ("GET", "/v1/%s/{id}" % custom, custom + "_getInstance", "get_instance"),
        ("PATCH", "/v1/%s/{id}" % custom, custom + "_updateInstance", "update_code_activity")]


# Subscriptions' offer codes are created with the other subscription offers (offers.py); in-app purchases' here.
ROUTES = owner_routes("subscription") + owner_routes("inAppPurchase") + [
    ("GET", "/v2/inAppPurchases/{id}/offerCodes", "inAppPurchasesV2_offerCodes_getToManyRelated", "get_kids"),
    ("POST", "/v1/inAppPurchaseOfferCodes", "inAppPurchaseOfferCodes_createInstance", "create_iap_offer_code"),
]

BATCHES, CUSTOM = "oneTimeUseCodes", "customCodes"  # the offer code's child lists
# The two kinds of offer code, one set of rules: the product type owning them (its child list `offerCodes`), the
# types of their codes, whether a code names its offer code on every read and whether the offer code shows
# `totalNumberOfCodes` (the subscription schemas have both; the in-app purchase ones have neither).
Family = collections.namedtuple("Family", "owner batch custom linked total")
OFFER_CODE_FAMILIES = {
    "subscriptionOfferCodes": Family("subscriptions", "subscriptionOfferCodeOneTimeUseCodes",
                                     "subscriptionOfferCodeCustomCodes", True, True),
    "inAppPurchaseOfferCodes": Family("inAppPurchases", "inAppPurchaseOfferCodeOneTimeUseCodes",
                                      "inAppPurchaseOfferCodeCustomCodes", False, False),
}
# A code type -> the type of its offer code; a product type -> the type of its offer codes.
OFFER_CODE_OF = {t: offer for offer, f in OFFER_CODE_FAMILIES.items() for t in (f.batch, f.custom)}
OFFER_CODES_OF = {f.owner: offer for offer, f in OFFER_CODE_FAMILIES.items()}
IAP_OFFER_PRICE = "inAppPurchaseOfferPrices"
# Help (Set up offer codes): codes for at most 1,000,000 redemptions per app per quarter; one-time use codes expire at
# most six months after they are made. Custom codes get the same six months (our reading).
MAX_CODES_PER_QUARTER = 1000000
VALID_MONTHS = 6
# Offer codes are alphanumeric (StoreKit documentation); at most 64 characters is our reading.
CUSTOM_CODE_RE = re.compile(r"^[A-Za-z0-9]{1,64}$")
# Generated one-time use codes: 12 uppercase letters and digits (our reading of "alphanumeric").
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
CODE_LENGTH = 12


def add_months(text, months):
    """The same day `months` later, or the month's last day when it has no such day (Aug 31 + 6 = Feb 28)."""
    d = datetime.date.fromisoformat(text)
    index = d.month - 1 + months
    year, month = d.year + index // 12, index % 12 + 1
    return datetime.date(year, month, min(d.day, calendar.monthrange(year, month)[1])).isoformat()


def quarter(text):
    return text[:4], (int(text[5:7]) - 1) // 3


def one_time_code_values(batch_id, count):
    """The batch's codes: the same for the same batch id, distinct within the batch."""
    rnd = random.Random("one-time use codes " + batch_id)
    seen, out = set(), []
    while len(out) < count:
        code = "".join(rnd.choices(CODE_ALPHABET, k=CODE_LENGTH))
        if code not in seen:
            seen.add(code)
            out.append(code)
    return out


class OfferCodes:
    """Mixin of the service."""

    # -- creating codes
    def create_one_time_codes(self, c):
        data = c.body["data"]
        a = data["attributes"]
        offer = self.offer_code_taking_codes(data)
        environment = a.get("environment") or "PRODUCTION"
        if environment == "PRODUCTION":
            self.check_purchase_approved(offer)
        self.check_code_count(offer, a["numberOfCodes"], environment)
        expiration = self.check_code_expiration(a["expirationDate"])
        return self.created(self.add_one_time_codes(offer, a["numberOfCodes"], expiration, environment), c)

    def create_custom_code(self, c):
        data = c.body["data"]
        a = data["attributes"]
        offer = self.offer_code_taking_codes(data)
        code = a["customCode"]
        if not CUSTOM_CODE_RE.match(code):
            raise invalid("A custom code is 1 to 64 letters and digits, without spaces or symbols", "customCode")
        taken = self.custom_code_owner(self.store.app_of(offer), code)
        if taken is not None:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "The custom code '%s' is already used by an offer code of this app" % code,
                               "/data/attributes/customCode")
        self.check_purchase_approved(offer)
        self.check_code_count(offer, a["numberOfCodes"], "PRODUCTION")
        expiration = a.get("expirationDate")
        if expiration is not None:
            expiration = self.check_code_expiration(expiration)
        return self.created(self.add_custom_code(offer, code, a["numberOfCodes"], expiration), c)

    def offer_code_taking_codes(self, data):
        offer = self.related_need(data, "offerCode", OFFER_CODE_OF[data["type"]])
        if not offer["attributes"].get("active", True):
            raise state_error("The offer code '%s' is deactivated: it takes no new codes" % offer["id"],
                              "/data/relationships/offerCode")
        return offer

    def check_purchase_approved(self, offer):
        """An in-app purchase's offer code takes production codes and custom codes only once App Review approved the
        purchase; sandbox codes need no approval (App Store Connect Help, Create offer codes for In-App Purchases).
        The Help's other condition, the app Ready for Distribution, is not modelled."""
        if offer["type"] != "inAppPurchaseOfferCodes":
            return
        iap = self.store.parent(offer)
        if iap is not None and iap["attributes"].get("state") not in APPROVED_OR_LATER:
            raise state_error("The in-app purchase '%s' is %s: production codes and custom codes are made only for an "
                              "in-app purchase App Review has approved" % (iap["attributes"]["productId"],
                                                                           iap["attributes"].get("state")),
                              "/data/relationships/offerCode")

    def check_code_count(self, offer, count, environment):
        """At least one code, and the app's quarter not over its 1,000,000 (sandbox codes aside: our reading)."""
        if count < 1:
            raise invalid("numberOfCodes must be at least 1", "numberOfCodes")
        if environment != "PRODUCTION":
            return
        left = MAX_CODES_PER_QUARTER - self.codes_this_quarter(self.store.app_of(offer))
        if count > left:
            raise invalid("An app makes codes for at most %d redemptions a quarter; %d are left this quarter"
                          % (MAX_CODES_PER_QUARTER, left), "numberOfCodes")

    def check_code_expiration(self, text):
        """Not before today, at most six months ahead."""
        expiration = day(text, "expirationDate")
        today = self.today()
        if expiration < today:
            raise invalid("expirationDate %s is before today (%s)" % (expiration, today), "expirationDate")
        latest = add_months(today, VALID_MONTHS)
        if expiration > latest:
            raise invalid("Codes expire at most %d months after they are made: %s at the latest"
                          % (VALID_MONTHS, latest), "expirationDate")
        return expiration

    def codes_this_quarter(self, app):
        """Redemptions of production codes made in the app this quarter: one-time use codes and custom codes' limits,
        deactivated ones included."""
        now, total = quarter(self.today()), 0
        for offer in self.app_offer_codes(app):
            for rec in self.store.kid_recs(offer, BATCHES) + self.store.kid_recs(offer, CUSTOM):
                a = rec["attributes"]
                if a.get("environment", "PRODUCTION") == "PRODUCTION" and quarter(a["createdDate"]) == now:
                    total += a["numberOfCodes"]
        return total

    def app_offer_codes(self, app):
        """Every offer code of the app, its subscriptions' and its in-app purchases': the quarter's budget and custom
        codes' uniqueness count them together (Help gives in-app purchases the same 1,000,000 per app)."""
        for product in self.products_of(app):
            yield from self.store.kid_recs(product, "offerCodes", OFFER_CODES_OF[product["type"]])

    def custom_code_owner(self, app, code):
        """The custom code of the app spelled `code` (in any case), or None."""
        wanted = code.upper()
        for offer in self.app_offer_codes(app):
            for rec in self.store.kid_recs(offer, CUSTOM, OFFER_CODE_FAMILIES[offer["type"]].custom):
                if rec["attributes"]["customCode"].upper() == wanted:
                    return rec
        return None

    def created_now(self):
        """createdDate: the fake's today at the current time of day."""
        return self.today() + datetime.datetime.now(datetime.timezone.utc).strftime("T%H:%M:%S.000+00:00")

    def add_one_time_codes(self, offer, count, expiration, environment="PRODUCTION", created=None):
        return self.add_code(offer, BATCHES, {"numberOfCodes": count, "createdDate": created or self.created_now(),
                                              "expirationDate": expiration, "active": True,
                                              "environment": environment})

    def add_custom_code(self, offer, code, count, expiration, created=None):
        return self.add_code(offer, CUSTOM, {"customCode": code, "numberOfCodes": count,
                                             "createdDate": created or self.created_now(),
                                             "expirationDate": expiration, "active": True})

    def add_code(self, offer, kids, attributes):
        family = OFFER_CODE_FAMILIES[offer["type"]]
        rec = {"type": family.batch if kids == BATCHES else family.custom, "id": self.store.new_id(False),
               "attributes": attributes, "rels": {}}
        if family.linked:
            rec["rels"]["offerCode"] = {"data": ref(offer["type"], offer["id"])}
        self.store.add_kid(offer, kids, rec)
        self.count_offer_codes(offer)
        return rec

    def count_offer_codes(self, offer):
        """The offer code's counts: every code made (deactivated ones too); custom codes are production codes."""
        production = sandbox = 0
        for rec in self.store.kid_recs(offer, BATCHES) + self.store.kid_recs(offer, CUSTOM):
            a = rec["attributes"]
            if a.get("environment") == "SANDBOX":
                sandbox += a["numberOfCodes"]
            else:
                production += a["numberOfCodes"]
        if OFFER_CODE_FAMILIES[offer["type"]].total:
            offer["attributes"]["totalNumberOfCodes"] = production + sandbox
        offer["attributes"].update(productionCodeCount=production, sandboxCodeCount=sandbox)

    # -- in-app purchases' offer codes
    def create_iap_offer_code(self, c):
        """An in-app purchase's offer code: a name of its own among the purchase's offer codes, at least one kind of
        customer, and a price (a point of this purchase, the free one too) in each territory it is set in, some or
        all of those the purchase is available in, as a subscription offer code's. Apple's documents don't say which
        territories an in-app purchase's offer code prices; this model keeps the set as given, so a client that
        writes every territory back where the code was set in some is caught."""
        data = c.body["data"]
        a = data["attributes"]
        iap = self.related_need(data, "inAppPurchase", "inAppPurchases")
        self.check_customer_eligibilities(a)
        if any(o["attributes"]["name"] == a["name"] for o in self.store.kid_recs(iap, "offerCodes")):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "The in-app purchase already has an offer code named '%s'" % a["name"],
                               "/data/attributes/name")
        sold = self.sold_territories(iap)
        prices = self.offer_prices(c, iap, IAP_OFFER_PRICE, None, sold)
        if not prices:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "An offer code needs a price in at least one territory the in-app purchase is available in",
                               "/data/relationships/prices")
        return self.created(self.commit_priced_offer(iap, "inAppPurchaseOfferCodes", a, prices), c)

    def sold_territories(self, iap):
        availability = self.store.slot(iap, "availability")
        sold = [t["id"] for t in (availability["rels"]["availableTerritories"]["data"] if availability else [])]
        if not sold:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The in-app purchase is available in no territory: set its availability first",
                               "/data/relationships/inAppPurchase")
        return sold

    # -- deactivating
    def update_offer_code(self, c):
        """`active: false` deactivates the offer code and every code it has; nothing turns it on again."""
        self.check_update_id(c)
        offer = self.store.need(c.path.split("/")[2], c.id)
        if self.activity_change(offer, c) is False:
            self.deactivate_offer_code(offer)
        return self.updated(offer, c)

    def update_code_activity(self, c):
        self.check_update_id(c)
        rec = self.store.need(c.path.split("/")[2], c.id)
        if self.activity_change(rec, c) is False:
            rec["attributes"]["active"] = False
        return self.updated(rec, c)

    @staticmethod
    def activity_change(rec, c):
        """The `active` a PATCH asks for (None: unchanged); turning a deactivated resource on again is refused."""
        wanted = (c.body["data"].get("attributes") or {}).get("active")
        if wanted and not rec["attributes"].get("active", True):
            raise state_error("The %s '%s' was deactivated and can't be activated again" % (rec["type"], rec["id"]),
                              "/data/attributes/active")
        return wanted

    def deactivate_offer_code(self, offer):
        offer["attributes"]["active"] = False
        for rec in self.store.kid_recs(offer, BATCHES) + self.store.kid_recs(offer, CUSTOM):
            rec["attributes"]["active"] = False

    # -- reading codes
    def get_one_time_code_values(self, c):
        """The batch's codes as `text/csv`: one code a line, no header."""
        rec = self.store.need(c.path.split("/")[2], c.id)
        codes = one_time_code_values(rec["id"], rec["attributes"]["numberOfCodes"])
        return 200, Text("".join(code + "\n" for code in codes), "text/csv")

    def offer_code_codes_view(self, offer):
        """The managed view's part of an offer code's codes: no ids, values or creation dates."""
        batches = [{"numberOfCodes": a["numberOfCodes"], "expirationDate": a.get("expirationDate"),
                    "active": bool(a.get("active")), "environment": a.get("environment") or "PRODUCTION"}
                   for a in (r["attributes"] for r in self.store.kid_recs(offer, BATCHES))]
        custom = [{"customCode": a["customCode"], "numberOfCodes": a["numberOfCodes"],
                   "expirationDate": a.get("expirationDate"), "active": bool(a.get("active"))}
                  for a in (r["attributes"] for r in self.store.kid_recs(offer, CUSTOM))]
        return {"active": bool(offer["attributes"].get("active", True)),
                "oneTimeUseCodes": sorted(batches, key=lambda b: (b["expirationDate"] or "", b["numberOfCodes"],
                                                                  b["active"], b["environment"])),
                "customCodes": sorted(custom, key=lambda x: x["customCode"])}
