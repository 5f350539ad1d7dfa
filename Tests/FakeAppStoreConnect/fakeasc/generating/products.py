"""Products as the generator leaves them: in-app purchases and subscriptions in a review state, with their texts,
availability, prices and review screenshots and promotional images; purchases made before 2023 and subscriptions'
multiseat settings."""

import hashlib

from ..contract.builtin_tables import MARKETS
from ..reference import price_point_id, ref
from ..resources.product_states import APPROVED_OR_LATER
from ..resources.screenshots import reserve_upload
from ..resources.versions import VERSION_TYPES
from .tables import IAP_TYPES, LOCALES, PAID_POINTS, PALETTE, PERIODS, STATES, add_days, promo_png, tiny_png


class GeneratingProducts:
    """Mixin of the service: the products of a generated state."""

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
