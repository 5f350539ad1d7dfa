"""Checks shared by the create and update operations of several resource families."""

import re

from ..core.errors import entity_error, not_found
from ..reference import CURRENCY, decode_price_point

PRODUCT_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
MAX_REFERENCE_NAME = 64
MAX_REVIEW_NOTE = 4000


class Rules:
    """Mixin of the service: needs `self.store`."""

    # -- request documents
    @staticmethod
    def rel_id(data, name):
        r = (data.get("relationships") or {}).get(name)
        if not r or not r.get("data"):
            return None
        return r["data"]["id"]

    @staticmethod
    def rel_ids(data, name):
        r = (data.get("relationships") or {}).get(name)
        return [x["id"] for x in r["data"]] if r and isinstance(r.get("data"), list) else []

    def related_need(self, data, name, type_):
        return self.store.need(type_, self.rel_id(data, name), "/data/relationships/%s" % name)

    @staticmethod
    def check_update_id(c):
        if c.body["data"].get("id") != c.id:
            raise entity_error("ENTITY_ERROR.ID.INVALID", "The id in the request body doesn't match the URL",
                               "/data/id")

    def inline(self, c, rel_name, item_type):
        """The included resources a request defines inline, matched to the relationship that lists them:
        [(index in included, item)] in the relationship's order."""
        data = c.body["data"]
        wanted = self.rel_ids(data, rel_name)
        items = {}
        for i, item in enumerate(c.body.get("included") or []):
            if item.get("type") != item_type:
                continue
            if item.get("id") in items:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Included id '%s' is used twice" % item.get("id"),
                                   "/included/%d/id" % i)
            items[item.get("id")] = (i, item)
        for j, id_ in enumerate(wanted):
            if id_ not in items:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                   "'%s' is not defined in 'included'" % id_,
                                   "/data/relationships/%s/data/%d" % (rel_name, j))
        for id_, (i, _) in items.items():
            if id_ not in wanted:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                   "Included resource '%s' is not referenced by '%s'" % (id_, rel_name),
                                   "/included/%d" % i)
        return [items[w] for w in wanted]

    # -- products
    def product_ids_in_app(self, app):
        return self.store.used_product_ids.setdefault(app["id"], set())

    def check_product_id(self, app, product_id):
        if not PRODUCT_ID_RE.match(product_id):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "A product ID may contain only letters, numbers, periods, hyphens and underscores "
                               "(at most 100 characters)", "/data/attributes/productId")
        if product_id in self.product_ids_in_app(app):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "The product ID '%s' has already been used in this app and can't be reused" % product_id,
                               "/data/attributes/productId")

    def products_of(self, app):
        out = list(self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"))
        for g in self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"):
            out += self.store.kid_recs(g, "subscriptions", "subscriptions")
        return out

    def check_reference_name(self, app, name, exclude=None):
        """Reference names are unique per app across in-app purchases and subscriptions."""
        if len(name) > MAX_REFERENCE_NAME:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The reference name can't be longer than 64 characters",
                               "/data/attributes/name")
        for p in self.products_of(app):
            if p["id"] != exclude and p["attributes"]["name"] == name:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "The reference name '%s' is already used in this app" % name, "/data/attributes/name")

    @staticmethod
    def check_review_note(attrs):
        if len(attrs.get("reviewNote") or "") > MAX_REVIEW_NOTE:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The review note can't be longer than 4000 characters",
                               "/data/attributes/reviewNote")

    @staticmethod
    def check_family_sharing(rec, a, allowed):
        if "familySharable" not in a or a["familySharable"] is None:
            return
        if rec["attributes"].get("familySharable") and not a["familySharable"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "Family Sharing can't be turned off once it is on",
                               "/data/attributes/familySharable")
        if a["familySharable"] and not allowed:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "Family Sharing is only available for non-consumables and auto-renewable subscriptions",
                               "/data/attributes/familySharable")

    # -- territories and price points
    def territories_of(self, data, name):
        ids = self.rel_ids(data, name)
        for i, t in enumerate(ids):
            if t not in CURRENCY or t not in self.territory_codes():
                raise not_found("There is no territory '%s'" % t, "/data/relationships/%s/data/%d" % (name, i))
        if len(set(ids)) != len(ids):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "A territory is listed twice",
                               "/data/relationships/%s" % name)
        return ids

    @staticmethod
    def owned_point(point_id, owner, point_type, pointer):
        """A price point id decoded, if it is one of `owner`'s points (they are product-specific)."""
        d = decode_price_point(point_id or "")
        if d is None:
            raise not_found("There is no %s with id '%s'" % (point_type, point_id), pointer)
        if d["s"] != owner["id"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The price point belongs to a different product", pointer)
        return d
