#!/usr/bin/env python3
"""A fake App Store Connect API for iapkit's tests: the operations `iapkit asc` uses, with Apple's paths, JWT
authentication, JSON:API documents, validation of every request body, and the behaviour rules described in
README.md. Binds 127.0.0.1 only; prints `listening http://127.0.0.1:PORT`; stops on SIGTERM or stdin EOF.

usage: fake_asc.py --port 0 --key-id KID --issuer-id ISS --public-key PEM [--openapi PATH] [--page-size N]
                   [--state-file F]
"""

import argparse
import base64
import hashlib
import json
import os
import re
import signal
import stat
import struct
import sys
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import contract as contracts  # noqa: E402
import contract_builtin as builtin  # noqa: E402
from territories import CODES as TERRITORY_CODES, CURRENCY  # noqa: E402

# ---------------------------------------------------------------------------------------------- routes
# (method, path template, operationId, handler name)
ROUTES = [
    ("GET", "/v1/apps", "apps_getCollection", "get_apps"),
    ("GET", "/v1/territories", "territories_getCollection", "get_territories"),
    ("GET", "/v1/apps/{id}/inAppPurchasesV2", "apps_inAppPurchasesV2_getToManyRelated", "get_app_iaps"),
    ("GET", "/v1/apps/{id}/subscriptionGroups", "apps_subscriptionGroups_getToManyRelated", "get_app_groups"),
    ("GET", "/v1/subscriptionGroups/{id}/subscriptions", "subscriptionGroups_subscriptions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionGroups/{id}/versions", "subscriptionGroups_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionGroupVersions/{id}/localizations",
     "subscriptionGroupVersions_localizations_getToManyRelated", "get_kids"),
    ("GET", "/v2/inAppPurchases/{id}/versions", "inAppPurchasesV2_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/inAppPurchaseVersions/{id}/localizations", "inAppPurchaseVersions_localizations_getToManyRelated",
     "get_kids"),
    ("GET", "/v1/subscriptions/{id}/versions", "subscriptions_versions_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionVersions/{id}/localizations", "subscriptionVersions_localizations_getToManyRelated",
     "get_kids"),
    ("GET", "/v2/inAppPurchases/{id}/inAppPurchaseAvailability",
     "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated", "get_one"),
    ("GET", "/v1/inAppPurchaseAvailabilities/{id}/availableTerritories",
     "inAppPurchaseAvailabilities_availableTerritories_getToManyRelated", "get_available_territories"),
    ("GET", "/v2/inAppPurchases/{id}/iapPriceSchedule", "inAppPurchasesV2_iapPriceSchedule_getToOneRelated", "get_one"),
    ("GET", "/v1/inAppPurchasePriceSchedules/{id}/manualPrices",
     "inAppPurchasePriceSchedules_manualPrices_getToManyRelated", "get_kids"),
    ("GET", "/v2/inAppPurchases/{id}/pricePoints", "inAppPurchasesV2_pricePoints_getToManyRelated", "get_price_points"),
    ("GET", "/v2/inAppPurchases/{id}/appStoreReviewScreenshot",
     "inAppPurchasesV2_appStoreReviewScreenshot_getToOneRelated", "get_one"),
    ("GET", "/v1/subscriptions/{id}/pricePoints", "subscriptions_pricePoints_getToManyRelated", "get_price_points"),
    ("GET", "/v1/subscriptionPricePoints/{id}/equalizations", "subscriptionPricePoints_equalizations_getToManyRelated",
     "get_equalizations"),
    ("GET", "/v1/subscriptions/{id}/prices", "subscriptions_prices_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/introductoryOffers", "subscriptions_introductoryOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/promotionalOffers", "subscriptions_promotionalOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionPromotionalOffers/{id}/prices", "subscriptionPromotionalOffers_prices_getToManyRelated",
     "get_kids"),
    ("GET", "/v1/subscriptions/{id}/offerCodes", "subscriptions_offerCodes_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionOfferCodes/{id}/prices", "subscriptionOfferCodes_prices_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/winBackOffers", "subscriptions_winBackOffers_getToManyRelated", "get_kids"),
    ("GET", "/v1/winBackOffers/{id}/prices", "winBackOffers_prices_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptions/{id}/planAvailabilities", "subscriptions_planAvailabilities_getToManyRelated", "get_kids"),
    ("GET", "/v1/subscriptionPlanAvailabilities/{id}/availableTerritories",
     "subscriptionPlanAvailabilities_availableTerritories_getToManyRelated", "get_available_territories"),
    ("GET", "/v1/subscriptions/{id}/appStoreReviewScreenshot",
     "subscriptions_appStoreReviewScreenshot_getToOneRelated", "get_one"),
    ("POST", "/v2/inAppPurchases", "inAppPurchasesV2_createInstance", "create_iap"),
    ("PATCH", "/v2/inAppPurchases/{id}", "inAppPurchasesV2_updateInstance", "update_iap"),
    ("POST", "/v1/inAppPurchaseVersions", "inAppPurchaseVersions_createInstance", "create_version"),
    ("POST", "/v2/inAppPurchaseLocalizations", "inAppPurchaseLocalizationsV2_createInstance", "create_localization"),
    ("PATCH", "/v2/inAppPurchaseLocalizations/{id}", "inAppPurchaseLocalizationsV2_updateInstance",
     "update_localization"),
    ("DELETE", "/v2/inAppPurchaseLocalizations/{id}", "inAppPurchaseLocalizationsV2_deleteInstance",
     "delete_localization"),
    ("POST", "/v1/inAppPurchaseAvailabilities", "inAppPurchaseAvailabilities_createInstance", "create_iap_availability"),
    ("POST", "/v1/inAppPurchasePriceSchedules", "inAppPurchasePriceSchedules_createInstance", "create_price_schedule"),
    ("POST", "/v1/inAppPurchaseAppStoreReviewScreenshots", "inAppPurchaseAppStoreReviewScreenshots_createInstance",
     "create_screenshot"),
    ("PATCH", "/v1/inAppPurchaseAppStoreReviewScreenshots/{id}", "inAppPurchaseAppStoreReviewScreenshots_updateInstance",
     "update_screenshot"),
    ("DELETE", "/v1/inAppPurchaseAppStoreReviewScreenshots/{id}",
     "inAppPurchaseAppStoreReviewScreenshots_deleteInstance", "delete_plain"),
    ("POST", "/v1/subscriptionGroups", "subscriptionGroups_createInstance", "create_group"),
    ("PATCH", "/v1/subscriptionGroups/{id}", "subscriptionGroups_updateInstance", "update_group"),
    ("POST", "/v1/subscriptionGroupVersions", "subscriptionGroupVersions_createInstance", "create_version"),
    ("POST", "/v2/subscriptionGroupLocalizations", "subscriptionGroupLocalizationsV2_createInstance",
     "create_localization"),
    ("PATCH", "/v2/subscriptionGroupLocalizations/{id}", "subscriptionGroupLocalizationsV2_updateInstance",
     "update_localization"),
    ("DELETE", "/v2/subscriptionGroupLocalizations/{id}", "subscriptionGroupLocalizationsV2_deleteInstance",
     "delete_localization"),
    ("POST", "/v1/subscriptions", "subscriptions_createInstance", "create_subscription"),
    ("PATCH", "/v1/subscriptions/{id}", "subscriptions_updateInstance", "update_subscription"),
    ("POST", "/v1/subscriptionVersions", "subscriptionVersions_createInstance", "create_version"),
    ("POST", "/v2/subscriptionLocalizations", "subscriptionLocalizationsV2_createInstance", "create_localization"),
    ("PATCH", "/v2/subscriptionLocalizations/{id}", "subscriptionLocalizationsV2_updateInstance", "update_localization"),
    ("DELETE", "/v2/subscriptionLocalizations/{id}", "subscriptionLocalizationsV2_deleteInstance", "delete_localization"),
    ("POST", "/v1/subscriptionPlanAvailabilities", "subscriptionPlanAvailabilities_createInstance",
     "create_plan_availability"),
    ("PATCH", "/v1/subscriptionPlanAvailabilities/{id}", "subscriptionPlanAvailabilities_updateInstance",
     "update_plan_availability"),
    ("POST", "/v1/subscriptionPrices", "subscriptionPrices_createInstance", "create_subscription_price"),
    ("POST", "/v1/subscriptionIntroductoryOffers", "subscriptionIntroductoryOffers_createInstance", "create_intro_offer"),
    ("DELETE", "/v1/subscriptionIntroductoryOffers/{id}", "subscriptionIntroductoryOffers_deleteInstance",
     "delete_plain"),
    ("POST", "/v1/subscriptionPromotionalOffers", "subscriptionPromotionalOffers_createInstance", "create_priced_offer"),
    ("PATCH", "/v1/subscriptionPromotionalOffers/{id}", "subscriptionPromotionalOffers_updateInstance",
     "update_promotional_offer"),
    ("DELETE", "/v1/subscriptionPromotionalOffers/{id}", "subscriptionPromotionalOffers_deleteInstance",
     "delete_plain"),
    ("POST", "/v1/subscriptionOfferCodes", "subscriptionOfferCodes_createInstance", "create_priced_offer"),
    ("PATCH", "/v1/subscriptionOfferCodes/{id}", "subscriptionOfferCodes_updateInstance", "update_plain"),
    ("POST", "/v1/winBackOffers", "winBackOffers_createInstance", "create_priced_offer"),
    ("PATCH", "/v1/winBackOffers/{id}", "winBackOffers_updateInstance", "update_plain"),
    ("DELETE", "/v1/winBackOffers/{id}", "winBackOffers_deleteInstance", "delete_plain"),
    ("POST", "/v1/subscriptionAppStoreReviewScreenshots", "subscriptionAppStoreReviewScreenshots_createInstance",
     "create_screenshot"),
    ("PATCH", "/v1/subscriptionAppStoreReviewScreenshots/{id}", "subscriptionAppStoreReviewScreenshots_updateInstance",
     "update_screenshot"),
    ("DELETE", "/v1/subscriptionAppStoreReviewScreenshots/{id}", "subscriptionAppStoreReviewScreenshots_deleteInstance",
     "delete_plain"),
]
OPERATION_IDS = [r[2] for r in ROUTES]
COMPILED_ROUTES = [(m, re.compile("^" + re.sub(r"\{id\}", "([^/]+)", p) + "$"), op, h) for m, p, op, h in ROUTES]

# Where each resource type lives, for links.self.
TYPE_PATH = {
    "apps": "/v1/apps", "territories": "/v1/territories", "inAppPurchases": "/v2/inAppPurchases",
    "inAppPurchaseVersions": "/v1/inAppPurchaseVersions", "inAppPurchaseLocalizations": "/v2/inAppPurchaseLocalizations",
    "inAppPurchaseAvailabilities": "/v1/inAppPurchaseAvailabilities",
    "inAppPurchasePriceSchedules": "/v1/inAppPurchasePriceSchedules", "inAppPurchasePrices": "/v1/inAppPurchasePrices",
    "inAppPurchasePricePoints": "/v1/inAppPurchasePricePoints",
    "inAppPurchaseAppStoreReviewScreenshots": "/v1/inAppPurchaseAppStoreReviewScreenshots",
    "subscriptionGroups": "/v1/subscriptionGroups", "subscriptionGroupVersions": "/v1/subscriptionGroupVersions",
    "subscriptionGroupLocalizations": "/v2/subscriptionGroupLocalizations", "subscriptions": "/v1/subscriptions",
    "subscriptionVersions": "/v1/subscriptionVersions", "subscriptionLocalizations": "/v2/subscriptionLocalizations",
    "subscriptionPlanAvailabilities": "/v1/subscriptionPlanAvailabilities", "subscriptionPrices": "/v1/subscriptionPrices",
    "subscriptionPricePoints": "/v1/subscriptionPricePoints",
    "subscriptionIntroductoryOffers": "/v1/subscriptionIntroductoryOffers",
    "subscriptionPromotionalOffers": "/v1/subscriptionPromotionalOffers",
    "subscriptionPromotionalOfferPrices": "/v1/subscriptionPromotionalOfferPrices",
    "subscriptionOfferCodes": "/v1/subscriptionOfferCodes", "subscriptionOfferCodePrices": "/v1/subscriptionOfferCodePrices",
    "winBackOffers": "/v1/winBackOffers", "winBackOfferPrices": "/v1/winBackOfferPrices",
    "subscriptionAppStoreReviewScreenshots": "/v1/subscriptionAppStoreReviewScreenshots",
}

# Which child list a to-many read returns: operationId -> (parent type, child list name).
KID_LISTS = {
    "subscriptionGroups_subscriptions_getToManyRelated": ("subscriptionGroups", "subscriptions"),
    "subscriptionGroups_versions_getToManyRelated": ("subscriptionGroups", "versions"),
    "subscriptionGroupVersions_localizations_getToManyRelated": ("subscriptionGroupVersions", "localizations"),
    "inAppPurchasesV2_versions_getToManyRelated": ("inAppPurchases", "versions"),
    "inAppPurchaseVersions_localizations_getToManyRelated": ("inAppPurchaseVersions", "localizations"),
    "subscriptions_versions_getToManyRelated": ("subscriptions", "versions"),
    "subscriptionVersions_localizations_getToManyRelated": ("subscriptionVersions", "localizations"),
    "inAppPurchasePriceSchedules_manualPrices_getToManyRelated": ("inAppPurchasePriceSchedules", "manualPrices"),
    "subscriptions_prices_getToManyRelated": ("subscriptions", "prices"),
    "subscriptions_introductoryOffers_getToManyRelated": ("subscriptions", "introductoryOffers"),
    "subscriptions_promotionalOffers_getToManyRelated": ("subscriptions", "promotionalOffers"),
    "subscriptionPromotionalOffers_prices_getToManyRelated": ("subscriptionPromotionalOffers", "prices"),
    "subscriptions_offerCodes_getToManyRelated": ("subscriptions", "offerCodes"),
    "subscriptionOfferCodes_prices_getToManyRelated": ("subscriptionOfferCodes", "prices"),
    "subscriptions_winBackOffers_getToManyRelated": ("subscriptions", "winBackOffers"),
    "winBackOffers_prices_getToManyRelated": ("winBackOffers", "prices"),
    "subscriptions_planAvailabilities_getToManyRelated": ("subscriptions", "planAvailabilities"),
}
# To-one reads: operationId -> (parent type, slot name).
ONE_SLOTS = {
    "inAppPurchasesV2_inAppPurchaseAvailability_getToOneRelated": ("inAppPurchases", "availability"),
    "inAppPurchasesV2_iapPriceSchedule_getToOneRelated": ("inAppPurchases", "priceSchedule"),
    "inAppPurchasesV2_appStoreReviewScreenshot_getToOneRelated": ("inAppPurchases", "screenshot"),
    "subscriptions_appStoreReviewScreenshot_getToOneRelated": ("subscriptions", "screenshot"),
}
# Child lists rendered as relationship data (so `include=` has something to point at).
RENDERED_KIDS = {
    "inAppPurchaseVersions": ["localizations"], "subscriptionVersions": ["localizations"],
    "subscriptionGroupVersions": ["localizations"], "inAppPurchasePriceSchedules": ["manualPrices"],
    "subscriptionPromotionalOffers": ["prices"], "subscriptionOfferCodes": ["prices"], "winBackOffers": ["prices"],
}

VERSION_TYPES = {"inAppPurchaseVersions": ("inAppPurchases", "inAppPurchase", "inAppPurchaseLocalizations"),
                 "subscriptionVersions": ("subscriptions", "subscription", "subscriptionLocalizations"),
                 "subscriptionGroupVersions": ("subscriptionGroups", "subscriptionGroup", "subscriptionGroupLocalizations")}
# A new version can't be created while another one is still on its way through review.
OPEN_VERSION_STATES = {"PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "REJECTED",
                       "DEVELOPER_REJECTED"}
EDITABLE_VERSION_STATES = {"PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "REJECTED", "DEVELOPER_REJECTED"}
# Length limits from the project's reference facts (display name 35, description 55, group name 75, app name 30).
LOCALIZATION_LIMITS = {"inAppPurchaseLocalizations": {"name": 35, "description": 55},
                       "subscriptionLocalizations": {"name": 35, "description": 55},
                       "subscriptionGroupLocalizations": {"name": 75, "customAppName": 30}}
PRODUCT_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
PERIOD_OF = {"ONE_WEEK": 12, "ONE_MONTH": 12, "TWO_MONTHS": 6, "THREE_MONTHS": 4, "SIX_MONTHS": 2, "ONE_YEAR": 1}
UP_FRONT_DURATIONS = {"ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"}
MAX_PROMOTIONAL_OFFERS = 10
SMALL_UPLOAD = 4096  # files above this are reserved in two upload parts
ZERO_DECIMAL = {"JPY", "KRW", "IDR", "VND", "CLP", "COP", "HUF", "ISK", "PYG", "UGX", "TZS", "KZT", "LAK", "MMK", "MGA",
                "RWF", "XOF", "XAF", "IQD", "LBP", "KHR", "MNT", "UZS", "NGN", "PKR", "LKR", "TWD"}

DEFAULT_SETTINGS = {"pageSize": 50, "maxPageSize": None, "maxTokenAgeSeconds": None, "rateLimit": 3600, "rateRemaining": 3600,
                    "autoCreateVersions": False, "assetProcessingReads": 0, "strictOfferRules": True}


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_json(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return json.load(f)


USD_POINTS = [(p["id"], p["usd"]) for p in load_json("usd-price-points.json")["points"]]
USD_BY_ID = dict(USD_POINTS)
LOCALES = set(load_json("locales.json")["locales"])


def synthetic_price(territory, usd):
    """Deterministic local price for a USD point: a per-territory factor, rounded to the currency's precision."""
    if territory == "USA":
        return usd
    cents = int(round(float(usd) * 100))
    if cents == 0:
        return "0.0"
    factor = 0.6 + (int(hashlib.sha256(territory.encode()).hexdigest()[:6], 16) % 1000) / 1000.0
    if CURRENCY[territory] in ZERO_DECIMAL:
        return "%d" % round(cents * factor * 1.5)
    return "%.2f" % (cents * factor / 100.0)


def proceeds(price, share=0.7):
    return "%.2f" % (float(price) * share)


class ApiError(Exception):
    def __init__(self, status, code, title, detail=None, pointer=None, parameter=None, errors=None, headers=None):
        super().__init__(detail or title)
        self.status, self.code, self.title, self.detail = status, code, title, detail
        self.pointer, self.parameter, self.errors, self.headers = pointer, parameter, errors, headers or {}

    def document(self):
        if self.errors is not None:
            return {"errors": self.errors}
        return {"errors": [error_object(self.status, self.code, self.title, self.detail, self.pointer, self.parameter)]}


def error_object(status, code, title, detail=None, pointer=None, parameter=None):
    e = {"id": str(uuid.uuid4()), "status": str(status), "code": code, "title": title}
    if detail:
        e["detail"] = detail
    if pointer is not None:
        e["source"] = {"pointer": pointer}
    elif parameter is not None:
        e["source"] = {"parameter": parameter}
    return e


def entity_error(code, detail, pointer=None, status=409):
    return ApiError(status, code, "The request entity is invalid or conflicts with existing data.", detail, pointer)


def not_found(detail, pointer=None):
    return ApiError(404, "NOT_FOUND", "The specified resource does not exist", detail, pointer)


def state_error(detail, pointer=None):
    return ApiError(409, "STATE_ERROR", "The request cannot be fulfilled because of the state of another resource.",
                    detail, pointer)


# ---------------------------------------------------------------------------------------------- state
class Store:
    """All resources, by type and id. Records are plain JSON so the state can be dumped and reloaded."""

    def __init__(self):
        self.res = {}
        self.kids = {}        # "type/id/name" -> [child ids]
        self.slots = {}       # "type/id/name" -> child id (to-one children: availability, schedule, screenshot)
        self.used_product_ids = {}  # app id -> product ids ever used (never reusable)
        self.uploads = {}     # token -> {"type", "id", "parts": [{offset, length, data(b64)|None}]}
        self.seq = 0
        for code in TERRITORY_CODES:
            self.put({"type": "territories", "id": code, "attributes": {"currency": CURRENCY[code]}, "rels": {}})

    def to_json(self):
        return {"res": self.res, "kids": self.kids, "slots": self.slots, "seq": self.seq,
                "usedProductIds": {k: sorted(v) for k, v in self.used_product_ids.items()}}

    @classmethod
    def from_json(cls, doc):
        s = cls()
        s.res, s.kids, s.slots, s.seq = doc["res"], doc["kids"], doc["slots"], doc["seq"]
        s.used_product_ids = {k: set(v) for k, v in doc["usedProductIds"].items()}
        return s

    def new_id(self, numeric):
        self.seq += 1
        if numeric:
            return str(6400000000 + self.seq)
        return str(uuid.UUID(int=(0x5A5C << 112) | self.seq))

    def put(self, rec):
        rec.setdefault("rels", {})
        self.res.setdefault(rec["type"], {})[rec["id"]] = rec
        return rec

    def get(self, type_, id_):
        return self.res.get(type_, {}).get(id_)

    def need(self, type_, id_, pointer=None):
        rec = self.get(type_, id_)
        if rec is None:
            raise not_found("There is no resource of type '%s' with id '%s'" % (type_, id_), pointer)
        return rec

    def kid_ids(self, rec, name):
        return self.kids.get("%s/%s/%s" % (rec["type"], rec["id"], name), [])

    def kid_recs(self, rec, name, type_=None):
        out = []
        for cid in self.kid_ids(rec, name):
            for t in ([type_] if type_ else self.res):
                c = self.get(t, cid)
                if c is not None:
                    out.append(c)
                    break
        return out

    def add_kid(self, parent, name, rec):
        rec["parent"] = [parent["type"], parent["id"], name]
        self.kids.setdefault("%s/%s/%s" % (parent["type"], parent["id"], name), []).append(rec["id"])
        return self.put(rec)

    def slot(self, parent, name):
        cid = self.slots.get("%s/%s/%s" % (parent["type"], parent["id"], name))
        if cid is None:
            return None
        for t in self.res:
            c = self.get(t, cid)
            if c is not None and c.get("parent", [None, None, None])[2] == name:
                return c
        return None

    def set_slot(self, parent, name, rec):
        old = self.slot(parent, name)
        if old is not None:
            self.remove(old)
        rec["parent"] = [parent["type"], parent["id"], name]
        self.slots["%s/%s/%s" % (parent["type"], parent["id"], name)] = rec["id"]
        return self.put(rec)

    def parent(self, rec):
        p = rec.get("parent")
        return self.get(p[0], p[1]) if p else None

    def remove(self, rec):
        """Deletes a record, its children, and its place in its parent."""
        for key in [k for k in self.kids if k.startswith("%s/%s/" % (rec["type"], rec["id"]))]:
            name = key.rsplit("/", 1)[1]
            for child in self.kid_recs(rec, name):
                self.remove(child)
            self.kids.pop(key, None)
        for key in [k for k in self.slots if k.startswith("%s/%s/" % (rec["type"], rec["id"]))]:
            child = self.slot(rec, key.rsplit("/", 1)[1])
            if child is not None:
                self.remove(child)
            self.slots.pop(key, None)
        p = rec.get("parent")
        if p:
            key = "%s/%s/%s" % (p[0], p[1], p[2])
            if key in self.kids and rec["id"] in self.kids[key]:
                self.kids[key].remove(rec["id"])
            if self.slots.get(key) == rec["id"]:
                del self.slots[key]
        self.res.get(rec["type"], {}).pop(rec["id"], None)
        for token in [t for t, u in self.uploads.items() if u["id"] == rec["id"]]:
            del self.uploads[token]

    def app_of(self, rec):
        while rec is not None and rec["type"] != "apps":
            rec = self.parent(rec)
        return rec


def ref(type_, id_):
    return {"type": type_, "id": id_}


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


class Points:
    """A lazily built list of price points (territories x grid), so a page never materialises 140,000 points."""

    def __init__(self, type_, owner, territories, numbers):
        self.type, self.owner, self.territories, self.numbers = type_, owner, territories, numbers

    def __len__(self):
        return len(self.territories) * len(self.numbers)

    def __getitem__(self, sl):
        n = len(self.numbers)
        return [self.type_rec(self.territories[i // n], self.numbers[i % n]) for i in range(*sl.indices(len(self)))]

    def type_rec(self, territory, number):
        return point_rec(self.type, self.owner, territory, number)


def point_rec(type_, owner, territory, number):
    price = synthetic_price(territory, USD_BY_ID[number])
    attrs = {"customerPrice": price, "proceeds": proceeds(price)}
    if type_ == "subscriptionPricePoints":
        attrs["proceedsYear2"] = proceeds(price, 0.85)
    return {"type": type_, "id": price_point_id(owner, territory, number), "attributes": attrs,
            "rels": {"territory": {"data": ref("territories", territory)}}, "virtual": True}


# ---------------------------------------------------------------------------------------------- the service
class FakeASC:
    def __init__(self, args):
        from cryptography.hazmat.primitives.serialization import load_pem_public_key
        with open(args.public_key, "rb") as f:
            self.public_key = load_pem_public_key(f.read())
        self.key_id, self.issuer_id = args.key_id, args.issuer_id
        self.state_file = args.state_file
        if args.openapi:
            self.contract = contracts.OpenAPIContract(args.openapi, OPERATION_IDS)
        else:
            self.contract = contracts.BuiltinContract()
        self.default_page_size = args.page_size
        self.lock = threading.RLock()
        self.base_url = None
        self.reset()
        if self.state_file and os.path.exists(self.state_file):
            with open(self.state_file, encoding="utf-8") as f:
                self.store = Store.from_json(json.load(f))

    def reset(self):
        with self.lock:
            self.store = Store()
            self.settings = dict(DEFAULT_SETTINGS)
            if self.default_page_size:
                self.settings["pageSize"] = self.default_page_size
            self.faults = []
            self.log = []
            self.asset_reads = {}
            # Committed screenshots' bytes, served at their imageAsset URL (App Store Connect's CDN renders the
            # template; the fake serves the original file).
            self.assets = {}

    def save(self):
        if self.state_file:
            with self.lock:
                text = json.dumps(self.store.to_json())
            tmp = self.state_file + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.state_file)

    # -- rendering
    def render(self, rec, include=()):
        out = {"type": rec["type"], "id": rec["id"]}
        attrs = {k: v for k, v in rec.get("attributes", {}).items() if v is not None}
        if "_shown" in rec:
            attrs["assetDeliveryState"] = rec["_shown"]
        if attrs or rec["type"] != "territories":
            out["attributes"] = attrs
        rels = {}
        for name, value in rec.get("rels", {}).items():
            rels[name] = {"data": value["data"]}
        for name in RENDERED_KIDS.get(rec["type"], []):
            kid_type = None
            ids = self.store.kid_ids(rec, name)
            if ids:
                first = self.find(ids[0])
                kid_type = first["type"] if first else None
            rels[name] = {"data": [ref(kid_type, i) for i in ids] if kid_type else []}
        if rels:
            out["relationships"] = rels
        out["links"] = {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}
        return out

    def find(self, id_):
        for t in self.store.res:
            r = self.store.get(t, id_)
            if r is not None:
                return r
        return None

    def related(self, rec, name):
        """Records a relationship of `rec` points at (for include=)."""
        value = rec.get("rels", {}).get(name)
        refs = []
        if value is not None:
            d = value["data"]
            refs = d if isinstance(d, list) else [d] if d else []
        elif name in RENDERED_KIDS.get(rec["type"], []):
            return self.store.kid_recs(rec, name)
        elif rec.get("parent") and name in ("inAppPurchase", "inAppPurchaseV2", "subscription", "subscriptionGroup",
                                            "group", "version"):
            p = self.store.parent(rec)
            return [p] if p else []
        out = []
        for r in refs:
            if r["type"] in ("inAppPurchasePricePoints", "subscriptionPricePoints"):
                d = decode_price_point(r["id"])
                if d:
                    out.append(point_rec(r["type"], d["s"], d["t"], int(d["p"])))
            else:
                x = self.store.get(r["type"], r["id"])
                if x is not None:
                    out.append(x)
        return out

    def included(self, recs, q):
        names = [n for n in q.get("include", "").split(",") if n]
        seen, out = set(), []
        for rec in recs:
            for name in names:
                for r in self.related(rec, name):
                    key = (r["type"], r["id"])
                    if key not in seen:
                        seen.add(key)
                        out.append(self.render(r))
        return out

    def page(self, items, q, path):
        limit = int(q["limit"]) if "limit" in q else self.settings["pageSize"]
        # App Store Connect may answer with fewer items than asked for; clients must follow links.next.
        page_size = min(limit, self.settings["maxPageSize"] or limit)
        offset = 0
        if "cursor" in q:
            try:
                offset = int(json.loads(b64url_decode(q["cursor"]))["o"])
            except Exception:
                raise ApiError(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value",
                               "'cursor' is not a valid cursor", parameter="cursor")
        chunk = items[offset:offset + page_size]
        data = [self.render(r) for r in chunk]
        query = urllib.parse.urlencode(q, safe="[],")
        doc = {"data": data, "links": {"self": self.base_url + path + ("?" + query if query else "")},
               "meta": {"paging": {"total": len(items), "limit": limit}}}
        if offset + page_size < len(items):
            nq = dict(q)
            nq["cursor"] = b64url(json.dumps({"o": offset + page_size}).encode())
            doc["links"]["next"] = self.base_url + path + "?" + urllib.parse.urlencode(nq, safe="[],")
        inc = self.included(chunk, q)
        if inc:
            doc["included"] = inc
        return doc

    def single(self, rec, q, path):
        doc = {"data": self.render(rec), "links": {"self": self.base_url + path}}
        inc = self.included([rec], q)
        if inc:
            doc["included"] = inc
        return doc

    # -- filters shared by lists
    def filtered(self, recs, q):
        for name, value in q.items():
            m = re.match(r"^filter\[(\w+)\]$", name)
            if not m:
                continue
            field, wanted = m.group(1), set(value.split(","))
            if field == "territory":
                recs = [r for r in recs if self.territory_of(r) in wanted]
            elif field == "planType":
                recs = [r for r in recs if (r.get("attributes", {}).get("planType") or "UPFRONT") in wanted]
            elif field == "subscriptionPricePoint":
                recs = [r for r in recs if r["rels"].get("subscriptionPricePoint", {}).get("data", {}).get("id") in wanted]
            elif field == "id":
                recs = [r for r in recs if r["id"] in wanted]
            else:
                recs = [r for r in recs if str(r.get("attributes", {}).get(field)) in wanted]
        return recs

    def territory_of(self, rec):
        t = rec.get("rels", {}).get("territory", {}).get("data")
        if t:
            return t["id"]
        if rec["type"] in ("subscriptionPromotionalOffers", "subscriptionOfferCodes"):
            return None
        return None

    # ------------------------------------------------------------------------------------------ reads
    def get_apps(self, c):
        apps = list(self.store.res.get("apps", {}).values())
        return 200, self.page(self.filtered(apps, c.q), c.q, c.path)

    def get_territories(self, c):
        return 200, self.page(list(self.store.res["territories"].values()), c.q, c.path)

    def get_app_iaps(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"), c.q), c.q,
                              c.path)

    def get_app_groups(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"), c.q),
                              c.q, c.path)

    def get_kids(self, c):
        parent_type, name = KID_LISTS[c.op]
        parent = self.store.need(parent_type, c.id)
        recs = self.store.kid_recs(parent, name)
        if "filter[territory]" in c.q and c.op in ("subscriptions_promotionalOffers_getToManyRelated",
                                                   "subscriptions_offerCodes_getToManyRelated"):
            wanted = set(c.q["filter[territory]"].split(","))
            recs = [r for r in recs if any(self.territory_of(p) in wanted for p in self.store.kid_recs(r, "prices"))]
            q = {k: v for k, v in c.q.items() if k != "filter[territory]"}
            return 200, self.page(self.filtered(recs, q), c.q, c.path)
        return 200, self.page(self.filtered(recs, c.q), c.q, c.path)

    def get_one(self, c):
        parent_type, slot = ONE_SLOTS[c.op]
        parent = self.store.need(parent_type, c.id)
        rec = self.store.slot(parent, slot)
        if rec is None:
            raise not_found("The %s has no %s" % (parent_type[:-1], slot))
        if slot == "screenshot":
            self.processing_view(rec)
        return 200, self.single(rec, c.q, c.path)

    def get_available_territories(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        ids = [r["id"] for r in rec["rels"]["availableTerritories"]["data"]]
        return 200, self.page([self.store.get("territories", i) for i in ids], c.q, c.path)

    def get_price_points(self, c):
        if c.op.startswith("inAppPurchases"):
            owner, type_ = self.store.need("inAppPurchases", c.id), "inAppPurchasePricePoints"
            numbers = [n for n, _ in USD_POINTS]
        else:
            owner, type_ = self.store.need("subscriptions", c.id), "subscriptionPricePoints"
            numbers = [n for n, _ in USD_POINTS if n != 10000]  # subscriptions can't be free
        territories = TERRITORY_CODES
        if "filter[territory]" in c.q:
            wanted = set(c.q["filter[territory]"].split(","))
            unknown = wanted - set(CURRENCY)
            if unknown:
                raise ApiError(400, "PARAMETER_ERROR.INVALID", "A parameter has an invalid value",
                               "unknown territory %s" % ", ".join(sorted(unknown)), parameter="filter[territory]")
            territories = [t for t in TERRITORY_CODES if t in wanted]
        return 200, self.page(Points(type_, owner["id"], territories, numbers), c.q, c.path)

    def get_equalizations(self, c):
        d = decode_price_point(c.id)
        if d is None or self.store.get("subscriptions", d["s"]) is None:
            raise not_found("There is no subscription price point with id '%s'" % c.id)
        territories = [t for t in TERRITORY_CODES if t != d["t"]]
        if "filter[territory]" in c.q:
            wanted = set(c.q["filter[territory]"].split(","))
            territories = [t for t in territories if t in wanted]
        return 200, self.page(Points("subscriptionPricePoints", d["s"], territories, [int(d["p"])]), c.q, c.path)

    # ------------------------------------------------------------------------------------------ helpers for writes
    def rel_id(self, data, name, type_=None):
        r = (data.get("relationships") or {}).get(name)
        if not r or not r.get("data"):
            return None
        return r["data"]["id"]

    def rel_ids(self, data, name):
        r = (data.get("relationships") or {}).get(name)
        return [x["id"] for x in r["data"]] if r and isinstance(r.get("data"), list) else []

    def related_need(self, data, name, type_):
        id_ = self.rel_id(data, name)
        return self.store.need(type_, id_, "/data/relationships/%s" % name)

    def check_update_id(self, c):
        if c.body["data"].get("id") != c.id:
            raise entity_error("ENTITY_ERROR.ID.INVALID", "The id in the request body doesn't match the URL",
                               "/data/id")

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
        if len(name) > 64:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The reference name can't be longer than 64 characters",
                               "/data/attributes/name")
        for p in self.products_of(app):
            if p["id"] != exclude and p["attributes"]["name"] == name:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "The reference name '%s' is already used in this app" % name, "/data/attributes/name")

    def check_review_note(self, attrs):
        if len(attrs.get("reviewNote") or "") > 4000:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "The review note can't be longer than 4000 characters",
                               "/data/attributes/reviewNote")

    def created(self, rec, c):
        return 201, {"data": self.render(rec), "links": {"self": self.base_url + TYPE_PATH[rec["type"]] + "/" + rec["id"]}}

    def updated(self, rec, c):
        return 200, {"data": self.render(rec), "links": {"self": self.base_url + c.path}}

    # ------------------------------------------------------------------------------------------ in-app purchases
    def create_iap(self, c):
        data = c.body["data"]
        a = data["attributes"]
        app = self.related_need(data, "app", "apps")
        self.check_product_id(app, a["productId"])
        self.check_reference_name(app, a["name"])
        self.check_review_note(a)
        if a.get("familySharable") and a["inAppPurchaseType"] != "NON_CONSUMABLE":
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "Family Sharing is only available for non-consumables and auto-renewable subscriptions",
                               "/data/attributes/familySharable")
        rec = self.new_iap(app, a)
        return self.created(rec, c)

    def new_iap(self, app, a, state="MISSING_METADATA"):
        rec = {"type": "inAppPurchases", "id": self.store.new_id(True),
               "attributes": {"name": a["name"], "productId": a["productId"],
                              "inAppPurchaseType": a["inAppPurchaseType"], "state": state,
                              "reviewNote": a.get("reviewNote"), "familySharable": bool(a.get("familySharable")),
                              "contentHosting": False}, "rels": {}}
        self.product_ids_in_app(app).add(a["productId"])
        self.store.add_kid(app, "inAppPurchases", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("inAppPurchaseVersions", rec)
        return rec

    def update_iap(self, c):
        self.check_update_id(c)
        rec = self.store.need("inAppPurchases", c.id)
        a = c.body["data"].get("attributes") or {}
        app = self.store.app_of(rec)
        if a.get("name") is not None:
            self.check_reference_name(app, a["name"], rec["id"])
        self.check_review_note(a)
        self.check_family_sharing(rec, a, rec["attributes"]["inAppPurchaseType"] == "NON_CONSUMABLE")
        for k in ("name", "reviewNote", "familySharable"):
            if k in a and (a[k] is not None or k == "reviewNote"):
                rec["attributes"][k] = a[k]
        return self.updated(rec, c)

    def check_family_sharing(self, rec, a, allowed):
        if "familySharable" not in a or a["familySharable"] is None:
            return
        if rec["attributes"].get("familySharable") and not a["familySharable"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "Family Sharing can't be turned off once it is on",
                               "/data/attributes/familySharable")
        if a["familySharable"] and not allowed:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "Family Sharing is only available for non-consumables and auto-renewable subscriptions",
                               "/data/attributes/familySharable")

    # -- versions and localizations (in-app purchases, subscriptions, groups)
    def create_version(self, c):
        data = c.body["data"]
        parent_type, rel, _ = VERSION_TYPES[data["type"]]
        parent = self.related_need(data, rel, parent_type)
        for v in self.store.kid_recs(parent, "versions"):
            if v["attributes"]["state"] in OPEN_VERSION_STATES:
                raise state_error("Version %d is still %s; a new version can be created once it is approved"
                                  % (v["attributes"]["version"], v["attributes"]["state"]),
                                  "/data/relationships/%s" % rel)
        return self.created(self.new_version(data["type"], parent), c)

    def new_version(self, type_, parent, state="PREPARE_FOR_SUBMISSION"):
        versions = self.store.kid_recs(parent, "versions")
        _, rel, loc_type = VERSION_TYPES[type_]
        rec = {"type": type_, "id": self.store.new_id(False),
               "attributes": {"version": len(versions) + 1, "state": state},
               "rels": {rel: {"data": ref(parent["type"], parent["id"])}}}
        self.store.add_kid(parent, "versions", rec)
        if versions:  # a new version starts from the latest version's localized metadata
            for loc in self.store.kid_recs(versions[-1], "localizations"):
                self.new_localization(loc_type, rec, {k: v for k, v in loc["attributes"].items() if k != "state"})
        return rec

    def new_localization(self, type_, version, a):
        rec = {"type": type_, "id": self.store.new_id(False),
               "attributes": dict(a, state="PREPARE_FOR_SUBMISSION"), "rels": {}}
        return self.store.add_kid(version, "localizations", rec)

    def check_version_editable(self, version):
        if version["attributes"]["state"] not in EDITABLE_VERSION_STATES:
            raise state_error("Version %d is %s and can't be edited; create a new version"
                              % (version["attributes"]["version"], version["attributes"]["state"]),
                              "/data/relationships/version")

    def check_localization_lengths(self, type_, a):
        for field, most in LOCALIZATION_LIMITS[type_].items():
            if len(a.get(field) or "") > most:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "'%s' can't be longer than %d characters" % (field, most),
                                   "/data/attributes/%s" % field)

    def create_localization(self, c):
        data = c.body["data"]
        a = data["attributes"]
        version_type = {"inAppPurchaseLocalizations": "inAppPurchaseVersions",
                        "subscriptionLocalizations": "subscriptionVersions",
                        "subscriptionGroupLocalizations": "subscriptionGroupVersions"}[data["type"]]
        version = self.related_need(data, "version", version_type)
        self.check_version_editable(version)
        if a["locale"] not in LOCALES:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "'%s' is not a supported locale" % a["locale"],
                               "/data/attributes/locale")
        if any(l["attributes"]["locale"] == a["locale"] for l in self.store.kid_recs(version, "localizations")):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "This version already has a localization for '%s'" % a["locale"],
                               "/data/attributes/locale")
        self.check_localization_lengths(data["type"], a)
        return self.created(self.new_localization(data["type"], version, {k: v for k, v in a.items()}), c)

    def localization_and_version(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        return rec, self.store.parent(rec)

    def update_localization(self, c):
        self.check_update_id(c)
        rec, version = self.localization_and_version(c)
        self.check_version_editable(version)
        a = c.body["data"].get("attributes") or {}
        self.check_localization_lengths(rec["type"], a)
        for k, v in a.items():
            if v is not None or k != "name":
                rec["attributes"][k] = v
        return self.updated(rec, c)

    def delete_localization(self, c):
        rec, version = self.localization_and_version(c)
        self.check_version_editable(version)
        self.store.remove(rec)
        return 204, None

    # -- availability and prices of in-app purchases
    def territories_of(self, data, name):
        ids = self.rel_ids(data, name)
        for i, t in enumerate(ids):
            if t not in CURRENCY:
                raise not_found("There is no territory '%s'" % t, "/data/relationships/%s/data/%d" % (name, i))
        if len(set(ids)) != len(ids):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "A territory is listed twice",
                               "/data/relationships/%s" % name)
        return ids

    def create_iap_availability(self, c):
        data = c.body["data"]
        iap = self.related_need(data, "inAppPurchase", "inAppPurchases")
        ids = self.territories_of(data, "availableTerritories")
        rec = {"type": "inAppPurchaseAvailabilities", "id": self.store.new_id(False),
               "attributes": {"availableInNewTerritories": data["attributes"]["availableInNewTerritories"]},
               "rels": {"availableTerritories": {"data": [ref("territories", t) for t in ids]}}}
        self.store.set_slot(iap, "availability", rec)  # replaces the previous availability
        return self.created(rec, c)

    def inline(self, c, rel_name, item_type):
        """The included resources a create request defines inline, matched to the relationship that lists them."""
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

    def owned_point(self, point_id, owner, point_type, pointer):
        d = decode_price_point(point_id or "")
        if d is None:
            raise not_found("There is no %s with id '%s'" % (point_type, point_id), pointer)
        if d["s"] != owner["id"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The price point belongs to a different product", pointer)
        return d

    def create_price_schedule(self, c):
        data = c.body["data"]
        iap = self.related_need(data, "inAppPurchase", "inAppPurchases")
        base = self.rel_id(data, "baseTerritory")
        if base not in CURRENCY:
            raise not_found("There is no territory '%s'" % base, "/data/relationships/baseTerritory")
        prices, seen = [], set()
        for i, item in self.inline(c, "manualPrices", "inAppPurchasePrices"):
            rels = item.get("relationships") or {}
            pointer = "/included/%d/relationships/inAppPurchasePricePoint" % i
            point_id = (rels.get("inAppPurchasePricePoint") or {}).get("data", {}) or {}
            if not point_id:
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "A price needs a price point", pointer)
            d = self.owned_point(point_id.get("id"), iap, "inAppPurchasePricePoints", pointer)
            owner_ref = (rels.get("inAppPurchaseV2") or {}).get("data")
            if owner_ref and owner_ref.get("id") != iap["id"]:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "The price belongs to a different in-app purchase",
                                   "/included/%d/relationships/inAppPurchaseV2" % i)
            attrs = item.get("attributes") or {}
            key = (d["t"], attrs.get("startDate"))
            if key in seen:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID",
                                   "Two prices for %s start on the same date" % d["t"], "/included/%d" % i)
            seen.add(key)
            if d["p"] == "10000" and iap["attributes"]["inAppPurchaseType"] != "NON_CONSUMABLE":
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Only non-consumables can be free", pointer)
            prices.append((d, attrs))
        if (base, None) not in seen:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The schedule needs a current price (no start date) for its base territory %s" % base,
                               "/data/relationships/baseTerritory")
        return self.created(self.new_price_schedule(iap, base, prices), c)

    def new_price_schedule(self, iap, base, prices):
        rec = {"type": "inAppPurchasePriceSchedules", "id": iap["id"], "attributes": {},
               "rels": {"baseTerritory": {"data": ref("territories", base)}}}
        self.store.set_slot(iap, "priceSchedule", rec)  # replaces the previous schedule and its prices
        for d, attrs in prices:
            self.store.add_kid(rec, "manualPrices", {
                "type": "inAppPurchasePrices", "id": self.store.new_id(False),
                "attributes": {"startDate": attrs.get("startDate"), "endDate": attrs.get("endDate"), "manual": True},
                "rels": {"inAppPurchasePricePoint": {"data": ref("inAppPurchasePricePoints",
                                                                 price_point_id(iap["id"], d["t"], d["p"]))},
                         "territory": {"data": ref("territories", d["t"])}}})
        return rec

    # -- review screenshots and uploads
    def create_screenshot(self, c):
        data = c.body["data"]
        a = data["attributes"]
        if data["type"] == "inAppPurchaseAppStoreReviewScreenshots":
            owner = self.related_need(data, "inAppPurchaseV2", "inAppPurchases")
        else:
            owner = self.related_need(data, "subscription", "subscriptions")
        if self.store.slot(owner, "screenshot") is not None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "This product already has a review screenshot; delete it first",
                               "/data/relationships")
        if a["fileSize"] <= 0:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileSize must be positive", "/data/attributes/fileSize")
        if not a["fileName"] or "/" in a["fileName"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileName must be a plain file name",
                               "/data/attributes/fileName")
        rec = {"type": data["type"], "id": self.store.new_id(False),
               "attributes": {"fileSize": a["fileSize"], "fileName": a["fileName"],
                              "assetDeliveryState": {"state": "AWAITING_UPLOAD", "errors": [], "warnings": []}},
               "rels": {}}
        token = uuid.uuid4().hex
        size = a["fileSize"]
        cuts = [0, size] if size <= SMALL_UPLOAD else [0, size // 2, size]
        parts = [{"offset": cuts[i], "length": cuts[i + 1] - cuts[i], "data": None} for i in range(len(cuts) - 1)]
        self.store.uploads[token] = {"type": rec["type"], "id": rec["id"], "parts": parts}
        rec["attributes"]["uploadOperations"] = [
            {"method": "PUT", "url": "%s/__upload/%s/%d" % (self.base_url, token, i), "length": p["length"],
             "offset": p["offset"], "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"}]}
            for i, p in enumerate(parts)]
        self.store.set_slot(owner, "screenshot", rec)
        return self.created(rec, c)

    def receive_upload(self, token, index, headers, body):
        with self.lock:
            upload = self.store.uploads.get(token)
            if upload is None or not 0 <= index < len(upload["parts"]):
                return 404, "unknown upload"
            part = upload["parts"][index]
            if headers.get("Content-Type") != "application/octet-stream":
                return 400, "the upload operation requires Content-Type: application/octet-stream"
            if len(body) != part["length"]:
                return 400, "expected %d bytes, received %d" % (part["length"], len(body))
            part["data"] = base64.b64encode(body).decode()
            return 200, ""

    def update_screenshot(self, c):
        self.check_update_id(c)
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        a = c.body["data"].get("attributes") or {}
        if not a.get("uploaded"):
            return self.updated(rec, c)
        if rec["attributes"]["assetDeliveryState"]["state"] != "AWAITING_UPLOAD":
            raise state_error("This screenshot has already been committed")
        if not a.get("sourceFileChecksum"):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.REQUIRED", "Committing an upload needs sourceFileChecksum",
                               "/data/attributes/sourceFileChecksum")
        token = next((t for t, u in self.store.uploads.items() if u["id"] == rec["id"]), None)
        parts = self.store.uploads.pop(token)["parts"] if token else []
        errors = []
        missing = [i for i, p in enumerate(parts) if p["data"] is None]
        if missing or not parts:
            errors.append({"code": "UPLOAD_INCOMPLETE", "description": "upload parts %s never arrived" % missing})
            blob = b""
        else:
            blob = b"".join(base64.b64decode(p["data"]) for p in parts)
            if hashlib.md5(blob).hexdigest() != a["sourceFileChecksum"].lower():
                errors.append({"code": "CHECKSUM_MISMATCH",
                               "description": "sourceFileChecksum does not match the MD5 of the uploaded file"})
        rec["attributes"]["sourceFileChecksum"] = a["sourceFileChecksum"]
        if errors:
            rec["attributes"]["assetDeliveryState"] = {"state": "FAILED", "errors": errors, "warnings": []}
        else:
            w, h = image_size(blob)
            rec["attributes"]["assetDeliveryState"] = {"state": "COMPLETE", "errors": [], "warnings": []}
            rec["attributes"]["imageAsset"] = {"templateUrl": "%s/__assets/%s/{w}x{h}bb.{f}" % (self.base_url, rec["id"]),
                                               "width": w, "height": h}
            rec["attributes"]["assetToken"] = "fake/%s" % rec["id"]
            self.assets[rec["id"]] = blob
        rec["attributes"].pop("uploadOperations", None)
        self.asset_reads[rec["id"]] = self.settings["assetProcessingReads"]
        self.processing_view(rec)
        return self.updated(rec, c)

    def processing_view(self, rec):
        """While `assetProcessingReads` reads remain, a committed asset still shows UPLOAD_COMPLETE."""
        left = self.asset_reads.get(rec["id"], 0)
        if left > 0:
            self.asset_reads[rec["id"]] = left - 1
            rec["_shown"] = {"state": "UPLOAD_COMPLETE", "errors": [], "warnings": []}
        else:
            rec.pop("_shown", None)

    def delete_plain(self, c):
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        self.store.remove(rec)
        return 204, None

    def update_plain(self, c):
        self.check_update_id(c)
        type_ = c.path.split("/")[2]
        rec = self.store.need(type_, c.id)
        a = c.body["data"].get("attributes") or {}
        r = a.get("customerEligibilityTimeSinceLastSubscribedInMonths")
        if r and r.get("minimum", 0) > r.get("maximum", r.get("minimum", 0)):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "minimum is above maximum",
                               "/data/attributes/customerEligibilityTimeSinceLastSubscribedInMonths")
        for k, v in a.items():
            if v is not None:
                rec["attributes"][k] = v
        return self.updated(rec, c)

    # ------------------------------------------------------------------------------------------ subscriptions
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
        self.product_ids_in_app(app).add(a["productId"])
        self.store.add_kid(group, "subscriptions", rec)
        if self.settings["autoCreateVersions"]:
            self.new_version("subscriptionVersions", rec)
        return rec

    def update_subscription(self, c):
        self.check_update_id(c)
        rec = self.store.need("subscriptions", c.id)
        if c.body["data"].get("relationships") or c.body.get("included"):
            raise ApiError(500, "FAKE_UNSUPPORTED", "The fake does not implement this request",
                           "Creating offers or prices through PATCH /v1/subscriptions is not implemented by the fake")
        a = c.body["data"].get("attributes") or {}
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
        for k in ("name", "familySharable", "subscriptionPeriod", "reviewNote", "groupLevel"):
            if k in a and (a[k] is not None or k == "reviewNote"):
                rec["attributes"][k] = a[k]
        return self.updated(rec, c)

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
        return self.updated(rec, c)

    def priced_point(self, sub, rels, pointer, territory=None):
        """Checks a (territory, subscriptionPricePoint) pair against the subscription; returns (territory, point id)."""
        point = ((rels.get("subscriptionPricePoint") or {}).get("data") or {}).get("id")
        t_ref = ((rels.get("territory") or {}).get("data") or {}).get("id")
        if t_ref is not None and t_ref not in CURRENCY:
            raise not_found("There is no territory '%s'" % t_ref, pointer + "/territory")
        if point is None:
            return t_ref, None
        d = self.owned_point(point, sub, "subscriptionPricePoints", pointer + "/subscriptionPricePoint")
        if t_ref is not None and t_ref != d["t"]:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "The price point is for %s, not %s" % (d["t"], t_ref), pointer + "/territory")
        return d["t"], point

    def create_subscription_price(self, c):
        data = c.body["data"]
        sub = self.related_need(data, "subscription", "subscriptions")
        a = data.get("attributes") or {}
        territory, point = self.priced_point(sub, data["relationships"], "/data/relationships")
        # The standard plan bills the whole period up front; MONTHLY is the 12-month commitment paid monthly.
        plan = a.get("planType") or "UPFRONT"
        for old in self.store.kid_recs(sub, "prices"):
            if (self.territory_of(old), old["attributes"].get("startDate"), old["attributes"].get("planType")) == \
                    (territory, a.get("startDate"), plan):
                self.store.remove(old)  # same territory and start date: the new price replaces it
        rec = self.new_subscription_price(sub, territory, point, a.get("startDate"), plan,
                                          bool(a.get("preserveCurrentPrice")))
        return self.created(rec, c)

    def new_subscription_price(self, sub, territory, point, start=None, plan="UPFRONT", preserved=False):
        rec = {"type": "subscriptionPrices", "id": self.store.new_id(False),
               "attributes": {"startDate": start, "preserved": preserved, "planType": plan},
               "rels": {"territory": {"data": ref("territories", territory)},
                        "subscriptionPricePoint": {"data": ref("subscriptionPricePoints", point)}}}
        return self.store.add_kid(sub, "prices", rec)

    def check_offer_rules(self, sub, a, periods_field="numberOfPeriods"):
        if not self.settings["strictOfferRules"]:
            return
        mode, duration, n = a["offerMode"], a["duration"], a[periods_field]
        pointer = "/data/attributes/"
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
            period = sub["attributes"].get("subscriptionPeriod")
            if period is None:
                raise state_error("Set the subscription's duration before creating pay-as-you-go offers")
            if duration != period:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "Pay as you go offers are billed every %s" % period, pointer + "duration")
            if n > PERIOD_OF[period]:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "At most %d periods for a %s subscription" % (PERIOD_OF[period], period),
                                   pointer + periods_field)

    def create_intro_offer(self, c):
        data = c.body["data"]
        a = data["attributes"]
        sub = self.related_need(data, "subscription", "subscriptions")
        territory, point = self.priced_point(sub, data["relationships"], "/data/relationships")
        if territory is None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED", "An introductory offer is set per territory",
                               "/data/relationships/territory")
        self.check_offer_rules(sub, a)
        if a["offerMode"] != "FREE_TRIAL" and point is None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.REQUIRED", "A paid offer needs a price point",
                               "/data/relationships/subscriptionPricePoint")
        for old in self.store.kid_recs(sub, "introductoryOffers"):
            if self.territory_of(old) == territory:
                raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID.DUPLICATE",
                                   "The subscription already has an introductory offer in %s" % territory,
                                   "/data/relationships/territory")
        rels = {"territory": {"data": ref("territories", territory)}}
        if point:
            rels["subscriptionPricePoint"] = {"data": ref("subscriptionPricePoints", point)}
        rec = {"type": "subscriptionIntroductoryOffers", "id": self.store.new_id(False),
               "attributes": {k: a.get(k) for k in ("startDate", "endDate", "duration", "offerMode", "numberOfPeriods",
                                                   "targetSubscriptionPlanType")}, "rels": rels}
        self.store.add_kid(sub, "introductoryOffers", rec)
        return self.created(rec, c)

    def offer_prices(self, c, sub, price_type, mode):
        out, seen = [], set()
        for i, item in self.inline(c, "prices", price_type):
            territory, point = self.priced_point(sub, item.get("relationships") or {}, "/included/%d/relationships" % i)
            if territory is None:
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "An offer price needs a territory",
                                   "/included/%d/relationships/territory" % i)
            if point is None and mode != "FREE_TRIAL":
                raise entity_error("ENTITY_ERROR.INCLUDED.RELATIONSHIP.REQUIRED", "A paid offer price needs a price point",
                                   "/included/%d/relationships/subscriptionPricePoint" % i)
            if territory in seen:
                raise entity_error("ENTITY_ERROR.INCLUDED.INVALID", "Two prices for %s" % territory, "/included/%d" % i)
            seen.add(territory)
            out.append((territory, point))
        return out

    def add_offer_prices(self, offer, price_type, prices):
        for territory, point in prices:
            rels = {"territory": {"data": ref("territories", territory)}}
            if point:
                rels["subscriptionPricePoint"] = {"data": ref("subscriptionPricePoints", point)}
            self.store.add_kid(offer, "prices", {"type": price_type, "id": self.store.new_id(False), "attributes": {},
                                                 "rels": rels})

    def create_priced_offer(self, c):
        data = c.body["data"]
        a = data["attributes"]
        sub = self.related_need(data, "subscription", "subscriptions")
        type_ = data["type"]
        kind = {"subscriptionPromotionalOffers": ("promotionalOffers", "subscriptionPromotionalOfferPrices"),
                "subscriptionOfferCodes": ("offerCodes", "subscriptionOfferCodePrices"),
                "winBackOffers": ("winBackOffers", "winBackOfferPrices")}[type_]
        siblings = self.store.kid_recs(sub, kind[0])
        if type_ == "subscriptionPromotionalOffers":
            if len(siblings) >= MAX_PROMOTIONAL_OFFERS:
                raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                                   "A subscription can have at most %d promotional offers" % MAX_PROMOTIONAL_OFFERS,
                                   "/data/relationships/subscription")
            if any(o["attributes"]["offerCode"] == a["offerCode"] for o in siblings):
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "The offer identifier '%s' is already used by this subscription" % a["offerCode"],
                                   "/data/attributes/offerCode")
            self.check_offer_rules(sub, a)
        elif type_ == "winBackOffers":
            if any(o["attributes"]["offerId"] == a["offerId"] for o in siblings):
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                                   "The offer identifier '%s' is already used by this subscription" % a["offerId"],
                                   "/data/attributes/offerId")
            r = a["customerEligibilityTimeSinceLastSubscribedInMonths"]
            if r.get("minimum", 0) > r.get("maximum", r.get("minimum", 0)):
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "minimum is above maximum",
                                   "/data/attributes/customerEligibilityTimeSinceLastSubscribedInMonths")
            self.check_offer_rules(sub, a, "periodCount")
        else:
            if not a["customerEligibilities"]:
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "Choose at least one customer eligibility",
                                   "/data/attributes/customerEligibilities")
            self.check_offer_rules(sub, a)
        prices = self.offer_prices(c, sub, kind[1], a["offerMode"])
        attrs = {k: v for k, v in a.items()}
        if type_ == "subscriptionOfferCodes":
            attrs.update({"active": True, "totalNumberOfCodes": 0, "productionCodeCount": 0, "sandboxCodeCount": 0})
        rec = {"type": type_, "id": self.store.new_id(False), "attributes": attrs, "rels": {}}
        if type_ == "subscriptionPromotionalOffers":
            rec["rels"]["subscription"] = {"data": ref("subscriptions", sub["id"])}
        self.store.add_kid(sub, kind[0], rec)
        self.add_offer_prices(rec, kind[1], prices)
        return self.created(rec, c)

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

    # ------------------------------------------------------------------------------------------ seeding
    def seed(self, doc):
        """Creates resources directly (no validation), as App Store Connect would already hold them."""
        app = self.store.get("apps", doc.get("appId", "")) or next(
            (a for a in self.store.res.get("apps", {}).values() if a["attributes"]["bundleId"] == doc.get("bundleId")),
            None)
        if app is None:
            raise ValueError("seed needs the appId or bundleId of an app created with POST /__fake/apps")
        out = {"inAppPurchases": {}, "subscriptionGroups": {}, "subscriptions": {}}
        for pid in doc.get("deletedProductIds", []):
            self.product_ids_in_app(app).add(pid)
        for p in doc.get("inAppPurchases", []):
            rec = self.new_iap(app, p, p.get("state", "APPROVED"))
            out["inAppPurchases"][p["productId"]] = rec["id"]
            self.seed_metadata("inAppPurchaseVersions", rec, p)
            prices = [(self.seed_point(rec, x), {"startDate": x.get("startDate")}) for x in p.get("prices", [])]
            if prices:
                base = p.get("baseTerritory") or prices[0][0]["t"]
                self.new_price_schedule(rec, base, prices)
            av = p.get("availability")
            if av is not None:
                self.store.set_slot(rec, "availability", {
                    "type": "inAppPurchaseAvailabilities", "id": self.store.new_id(False),
                    "attributes": {"availableInNewTerritories": bool(av.get("availableInNewTerritories"))},
                    "rels": {"availableTerritories": {"data": [ref("territories", t) for t in av.get("territories", [])]}}})
        for g in doc.get("subscriptionGroups", []):
            group = self.new_group(app, g["referenceName"])
            out["subscriptionGroups"][g["referenceName"]] = group["id"]
            self.seed_metadata("subscriptionGroupVersions", group, g)
            for s in g.get("subscriptions", []):
                sub = self.new_subscription(group, s, s.get("state", "APPROVED"))
                out["subscriptions"][s["productId"]] = sub["id"]
                self.seed_metadata("subscriptionVersions", sub, s)
                for x in s.get("prices", []):
                    d = self.seed_point(sub, x)
                    self.new_subscription_price(sub, d["t"], price_point_id(sub["id"], d["t"], d["p"]),
                                                x.get("startDate"))
        return out

    def seed_point(self, owner, x):
        territory = x.get("territory", "USA")
        number = x.get("pricePoint")
        if number is None:
            usd = x.get("usd") or x.get("customerPrice")
            number = next(n for n, p in USD_POINTS if float(p) == float(usd))
        return {"s": owner["id"], "t": territory, "p": str(number)}

    def seed_metadata(self, version_type, parent, spec):
        locs = spec.get("localizations")
        if locs is None and "versionState" not in spec:
            return
        if self.store.kid_ids(parent, "versions"):
            version = self.store.kid_recs(parent, "versions")[-1]
            version["attributes"]["state"] = spec.get("versionState", "APPROVED")
        else:
            version = self.new_version(version_type, parent, spec.get("versionState", "APPROVED"))
        loc_type = VERSION_TYPES[version_type][2]
        for l in locs or []:
            rec = self.new_localization(loc_type, version, l)
            rec["attributes"]["state"] = "APPROVED" if version["attributes"]["state"] == "APPROVED" else \
                "PREPARE_FOR_SUBMISSION"


def image_size(blob):
    """Width and height of a PNG or JPEG, or 0x0 for anything else."""
    if blob[:8] == b"\x89PNG\r\n\x1a\n" and len(blob) >= 24:
        return struct.unpack(">II", blob[16:24])
    if blob[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(blob):
            if blob[i] != 0xFF:
                break
            marker, length = blob[i + 1], struct.unpack(">H", blob[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", blob[i + 5:i + 9])
                return w, h
            i += 2 + length
    return 0, 0


# ---------------------------------------------------------------------------------------------- HTTP
class Call:
    __slots__ = ("op", "id", "q", "body", "path", "method")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAppStoreConnect/1"

    def log_message(self, fmt, *args):  # quiet: the request log is at /__fake/requests
        pass

    def do_GET(self):
        self.server.app_handle(self)

    do_POST = do_PATCH = do_DELETE = do_PUT = do_GET


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, fake):
        self.fake = fake
        super().__init__(("127.0.0.1", 0 if fake.port is None else fake.port), Handler)

    def app_handle(self, h):
        try:
            Dispatcher(self.fake, h).run()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Dispatcher:
    def __init__(self, fake, h):
        self.fake, self.h = fake, h

    def send(self, status, doc=None, headers=None, raw=None):
        h = self.h
        payload = raw if raw is not None else (json.dumps(doc).encode() if doc is not None else b"")
        h.send_response(status)
        if doc is not None:
            h.send_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        if payload and h.command != "HEAD":
            h.wfile.write(payload)

    def read_body(self):
        n = int(self.h.headers.get("Content-Length") or 0)
        return self.h.rfile.read(n) if n else b""

    def run(self):
        fake = self.fake
        url = urllib.parse.urlsplit(self.h.path)
        path = url.path
        method = self.h.command
        body = self.read_body()
        if path.startswith("/__fake/"):
            return self.control(method, path, url.query, body)
        if path.startswith("/__assets/") and method == "GET":
            blob = fake.assets.get(path.split("/")[2])
            if blob is None:
                return self.send(404, raw=b"no such asset", headers={"Content-Type": "text/plain"})
            return self.send(200, raw=blob, headers={"Content-Type": "application/octet-stream"})
        if path.startswith("/__upload/"):
            parts = path.split("/")
            status, msg = fake.receive_upload(parts[2], int(parts[3]) if len(parts) > 3 and parts[3].isdigit() else -1,
                                              self.h.headers, body) if method == "PUT" else (405, "PUT only")
            with fake.lock:
                fake.log.append({"method": method, "path": path, "query": {}, "status": status, "write": True,
                                 "operation": "upload"})
            return self.send(status, raw=msg.encode(), headers={"Content-Type": "text/plain"})
        pairs = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
        q = {}
        for k, v in pairs:
            q[k] = v if k not in q else q[k] + "," + v
        status, doc, headers, op = self.api(method, path, q, body)
        with fake.lock:
            fake.log.append({"method": method, "path": path, "query": q, "status": status,
                             "write": method != "GET", "operation": op, "fault": headers.pop("X-Fake-Fault", None)})
        self.send(status, doc, headers)

    def api(self, method, path, q, body):
        fake = self.fake
        headers = {}
        op = None
        try:
            route = None
            path_known = False
            for m, rx, op_id, handler in COMPILED_ROUTES:
                match = rx.match(path)
                if match:
                    path_known = True
                    if m == method:
                        route = (op_id, handler, match.group(1) if rx.groups else None)
                        break
            if route is None:
                if path_known:
                    raise ApiError(405, "METHOD_NOT_ALLOWED", "The request method is not allowed for this resource",
                                   "%s is not allowed on %s" % (method, path))
                raise ApiError(404, "NOT_FOUND", "The specified resource does not exist",
                               "The path %s does not exist" % path)
            op, handler, id_ = route
            self.authenticate()
            with fake.lock:
                s = fake.settings
                if s["rateRemaining"] <= 0:
                    headers["X-Rate-Limit"] = "user-hour-lim:%d;user-hour-rem:0;" % s["rateLimit"]
                    raise ApiError(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                                   "The hourly request budget is used up", headers={"Retry-After": "60"})
                s["rateRemaining"] -= 1
                headers["X-Rate-Limit"] = "user-hour-lim:%d;user-hour-rem:%d;" % (s["rateLimit"], s["rateRemaining"])
                fault = self.match_fault(method, path)
            if fault and fault["when"] == "before":
                raise self.fault_error(fault, headers)
            errs = fake.contract.query_errors(op, q)
            if errs:
                raise ApiError(400, errs[0][0], "A parameter has an invalid value", errors=[
                    error_object(400, code, "A parameter has an invalid value", detail, parameter=name)
                    for code, name, detail in errs])
            c = Call()
            c.op, c.id, c.q, c.path, c.method, c.body = op, id_, q, path, method, None
            if method in ("POST", "PATCH"):
                c.body = self.parse_body(op, body)
            with fake.lock:
                status, doc = getattr(fake, handler)(c)
                if doc is not None:
                    doc = json.loads(json.dumps(doc))  # detach from the store before validating outside the lock
            if fault and fault["when"] == "after":
                raise self.fault_error(fault, headers)
        except ApiError as e:
            headers.update(e.headers)
            status, doc = e.status, e.document()
        if "X-Rate-Limit" not in headers:
            headers["X-Rate-Limit"] = "user-hour-lim:%d;user-hour-rem:%d;" % (
                fake.settings["rateLimit"], max(fake.settings["rateRemaining"], 0))
        if doc is not None and op is not None and not headers.get("X-Fake-Fault"):
            problem = fake.contract.response_error(op, status, doc)
            if problem:
                status, doc = 500, {"errors": [error_object(500, "FAKE_CONTRACT_VIOLATION",
                                                            "The fake produced a response its contract forbids",
                                                            problem)]}
        return status, doc, headers, op

    def parse_body(self, op, body):
        ctype = (self.h.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "The request entity has an unsupported media type",
                           "Request bodies must be sent as application/json, not '%s'" % ctype)
        try:
            doc = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ApiError(422, "ENTITY_UNPROCESSABLE", "The request entity is not valid JSON", str(e))
        errors = self.fake.contract.body_errors(op, doc)
        if errors:
            raise ApiError(409, errors[0].code, "The provided entity is invalid", errors=[
                error_object(409, e.code, "The provided entity is invalid", e.detail, pointer=e.pointer) for e in errors])
        return doc

    def authenticate(self):
        fake = self.fake
        auth = self.h.headers.get("Authorization") or ""

        def refuse(why):
            raise ApiError(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                           "Send a valid ES256 bearer token signed with your API key (%s)." % why)
        if not auth.startswith("Bearer "):
            refuse("no bearer token")
        token = auth[len("Bearer "):].strip()
        parts = token.split(".")
        if len(parts) != 3:
            refuse("the token is not a JWS compact serialization")
        try:
            header = json.loads(b64url_decode(parts[0]))
            payload = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except Exception:
            refuse("the token can't be decoded")
        if header.get("alg") != "ES256":
            refuse("alg must be ES256")
        if header.get("kid") != fake.key_id:
            refuse("unknown key id")
        if header.get("typ") != "JWT":
            refuse("typ must be JWT")
        if len(signature) != 64:
            refuse("the signature must be 64 bytes (r||s)")
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
        try:
            fake.public_key.verify(
                encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")),
                (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            refuse("bad signature")
        if payload.get("iss") != fake.issuer_id:
            refuse("unknown issuer")
        if payload.get("aud") != "appstoreconnect-v1":
            refuse("aud must be appstoreconnect-v1")
        iat, exp = payload.get("iat"), payload.get("exp")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (iat, exp)):
            refuse("iat and exp must be numeric dates")
        now = time.time()
        if iat > now + 5:
            refuse("iat is in the future")
        if exp <= now:
            refuse("the token has expired")
        if exp - iat > 20 * 60:
            refuse("the token lifetime is longer than 20 minutes")
        max_age = fake.settings.get("maxTokenAgeSeconds")
        if max_age is not None and now - iat > max_age:
            refuse("the token has expired")

    def match_fault(self, method, path):
        for rule in self.fake.faults:
            if rule["method"] not in ("*", method) or not rule["rx"].search(path):
                continue
            rule["matches"] += 1
            if rule["matches"] < rule["afterNthMatch"] or rule["fired"] >= rule["count"]:
                continue
            rule["fired"] += 1
            return rule
        return None

    def fault_error(self, rule, headers):
        status = rule["status"]
        headers["X-Fake-Fault"] = rule["when"]
        extra = {"Retry-After": str(rule["retryAfter"])} if rule.get("retryAfter") is not None else {}
        if status == 429:
            return ApiError(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                            "Injected fault", headers=extra)
        return ApiError(status, "UNEXPECTED_ERROR", "An unexpected error occurred on the server side.",
                        "Injected fault (%s)" % rule["when"], headers=extra)

    # -- control API
    def control(self, method, path, query, body):
        fake = self.fake
        try:
            doc = json.loads(body) if body else {}
        except ValueError:
            return self.send(400, {"error": "control requests take JSON"})
        name = path[len("/__fake/"):]
        with fake.lock:
            if (method, name) == ("POST", "reset"):
                fake.reset()
                return self.send(200, {"ok": True})
            if (method, name) == ("POST", "apps"):
                app = {"type": "apps", "id": doc.get("id") or fake.store.new_id(True),
                       "attributes": {"name": doc.get("name", "App"), "bundleId": doc["bundleId"],
                                      "sku": doc.get("sku", doc["bundleId"]),
                                      "primaryLocale": doc.get("primaryLocale", "en-US")}, "rels": {}}
                fake.store.put(app)
                return self.send(201, {"id": app["id"]})
            if (method, name) == ("POST", "settings"):
                unknown = set(doc) - set(DEFAULT_SETTINGS) - {"rateLimitRemaining"}
                if unknown:
                    return self.send(400, {"error": "unknown settings %s" % sorted(unknown)})
                if "rateLimitRemaining" in doc:
                    doc["rateRemaining"] = doc.pop("rateLimitRemaining")
                if "rateLimit" in doc and "rateRemaining" not in doc:
                    doc["rateRemaining"] = doc["rateLimit"]
                fake.settings.update(doc)
                return self.send(200, fake.settings)
            if method == "GET" and name == "settings":
                return self.send(200, fake.settings)
            if (method, name) == ("POST", "faults"):
                rules = doc.get("rules", doc) if isinstance(doc, dict) else doc
                fake.faults = []
                for r in rules:
                    if r.get("status", 500) not in (429, 500, 503, 504) or r.get("when", "before") not in ("before", "after"):
                        return self.send(400, {"error": "status must be 429|500|503|504 and when before|after"})
                    fake.faults.append({"method": r.get("method", "*").upper(), "pathPattern": r.get("pathPattern", ""),
                                        "rx": re.compile(r.get("pathPattern", "")), "status": r.get("status", 500),
                                        "count": r.get("count", 1), "retryAfter": r.get("retryAfter"),
                                        "when": r.get("when", "before"), "afterNthMatch": r.get("afterNthMatch", 1),
                                        "matches": 0, "fired": 0})
                return self.send(200, {"rules": len(fake.faults)})
            if method == "GET" and name == "faults":
                return self.send(200, {"rules": [{k: v for k, v in r.items() if k != "rx"} for r in fake.faults]})
            if method == "GET" and name == "requests":
                return self.send(200, {"requests": fake.log})
            if method == "DELETE" and name == "requests":
                fake.log = []
                return self.send(200, {"ok": True})
            if method == "GET" and name == "state":
                return self.send(200, {"resources": {t: [fake.render(r) for r in recs.values()]
                                                     for t, recs in fake.store.res.items() if t != "territories"},
                                       "usedProductIds": {k: sorted(v) for k, v in
                                                          fake.store.used_product_ids.items()}})
            if (method, name) == ("POST", "seed"):
                try:
                    return self.send(201, fake.seed(doc))
                except (ValueError, KeyError, StopIteration) as e:
                    return self.send(400, {"error": "bad seed: %r" % (e,)})
            if method == "GET" and name == "validations":
                return self.send(200, fake.contract.stats.snapshot())
            if (method, name) == ("POST", "save"):
                fake.save()
                return self.send(200, {"ok": bool(fake.state_file)})
        return self.send(404, {"error": "unknown control endpoint %s %s" % (method, path)})


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--key-id", required=True)
    p.add_argument("--issuer-id", required=True)
    p.add_argument("--public-key", required=True, help="PEM file with the API key's P-256 public key")
    p.add_argument("--openapi", help="App Store Connect OpenAPI document; validates against it when given")
    p.add_argument("--page-size", type=int, help="default page size when a request has no limit (default 50)")
    p.add_argument("--state-file", help="JSON file the state is loaded from at start and saved to at exit")
    args = p.parse_args()
    fake = FakeASC(args)
    fake.port = args.port
    server = Server(fake)
    fake.base_url = "http://127.0.0.1:%d" % server.server_address[1]
    stop = threading.Event()

    def shutdown(*_):
        stop.set()
    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)

    def watch_stdin():  # the fake dies with the test process that holds its stdin
        try:
            while sys.stdin.buffer.read(65536):
                pass
        except Exception:
            pass
        stop.set()
    # Only a pipe ties the fake to its parent; started with /dev/null as stdin it runs until SIGTERM.
    try:
        if stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode):
            threading.Thread(target=watch_stdin, daemon=True).start()
    except (OSError, ValueError):
        pass
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    print("listening %s" % fake.base_url, flush=True)
    while not stop.wait(0.2):
        pass
    server.shutdown()
    fake.save()


if __name__ == "__main__":
    main()
