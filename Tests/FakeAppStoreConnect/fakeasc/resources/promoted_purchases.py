"""Promoted purchases: the in-app purchases and subscriptions the App Store shows on the app's page, in the app's
order. Each promotes one product of the app, once."""

from ..core.errors import entity_error, not_found
from ..reference import ref

ROUTES = [
    ("GET", "/v1/apps/{id}/promotedPurchases", "apps_promotedPurchases_getToManyRelated", "get_kids"),
    ("GET", "/v1/apps/{id}/relationships/promotedPurchases", "apps_promotedPurchases_getToManyRelationship",
     "get_promoted_linkages"),
    ("PATCH", "/v1/apps/{id}/relationships/promotedPurchases", "apps_promotedPurchases_replaceToManyRelationship",
     "reorder_promoted_purchases"),
    ("GET", "/v2/inAppPurchases/{id}/promotedPurchase", "inAppPurchasesV2_promotedPurchase_getToOneRelated",
     "get_product_promoted_purchase"),
    ("GET", "/v1/subscriptions/{id}/promotedPurchase", "subscriptions_promotedPurchase_getToOneRelated",
     "get_product_promoted_purchase"),
    ("POST", "/v1/promotedPurchases", "promotedPurchases_createInstance", "create_promoted_purchase"),
    ("GET", "/v1/promotedPurchases/{id}", "promotedPurchases_getInstance", "get_instance"),
    ("PATCH", "/v1/promotedPurchases/{id}", "promotedPurchases_updateInstance", "update_promoted_purchase"),
    ("DELETE", "/v1/promotedPurchases/{id}", "promotedPurchases_deleteInstance", "delete_plain"),
]

# App Store Connect's documented limit: up to 20 promoted in-app purchases per app.
MAX_PROMOTED = 20
# product type -> the promoted purchase's relationship naming it
PRODUCT_RELATIONSHIP = {"inAppPurchases": "inAppPurchaseV2", "subscriptions": "subscription"}


class PromotedPurchases:
    def promoted_purchases(self, app):
        return self.store.kid_recs(app, "promotedPurchases", "promotedPurchases")

    def promoted_purchase_of(self, product):
        """The promoted purchase of a product, or None."""
        app = self.store.app_of(product)
        name = PRODUCT_RELATIONSHIP[product["type"]]
        for rec in self.promoted_purchases(app) if app else []:
            linked = rec["rels"].get(name, {}).get("data")
            if linked and linked["id"] == product["id"]:
                return rec
        return None

    def promoted_product(self, rec):
        """The product a promoted purchase promotes."""
        for type_, name in PRODUCT_RELATIONSHIP.items():
            linked = rec["rels"].get(name, {}).get("data")
            if linked:
                return self.store.get(type_, linked["id"])
        return None

    def create_promoted_purchase(self, c):
        data = c.body["data"]
        app = self.related_need(data, "app", "apps")
        given = [(name, type_) for type_, name in PRODUCT_RELATIONSHIP.items() if self.rel_id(data, name)]
        if not given:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED",
                               "A promoted purchase needs an in-app purchase or a subscription",
                               "/data/relationships/inAppPurchaseV2")
        if len(given) > 1:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "A promoted purchase promotes one product: an in-app purchase or a subscription",
                               "/data/relationships/subscription")
        name, type_ = given[0]
        product = self.related_need(data, name, type_)
        pointer = "/data/relationships/" + name
        if (self.store.app_of(product) or {}).get("id") != app["id"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "The product belongs to another app", pointer)
        if self.promoted_purchase_of(product) is not None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID.DUPLICATE",
                               "The product '%s' is already promoted" % product["attributes"]["productId"], pointer)
        if len(self.promoted_purchases(app)) >= MAX_PROMOTED:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "An app can promote at most %d in-app purchases" % MAX_PROMOTED,
                               "/data/relationships/app")
        a = data["attributes"]
        return self.created(self.new_promoted_purchase(app, product, a["visibleForAllUsers"], a.get("enabled")), c)

    def new_promoted_purchase(self, app, product, visible, enabled=None):
        """Appended at the end of the app's order; `enabled` absent is true (README)."""
        name = PRODUCT_RELATIONSHIP[product["type"]]
        rec = {"type": "promotedPurchases", "id": self.store.new_id(False),
               "attributes": {"visibleForAllUsers": bool(visible), "enabled": True if enabled is None else enabled,
                              "state": "PREPARE_FOR_SUBMISSION"},
               "rels": {name: {"data": ref(product["type"], product["id"])}}}
        return self.store.add_kid(app, "promotedPurchases", rec)

    def update_promoted_purchase(self, c):
        self.check_update_id(c)
        rec = self.store.need("promotedPurchases", c.id)
        for k, v in (c.body["data"].get("attributes") or {}).items():
            if v is not None:
                rec["attributes"][k] = v
        return self.updated(rec, c)

    def get_product_promoted_purchase(self, c):
        product = self.store.need("inAppPurchases" if c.path.startswith("/v2/") else "subscriptions", c.id)
        rec = self.promoted_purchase_of(product)
        if rec is None:
            if self.settings["emptyToOne"] == "404":
                raise not_found("The product is not promoted")
            return 200, self.empty_to_one(c.path)
        return 200, self.single(rec, c.q, c.path)

    def get_promoted_linkages(self, c):
        app = self.store.need("apps", c.id)
        doc = self.page(self.promoted_purchases(app), c.q, c.path)
        doc["data"] = [{"type": d["type"], "id": d["id"]} for d in doc["data"]]
        return 200, doc

    def reorder_promoted_purchases(self, c):
        """The body lists every promoted purchase of the app, once, in the new order."""
        app = self.store.need("apps", c.id)
        current = [r["id"] for r in self.promoted_purchases(app)]
        wanted = [link["id"] for link in c.body["data"]]
        seen = set()
        for i, id_ in enumerate(wanted):
            if id_ not in current:
                raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                   "'%s' is not a promoted purchase of this app" % id_, "/data/%d" % i)
            if id_ in seen:
                raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "'%s' is listed twice" % id_, "/data/%d" % i)
            seen.add(id_)
        if len(wanted) != len(current):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The order must list every promoted purchase of the app (%d, not %d)"
                               % (len(current), len(wanted)), "/data")
        self.store.set_kid_order(app, "promotedPurchases", wanted)
        return 204, None
