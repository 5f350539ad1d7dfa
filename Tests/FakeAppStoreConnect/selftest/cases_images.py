"""Promotional images of in-app purchases and subscriptions: reserve, upload the parts, commit with the checksum; the
image checks (PNG or JPEG, 1024x1024, no transparency); the v1 and v2 forms; the product lists' `include=images`;
review; deletion; the managed view; generated images."""

import hashlib
import struct
import urllib.request
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # PNG colour type -> samples per pixel


def png(width=1024, height=1024, colour_type=2, trns=False, shade=0x40):
    """A PNG of one colour: colour type 2 (RGB) is what a promotional image may be."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = (b"\x00" + bytes([shade]) * CHANNELS[colour_type] * width) * height
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
    if colour_type == 3:
        out += chunk(b"PLTE", bytes([shade, shade, shade]))
    if trns:
        out += chunk(b"tRNS", b"\x00\x00\x00\x00\x00\x00" if colour_type == 2 else b"\x00")
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def jpeg(width=1024, height=1024):
    """The headers of a baseline JPEG (SOI, APP0, SOF0, EOI): what the fake reads of one."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + app0 + sof0 + b"\x00" * 64 + b"\xff\xd9"


GOOD = png()
IAP = {"type": "inAppPurchaseImages", "rel": "inAppPurchase", "product": "inAppPurchases"}
SUB = {"type": "subscriptionImages", "rel": "subscription", "product": "subscriptions"}


class ImageCases:
    # -- helpers
    def reserve_image(self, kind, product_id, blob, expect=201, file_name="promo.png"):
        return self.call("POST", "/v1/" + kind["type"], {"data": {
            "type": kind["type"], "attributes": {"fileName": file_name, "fileSize": len(blob)},
            "relationships": {kind["rel"]: {"data": {"type": kind["product"], "id": product_id}}}}}, expect)[1]

    def reserve_image_v2(self, kind, version_id, blob, expect=201):
        version_type = kind["product"][:-1] + "Versions"
        return self.call("POST", "/v2/" + kind["type"], {"data": {
            "type": kind["type"], "attributes": {"fileName": "promo.png", "fileSize": len(blob)},
            "relationships": {"version": {"data": {"type": version_type, "id": version_id}}}}}, expect)[1]

    def send_parts(self, image, blob, skip=()):
        for i, op in enumerate(image["attributes"]["uploadOperations"]):
            if i in skip:
                continue
            status = self.fake.request(op["method"], op["url"], raw=blob[op["offset"]:op["offset"] + op["length"]],
                                       headers={h["name"]: h["value"] for h in op["requestHeaders"]}, auth=False)[0]
            self.assertEqual(status, 200)

    def commit_image(self, image, checksum, expect=200, version="v1"):
        attributes = {"uploaded": True}
        if checksum is not None:
            attributes["sourceFileChecksum"] = checksum
        return self.call("PATCH", "/%s/%s/%s" % (version, image["type"], image["id"]), {"data": {
            "type": image["type"], "id": image["id"], "attributes": attributes}}, expect)[1]

    def upload_image(self, kind, product_id, blob=GOOD, expect=200):
        image = self.reserve_image(kind, product_id, blob)["data"]
        self.send_parts(image, blob)
        return image, self.commit_image(image, hashlib.md5(blob).hexdigest(), expect)

    def asset_bytes(self, image_asset, fmt="png"):
        url = image_asset["templateUrl"].replace("{w}", str(image_asset["width"])).replace(
            "{h}", str(image_asset["height"])).replace("{f}", fmt)
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.read()

    def managed_product(self, product_id):
        view = self.fake.control("POST", "managed", {"appId": self.app})
        if product_id in view["inAppPurchases"]:
            return view["inAppPurchases"][product_id]
        return next(g["subscriptions"][product_id] for g in view["subscriptionGroups"].values()
                    if product_id in g["subscriptions"])

    def assertNoContractFailures(self):
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    # -- cases
    def test_in_app_purchase_image_upload(self):
        iap = self.create_iap()["data"]
        self.assertIsNone(self.managed_product("com.example.gems")["image"])
        reserved = self.reserve_image(IAP, iap["id"], GOOD)
        image = reserved["data"]
        a = image["attributes"]
        self.assertEqual((a["state"], a["fileSize"], a["fileName"]), ("AWAITING_UPLOAD", len(GOOD), "promo.png"))
        self.assertEqual(len(a["uploadOperations"]), 2)  # above 4096 bytes: two parts
        self.assertLinksOnly(image, "inAppPurchase")  # a create's answer carries no linkage
        self.assertEqual(reserved["links"]["self"], self.fake.base + "/v1/inAppPurchaseImages/" + image["id"])
        read = self.call("GET", "/v1/inAppPurchaseImages/%s?include=inAppPurchase" % image["id"], expect=200)[1]
        self.assertEqual(read["data"]["relationships"]["inAppPurchase"]["data"],
                         {"type": "inAppPurchases", "id": iap["id"]})
        self.assertEqual([(x["type"], x["id"]) for x in read["included"]], [("inAppPurchases", iap["id"])])
        # one image per product, whatever its state
        _, doc, _ = self.call("POST", "/v1/inAppPurchaseImages", {"data": {
            "type": "inAppPurchaseImages", "attributes": {"fileName": "b.png", "fileSize": 10},
            "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": iap["id"]}}}}}, 409)
        self.assertError(doc, "ENTITY_ERROR.RELATIONSHIP.INVALID", "/data/relationships/inAppPurchase")
        self.send_parts(image, GOOD)
        doc = self.commit_image(image, None, 409)  # the v1 commit needs the checksum; nothing changes
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.REQUIRED", "/data/attributes/sourceFileChecksum")
        done = self.commit_image(image, hashlib.md5(GOOD).hexdigest().upper())["data"]
        a = done["attributes"]
        self.assertEqual(a["state"], "PREPARE_FOR_SUBMISSION")
        self.assertNotIn("uploadOperations", a)
        self.assertEqual((a["imageAsset"]["width"], a["imageAsset"]["height"]), (1024, 1024))
        self.assertEqual(self.asset_bytes(a["imageAsset"]), GOOD)
        self.assertEqual(self.managed_product("com.example.gems")["image"], hashlib.md5(GOOD).hexdigest())
        self.assertError(self.commit_image(image, hashlib.md5(GOOD).hexdigest(), 409), "STATE_ERROR")
        got = self.call("GET", "/v1/inAppPurchaseImages/%s?include=inAppPurchase" % image["id"], expect=200)[1]
        self.assertEqual(got["data"]["attributes"]["sourceFileChecksum"], hashlib.md5(GOOD).hexdigest().upper())
        self.assertEqual([(r["type"], r["id"]) for r in got["included"]], [("inAppPurchases", iap["id"])])
        listed = self.call("GET", "/v2/inAppPurchases/%s/images?include=inAppPurchase" % iap["id"], expect=200)[1]
        self.assertEqual([i["id"] for i in listed["data"]], [image["id"]])
        self.assertEqual(listed["meta"]["paging"]["total"], 1)
        # the v2 form of the same image
        v2 = self.call("GET", "/v2/inAppPurchaseImages/" + image["id"], expect=200)[1]["data"]
        self.assertEqual(v2["attributes"]["assetDeliveryState"], {"state": "COMPLETE", "errors": [], "warnings": []})
        for v1_only in ("state", "sourceFileChecksum"):
            self.assertNotIn(v1_only, v2["attributes"])
        self.assertNotIn("relationships", v2)
        self.assertEqual(v2["links"]["self"], self.fake.base + "/v2/inAppPurchaseImages/" + image["id"])
        self.call("GET", "/v2/inAppPurchaseImages/%s?include=inAppPurchase" % image["id"], expect=400)
        # delete: the product has none again, and the bytes are gone
        self.call("DELETE", "/v1/inAppPurchaseImages/" + image["id"], expect=204)
        self.assertEqual(self.call("GET", "/v2/inAppPurchases/%s/images" % iap["id"], expect=200)[1]["data"], [])
        self.call("GET", "/v1/inAppPurchaseImages/" + image["id"], expect=404)
        self.assertIsNone(self.managed_product("com.example.gems")["image"])
        status = self.fake.request("GET", a["imageAsset"]["templateUrl"], auth=False)[0]
        self.assertEqual(status, 404)
        self.upload_image(IAP, iap["id"], jpeg())  # a JPEG of the right size is a promotional image too
        self.assertNoContractFailures()

    def test_images_that_are_no_promotional_image_fail(self):
        iap = self.create_iap()["data"]
        bad = [("IMAGE_INCORRECT_DIMENSIONS", png(512, 512)), ("IMAGE_INCORRECT_DIMENSIONS", jpeg(1024, 1000)),
               ("IMAGE_ALPHA_NOT_ALLOWED", png(colour_type=6)), ("IMAGE_ALPHA_NOT_ALLOWED", png(colour_type=4)),
               ("IMAGE_ALPHA_NOT_ALLOWED", png(trns=True)), ("IMAGE_ALPHA_NOT_ALLOWED", png(colour_type=3, trns=True)),
               ("INVALID_IMAGE_FORMAT", b"GIF89a" + b"\x00" * 5000), ("INVALID_IMAGE_FORMAT", b"\x89PNG\r\n\x1a\n")]
        for code, blob in bad:
            image, doc = self.upload_image(IAP, iap["id"], blob, expect=409)
            self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/uploaded")
            self.assertTrue(doc["errors"][0]["detail"].startswith(code), (code, doc))
            # the image is FAILED: the v1 form says so, the v2 form says why; it holds the product's one place
            self.assertEqual(self.call("GET", "/v1/inAppPurchaseImages/" + image["id"], expect=200)[1]
                             ["data"]["attributes"]["state"], "FAILED")
            state = self.call("GET", "/v2/inAppPurchaseImages/" + image["id"], expect=200)[1]["data"]["attributes"][
                "assetDeliveryState"]
            self.assertEqual((state["state"], state["errors"][0]["code"]), ("FAILED", code))
            self.assertIsNone(self.managed_product("com.example.gems")["image"])
            self.reserve_image(IAP, iap["id"], GOOD, expect=409)
            self.assertError(self.commit_image(image, hashlib.md5(blob).hexdigest(), 409), "STATE_ERROR")
            self.call("DELETE", "/v1/inAppPurchaseImages/" + image["id"], expect=204)
        image = self.reserve_image(IAP, iap["id"], GOOD)["data"]  # the checksum of other bytes
        self.send_parts(image, GOOD)
        doc = self.commit_image(image, hashlib.md5(b"other bytes").hexdigest(), 409)
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", "/data/attributes/sourceFileChecksum")
        self.assertTrue(doc["errors"][0]["detail"].startswith("CHECKSUM_MISMATCH"))
        self.call("DELETE", "/v1/inAppPurchaseImages/" + image["id"], expect=204)
        image = self.reserve_image(IAP, iap["id"], GOOD)["data"]  # a part never sent
        self.send_parts(image, GOOD, skip=(1,))
        doc = self.commit_image(image, hashlib.md5(GOOD).hexdigest(), 409)
        self.assertTrue(doc["errors"][0]["detail"].startswith("UPLOAD_INCOMPLETE"))
        self.assertNoContractFailures()

    def test_reserved_and_never_uploaded(self):
        iap = self.create_iap()["data"]
        image = self.reserve_image(IAP, iap["id"], GOOD)["data"]
        self.call("PATCH", "/v1/inAppPurchaseImages/" + image["id"], {"data": {
            "type": "inAppPurchaseImages", "id": image["id"], "attributes": {"uploaded": False}}}, 200)
        listing = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=images" % self.app, expect=200)[1]
        self.assertEqual(listing["included"][0]["attributes"]["state"], "AWAITING_UPLOAD")
        self.assertIn("uploadOperations", listing["included"][0]["attributes"])
        self.assertIsNone(self.managed_product("com.example.gems")["image"])
        self.call("POST", "/v1/inAppPurchaseImages", {"data": {
            "type": "inAppPurchaseImages", "attributes": {"fileName": "a/b.png", "fileSize": 10},
            "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": "nope"}}}}}, 404)
        other = self.create_iap("com.example.coins")["data"]
        for attributes, pointer in (({"fileName": "p.png", "fileSize": 0}, "/data/attributes/fileSize"),
                                    ({"fileName": "a/p.png", "fileSize": 10}, "/data/attributes/fileName")):
            doc = self.call("POST", "/v1/inAppPurchaseImages", {"data": {
                "type": "inAppPurchaseImages", "attributes": attributes,
                "relationships": {"inAppPurchase": {"data": {"type": "inAppPurchases", "id": other["id"]}}}}}, 409)[1]
            self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.INVALID", pointer)

    def test_subscription_image_in_both_forms(self):
        _, sub = self.create_group_and_subscription()
        image, done = self.upload_image(SUB, sub["id"])
        self.assertEqual(done["data"]["attributes"]["state"], "PREPARE_FOR_SUBMISSION")
        self.assertLinksOnly(done["data"], "subscription")  # an update's answer carries no linkage
        read = self.call("GET", "/v1/subscriptionImages/%s?include=subscription" % image["id"], expect=200)[1]
        self.assertEqual(read["data"]["relationships"]["subscription"]["data"]["id"], sub["id"])
        listed = self.call("GET", "/v1/subscriptions/%s/images?include=subscription&limit=5" % sub["id"], expect=200)[1]
        self.assertEqual([i["id"] for i in listed["data"]], [image["id"]])
        self.assertEqual(listed["included"][0]["id"], sub["id"])
        self.assertEqual(self.managed_product(sub["attributes"]["productId"])["image"], hashlib.md5(GOOD).hexdigest())
        self.call("DELETE", "/v2/subscriptionImages/" + image["id"], expect=204)  # either form deletes it
        self.assertEqual(self.call("GET", "/v1/subscriptions/%s/images" % sub["id"], expect=200)[1]["data"], [])
        # the v2 form: made for a version, committed without a checksum, failures in assetDeliveryState
        version = self.call("POST", "/v1/subscriptionVersions", {"data": {"type": "subscriptionVersions", "relationships": {
            "subscription": {"data": {"type": "subscriptions", "id": sub["id"]}}}}}, 201)[1]["data"]
        bad = png(800, 800)
        reserved = self.reserve_image_v2(SUB, version["id"], bad)
        image = reserved["data"]
        self.assertEqual(reserved["links"]["self"], self.fake.base + "/v2/subscriptionImages/" + image["id"])
        self.assertEqual(image["attributes"]["assetDeliveryState"]["state"], "AWAITING_UPLOAD")
        self.assertNotIn("relationships", image)
        self.send_parts(image, bad)
        doc = self.commit_image(image, hashlib.md5(bad).hexdigest(), 409, version="v2")  # v2 takes no checksum
        self.assertError(doc, "ENTITY_ERROR.ATTRIBUTE.UNKNOWN", "/data/attributes/sourceFileChecksum")
        failed = self.commit_image(image, None, version="v2")["data"]["attributes"]["assetDeliveryState"]
        self.assertEqual((failed["state"], failed["errors"][0]["code"]), ("FAILED", "IMAGE_INCORRECT_DIMENSIONS"))
        self.call("DELETE", "/v2/subscriptionImages/" + image["id"], expect=204)
        image = self.reserve_image_v2(SUB, version["id"], GOOD)["data"]
        self.reserve_image(SUB, sub["id"], GOOD, expect=409)
        self.send_parts(image, GOOD)
        done = self.commit_image(image, None, version="v2")["data"]
        self.assertEqual(done["attributes"]["assetDeliveryState"]["state"], "COMPLETE")
        self.assertEqual(self.asset_bytes(done["attributes"]["imageAsset"]), GOOD)
        v1 = self.call("GET", "/v1/subscriptionImages/" + image["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual(v1["state"], "PREPARE_FOR_SUBMISSION")
        self.assertEqual(self.managed_product(sub["attributes"]["productId"])["image"], hashlib.md5(GOOD).hexdigest())
        # the version's image (v2 form), read with the versions
        versions = self.call("GET", "/v1/subscriptions/%s/versions?include=image,images" % sub["id"], expect=200)[1]
        rels = versions["data"][0]["relationships"]
        self.assertEqual(rels["image"]["data"]["id"], image["id"])
        self.assertEqual([x["id"] for x in rels["images"]["data"]], [image["id"]])
        self.assertIn("assetDeliveryState", versions["included"][0]["attributes"])
        self.assertNotIn("state", versions["included"][0]["attributes"])
        self.assertNoContractFailures()

    def test_v2_image_needs_an_editable_version(self):
        ids = self.seed({"inAppPurchases": [{"productId": "com.example.live", "name": "Live",
                                             "inAppPurchaseType": "CONSUMABLE",
                                             "localizations": [{"locale": "en-US", "name": "Live"}]}]})
        iap = ids["inAppPurchases"]["com.example.live"]
        version = self.call("GET", "/v2/inAppPurchases/%s/versions" % iap, expect=200)[1]["data"][0]
        self.assertEqual(version["attributes"]["state"], "APPROVED")
        doc = self.reserve_image_v2(IAP, version["id"], GOOD, expect=409)
        self.assertError(doc, "STATE_ERROR", "/data/relationships/version")
        self.reserve_image_v2(IAP, "nope", GOOD, expect=404)
        self.upload_image(IAP, iap)  # the v1 form names the product: an approved one takes a new image

    def test_images_in_product_lists(self):
        iap = self.create_iap()["data"]
        self.create_iap("com.example.bare")
        group, sub = self.create_group_and_subscription()
        image, _ = self.upload_image(IAP, iap["id"])
        sub_image = self.reserve_image(SUB, sub["id"], GOOD)["data"]
        doc = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=images&limit[images]=1" % self.app,
                        expect=200)[1]
        rels = {p["attributes"]["productId"]: p["relationships"]["images"] for p in doc["data"]}
        gems = next(p for p in doc["data"] if p["attributes"]["productId"] == "com.example.gems")
        self.assertEqual(rels["com.example.gems"], {"data": [{"type": "inAppPurchaseImages", "id": image["id"]}],
                                                    "meta": {"paging": {"total": 1, "limit": 1}},
                                                    "links": self.relationship_links(gems, "images")})
        self.assertEqual(rels["com.example.bare"]["data"], [])
        included = doc["included"][0]
        self.assertEqual((included["type"], included["attributes"]["state"]),
                         ("inAppPurchaseImages", "PREPARE_FOR_SUBMISSION"))
        self.assertEqual(included["attributes"]["sourceFileChecksum"], hashlib.md5(GOOD).hexdigest())
        subs = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=images" % group["id"],
                         expect=200)[1]
        self.assertEqual(subs["data"][0]["relationships"]["images"]["data"],
                         [{"type": "subscriptionImages", "id": sub_image["id"]}])
        self.assertEqual(subs["included"][0]["attributes"]["state"], "AWAITING_UPLOAD")
        self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=images&limit[images]=51" % self.app, expect=400)
        self.assertNoContractFailures()

    def test_processing_reads_show_upload_complete(self):
        iap = self.create_iap()["data"]
        self.fake.control("POST", "settings", {"assetProcessingReads": 2})
        image, done = self.upload_image(IAP, iap["id"])
        self.assertEqual(done["data"]["attributes"]["state"], "UPLOAD_COMPLETE")
        v2 = self.call("GET", "/v2/inAppPurchaseImages/" + image["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual(v2["assetDeliveryState"]["state"], "UPLOAD_COMPLETE")
        after = self.call("GET", "/v1/inAppPurchaseImages/" + image["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual(after["state"], "PREPARE_FOR_SUBMISSION")
        self.assertNoContractFailures()

    def test_images_go_through_review_with_their_product(self):
        ready = {"inAppPurchaseType": "CONSUMABLE", "state": "READY_TO_SUBMIT", "versionState": "PREPARE_FOR_SUBMISSION"}
        ids = self.seed({"inAppPurchases": [
            {"productId": "com.example.old", "name": "Old", "inAppPurchaseType": "CONSUMABLE"},
            dict(ready, productId="com.example.cancelled", name="Cancelled",
                 localizations=[{"locale": "en-US", "name": "Cancelled"}]),
            dict(ready, productId="com.example.approved", name="Approved",
                 localizations=[{"locale": "en-US", "name": "Approved"}])]})

        def image_state(image):
            return self.call("GET", "/v1/inAppPurchaseImages/" + image["id"], expect=200)[1]["data"]["attributes"]["state"]

        def submit(iap):
            version = self.call("GET", "/v2/inAppPurchases/%s/versions" % iap, expect=200)[1]["data"][0]
            submission = self.call("POST", "/v1/reviewSubmissions", {"data": {
                "type": "reviewSubmissions", "attributes": {"platform": "IOS"},
                "relationships": {"app": {"data": {"type": "apps", "id": self.app}}}}}, 201)[1]["data"]
            self.call("POST", "/v1/reviewSubmissionItems", {"data": {"type": "reviewSubmissionItems", "relationships": {
                "reviewSubmission": {"data": {"type": "reviewSubmissions", "id": submission["id"]}},
                "inAppPurchaseVersion": {"data": {"type": "inAppPurchaseVersions", "id": version["id"]}}}}}, 201)
            self.call("PATCH", "/v1/reviewSubmissions/" + submission["id"], {"data": {
                "type": "reviewSubmissions", "id": submission["id"], "attributes": {"submitted": True}}}, 200)
            return submission["id"]

        cancelled, _ = self.upload_image(IAP, ids["inAppPurchases"]["com.example.cancelled"])
        submission = submit(ids["inAppPurchases"]["com.example.cancelled"])
        self.assertEqual(image_state(cancelled), "WAITING_FOR_REVIEW")
        self.call("PATCH", "/v1/reviewSubmissions/" + submission, {"data": {
            "type": "reviewSubmissions", "id": submission, "attributes": {"canceled": True}}}, 200)
        self.assertEqual(image_state(cancelled), "PREPARE_FOR_SUBMISSION")
        approved, _ = self.upload_image(IAP, ids["inAppPurchases"]["com.example.approved"])
        submit(ids["inAppPurchases"]["com.example.approved"])
        self.fake.control("POST", "review", {"appId": self.app, "outcome": "inReview"})
        self.assertEqual(image_state(approved), "WAITING_FOR_REVIEW")  # the image's states have no IN_REVIEW
        self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"})
        self.assertEqual(image_state(approved), "APPROVED")
        self.assertEqual(image_state(cancelled), "PREPARE_FOR_SUBMISSION")
        self.assertEqual(self.managed_product("com.example.approved")["image"], hashlib.md5(GOOD).hexdigest())
        v2 = self.call("GET", "/v2/inAppPurchaseImages/" + approved["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual(v2["assetDeliveryState"]["state"], "COMPLETE")
        self.assertNoContractFailures()

    def test_deleting_a_product_deletes_its_image(self):
        iap = self.create_iap()["data"]
        image, done = self.upload_image(IAP, iap["id"])
        self.call("DELETE", "/v2/inAppPurchases/" + iap["id"], expect=204)
        self.call("GET", "/v1/inAppPurchaseImages/" + image["id"], expect=404)
        status = self.fake.request("GET", done["data"]["attributes"]["imageAsset"]["templateUrl"], auth=False)[0]
        self.assertEqual(status, 404)
        self.assertEqual(self.state("inAppPurchaseImages"), [])

    def test_generated_images(self):
        self.fake.control("POST", "settings", {"today": "2031-03-01", "explicitNulls": True})
        seen = set()
        for seed in range(12):
            app = self.fake.control("POST", "apps", {"name": "Images %d" % seed,
                                                      "bundleId": "com.example.images%d" % seed})["id"]
            used = self.fake.control("POST", "generate", {"appId": app, "seed": seed})
            view = self.fake.control("POST", "managed", {"appId": app})
            listing = self.call("GET", "/v1/apps/%s/inAppPurchasesV2?include=images&limit=200" % app, expect=200)[1]
            products = {p["attributes"]["productId"]: (p, listing.get("included", [])) for p in listing["data"]}
            managed = dict((pid, p["image"]) for pid, p in view["inAppPurchases"].items())
            for group in self.call("GET", "/v1/apps/%s/subscriptionGroups" % app, expect=200)[1]["data"]:
                subs = self.call("GET", "/v1/subscriptionGroups/%s/subscriptions?include=images" % group["id"],
                                 expect=200)[1]
                products.update({p["attributes"]["productId"]: (p, subs.get("included", [])) for p in subs["data"]})
                managed.update((pid, p["image"]) for pid, p in
                               view["subscriptionGroups"][group["attributes"]["referenceName"]]["subscriptions"].items())
            for pid, classes in used["classes"].items():
                kind = [c for c in classes if c.startswith("image:")]
                self.assertEqual(len(kind), 1, (seed, pid, classes))
                seen.add(kind[0])
                product, included = products[pid]
                linked = product["relationships"]["images"]["data"]
                if kind[0] == "image:none":
                    self.assertEqual((linked, managed[pid]), ([], None))
                    continue
                image = next(i for i in included if i["id"] == linked[0]["id"])
                a = image["attributes"]
                if kind[0] == "image:awaiting-upload":
                    self.assertEqual((a["state"], managed[pid]), ("AWAITING_UPLOAD", None))
                    self.assertTrue(a["uploadOperations"])
                    continue
                blob = self.asset_bytes(a["imageAsset"])
                self.assertEqual(hashlib.md5(blob).hexdigest(), managed[pid])
                self.assertEqual(a["sourceFileChecksum"], managed[pid])
                self.assertIn(a["state"], ("PREPARE_FOR_SUBMISSION", "WAITING_FOR_REVIEW", "APPROVED"))
                self.assertEqual(struct.unpack(">IIBB", blob[16:26]), (1024, 1024, 8, 2))  # opaque RGB PNG
        self.assertEqual(seen, {"image:none", "image:complete", "image:awaiting-upload"})
        self.assertNoContractFailures()
