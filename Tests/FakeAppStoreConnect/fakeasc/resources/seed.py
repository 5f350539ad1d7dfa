"""`POST /__fake/seed`: creates resources directly, without validation, as App Store Connect would already hold
them (approved products with localizations, prices and availability)."""

from ..reference import USD_POINTS, price_point_id
from .grace_periods import GRACE_DEFAULTS
from .subscriptions import check_multi_seat, unique
from .versions import VERSION_TYPES


class Seeding:
    def seed(self, doc):
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
            prices = [(self.seed_point(rec, x), {"startDate": x.get("startDate"), "endDate": x.get("endDate")})
                      for x in p.get("prices", [])]
            if prices:
                base = p.get("baseTerritory") or prices[0][0]["t"]
                self.new_price_schedule(rec, base, prices)
            if p.get("availableInAllTerritories"):  # made before 2023: the retired attribute, no availability
                rec["_legacy"] = True
            av = p.get("availability")
            if av is not None:
                self.set_iap_availability(rec, av.get("territories", []), av.get("availableInNewTerritories"))
        for g in doc.get("subscriptionGroups", []):
            group = self.new_group(app, g["referenceName"])
            out["subscriptionGroups"][g["referenceName"]] = group["id"]
            self.seed_metadata("subscriptionGroupVersions", group, g)
            for s in g.get("subscriptions", []):
                check_multi_seat(s, self.settings["multiSeatFamilyRule"])
                sub = self.new_subscription(group, s, s.get("state", "APPROVED"))
                # API 4.5's multiseat values as given (`null`: made before 4.5), else those of a subscription made now
                if "multiSeatStatus" in s:
                    sub["attributes"]["multiSeatStatus"] = s["multiSeatStatus"]
                if "marketSettings" in s:
                    markets = s["marketSettings"]
                    sub["attributes"]["marketSettings"] = None if markets is None else unique(markets)
                out["subscriptions"][s["productId"]] = sub["id"]
                self.seed_metadata("subscriptionVersions", sub, s)
                for x in s.get("prices", []):
                    d = self.seed_point(sub, x)
                    self.new_subscription_price(sub, d["t"], price_point_id(sub["id"], d["t"], d["p"]),
                                                x.get("startDate"))
        grace = doc.get("subscriptionGracePeriod") or {}
        self.grace_period(app)["attributes"].update({k: grace[k] for k in GRACE_DEFAULTS if k in grace})
        if "promotedPurchases" in doc:
            out["promotedPurchases"] = {}
            products = {p["attributes"]["productId"]: p for p in self.products_of(app)}
            for p in doc["promotedPurchases"]:
                rec = self.new_promoted_purchase(app, products[p["productId"]], p.get("visibleForAllUsers", True),
                                                 p.get("enabled"))
                out["promotedPurchases"][p["productId"]] = rec["id"]
        if "appStoreVersions" in doc:
            out["appStoreVersions"] = [
                self.new_app_store_version(app, v.get("platform", "IOS"), v.get("versionString", "1.0"),
                                           v.get("appVersionState", "PREPARE_FOR_SUBMISSION"))["id"]
                for v in doc["appStoreVersions"]]
        return out

    @staticmethod
    def seed_point(owner, x):
        """A grid point named by its USD price (`usd`) or App Store Connect number (`pricePoint`)."""
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
