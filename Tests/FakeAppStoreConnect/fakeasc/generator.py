"""Random valid App Store Connect states, built from a seed through the fake's own store, the way people leave apps
in the web UI: products just created with no text or price, products in review or removed from sale, prices set in
a few territories only, scheduled changes that touch some territories with each territory's own choice for existing
subscribers, offers limited to some territories at local prices, offer codes with their codes (some deactivated),
review screenshots and promotional images committed or reserved and never uploaded; the app's Billing Grace Period
and its promoted purchases; its App Store versions.

`generate(app, seed)` answers the classes each product was built from, and those of the app itself (grace period,
promoted order, App Store versions), so a failing seed says what it held. The same seed always builds the same state (ids aside), so a
failure replays with `IAPKIT_SEED=N`.
"""

import datetime
import hashlib
import random
import struct
import zlib

from .reference import FREE_POINT, USD_BY_ID, USD_POINTS, decode_price_point, price_point_id, ref, synthetic_price
from .resources.grace_periods import GRACE_DEFAULTS, GRACE_DURATIONS, GRACE_RENEWAL_TYPES
from .resources.offer_codes import BATCHES, CODE_ALPHABET, VALID_MONTHS, add_months
from .resources.offers import PERIOD_OF
from .resources.product_states import APPROVED_OR_LATER
from .resources.promoted_purchases import MAX_PROMOTED
from .resources.images import SIZE as PROMO_SIZE
from .resources.product_states import APPROVED_OR_LATER
from .resources.screenshots import reserve_upload
from .resources.app_store_versions import EDITABLE_APP_VERSION_STATES
from .resources.versions import VERSION_TYPES
from .resources.win_back_offers import LAPSED, PAID, WAIT
from .contract.builtin_tables import MARKETS

# Territories the generator picks from for partial states (priced, sold, offered in only some).
PALETTE = ["USA", "FRA", "GBR", "IND", "JPN", "BRA", "DEU", "CAN", "AUS", "MEX"]
LOCALES = ["en-US", "fr-FR", "de-DE", "ja", "pt-BR", "es-MX"]
PERIODS = ["ONE_WEEK", "ONE_MONTH", "TWO_MONTHS", "THREE_MONTHS", "SIX_MONTHS", "ONE_YEAR"]
IAP_TYPES = ["CONSUMABLE", "NON_CONSUMABLE", "NON_RENEWING_SUBSCRIPTION"]
PAID_POINTS = [n for n, usd in USD_POINTS if n != FREE_POINT and 0.5 <= float(usd) <= 60]
IAP_ELIGIBILITIES = ["NON_SPENDER", "ACTIVE_SPENDER", "CHURNED_SPENDER"]

# Product states as App Store Connect reports them, and the state of the version holding their texts. A "ready"
# product's state is then computed from what it holds: READY_TO_SUBMIT, or MISSING_METADATA while a part is missing.
STATES = {"created": ("MISSING_METADATA", None), "ready": ("READY_TO_SUBMIT", "PREPARE_FOR_SUBMISSION"),
          "in-review": ("WAITING_FOR_REVIEW", "WAITING_FOR_REVIEW"), "approved": ("APPROVED", "APPROVED"),
          "removed": ("DEVELOPER_REMOVED_FROM_SALE", "APPROVED")}

# Every class the generator builds, for the test's coverage report.
CLASSES = [
    "state:created", "state:ready", "state:ready-to-submit", "state:in-review", "state:approved", "state:removed",
    "availability:none", "availability:legacy", "availability:everywhere", "availability:some", "availability:some+new",
    "price:none", "price:base", "price:base+territories", "price:some-territories", "price:base-not-usa",
    "price:scheduled", "price:started+scheduled", "price:scheduled-some-territories",
    "price:scheduled-back-to-equalized", "price:priced-beyond-availability",
    "intro:none", "intro:free-trial", "intro:paid-some-territories",
    "promotional", "promotional:paid", "promotional:some-territories", "promotional:free-territory", "offer-code",
    "offer-code:some-territories", "offer-code:batches", "offer-code:custom", "offer-code:inactive",
    "offer-code:batch-inactive", "offer-code:sandbox", "iap-offer-code", "iap-offer-code:free", "iap-offer-code:paid",
    "iap-offer-code:territory-price", "iap-offer-code:some-territories", "iap-offer-code:batches", "iap-offer-code:custom", "iap-offer-code:inactive",
    "iap-offer-code:batch-inactive", "iap-offer-code:sandbox", "win-back", "win-back:some-territories",
    "win-back:eligibility", "win-back:high-priority", "win-back:promoted", "win-back:scheduled", "win-back:ends",
    "screenshot:none", "screenshot:complete", "screenshot:awaiting-upload",
    "image:none", "image:complete", "image:awaiting-upload",
    "reviewNote:null", "reviewNote:text", "localizations:several",
    "promoted:visible", "promoted:hidden", "promoted:disabled",
    "subscription:multiseat-on", "subscription:multiseat-off", "subscription:multiseat-some-markets",
    "subscription:multiseat-family-shared", "subscription:multiseat-unset",
] + [
    # The app's own classes, answered in `appClasses`.
    "grace:off-default", "grace:on", "grace:sandbox-only", "grace:off-changed", "promoted:reordered",
    "app-version:none", "app-version:live", "app-version:editable",
]


def tiny_png(seed):
    """A valid 2x2 PNG whose pixels depend on the seed, so two screenshots differ."""
    pixels = hashlib.sha256(str(seed).encode()).digest()[:12]
    raw = b"".join(b"\x00" + pixels[row * 6:row * 6 + 6] for row in range(2))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def promo_png(seed):
    """A valid 1024x1024 opaque RGB PNG (colour type 2, no tRNS) whose colour depends on the seed, so two promotional
    images differ."""
    colour = hashlib.sha256(str(seed).encode()).digest()[:3]
    raw = (b"\x00" + colour * PROMO_SIZE) * PROMO_SIZE

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", PROMO_SIZE, PROMO_SIZE, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def add_days(day, n):
    import datetime
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=n)).isoformat()


class Generating:
    """Mixin of the service: `generate(app, seed)`."""

    def generate(self, app, seed, products=None):
        rnd = random.Random(seed)
        # The grace period, promoted purchases and win-back terms draw from a stream of their own, so the products
        # a seed built before they existed stay the same.
        more = random.Random("more %d" % seed)
        # An offer code's codes too: the offer codes themselves stay as they were.
        codes = random.Random("offer codes %d" % seed)
        # And where offers are set (some territories, some free there): the offers themselves stay as they were.
        places = random.Random("offer territories %d" % seed)
        today = self.today()
        used = {"classes": {}, "appClasses": [], "allClasses": CLASSES}
        prefix = "gen%d" % seed
        for i in range(products if products is not None else rnd.randint(1, 2)):
            pid = "com.example.%s.item%d" % (prefix, i)
            used["classes"][pid] = self.generate_iap(app, rnd, pid, "Item %d of %d" % (i, seed), today)
        for g in range(rnd.choice([0, 1, 1, 2]) if products is None else 1):
            group = self.new_group(app, "Group %d of %d" % (g, seed))
            if rnd.random() < 0.7:
                self.generate_texts("subscriptionGroupVersions", group, rnd, ("name", "customAppName"),
                                    "PREPARE_FOR_SUBMISSION")
            for s in range(rnd.randint(1, 2)):
                pid = "com.example.%s.group%d.sub%d" % (prefix, g, s)
                used["classes"][pid] = self.generate_subscription(group, rnd, pid, "Plan %d.%d of %d" % (g, s, seed),
                                                                  today, more, codes, places)
        self.generate_grace_period(app, more, used["appClasses"])
        self.generate_promoted(app, more, used["classes"], used["appClasses"])
        # App Store versions draw from a stream of their own too: every product of a seed stays as it was.
        self.generate_app_versions(app, random.Random("app versions %d" % seed), used["appClasses"])
        # In-app purchases' offer codes too, after every product and the app's own settings: what a seed built before
        # they existed stays as it was (the promotional images' ids aside).
        # Where they are set draws from a stream of its own as well: the offer codes themselves stay as they were.
        self.generate_iap_offer_codes(app, random.Random("iap offer codes %d" % seed), used["classes"],
                                      random.Random("iap offer code territories %d" % seed))
        # Promotional images too, last: the ids of everything before them stay as they were.
        self.generate_images(app, random.Random("images %d" % seed), used["classes"])
        # In-app purchases made before 2023 last, from a stream of their own: they change no record, only how the
        # purchase is answered.
        self.generate_legacy(app, random.Random("legacy %d" % seed), used["classes"])
        # API 4.5's multiseat settings last too, from a stream of their own: they change no record but the
        # subscriptions' two attributes.
        self.generate_multi_seat(app, random.Random("multiseat %d" % seed), used["classes"])
        return used

    def generate_multi_seat(self, app, rnd, classes):
        """Each subscription's multiseat status and markets (API 4.5): on (`subscription:multiseat-on`) in the App
        Store market as made, in every market or in some (`…-some-markets`: one or two markets other than the App
        Store alone, kept while off too); turned off (`…-off`); off because Family Sharing is on
        (`…-family-shared`); or `null`, a subscription made before 4.5 (`…-unset`)."""
        for group in self.store.kid_recs(app, "subscriptionGroups", "subscriptionGroups"):
            for sub in self.store.kid_recs(group, "subscriptions"):
                pid, a = sub["attributes"]["productId"], sub["attributes"]
                if pid not in classes:
                    continue
                if rnd.random() < 0.2:
                    classes[pid].append("subscription:multiseat-unset")
                    a.update(multiSeatStatus=None, marketSettings=None)
                    continue
                if a.get("familySharable"):
                    classes[pid].append("subscription:multiseat-family-shared")
                    a["multiSeatStatus"] = "DISABLED"
                elif rnd.random() < 0.3:
                    classes[pid].append("subscription:multiseat-off")
                    a["multiSeatStatus"] = "DISABLED"
                else:
                    classes[pid].append("subscription:multiseat-on")
                    a["multiSeatStatus"] = "ENABLED"
                kind = rnd.choice(["as-made", "every", "some"])
                if kind == "every":
                    a["marketSettings"] = list(MARKETS)
                elif kind == "some":
                    classes[pid].append("subscription:multiseat-some-markets")
                    some = ["APP_STORE"]
                    while some == ["APP_STORE"]:
                        picked = rnd.sample(MARKETS, rnd.randint(1, 2))
                        some = [m for m in MARKETS if m in picked]
                    a["marketSettings"] = some

    def generate_legacy(self, app, rnd, classes):
        """Some in-app purchases never given an availability become ones made before 2023: App Store Connect answers
        them with the retired `availableInAllTerritories: true` and no availability relationship at all."""
        for iap in self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"):
            pid = iap["attributes"]["productId"]
            if pid in classes and self.store.slot(iap, "availability") is None and rnd.random() < 0.5:
                iap["_legacy"] = True
                classes[pid].append("availability:legacy")

    # -- the app's own settings
    def generate_grace_period(self, app, rnd, app_classes):
        kind = rnd.choice(["off-default", "on", "sandbox-only", "off-changed"])
        app_classes.append("grace:" + kind)
        a = self.grace_period(app)["attributes"]
        a.update(GRACE_DEFAULTS)  # an app generated into before starts again from the defaults
        if kind == "on":
            a.update(optIn=True, sandboxOptIn=rnd.random() < 0.5, duration=rnd.choice(GRACE_DURATIONS),
                     renewalType=rnd.choice(GRACE_RENEWAL_TYPES))
        elif kind == "sandbox-only":
            a.update(sandboxOptIn=True, duration=rnd.choice(GRACE_DURATIONS), renewalType=rnd.choice(GRACE_RENEWAL_TYPES))
        elif kind == "off-changed":
            # Turned off again, or set up and never turned on: the settings stay.
            a.update(duration=rnd.choice([d for d in GRACE_DURATIONS if d != GRACE_DEFAULTS["duration"]]),
                     renewalType=rnd.choice(GRACE_RENEWAL_TYPES))

    def generate_promoted(self, app, rnd, classes, app_classes):
        """Promotes some of the products just built (in-app purchases and subscriptions alike), each shown or
        hidden, enabled or not; in some apps the order was changed after they were added."""
        if rnd.random() < 0.3:
            return
        by_pid = {p["attributes"]["productId"]: p for p in self.products_of(app)}
        candidates = [pid for pid in classes if self.promoted_purchase_of(by_pid[pid]) is None]
        room = MAX_PROMOTED - len(self.promoted_purchases(app))
        made = []
        for pid in rnd.sample(candidates, min(len(candidates), room, rnd.randint(1, 4))):
            visible, enabled = rnd.random() < 0.7, rnd.random() < 0.75
            classes[pid] += ["promoted:visible" if visible else "promoted:hidden"] + ([] if enabled else
                                                                                      ["promoted:disabled"])
            made.append(self.new_promoted_purchase(app, by_pid[pid], visible, enabled)["id"])
        if len(made) >= 2 and rnd.random() < 0.5:
            app_classes.append("promoted:reordered")
            order = list(made)
            while order == made:
                rnd.shuffle(order)
            earlier = [r["id"] for r in self.promoted_purchases(app) if r["id"] not in made]
            self.store.set_kid_order(app, "promotedPurchases", earlier + order)

    def generate_app_versions(self, app, rnd, app_classes):
        """None yet, a live one, or one being prepared (after a live one, or the first); the class says what the app
        holds, versions of an app generated into before included."""
        kind = rnd.choice(["none", "live", "editable", "editable"])
        if kind == "live" or (kind == "editable" and rnd.random() < 0.5):
            self.new_app_store_version(app, "IOS", "1.0", "READY_FOR_DISTRIBUTION")
        if kind == "editable":
            live = any(v["attributes"]["appVersionState"] == "READY_FOR_DISTRIBUTION" for v in self.app_store_versions(app))
            self.new_app_store_version(app, "IOS", "1.1" if live else "1.0", rnd.choice(EDITABLE_APP_VERSION_STATES))
        states = [v["attributes"]["appVersionState"] for v in self.app_store_versions(app)]
        app_classes.append("app-version:editable" if set(states) & set(EDITABLE_APP_VERSION_STATES) else
                           "app-version:live" if states else "app-version:none")

    # -- shared pieces
    def generate_texts(self, version_type, owner, rnd, fields, version_state):
        version = self.new_version(version_type, owner, version_state)
        loc_type = VERSION_TYPES[version_type][2]
        locales = ["en-US"] + rnd.sample(LOCALES[1:], rnd.choice([0, 0, 1, 2]))
        for locale in locales:
            a = {"locale": locale, "name": "%s %s" % (owner["attributes"].get("name", "Group")[:20], locale)}
            for field in fields[1:]:
                if rnd.random() < 0.8:
                    a[field] = "Text for %s" % locale if field == "description" else "App %s" % locale[:2]
            rec = self.new_localization(loc_type, version, a)
            rec["attributes"]["state"] = "APPROVED" if version_state == "APPROVED" else "PREPARE_FOR_SUBMISSION"
        return len(locales)

    def generate_screenshot(self, owner, rnd, type_, seed_text, classes):
        kind = rnd.choice(["none", "none", "complete", "awaiting-upload"])
        classes.append("screenshot:" + kind)
        if kind == "none":
            return
        blob = tiny_png(seed_text)
        rec = {"type": type_, "id": self.store.new_id(False),
               "attributes": {"fileSize": len(blob), "fileName": "review.png"}, "rels": {}}
        if kind == "awaiting-upload":
            # What an interrupted upload leaves: reserved, no checksum, an image asset with an empty template.
            rec["attributes"]["assetDeliveryState"] = {"state": "AWAITING_UPLOAD", "errors": [], "warnings": []}
            rec["attributes"]["imageAsset"] = {"templateUrl": "", "width": 0, "height": 0}
            reserve_upload(self, rec, len(blob))
        else:
            rec["attributes"].update({
                "sourceFileChecksum": hashlib.md5(blob).hexdigest(),
                "assetDeliveryState": {"state": "COMPLETE", "errors": [], "warnings": []},
                "imageAsset": {"templateUrl": "%s/__assets/%s/{w}x{h}bb.{f}" % (self.base_url, rec["id"]),
                               "width": 2, "height": 2},
                "assetToken": "fake/%s" % rec["id"]})
            self.assets[rec["id"]] = blob
        self.store.set_slot(owner, "screenshot", rec)

    def generate_images(self, app, rnd, classes):
        """Each product's promotional image: none, committed (in review or approved with its product), or reserved
        and never uploaded."""
        by_pid = {p["attributes"]["productId"]: p for p in self.products_of(app)}
        for pid in classes:
            kind = rnd.choice(["none", "none", "complete", "awaiting-upload"])
            classes[pid].append("image:" + kind)
            if kind == "none":
                continue
            product = by_pid[pid]
            versions = self.store.kid_recs(product, "versions")
            blob = promo_png(pid)
            rec = self.new_image(product, "promotion.png", len(blob), versions[-1] if versions else None)
            if kind == "awaiting-upload":
                reserve_upload(self, rec, len(blob))
                continue
            state = product["attributes"]["state"]
            rec["attributes"]["sourceFileChecksum"] = hashlib.md5(blob).hexdigest()
            self.commit_image(rec, blob, "APPROVED" if state in APPROVED_OR_LATER else
                              "WAITING_FOR_REVIEW" if state in ("WAITING_FOR_REVIEW", "IN_REVIEW") else
                              "PREPARE_FOR_SUBMISSION")

    def pick_availability(self, rnd, classes, state):
        if state == "removed":
            return "none", []
        kind = rnd.choice(["everywhere", "everywhere", "some", "some+new", "none"])
        classes.append("availability:" + kind)
        if kind == "everywhere":
            return kind, list(self.territory_codes())
        if kind == "none":
            return kind, []
        return kind, sorted(rnd.sample(PALETTE, rnd.randint(1, 4)))

    @staticmethod
    def pick_state(rnd, classes, note_text):
        """A product's App Store Connect state and review note (none, as App Store Connect answers `null`)."""
        state = rnd.choice(list(STATES))
        note = rnd.choice([None, note_text])
        classes += ["state:" + state, "reviewNote:null" if note is None else "reviewNote:text"]
        return state, note

    def ready_state(self, product, state, classes):
        """A "ready" product shows READY_TO_SUBMIT only when it holds everything review needs."""
        if state == "ready":
            self.refresh_readiness(product)
            if product["attributes"]["state"] == "READY_TO_SUBMIT":
                classes.append("state:ready-to-submit")

    # -- in-app purchases
    def generate_iap(self, app, rnd, pid, name, today):
        classes = []
        state, note = self.pick_state(rnd, classes, "Tap Buy in the shop")
        type_ = rnd.choice(IAP_TYPES)
        rec = self.new_iap(app, {"name": name, "productId": pid, "inAppPurchaseType": type_, "reviewNote": note,
                                 "familySharable": type_ == "NON_CONSUMABLE" and rnd.random() < 0.5},
                           STATES[state][0])
        if state == "created":
            return classes  # just created: no text, no price, sold nowhere
        if self.generate_texts("inAppPurchaseVersions", rec, rnd, ("name", "description"), STATES[state][1]) > 1:
            classes.append("localizations:several")
        kind, territories = self.pick_availability(rnd, classes, state)
        if kind != "none" or state == "removed":
            self.set_iap_availability(rec, territories, kind in ("everywhere", "some+new"))
            if state == "removed":
                classes.append("availability:none")
        self.generate_iap_prices(rec, rnd, classes, today)
        self.generate_screenshot(rec, rnd, "inAppPurchaseAppStoreReviewScreenshots", pid, classes)
        self.ready_state(rec, state, classes)
        return classes

    def generate_iap_prices(self, iap, rnd, classes, today):
        kind = rnd.choice(["none", "base", "base", "base+territories", "base-not-usa", "scheduled",
                           "started+scheduled"])
        classes.append("price:" + kind)
        if kind == "none":
            return
        base = "FRA" if kind == "base-not-usa" else "USA"
        number = rnd.choice(PAID_POINTS)
        prices = [(base, number, None)]
        if kind == "base+territories":
            for territory in rnd.sample([t for t in PALETTE if t != base], rnd.randint(1, 3)):
                prices.append((territory, rnd.choice(PAID_POINTS), None))
        if kind == "started+scheduled":
            prices.append((base, rnd.choice(PAID_POINTS), add_days(today, -rnd.randint(1, 60))))
        if kind in ("scheduled", "started+scheduled"):
            start = add_days(today, rnd.randint(2, 90))
            prices.append((base, rnd.choice(PAID_POINTS), start))
            if rnd.random() < 0.5:
                prices.append((rnd.choice([t for t in PALETTE if t != base]), rnd.choice(PAID_POINTS), start))
        self.new_price_schedule(iap, base, [({"s": iap["id"], "t": t, "p": str(n)}, {"startDate": d})
                                            for t, n, d in prices])

    # -- subscriptions
    def generate_subscription(self, group, rnd, pid, name, today, more, codes, places):
        classes = []
        state, note = self.pick_state(rnd, classes, "Subscribe from the settings screen")
        period = rnd.choice(PERIODS)
        sub = self.new_subscription(group, {"name": name, "productId": pid, "subscriptionPeriod": period,
                                            "reviewNote": note, "familySharable": rnd.random() < 0.3},
                                    STATES[state][0])
        if state == "created":
            return classes
        if self.generate_texts("subscriptionVersions", sub, rnd, ("name", "description"), STATES[state][1]) > 1:
            classes.append("localizations:several")
        kind, sold = self.pick_availability(rnd, classes, state)
        if kind != "none" or state == "removed":
            self.store.add_kid(sub, "planAvailabilities", {
                "type": "subscriptionPlanAvailabilities", "id": self.store.new_id(False),
                "attributes": {"availableInNewTerritories": kind in ("everywhere", "some+new"), "planType": "UPFRONT"},
                "rels": {"availableTerritories": {"data": [ref("territories", t) for t in sold]}}})
        priced = self.generate_subscription_prices(sub, rnd, classes, today, sold)
        if priced:
            self.generate_offers(sub, rnd, classes, priced, period, more, codes, places)
        self.generate_screenshot(sub, rnd, "subscriptionAppStoreReviewScreenshots", pid, classes)
        self.ready_state(sub, state, classes)
        return classes

    def generate_subscription_prices(self, sub, rnd, classes, today, sold):
        """Prices the subscription; answers the territories priced today."""
        kinds = ["none", "base", "base", "base+territories", "some-territories", "scheduled",
                 "started+scheduled", "scheduled-some-territories", "scheduled-back-to-equalized"]
        if sold and len(sold) < len(self.territory_codes()):
            kinds.append("priced-beyond-availability")
        kind = rnd.choice(kinds)
        classes.append("price:" + kind)
        if kind == "none":
            return []
        number = rnd.choice(PAID_POINTS)
        # The web form prices every territory at the equalized price; a subscription sold in some territories only is
        # still priced everywhere unless someone removed the others by hand.
        if kind == "some-territories":
            territories = sorted(rnd.sample([t for t in PALETTE if t != "USA"], rnd.randint(1, 3)))
        elif kind == "priced-beyond-availability" or not sold:
            territories = list(self.territory_codes())
        else:
            territories = sold if "USA" in sold or rnd.random() < 0.5 else list(self.territory_codes())
        overrides = {}
        if kind in ("base+territories", "scheduled-back-to-equalized"):
            for territory in rnd.sample([t for t in territories if t != "USA"], min(2, len(territories) - 1)):
                overrides[territory] = rnd.choice([n for n in PAID_POINTS if n != number])
        if kind == "some-territories":
            overrides = {t: rnd.choice(PAID_POINTS) for t in territories}
        for territory in territories:
            self.new_subscription_price(sub, territory, price_point_id(sub["id"], territory,
                                                                       overrides.get(territory, number)))
        if kind == "started+scheduled":
            past = add_days(today, -rnd.randint(1, 60))
            moved = rnd.choice([n for n in PAID_POINTS if n != number])
            for territory in territories:
                self.new_subscription_price(sub, territory, price_point_id(sub["id"], territory, moved), past,
                                            preserved=True)
        if kind in ("scheduled", "started+scheduled"):
            start = add_days(today, rnd.randint(2, 90))
            later = rnd.choice(PAID_POINTS)
            keep = rnd.random() < 0.5
            for territory in territories:
                self.new_subscription_price(sub, territory, price_point_id(sub["id"], territory, later), start,
                                            preserved=keep)
        if kind == "scheduled-some-territories":
            # The USA keeps existing subscribers, another territory moves them, the rest do not change.
            start = add_days(today, rnd.randint(2, 90))
            touched = ["USA"] if "USA" in territories else []
            touched += rnd.sample([t for t in territories if t != "USA"], min(rnd.randint(1, 2), len(territories) - 1))
            for i, territory in enumerate(touched):
                self.new_subscription_price(sub, territory, price_point_id(sub["id"], territory, rnd.choice(PAID_POINTS)),
                                            start, preserved=(i == 0))
        if kind == "scheduled-back-to-equalized":
            start = add_days(today, rnd.randint(2, 90))
            for territory in overrides:
                self.new_subscription_price(sub, territory, price_point_id(sub["id"], territory, number), start,
                                            preserved=True)
        return territories

    @staticmethod
    def offer_territories(priced, places, classes, name):
        """Where an offer is set: every territory the subscription is priced in, or (class `NAME:some-territories`)
        a few of them, as people narrow an offer in the web UI."""
        if len(priced) < 3 or places.random() >= 0.3:
            return priced
        classes.append(name + ":some-territories")
        return sorted(places.sample(priced, places.randint(2, min(5, len(priced) - 1))))

    def generate_offers(self, sub, rnd, classes, priced, period, more, codes, places):
        kind = rnd.choice(["none", "none", "free-trial", "paid-some-territories"])
        classes.append("intro:" + kind)
        if kind == "free-trial":
            for territory in priced:
                self.generate_intro(sub, territory, "FREE_TRIAL", "ONE_WEEK", 1, None)
        elif kind == "paid-some-territories":
            # A discount on every price the territory has, today's and scheduled ones: two periods at a lower point.
            lowest = self.lowest_numbers(sub)
            for territory in sorted(rnd.sample(priced, min(len(priced), rnd.randint(1, 3)))):
                cheaper = self.cheaper_points(territory, lowest.get(territory))
                if cheaper:
                    point = price_point_id(sub["id"], territory, rnd.choice(cheaper))
                    self.generate_intro(sub, territory, "PAY_AS_YOU_GO", period, min(2, PERIOD_OF[period]), point)
        if rnd.random() < 0.3:
            classes.append("promotional")
            self.commit_priced_offer(sub, "subscriptionPromotionalOffers", {
                "name": "Come back", "offerCode": "comeback%d" % rnd.randint(1, 99), "offerMode": "FREE_TRIAL",
                "duration": "ONE_MONTH", "numberOfPeriods": 1},
                [(t, None) for t in self.offer_territories(priced, places, classes, "promotional")])
        current = self.current_numbers(sub)
        cheaper = self.cheaper_points("USA", self.lowest_numbers(sub).get("USA"))
        if cheaper and rnd.random() < 0.3:
            # Pay as you go at a USD discount, equalized, with one territory at a price of its own.
            classes.append("promotional:paid")
            number = rnd.choice(cheaper)
            followers = [t for t in priced if current.get(t) == current["USA"]]
            own = rnd.choice(followers) if len(followers) > 1 and rnd.random() < 0.5 else None
            # Each territory's price lower than the subscription's there: the lowest point is lower everywhere.
            prices = [(t, price_point_id(sub["id"], t, PAID_POINTS[0] if t == own and t != "USA" else number))
                      for t in priced]
            if len(prices) > 1 and places.random() < 0.3:
                # Free in one territory, the USA too (a price without a point), paid in the others.
                classes.append("promotional:free-territory")
                free = places.choice([t for t, _ in prices])
                prices = [(t, None if t == free else point) for t, point in prices]
            self.commit_priced_offer(sub, "subscriptionPromotionalOffers", {
                "name": "Half price", "offerCode": "half%d" % rnd.randint(1, 99), "offerMode": "PAY_AS_YOU_GO",
                "duration": period, "numberOfPeriods": min(2, PERIOD_OF[period])}, prices)
        # Win-back offers only for a subscription App Review approved, as App Store Connect creates them.
        if rnd.random() < 0.5 and sub["attributes"]["state"] in APPROVED_OR_LATER:
            classes.append("win-back")
            self.commit_priced_offer(sub, "winBackOffers", dict({
                "referenceName": "Welcome back", "offerId": "winback%d" % rnd.randint(1, 99), "offerMode": "FREE_TRIAL",
                "duration": "ONE_MONTH", "periodCount": 1}, **self.win_back_terms_of(more, classes)),
                [(t, None) for t in self.offer_territories(priced, places, classes, "win-back")])
        if rnd.random() < 0.2:
            classes.append("offer-code")
            offer = self.commit_priced_offer(sub, "subscriptionOfferCodes", {
                "name": "Spring %d" % rnd.randint(1, 99), "customerEligibilities": ["NEW"],
                "offerEligibility": "STACK_WITH_INTRO_OFFERS", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH",
                "numberOfPeriods": 1}, [(t, None) for t in self.offer_territories(priced, places, classes, "offer-code")])
            self.generate_offer_code_codes(offer, codes, classes)

    def generate_iap_offer_codes(self, app, rnd, classes, places):
        """An offer code for some in-app purchases sold today at a USD price: free, at a lower USD point equalized in
        every territory the purchase is sold in, or with one territory at a lower point of its own; for a random set
        of customers; with codes as a subscription offer code's. Some are set in the USA and a few other territories
        the purchase is sold in only (`places`)."""
        today = self.today()
        for iap in self.store.kid_recs(app, "inAppPurchases", "inAppPurchases"):
            pid = iap["attributes"]["productId"]
            usd = self.current_usd_number(iap, today)
            availability = self.store.slot(iap, "availability")
            sold = [t["id"] for t in availability["rels"]["availableTerritories"]["data"]] if availability else []
            if pid not in classes or usd is None or not sold or rnd.random() < 0.2:
                continue
            cheaper = self.cheaper_points("USA", usd)
            kind = rnd.choice(["free", "paid", "territory-price"]) if cheaper else "free"
            number = FREE_POINT if kind == "free" else rnd.choice(cheaper)
            own = {}
            if kind == "territory-price":
                # One territory other than the USA at a point of its own, lower there than the equalized one.
                territory = rnd.choice([t for t in sold if t != "USA"] or [None])
                lower = self.cheaper_points(territory, number) if territory else []
                if lower:
                    own[territory] = rnd.choice(lower)
                else:
                    kind = "paid"
            classes[pid] += ["iap-offer-code", "iap-offer-code:" + kind]
            where = sold
            others = [t for t in sold if t != "USA" and t not in own]
            if "USA" in sold and len(others) > 2 and places.random() < 0.3:
                where = sorted(["USA"] + list(own) + places.sample(others, places.randint(1, 2)))
                classes[pid].append("iap-offer-code:some-territories")
            prices = [(t, price_point_id(iap["id"], t, own.get(t, number))) for t in where]
            eligibilities = rnd.sample(IAP_ELIGIBILITIES, rnd.randint(1, len(IAP_ELIGIBILITIES)))
            offer = self.commit_priced_offer(iap, "inAppPurchaseOfferCodes", {
                "name": "Gift %d" % rnd.randint(1, 99), "customerEligibilities": eligibilities}, prices)
            self.generate_offer_code_codes(offer, rnd, classes[pid], "iap-offer-code")

    def current_usd_number(self, iap, today):
        """The point number of the purchase's USA price in force today, when the USA is its base territory."""
        schedule = self.store.slot(iap, "priceSchedule")
        if schedule is None or schedule["rels"]["baseTerritory"]["data"]["id"] != "USA":
            return None
        usa = [(p["attributes"].get("startDate") or "", p) for p in self.store.kid_recs(schedule, "manualPrices")
               if self.territory_of(p) == "USA" and (p["attributes"].get("startDate") or "") <= today]
        if not usa:
            return None
        latest = max(usa, key=lambda x: x[0])[1]
        return int(decode_price_point(latest["rels"]["inAppPurchasePricePoint"]["data"]["id"])["p"])

    def generate_offer_code_codes(self, offer, rnd, classes, prefix="offer-code"):
        """Codes of an offer code: batches of one-time use codes and a custom code, made up to two months ago and
        valid for some time still (at most six months after they were made); a batch or the whole offer deactivated.
        `prefix` names the classes (a subscription's or an in-app purchase's offer code). An in-app purchase App
        Review has not approved has sandbox codes only, as App Store Connect makes them."""
        today = self.today()
        owner = self.store.parent(offer)
        gated = offer["type"] == "inAppPurchaseOfferCodes" and owner["attributes"].get("state") not in APPROVED_OR_LATER

        def made_and_expiry():
            made = add_days(today, -rnd.randint(0, 60))
            last = datetime.date.fromisoformat(add_months(made, VALID_MONTHS)) - datetime.date.fromisoformat(today)
            return made + "T09:30:00.000+00:00", add_days(today, rnd.randint(1, last.days))
        if rnd.random() < 0.6:
            classes.append(prefix + ":batches")
            for _ in range(rnd.choice([1, 1, 2])):
                made, expires = made_and_expiry()
                count, environment = rnd.choice([10, 50, 100, 500, 1000]), "PRODUCTION"
                # Some made for testers, redeemable with sandbox accounts only: a stream of the batch's own, so the
                # codes stream (and every batch a seed built before) stays as it was.
                if gated or random.Random("environment %s %s %d" % (offer["attributes"].get("name"), made, count)).random() < 0.5:
                    classes.append(prefix + ":sandbox")
                    environment = "SANDBOX"
                self.add_one_time_codes(offer, count, expires, environment, created=made)
        if rnd.random() < 0.5 and not gated:
            classes.append(prefix + ":custom")
            app, code = self.store.app_of(offer), None
            while code is None or self.custom_code_owner(app, code) is not None:  # unique in the app
                code = "SPRING" + "".join(rnd.choices(CODE_ALPHABET, k=4))
            made, expires = made_and_expiry()
            self.add_custom_code(offer, code, rnd.choice([100, 1000, 5000]), expires if rnd.random() < 0.5 else None,
                                 created=made)
        batches = self.store.kid_recs(offer, BATCHES)
        if batches and rnd.random() < 0.35:
            classes.append(prefix + ":batch-inactive")
            rnd.choice(batches)["attributes"]["active"] = False
        if rnd.random() < 0.2:
            classes.append(prefix + ":inactive")
            self.deactivate_offer_code(offer)

    def win_back_terms_of(self, rnd, classes):
        """Eligibility, schedule, priority and promotion of a win-back offer: App Store Connect's preset ones, or
        changed. Started offers began on some day up to today; none has ended."""
        today = self.today()
        terms = {PAID: 1, LAPSED: {"minimum": 1, "maximum": 24}, WAIT: None, "priority": "NORMAL",
                 "promotionIntent": "NOT_PROMOTED", "startDate": add_days(today, -rnd.randint(0, 90)), "endDate": None}
        if rnd.random() < 0.4:
            classes.append("win-back:eligibility")
            low = rnd.randint(1, 12)
            terms.update({PAID: rnd.choice(list(range(2, 25)) + [36, 48, 60]),
                          LAPSED: {"minimum": low, "maximum": rnd.randint(low, 24)}, WAIT: rnd.randint(2, 24)})
        if rnd.random() < 0.3:
            classes.append("win-back:high-priority")
            terms["priority"] = "HIGH"
        if rnd.random() < 0.3:
            classes.append("win-back:promoted")
            terms["promotionIntent"] = "USE_AUTO_GENERATED_ASSETS"
        if rnd.random() < 0.35:
            classes.append("win-back:scheduled")
            terms["startDate"] = add_days(today, rnd.randint(1, 60))
        if rnd.random() < 0.35:
            classes.append("win-back:ends")
            terms["endDate"] = add_days(max(terms["startDate"], today), rnd.randint(3, 120))
        return terms

    @staticmethod
    def cheaper_points(territory, number):
        """Points whose price in `territory` is below that of `number` there (two points can round to one local
        price, so a lower number alone is not enough)."""
        if number is None:
            return []
        ceiling = float(synthetic_price(territory, USD_BY_ID[number]))
        return [n for n in PAID_POINTS if float(synthetic_price(territory, USD_BY_ID[n])) < ceiling]

    def lowest_numbers(self, sub):
        """Each territory's lowest price point number, today's and scheduled ones (the standard plan's)."""
        lowest = {}
        for p in self.store.kid_recs(sub, "prices"):
            number = int(decode_price_point(p["rels"]["subscriptionPricePoint"]["data"]["id"])["p"])
            territory = self.territory_of(p)
            lowest[territory] = min(number, lowest.get(territory, number))
        return lowest

    def current_numbers(self, sub):
        """Each territory's price point number in force today (the standard plan's)."""
        today, latest = self.today(), {}
        for p in self.store.kid_recs(sub, "prices"):
            start = p["attributes"].get("startDate")
            if start and start > today:
                continue
            territory = self.territory_of(p)
            if territory not in latest or (start or "") >= (latest[territory][0] or ""):
                latest[territory] = (start, int(decode_price_point(p["rels"]["subscriptionPricePoint"]["data"]["id"])["p"]))
        return {t: n for t, (_, n) in latest.items()}

    def generate_intro(self, sub, territory, mode, duration, periods, point):
        self.commit_intro_offer(sub, {"territory": territory, "point": point, "attributes": {
            "offerMode": mode, "duration": duration, "numberOfPeriods": periods}})
