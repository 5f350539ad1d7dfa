#!/usr/bin/env python3
"""Changes an app in the fake App Store Connect as a person in its web pages would: through the public API with a
signed token, never through iapkit. The tests use it to make changes that start in App Store Connect.

    web_edit.py APP_ID EDITS_JSON

The fake's address and key come from the environment a test passes iapkit (ASC_API_URL, ASC_KEY_ID, ASC_ISSUER_ID,
ASC_PRIVATE_KEY_PATH). EDITS_JSON is a list of edits:
    {"rename": PRODUCT_ID, "locale": L, "name": N}             a localization's display name (and/or "description": D)
    {"addLocalization": PRODUCT_ID, "locale": L, "name": N, "description": D}
    {"price": PRODUCT_ID, "usd": "2.99"}                        an in-app purchase's USD base price
    {"multiSeat": PRODUCT_ID, "status": S, "markets": M}         a subscription's multiseat purchases (API 4.5):
        status ENABLED | DISABLED, markets APPLE_SCHOOL, APP_STORE, APPLE_BUSINESS comma-separated ("" for none) or
        a JSON list; either may be left out (unchanged). One PATCH /v1/subscriptions/{id}, refused as App Store
        Connect refuses it (ENABLED with Family Sharing on is a 409).
Prints what it did; exits 1 on an answer it did not expect."""

import base64
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def token():
    with open(os.environ["ASC_PRIVATE_KEY_PATH"], "rb") as f:
        key = serialization.load_pem_private_key(f.read(), password=None)
    now = int(time.time())
    head = b64url(json.dumps({"alg": "ES256", "kid": os.environ["ASC_KEY_ID"], "typ": "JWT"}).encode())
    body = b64url(json.dumps({"iss": os.environ["ASC_ISSUER_ID"], "iat": now, "exp": now + 600,
                              "aud": "appstoreconnect-v1"}).encode())
    r, s = decode_dss_signature(key.sign((head + "." + body).encode(), ec.ECDSA(hashes.SHA256())))
    return head + "." + body + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


TOKEN = None


def call(method, path, body=None):
    global TOKEN
    TOKEN = TOKEN or token()
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(os.environ["ASC_API_URL"].rstrip("/") + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            text = resp.read()
            return json.loads(text) if text else {}
    except urllib.error.HTTPError as e:
        sys.exit("web_edit: %s %s answered %s: %s" % (method, path, e.code, e.read().decode(errors="replace")))


def in_app_purchase(app, product_id):
    query = urllib.parse.urlencode({"filter[productId]": product_id})
    found = call("GET", "/v1/apps/%s/inAppPurchasesV2?%s" % (app, query))["data"]
    if not found:
        sys.exit("web_edit: app %s has no in-app purchase %s" % (app, product_id))
    return found[0]["id"]


def latest_version(iap):
    """The version the web pages edit: the newest (App Store Connect 4.4.1 keeps texts per version)."""
    versions = call("GET", "/v2/inAppPurchases/%s/versions" % iap)["data"]
    return versions[-1]["id"]


def localizations(version):
    return call("GET", "/v1/inAppPurchaseVersions/%s/localizations" % version)["data"]


def rename(app, edit):
    iap = in_app_purchase(app, edit["rename"])
    loc = next(l for l in localizations(latest_version(iap)) if l["attributes"]["locale"] == edit["locale"])
    attributes = {key: edit[key] for key in ("name", "description") if key in edit}
    call("PATCH", "/v2/inAppPurchaseLocalizations/%s" % loc["id"],
         {"data": {"type": "inAppPurchaseLocalizations", "id": loc["id"], "attributes": attributes}})


def add_localization(app, edit):
    version = latest_version(in_app_purchase(app, edit["addLocalization"]))
    call("POST", "/v2/inAppPurchaseLocalizations",
         {"data": {"type": "inAppPurchaseLocalizations",
                   "attributes": {"locale": edit["locale"], "name": edit["name"], "description": edit["description"]},
                   "relationships": {"version": {"data": {"type": "inAppPurchaseVersions", "id": version}}}}})


def price(app, edit):
    iap = in_app_purchase(app, edit["price"])
    query = urllib.parse.urlencode({"filter[territory]": "USA", "limit": 200})
    path = "/v2/inAppPurchases/%s/pricePoints?%s" % (iap, query)
    point = None
    while path and point is None:
        page = call("GET", path)
        point = next((p for p in page["data"] if p["attributes"]["customerPrice"] == edit["usd"]), None)
        following = page.get("links", {}).get("next")
        path = following[len(os.environ["ASC_API_URL"].rstrip("/")):] if following else None
    if point is None:
        sys.exit("web_edit: no USA price point of %s" % edit["usd"])
    call("POST", "/v1/inAppPurchasePriceSchedules", {
        "data": {"type": "inAppPurchasePriceSchedules", "relationships": {
            "inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap}},
            "baseTerritory": {"data": {"type": "territories", "id": "USA"}},
            "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "${price}"}]}}},
        "included": [{"type": "inAppPurchasePrices", "id": "${price}",
                      "attributes": {"startDate": None},
                      "relationships": {"inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints",
                                                                             "id": point["id"]}}}}]})


def subscription(app, product_id):
    query = urllib.parse.urlencode({"filter[productId]": product_id})
    for group in call("GET", "/v1/apps/%s/subscriptionGroups?limit=200" % app)["data"]:
        found = call("GET", "/v1/subscriptionGroups/%s/subscriptions?%s" % (group["id"], query))["data"]
        if found:
            return found[0]["id"]
    sys.exit("web_edit: app %s has no subscription %s" % (app, product_id))


def multi_seat(app, edit):
    sub = subscription(app, edit["multiSeat"])
    attributes = {}
    if "status" in edit:
        attributes["multiSeatStatus"] = edit["status"]
    if "markets" in edit:
        markets = edit["markets"]
        attributes["marketSettings"] = ([m.strip() for m in markets.split(",") if m.strip()] if isinstance(markets, str)
                                        else markets)
    if not attributes:
        sys.exit("web_edit: a multiSeat edit needs a status or markets: %r" % (edit,))
    call("PATCH", "/v1/subscriptions/%s" % sub,
         {"data": {"type": "subscriptions", "id": sub, "attributes": attributes}})


def main():
    app, edits = sys.argv[1], json.loads(sys.argv[2])
    for edit in edits:
        if "rename" in edit:
            rename(app, edit)
        elif "addLocalization" in edit:
            add_localization(app, edit)
        elif "price" in edit:
            price(app, edit)
        elif "multiSeat" in edit:
            multi_seat(app, edit)
        else:
            sys.exit("web_edit: unknown edit %r" % (edit,))
        print("web_edit: %s" % json.dumps(edit))


if __name__ == "__main__":
    main()
