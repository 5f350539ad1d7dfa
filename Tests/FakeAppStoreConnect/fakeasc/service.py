"""The fake App Store Connect service: state, settings, faults and log, and every operation's handler (mixed in
from the resource modules)."""

import json
import os
import re
import threading
import time

from .contract import BuiltinContract, OpenAPIContract
from .core.auth import load_public_key
from .core.faults import FaultRules
from .core.jsonapi import Documents
from .core.ratelimit import RateBudget
from .core.requestlog import RequestLog
from .core.store import Store
from .territories import CODES as TERRITORY_CODES
from .generator import Generating
from .managed import ManagedView
from .resources import apps, in_app_purchases, offers, prices, screenshots, subscriptions, versions
from .resources import app_store_versions, background_assets, grace_periods, product_states, promoted_purchases
from .resources import images, offer_codes, review_submissions
from .resources.app_store_versions import AppStoreVersions
from .resources.background_assets import BackgroundAssets
from .resources.review_submissions import ReviewSubmissions
from .resources.apps import Apps
from .resources.grace_periods import GracePeriods
from .resources.images import Images
from .resources.in_app_purchases import InAppPurchases
from .resources.offer_codes import OfferCodes
from .resources.offers import Offers
from .resources.prices import Prices
from .resources.product_states import ProductStates
from .resources.promoted_purchases import PromotedPurchases
from .resources.relations import Relations
from .resources.rules import Rules
from .resources.screenshots import Screenshots
from .resources.seed import Seeding
from .resources.subscriptions import Subscriptions
from .resources.versions import Versions
from .resources.win_back_offers import WinBackOffers

# (method, path template, operationId, handler name), in the order they are matched.
ROUTES = (apps.ROUTES + versions.ROUTES + in_app_purchases.ROUTES + prices.ROUTES + subscriptions.ROUTES
          + offers.ROUTES + offer_codes.ROUTES + screenshots.ROUTES + background_assets.ROUTES
          + review_submissions.ROUTES + grace_periods.ROUTES + promoted_purchases.ROUTES + app_store_versions.ROUTES
          + product_states.ROUTES + images.ROUTES)
OPERATION_IDS = [r[2] for r in ROUTES]

DEFAULT_SETTINGS = {"pageSize": 50, "maxPageSize": None, "maxTokenAgeSeconds": None, "rateLimit": 3600,
                    "rateRemaining": 3600, "rateLimitWindowSeconds": 3600, "autoCreateVersions": False,
                    "assetProcessingReads": 0, "strictOfferRules": True, "emptyToOne": "null",
                    "firstPriceByPostFails": True, "latencyMs": 0,
                    # A 429 for the spent hour with a Retry-After (Apple documents none: "Identifying Rate Limits"
                    # names the 429 and RATE_LIMIT_EXCEEDED only); false answers without one.
                    "rateLimitRetryAfter": True,
                    # The write (counted from 1 since the fake started) whose answer waits until this is cleared.
                    "holdWrite": None,
                    # Attributes without a value answered as `null`, as App Store Connect does, instead of left out.
                    "explicitNulls": True,
                    # Answers the document does not describe, as App Store Connect sends them: a last page without
                    # top-level links, and an attribute newer than the document on every resource.
                    "omitLastPageLinks": False, "unknownAttributes": False,
                    # Answers in shapes recorded from App Store Connect or allowed by JSON:API, for the tests of
                    # what iapkit does with them: relationships named in `include=` answered with links only,
                    # prices answered without relationships, price points whose territory is `{}`.
                    "linksOnly": [], "pricesWithoutRelationships": False, "emptyPointTerritory": False,
                    # The storefronts App Store Connect sells in (territory codes); None: all of them. Tests that need
                    # many round trips and not every territory set a few.
                    "storefronts": None,
                    # Territory -> currency App Store Connect answers instead of the table's (a stale table).
                    "currencies": {},
                    "backgroundAssetProcessing": "COMPLETE", "backgroundAssetProcessingReads": 1,
                    # App Store Connect's today (YYYY-MM-DD): scheduled prices must start after it, and the Date header
                    # says it. None: the real date.
                    "today": None,
                    # Multiseat off for a family-shared subscription (Apple's rule, API 4.5): ENABLED beside Family
                    # Sharing refused, and turning Family Sharing on turning it off. False: a server that holds both,
                    # as one from before the rule did.
                    "multiSeatFamilyRule": True}


def compile_routes(routes):
    return [(m, re.compile("^" + p.replace("{id}", "([^/]+)") + "$"), op, h) for m, p, op, h in routes]


class FakeASC(Documents, Rules, Relations, Apps, Versions, InAppPurchases, Prices, Subscriptions, Offers, WinBackOffers,
              OfferCodes, Screenshots, Seeding, BackgroundAssets, ReviewSubmissions, GracePeriods, PromotedPurchases,
              Generating, ManagedView, AppStoreVersions, ProductStates, Images):
    def __init__(self, key_id, issuer_id, public_key_pem, openapi=None, page_size=None, state_file=None):
        self.main_key = {key_id: load_public_key(public_key_pem)}  # the --key-id; more through /__fake/keys
        self.key_id, self.issuer_id = key_id, issuer_id
        self.state_file = state_file
        self.contract = OpenAPIContract(openapi, OPERATION_IDS) if openapi else BuiltinContract()
        self.routes = compile_routes(ROUTES)
        self.default_page_size = page_size
        self.lock = threading.RLock()  # one lock over the whole state; handlers run under it
        self.base_url = None
        self.operation = None  # the operation being answered (set by the dispatcher)
        self.reset()
        if self.state_file and os.path.exists(self.state_file):
            with open(self.state_file, encoding="utf-8") as f:
                self.store = Store.from_json(json.load(f))

    def default_settings(self):
        settings = dict(DEFAULT_SETTINGS)
        if self.default_page_size:
            settings["pageSize"] = self.default_page_size
        return settings

    def reset(self):
        with self.lock:
            self.store = Store()
            self.settings = self.default_settings()
            self.keys = dict(self.main_key)
            self.budget = RateBudget(self.settings["rateLimit"], self.settings["rateLimitWindowSeconds"])
            self.faults = FaultRules()
            self.log = RequestLog()
            self.writes_seen = 0
            self.asset_reads = {}
            # Committed screenshots' and promotional images' bytes, served at their imageAsset URL (App Store Connect's CDN renders the
            # template; the fake serves the original file).
            self.assets = {}

    def territory_codes(self):
        """The storefronts this fake sells in: every territory, or the `storefronts` setting."""
        chosen = self.settings.get("storefronts")
        return [t for t in TERRITORY_CODES if t in chosen] if chosen else TERRITORY_CODES

    def settings_view(self):
        """The settings as the control API shows them; `rateRemaining` is the --key-id's remaining budget."""
        return dict(self.settings, rateRemaining=self.budget.remaining(self.key_id, time.time()))

    def save(self):
        if self.state_file:
            with self.lock:
                text = json.dumps(self.store.to_json())
            tmp = self.state_file + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.state_file)
