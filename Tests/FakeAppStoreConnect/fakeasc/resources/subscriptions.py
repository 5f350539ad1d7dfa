"""Subscription groups, auto-renewable subscriptions (with the inline creates of their PATCH) and their plan
availabilities."""

from ..contract.builtin_tables import MARKETS, MULTI_SEAT_STATUSES
from ..core.errors import ApiError, entity_error
from ..reference import ref

# API 4.5's multiseat purchases for organizations: a subscription created through the API (or seeded without them)
# has multiseat on in the App Store market (our reading: Apple documents multiseat on by default from 16 September
# 2026, not which markets); Family Sharing turns it off.
DEFAULT_MULTI_SEAT = "ENABLED"
DEFAULT_MARKETS = ("APP_STORE",)
FAMILY_SHARING_RULE = ("multiSeatStatus can't be ENABLED for a subscription with Family Sharing turned on: turning "
                       "on Family Sharing sets multiSeatStatus to DISABLED")

# PATCH /v1/subscriptions inline creates: relationship -> the included type it lists (SubscriptionUpdateRequest)
INLINE_CREATES = (("prices", "subscriptionPrices"), ("introductoryOffers", "subscriptionIntroductoryOffers"),
                  ("promotionalOffers", "subscriptionPromotionalOffers"))

ROUTES = [
    ("GET", "/v1/subscriptionGroups/{id}/subscriptions", "subscriptionGroups_subscriptions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/planAvailabilities", "subscriptions_planAvailabilities_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionPlanAvailabilities/{id}/availableTerritories",
     "subscriptionPlanAvailabilities_availableTerritories_getToManyRelated", "get_available_territories"),
    ("POST", "/v1/subscriptionGroups", "subscriptionGroups_createInstance", "create_group"),
    ("PATCH", "/v1/subscriptionGroups/{id}", "subscriptionGroups_updateInstance", "update_group"),
    ("POST", "/v1/subscriptions", "subscriptions_createInstance", "create_subscription"),
    ("PATCH", "/v1/subscriptions/{id}", "subscriptions_updateInstance", "update_subscription"),
    ("POST", "/v1/subscriptionPlanAvailabilities", "subscriptionPlanAvailabilities_createInstance",
     "create_plan_availability"),
    ("PATCH", "/v1/subscriptionPlanAvailabilities/{id}", "subscriptionPlanAvailabilities_updateInstance",
     "update_plan_availability"),
]


class Subscriptions:
    # -- groups
    def create_group(self, c):
        data = c.body["data"]
        app = self.related_need(data, "app", "apps")
        self.check_group_name(app, data["attributes"]["referenceName"])
        return self.created(self.new_group(app, data["attributes"]["referenceName"]), c)

    def check_group_name(self, app, name, exclude=None):
        if len(name) > 64:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The reference name can't be longer than 64 characters",
                               "/data/attributes/referenceName")
        for g in self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"):
            if g["id"] != exclude and g["attributes"]["referenceName"] == name:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "A subscription group named '%s' already exists" % name,
                                   "/data/attributes/referenceName")

    def new_group(self, app, name):
        rec = {"type": "subscriptionGroups", "id": self.store.new_id(True), "attributes": {"referenceName": name},
               "rels": {}}
        self.store.add_kid(app, "subscriptionGroups", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("subscriptionGroupVersions", rec)
        return rec

    def update_group(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionGroups", c.id)
        name = (c.body["data"].get("attributes") or {}).get("referenceName")
        if name is not None:
            self.check_group_name(self.store.app_of(rec), name, rec["id"])
            rec["attributes"]["referenceName"] = name
        return self.updated(rec, c)

    # -- subscriptions
    def create_subscription(self, c):
        data = c.body["data"]
        a = data["attributes"]
        group = self.related_need(data, "group", "subscriptionGroups")
        app = self.store.app_of(group)
        self.check_product_id(app, a["productId"])
        self.check_reference_name(app, a["name"])
        self.check_review_note(a)
        count = len(self.store.kid_ids(group, "subscriptions"))
        level = a.get("groupLevel")
        if level is not None and not 1 <= level <= count + 1:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "groupLevel must be between 1 and %d" % (count + 1),
                               "/data/attributes/groupLevel")
        return self.created(self.new_subscription(group, a), c)

    def new_subscription(self, group, a, state="MISSING_METADATA"):
        app = self.store.app_of(group)
        count = len(self.store.kid_ids(group, "subscriptions"))
        rec = {"type": "subscriptions", "id": self.store.new_id(True),
               "attributes": {"name": a["name"], "productId": a["productId"],
                              "familySharable": bool(a.get("familySharable")), "state": state,
                              "subscriptionPeriod": a.get("subscriptionPeriod"), "reviewNote": a.get("reviewNote"),
                              "groupLevel": a.get("groupLevel") or count + 1},
               "rels": {"group": {"data": ref("subscriptionGroups", group["id"])}}}
        rec["attributes"].update(multi_seat_defaults(rec["attributes"]["familySharable"]))
        self.product_ids_in_app(app).add(a["productId"])
        self.store.add_kid(group, "subscriptions", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("subscriptionVersions", rec)
        return rec

    def update_subscription(self, c):
        """Attributes, plus prices and offers created inline (`relationships` linkages defined in `included`).
        All or nothing: every item is checked with its standalone POST's rules before anything changes."""
        self.check_update_id(c)
        rec = self.store.need("subscriptions", c.id)
        a = c.body["data"].get("attributes") or {}
        self.check_subscription_attributes(rec, a)
        creates = self.plan_inline_creates(rec, c, a.get("subscriptionPeriod") or rec["attributes"]["subscriptionPeriod"])
        for k in ("name", "familySharable", "subscriptionPeriod", "reviewNote", "groupLevel", "multiSeatStatus"):
            if k in a and (a[k] is not None or k == "reviewNote"):
                rec["attributes"][k] = a[k]
        if a.get("marketSettings") is not None:
            rec["attributes"]["marketSettings"] = unique(a["marketSettings"])
        if a.get("familySharable") and self.settings["multiSeatFamilyRule"]:
            rec["attributes"]["multiSeatStatus"] = "DISABLED"  # Apple: turning on Family Sharing sets it to DISABLED
        for type_, plan in creates:
            if type_ == "subscriptionPrices":
                self.commit_subscription_price(rec, plan)
            elif type_ == "subscriptionIntroductoryOffers":
                self.commit_intro_offer(rec, plan)
            else:
                self.commit_priced_offer(rec, type_, plan, [])
        self.metadata_changed(rec)
        return self.updated(rec, c)

    def plan_inline_creates(self, sub, c, period):
        """[(type, plan)] of the included items, each checked against the subscription and the items before it."""
        creates, price_keys, intro_territories, promo_codes = [], set(), set(), set()
        for rel_name, type_ in INLINE_CREATES:
            for i, item in self.inline(c, rel_name, type_):
                base = "/included/%d" % i
                try:
                    owner = ((item.get("relationships") or {}).get("subscription") or {}).get("data")
                    if owner and owner.get("id") != sub["id"]:
                        raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "The item belongs to another subscription",
                                           base + "/relationships/subscription")
                    if type_ == "subscriptionPrices":
                        plan = self.plan_subscription_price(sub, item, base)
                        key = (plan["territory"], plan["startDate"], plan["planType"])
                        if key in price_keys:
                            raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Two prices for %s start on the same "
                                               "date with the same plan" % plan["territory"], base)
                        price_keys.add(key)
                    elif type_ == "subscriptionIntroductoryOffers":
                        plan = self.plan_intro_offer(sub, item, base, period, intro_territories)
                        intro_territories.add(plan["territory"])
                    else:
                        if ((item.get("relationships") or {}).get("prices") or {}).get("data"):
                            # the request's included takes no subscriptionPromotionalOfferPrices to define them
                            raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                               "An inline promotional offer's prices can't be defined in this "
                                               "request; add them with PATCH /v1/subscriptionPromotionalOffers/{id}",
                                               base + "/relationships/prices")
                        plan = item["attributes"]
                        self.check_promotional_offer(sub, plan, base, period, promo_codes, len(promo_codes))
                        promo_codes.add(plan["offerCode"])
                except ApiError as e:
                    raise inline_refusal(e)
                creates.append((type_, plan))
        return creates

    def check_subscription_attributes(self, rec, a):
        app = self.store.app_of(rec)
        if a.get("name") is not None:
            self.check_reference_name(app, a["name"], rec["id"])
        self.check_review_note(a)
        self.check_family_sharing(rec, a, True)
        period = a.get("subscriptionPeriod")
        if period is not None and rec["attributes"].get("subscriptionPeriod") not in (None, period):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The subscription duration can't be changed once set",
                               "/data/attributes/subscriptionPeriod")
        level = a.get("groupLevel")
        group = self.store.parent(rec)
        if level is not None and not 1 <= level <= len(self.store.kid_ids(group, "subscriptions")):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "groupLevel is out of range",
                               "/data/attributes/groupLevel")
        family = a.get("familySharable")
        family = rec["attributes"].get("familySharable") if family is None else family
        if a.get("multiSeatStatus") == "ENABLED" and family and self.settings["multiSeatFamilyRule"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", FAMILY_SHARING_RULE, "/data/attributes/multiSeatStatus")

    # -- plan availabilities
    def create_plan_availability(self, c):
        data = c.body["data"]
        sub = self.related_need(data, "subscription", "subscriptions")
        ids = self.territories_of(data, "availableTerritories")
        a = data["attributes"]
        for old in self.store.kid_recs(sub, "planAvailabilities"):
            if old["attributes"]["planType"] == a["planType"]:
                self.store.remove(old)  # one availability per plan type: a new one replaces it
        rec = {"type": "subscriptionPlanAvailabilities", "id": self.store.new_id(False),
               "attributes": {"availableInNewTerritories": bool(a.get("availableInNewTerritories")),
                              "planType": a["planType"]},
               "rels": {"availableTerritories": {"data": [ref("territories", t) for t in ids]}}}
        self.store.add_kid(sub, "planAvailabilities", rec)
        self.metadata_changed(sub)
        return self.created(rec, c)

    def update_plan_availability(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptionPlanAvailabilities", c.id)
        data = c.body["data"]
        a = data.get("attributes") or {}
        if a.get("availableInNewTerritories") is not None:
            rec["attributes"]["availableInNewTerritories"] = a["availableInNewTerritories"]
        if "availableTerritories" in (data.get("relationships") or {}):
            rec["rels"]["availableTerritories"] = {
                "data": [ref("territories", t) for t in self.territories_of(data, "availableTerritories")]}
        self.metadata_changed(rec)
        return self.updated(rec, c)


def multi_seat_defaults(family_sharable):
    """multiSeatStatus and marketSettings of a subscription made now (through the API, the seed document or the
    generator): multiseat on in the App Store market, off for a family-sharable one."""
    return {"multiSeatStatus": "DISABLED" if family_sharable else DEFAULT_MULTI_SEAT,
            "marketSettings": list(DEFAULT_MARKETS)}


def check_multi_seat(spec, family_rule=True):
    """The seed document's multiseat values (either may be `null`: a subscription made before API 4.5); raises
    ValueError (a bad seed) for values outside the document's enums or, under `family_rule` (the setting
    `multiSeatFamilyRule`), ENABLED with Family Sharing on."""
    status, markets = spec.get("multiSeatStatus"), spec.get("marketSettings")
    if status is not None and status not in MULTI_SEAT_STATUSES:
        raise ValueError("multiSeatStatus %r is not one of %s" % (status, ", ".join(MULTI_SEAT_STATUSES)))
    if markets is not None and (not isinstance(markets, list) or any(m not in MARKETS for m in markets)):
        raise ValueError("marketSettings %r is not a list of %s" % (markets, ", ".join(MARKETS)))
    if status == "ENABLED" and spec.get("familySharable") and family_rule:
        raise ValueError(FAMILY_SHARING_RULE)


def unique(values):
    """A list without repeats, in the order first given."""
    return list(dict.fromkeys(values))


def inline_refusal(e):
    """A refused inline item refuses the whole request with a 409 naming the item's pointer (a missing territory or
    price point, 404 in a standalone POST, included)."""
    if e.status == 409:
        return e
    return entity_error("ENTITY_ERROR.INCLUDED.INVALID", e.detail, e.pointer)
