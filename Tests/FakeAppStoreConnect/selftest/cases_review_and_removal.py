"""App Store versions, a product's state before review, review of a first in-app purchase with its app version,
App Review's answer through the control API, and deleting products (asset pack releases: cases_asset_pack_releases)."""

import hashlib
import json

PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (640).to_bytes(4, "big") + (960).to_bytes(4, "big")
       + b"\x08\x02\x00\x00\x00" + b"\x00" * 40)


class ReviewAndRemovalCases:
    # -- helpers
    def link(self, type_, id_):
        return {"data": {"type": type_, "id": id_}}

    def iap_state(self, id_):
        return self.call("GET", "/v1/apps/%s/inAppPurchasesV2?filter[productId]=%s" % (self.app, id_),
                         expect=200)[1]["data"][0]["attributes"]["state"]

    def product_state(self, product):
        if product["type"] == "inAppPurchases":
            return self.iap_state(product["attributes"]["productId"])
        group = self.stored("subscriptions", product["id"])["relationships"]["group"]["data"]["id"]
        subs = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?filter[productId]=%s"
                         % (group, product["attributes"]["productId"]), expect=200)[1]["data"]
        return subs[0]["attributes"]["state"]

    def new_product_version(self, product):
        type_, rel = (("inAppPurchaseVersions", "inAppPurchase") if product["type"] == "inAppPurchases"
                      else ("subscriptionVersions", "subscription"))
        return self.call("POST", "/v1/" + type_, {"data": {"type": type_, "relationships": {
            rel: self.link(product["type"], product["id"])}}}, 201)[1]["data"]

    def localize(self, version, name="Gems"):
        type_ = version["type"].replace("Versions", "Localizations")
        path = "/v2/%s" % type_
        return self.call("POST", path, {"data": {"type": type_, "attributes": {
            "locale": "en-US", "name": name, "description": "A bag of gems"},
            "relationships": {"version": self.link(version["type"], version["id"])}}}, 201)[1]["data"]

    def upload_screenshot(self, product):
        type_, rel = (("inAppPurchaseAppStoreReviewScreenshots", "inAppPurchaseV2") if product["type"] == "inAppPurchases"
                      else ("subscriptionAppStoreReviewScreenshots", "subscription"))
        shot = self.call("POST", "/v1/" + type_, {"data": {"type": type_, "attributes": {
            "fileName": "review.png", "fileSize": len(PNG)},
            "relationships": {rel: self.link(product["type"], product["id"])}}}, 201)[1]["data"]
        for op in shot["attributes"]["uploadOperations"]:
            status = self.fake.request(op["method"], op["url"], raw=PNG[op["offset"]:op["offset"] + op["length"]],
                                       headers={h["name"]: h["value"] for h in op["requestHeaders"]}, auth=False)[0]
            self.assertEqual(status, 200)
        return self.call("PATCH", "/v1/%s/%s" % (type_, shot["id"]), {"data": {
            "type": type_, "id": shot["id"], "attributes": {"uploaded": True,
                                                            "sourceFileChecksum": hashlib.md5(PNG).hexdigest()}}},
            200)[1]["data"]

    def sell(self, iap, territories=("USA",)):
        self.call("POST", "/v1/inAppPurchaseAvailabilities", {"data": {
            "type": "inAppPurchaseAvailabilities", "attributes": {"availableInNewTerritories": False},
            "relationships": {"inAppPurchase": self.link("inAppPurchases", iap["id"]),
                              "availableTerritories": {"data": [{"type": "territories", "id": t} for t in territories]}}}},
            201)

    def price(self, iap):
        point = self.point("/v2/inAppPurchases/" + iap["id"], price="0.99")
        self.call("POST", "/v1/inAppPurchasePriceSchedules", {
            "data": {"type": "inAppPurchasePriceSchedules", "relationships": {
                "inAppPurchase": self.link("inAppPurchases", iap["id"]),
                "baseTerritory": self.link("territories", "USA"),
                "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "${usa}"}]}}},
            "included": [{"type": "inAppPurchasePrices", "id": "${usa}", "relationships": {
                "inAppPurchasePricePoint": self.link("inAppPurchasePricePoints", point)}}]}, 201)

    def ready_iap(self, product_id="com.example.gems"):
        """An in-app purchase with everything review needs, made through the API; answers (product, version)."""
        iap = self.create_iap(product_id, name=product_id)["data"]
        version = self.new_product_version(iap)
        self.localize(version)
        self.sell(iap)
        self.price(iap)
        self.upload_screenshot(iap)
        self.assertEqual(self.iap_state(product_id), "READY_TO_SUBMIT")
        return iap, version

    def submission(self, platform="IOS", expect=201):
        return self.call("POST", "/v1/reviewSubmissions", {"data": {
            "type": "reviewSubmissions", "attributes": {"platform": platform},
            "relationships": {"app": self.link("apps", self.app)}}}, expect)[1]

    def add_item(self, submission_id, name, type_, id_, expect=201):
        return self.call("POST", "/v1/reviewSubmissionItems", {"data": {
            "type": "reviewSubmissionItems", "relationships": {
                "reviewSubmission": self.link("reviewSubmissions", submission_id), name: self.link(type_, id_)}}},
            expect)[1]

    def patch_submission(self, submission_id, attributes, expect=200):
        return self.call("PATCH", "/v1/reviewSubmissions/" + submission_id, {"data": {
            "type": "reviewSubmissions", "id": submission_id, "attributes": attributes}}, expect)[1]

    def app_version(self, id_):
        return self.call("GET", "/v1/appStoreVersions/" + id_, expect=200)[1]["data"]["attributes"]

    def seed_versions(self, *versions):
        return self.seed({"appStoreVersions": [dict(zip(("platform", "versionString", "appVersionState"), v))
                                               for v in versions]})["appStoreVersions"]

    def resource(self, type_, id_):
        return next(r for r in self.state(type_) if r["id"] == id_)

    # -- App Store versions
    def test_app_store_versions_are_seeded_and_read(self):
        live, draft, mac = self.seed_versions(("IOS", "1.0", "READY_FOR_DISTRIBUTION"),
                                              ("IOS", "1.1", "PREPARE_FOR_SUBMISSION"),
                                              ("MAC_OS", "1.0", "PREPARE_FOR_SUBMISSION"))
        listed = self.call("GET", "/v1/apps/%s/appStoreVersions" % self.app, expect=200)[1]
        self.assertEqual([v["id"] for v in listed["data"]], [live, draft, mac])
        first = listed["data"][0]["attributes"]
        self.assertEqual((first["platform"], first["versionString"], first["appVersionState"], first["appStoreState"]),
                         ("IOS", "1.0", "READY_FOR_DISTRIBUTION", "READY_FOR_SALE"))
        self.assertIn("createdDate", first)

        def ids(query):
            return [v["id"] for v in self.call("GET", "/v1/apps/%s/appStoreVersions?%s" % (self.app, query),
                                               expect=200)[1]["data"]]
        self.assertEqual(ids("filter[platform]=MAC_OS"), [mac])
        self.assertEqual(ids("filter[appVersionState]=PREPARE_FOR_SUBMISSION&filter[platform]=IOS"), [draft])
        self.assertEqual(ids("filter[appStoreState]=READY_FOR_SALE"), [live])
        self.assertEqual(ids("filter[versionString]=1.0&limit=1&fields[appStoreVersions]=versionString,platform"), [live])
        self.call("GET", "/v1/apps/%s/appStoreVersions?filter[appVersionState]=SOLD" % self.app, expect=400)
        self.call("GET", "/v1/apps/%s/appStoreVersions?filter[state]=READY" % self.app, expect=400)
        one = self.call("GET", "/v1/appStoreVersions/%s?include=app,build" % draft, expect=200)[1]
        self.assertEqual(one["data"]["relationships"]["app"]["data"], {"type": "apps", "id": self.app})
        self.assertIsNone(one["data"]["relationships"]["build"]["data"])
        self.assertEqual([x["id"] for x in one["included"]], [self.app])
        self.call("GET", "/v1/appStoreVersions/nope", expect=404)
        self.call("DELETE", "/v1/appStoreVersions/" + draft, expect=405)  # made and changed by the control API only
        bad = self.fake.request("POST", "/__fake/seed", {"appId": self.app, "appStoreVersions": [
            {"platform": "ANDROID", "versionString": "1.0"}]}, auth=False)
        self.assertEqual(bad[0], 400)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- readiness
    def test_a_product_is_ready_to_submit_once_it_holds_what_review_needs(self):
        iap = self.create_iap()["data"]
        version = self.new_product_version(iap)
        steps = [lambda: self.localize(version), lambda: self.sell(iap), lambda: self.price(iap)]
        for step in steps:
            step()
            self.assertEqual(self.iap_state("com.example.gems"), "MISSING_METADATA")
        shot = self.upload_screenshot(iap)
        self.assertEqual(self.iap_state("com.example.gems"), "READY_TO_SUBMIT")
        self.call("DELETE", "/v1/inAppPurchaseAppStoreReviewScreenshots/" + shot["id"], expect=204)
        self.assertEqual(self.iap_state("com.example.gems"), "MISSING_METADATA")
        self.upload_screenshot(iap)
        self.sell(iap, territories=())  # sold nowhere
        self.assertEqual(self.iap_state("com.example.gems"), "MISSING_METADATA")
        self.sell(iap, territories=("FRA",))
        self.assertEqual(self.iap_state("com.example.gems"), "READY_TO_SUBMIT")

        _, sub = self.create_group_and_subscription()
        sub_version = self.new_product_version(sub)
        self.localize(sub_version, "Pro")
        point = self.point("/v1/subscriptions/" + sub["id"], price="4.99")
        self.patch_subscription(sub["id"], [self.price_item("${usa}", point)])
        self.call("POST", "/v1/subscriptionPlanAvailabilities", {"data": {
            "type": "subscriptionPlanAvailabilities", "attributes": {"planType": "UPFRONT"},
            "relationships": {"subscription": self.link("subscriptions", sub["id"]),
                              "availableTerritories": {"data": [{"type": "territories", "id": "USA"}]}}}}, 201)
        self.assertEqual(self.product_state(sub), "MISSING_METADATA")
        self.upload_screenshot(sub)
        self.assertEqual(self.product_state(sub), "READY_TO_SUBMIT")

    # -- review
    def test_a_first_in_app_purchase_goes_to_review_with_an_app_version(self):
        iap, version = self.ready_iap()
        sub = self.submission()["data"]
        self.add_item(sub["id"], "inAppPurchaseVersion", "inAppPurchaseVersions", version["id"])
        refused = self.patch_submission(sub["id"], {"submitted": True}, 409)
        self.assertError(refused, "STATE_ERROR")
        self.assertIn("first in-app purchase or subscription must be submitted with a new app version",
                      refused["errors"][0]["detail"])
        live, draft = self.seed_versions(("IOS", "1.0", "READY_FOR_DISTRIBUTION"), ("IOS", "1.1", "PREPARE_FOR_SUBMISSION"))
        self.add_item(sub["id"], "appStoreVersion", "appStoreVersions", draft)
        done = self.patch_submission(sub["id"], {"submitted": True})["data"]["attributes"]
        self.assertEqual(done["state"], "WAITING_FOR_REVIEW")
        self.assertIn("submittedDate", done)
        self.assertEqual(self.iap_state("com.example.gems"), "WAITING_FOR_REVIEW")
        self.assertEqual(self.resource("inAppPurchaseVersions", version["id"])["attributes"]["state"], "WAITING_FOR_REVIEW")
        self.assertEqual({self.app_version(draft)[k] for k in ("appVersionState", "appStoreState")}, {"WAITING_FOR_REVIEW"})
        self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=409)  # submitted: never deletable again

        self.assertEqual(self.fake.control("POST", "review", {"appId": self.app, "outcome": "inReview"}),
                         {"reviewSubmissions": [sub["id"]]})
        self.assertEqual(self.iap_state("com.example.gems"), "IN_REVIEW")
        self.assertEqual(self.app_version(draft)["appVersionState"], "IN_REVIEW")
        self.assertEqual(self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"}),
                         {"reviewSubmissions": [sub["id"]]})
        self.assertEqual(self.resource("reviewSubmissions", sub["id"])["attributes"]["state"], "COMPLETE")
        self.assertEqual({i["attributes"]["state"] for i in self.state("reviewSubmissionItems")}, {"APPROVED"})
        self.assertEqual(self.iap_state("com.example.gems"), "APPROVED")
        self.assertEqual(self.resource("inAppPurchaseVersions", version["id"])["attributes"]["state"], "APPROVED")
        self.assertEqual({l["attributes"]["state"] for l in self.state("inAppPurchaseLocalizations")}, {"APPROVED"})
        self.assertEqual((self.app_version(draft)["appVersionState"], self.app_version(draft)["appStoreState"]),
                         ("READY_FOR_DISTRIBUTION", "READY_FOR_SALE"))
        self.assertEqual(self.app_version(live)["appVersionState"], "REPLACED_WITH_NEW_VERSION")
        self.assertEqual(self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"}),
                         {"reviewSubmissions": []})

        # Once one was approved, another product goes alone; so does a new version of the approved one.
        _, second = self.ready_iap("com.example.coins")
        update = self.new_product_version(iap)
        sub2 = self.submission()["data"]
        self.add_item(sub2["id"], "inAppPurchaseVersion", "inAppPurchaseVersions", second["id"])
        self.add_item(sub2["id"], "inAppPurchaseVersion", "inAppPurchaseVersions", update["id"])
        self.patch_submission(sub2["id"], {"submitted": True})
        self.assertEqual(self.iap_state("com.example.gems"), "WAITING_FOR_REVIEW")
        self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"})
        self.assertEqual([v["attributes"]["state"] for v in self.call(
            "GET", "/v2/inAppPurchases/%s/versions" % iap["id"], expect=200)[1]["data"]],
            ["REPLACED_WITH_NEW_VERSION", "APPROVED"])
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_a_seeded_approved_product_counts_as_the_first(self):
        self.seed({"subscriptionGroups": [{"referenceName": "Old", "subscriptions": [
            {"productId": "com.example.old", "name": "Old", "subscriptionPeriod": "ONE_MONTH", "state": "APPROVED"}]}]})
        _, version = self.ready_iap()
        sub = self.submission()["data"]
        self.add_item(sub["id"], "inAppPurchaseVersion", "inAppPurchaseVersions", version["id"])
        self.patch_submission(sub["id"], {"submitted": True})

    def test_review_items_are_checked(self):
        other_app = self.fake.control("POST", "apps", {"name": "Other", "bundleId": "com.example.other"})["id"]
        live, draft, mac = self.seed_versions(("IOS", "1.0", "READY_FOR_DISTRIBUTION"), ("IOS", "1.1", "DEVELOPER_REJECTED"),
                                              ("MAC_OS", "2.0", "PREPARE_FOR_SUBMISSION"))
        elsewhere = self.fake.control("POST", "seed", {"appId": other_app,
                                                       "appStoreVersions": [{}]})["appStoreVersions"][0]
        sub = self.submission()["data"]["id"]
        ptr = "/data/relationships/appStoreVersion"
        self.assertError(self.add_item(sub, "appStoreVersion", "appStoreVersions", live, 409), "STATE_ERROR", ptr)
        self.assertError(self.add_item(sub, "appStoreVersion", "appStoreVersions", mac, 409),
                         "ENTITY_ERROR.RELATIONSHIP.INVALID", ptr)
        self.assertError(self.add_item(sub, "appStoreVersion", "appStoreVersions", elsewhere, 409),
                         "ENTITY_ERROR.RELATIONSHIP.INVALID", ptr)
        self.add_item(sub, "appStoreVersion", "appStoreVersions", "nope", 404)
        self.add_item(sub, "appStoreVersion", "appStoreVersions", draft)  # DEVELOPER_REJECTED is editable
        self.add_item(sub, "appStoreVersion", "appStoreVersions", draft, 409)
        # products: ready to submit, their latest version still editable
        bare = self.create_iap("com.example.bare")["data"]
        bare_version = self.new_product_version(bare)
        refused = self.add_item(sub, "inAppPurchaseVersion", "inAppPurchaseVersions", bare_version["id"], 409)
        self.assertError(refused, "STATE_ERROR", "/data/relationships/inAppPurchaseVersion")
        self.assertIn("MISSING_METADATA", refused["errors"][0]["detail"])
        self.assertIn("an uploaded review screenshot", refused["errors"][0]["detail"])
        ids = self.seed({"inAppPurchases": [{"productId": "com.example.live", "name": "Live",
                                             "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED",
                                             "localizations": [{"locale": "en-US", "name": "Live"}]}]})
        live_iap = ids["inAppPurchases"]["com.example.live"]
        approved = self.call("GET", "/v2/inAppPurchases/%s/versions" % live_iap, expect=200)[1]["data"][0]
        refused = self.add_item(sub, "inAppPurchaseVersion", "inAppPurchaseVersions", approved["id"], 409)
        self.assertIn("APPROVED", refused["errors"][0]["detail"])
        item_iap, sub_item = self.ready_iap()
        self.add_item(sub, "inAppPurchaseVersion", "inAppPurchaseVersions", sub_item["id"])
        # a part removed after the item was added: the submission is refused until it is back
        shot = self.call("GET", "/v2/inAppPurchases/%s/appStoreReviewScreenshot" % item_iap["id"],
                         expect=200)[1]["data"]
        self.call("DELETE", "/v1/inAppPurchaseAppStoreReviewScreenshots/" + shot["id"], expect=204)
        self.assertError(self.patch_submission(sub, {"submitted": True}, 409), "STATE_ERROR")
        mac_sub = self.submission("MAC_OS")["data"]["id"]
        self.add_item(mac_sub, "appStoreVersion", "appStoreVersions", mac)
        self.patch_submission(mac_sub, {"submitted": True})
        self.assertEqual(self.app_version(mac)["appVersionState"], "WAITING_FOR_REVIEW")

    def test_a_cancelled_submission_gives_back_what_was_waiting(self):
        iap, version = self.ready_iap()
        (draft,) = self.seed_versions(("IOS", "1.0", "PREPARE_FOR_SUBMISSION"))
        sub = self.submission()["data"]["id"]
        self.add_item(sub, "inAppPurchaseVersion", "inAppPurchaseVersions", version["id"])
        self.add_item(sub, "appStoreVersion", "appStoreVersions", draft)
        self.patch_submission(sub, {"submitted": True})
        cancelled = self.patch_submission(sub, {"canceled": True})["data"]["attributes"]
        self.assertEqual(cancelled["state"], "CANCELING")
        self.assertEqual({i["attributes"]["state"] for i in self.state("reviewSubmissionItems")}, {"REMOVED"})
        self.assertEqual(self.iap_state("com.example.gems"), "READY_TO_SUBMIT")
        self.assertEqual(self.resource("inAppPurchaseVersions", version["id"])["attributes"]["state"],
                         "DEVELOPER_REJECTED")
        self.assertEqual((self.app_version(draft)["appVersionState"], self.app_version(draft)["appStoreState"]),
                         ("DEVELOPER_REJECTED", "DEVELOPER_REJECTED"))
        self.assertError(self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=409)[1], "STATE_ERROR")
        again = self.submission()["data"]["id"]
        self.add_item(again, "inAppPurchaseVersion", "inAppPurchaseVersions", version["id"])
        self.add_item(again, "appStoreVersion", "appStoreVersions", draft)
        self.patch_submission(again, {"submitted": True})
        self.assertEqual(self.iap_state("com.example.gems"), "WAITING_FOR_REVIEW")

    def test_the_review_control_endpoint(self):
        self.assertEqual(self.fake.request("POST", "/__fake/review", {"appId": "nope", "outcome": "approve"},
                                           auth=False)[0], 400)
        self.assertEqual(self.fake.request("POST", "/__fake/review", {"appId": self.app, "outcome": "reject"},
                                           auth=False)[0], 400)
        self.assertEqual(self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"}),
                         {"reviewSubmissions": []})

    # -- deleting products
    def test_a_product_never_submitted_can_be_deleted(self):
        iap, version = self.ready_iap()
        spare = self.new_product_version(self.create_iap("com.example.spare")["data"])
        promoted = self.call("POST", "/v1/promotedPurchases", {"data": {
            "type": "promotedPurchases", "attributes": {"visibleForAllUsers": True},
            "relationships": {"app": self.link("apps", self.app),
                              "inAppPurchaseV2": self.link("inAppPurchases", iap["id"])}}}, 201)[1]["data"]
        draft = self.submission()["data"]["id"]
        self.add_item(draft, "inAppPurchaseVersion", "inAppPurchaseVersions", version["id"])
        self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=204)
        self.call("GET", "/v2/inAppPurchases/%s/versions" % iap["id"], expect=404)
        for type_ in ("inAppPurchaseAvailabilities", "inAppPurchasePriceSchedules", "inAppPurchasePrices",
                      "inAppPurchaseAppStoreReviewScreenshots", "promotedPurchases", "reviewSubmissionItems"):
            self.assertEqual(self.state(type_), [], type_)
        self.assertEqual([v["id"] for v in self.state("inAppPurchaseVersions")], [spare["id"]])
        self.call("GET", "/v1/promotedPurchases/" + promoted["id"], expect=404)
        self.assertIn("com.example.gems", self.fake.control("GET", "state")["usedProductIds"][self.app])
        self.assertError(self.create_iap("com.example.gems", expect=409), "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE")
        self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=404)
        # a subscription just created, in a group that keeps its other subscription
        group, first = self.create_group_and_subscription()
        second = self.call("POST", "/v1/subscriptions", {"data": {
            "type": "subscriptions", "attributes": {"productId": "com.example.pro.yearly", "name": "Pro Yearly"},
            "relationships": {"group": self.link("subscriptionGroups", group["id"])}}}, 201)[1]["data"]
        self.assertEqual(second["attributes"]["groupLevel"], 2)
        self.call("DELETE", "/v1/subscriptions/" + first["id"], expect=204)
        left = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions" % group["id"], expect=200)[1]["data"]
        self.assertEqual([(s["id"], s["attributes"]["groupLevel"]) for s in left], [(second["id"], 1)])
        self.call("DELETE", "/v1/subscriptions/" + second["id"], expect=204)
        self.assertEqual(len(self.call("GET", "/v1/apps/%s/subscriptionGroups" % self.app, expect=200)[1]["data"]), 1)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_a_product_submitted_or_approved_is_not_deleted(self):
        ids = self.seed({"inAppPurchases": [
            {"productId": "com.example.%s" % s.lower(), "name": s, "inAppPurchaseType": "CONSUMABLE", "state": s}
            for s in ("APPROVED", "WAITING_FOR_REVIEW", "DEVELOPER_REMOVED_FROM_SALE", "REJECTED", "WAITING_FOR_UPLOAD")],
            "subscriptionGroups": [{"referenceName": "Pro", "subscriptions": [
                {"productId": "com.example.pro", "name": "Pro", "subscriptionPeriod": "ONE_MONTH"}]}]})
        for product_id, id_ in ids["inAppPurchases"].items():
            if product_id == "com.example.waiting_for_upload":
                continue
            refused = self.call("DELETE", "/v2/inAppPurchases/" + id_, expect=409)[1]
            self.assertError(refused, "STATE_ERROR")
            self.assertIn("never submitted for review", refused["errors"][0]["detail"])
        self.call("DELETE", "/v2/inAppPurchases/" + ids["inAppPurchases"]["com.example.waiting_for_upload"], expect=204)
        self.assertError(self.call("DELETE", "/v1/subscriptions/" + ids["subscriptions"]["com.example.pro"],
                                   expect=409)[1], "STATE_ERROR")
        self.assertEqual(len(self.state("inAppPurchases")), 4)

    def test_the_managed_view_leaves_out_review_bookkeeping(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01"})
        apps = [self.fake.control("POST", "apps", {"name": b, "bundleId": b})["id"]
                for b in ("com.example.one", "com.example.two")]
        for app in apps:
            self.fake.control("POST", "generate", {"appId": app, "seed": 5})
        self.fake.control("POST", "seed", {"appId": apps[1], "appStoreVersions": [
            {"versionString": "9.0", "appVersionState": "READY_FOR_REVIEW"}]})
        views = [self.fake.control("POST", "managed", {"appId": app}) for app in apps]
        self.assertEqual(views[0], views[1])
        self.assertNotIn("appStoreVersions", json.dumps(views[0]))
