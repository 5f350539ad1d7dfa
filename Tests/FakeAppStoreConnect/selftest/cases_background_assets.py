"""Background assets (asset packs): identifier rules, version numbering, upload files with parts and their
checks, processing that ends COMPLETE or, when told, FAILED; and review submissions with a pack version."""

import hashlib
import json


class BackgroundAssetCases:
    def create_pack(self, identifier, expect=201):
        return self.call("POST", "/v1/backgroundAssets", {"data": {
            "type": "backgroundAssets", "attributes": {"assetPackIdentifier": identifier},
            "relationships": {"app": self.linkage("apps", self.app)}}}, expect)[1]

    def create_version(self, pack_id, expect=201):
        return self.call("POST", "/v1/backgroundAssetVersions", {"data": {
            "type": "backgroundAssetVersions",
            "relationships": {"backgroundAsset": self.linkage("backgroundAssets", pack_id)}}}, expect)[1]

    def upload_file(self, version_id, kind, name, blob, checksum=True, expect=201):
        doc = self.call("POST", "/v1/backgroundAssetUploadFiles", {"data": {
            "type": "backgroundAssetUploadFiles", "attributes": {"assetType": kind, "fileName": name, "fileSize": len(blob)},
            "relationships": {"backgroundAssetVersion": self.linkage("backgroundAssetVersions", version_id)}}}, expect)[1]
        if expect != 201:
            return doc
        item = doc["data"]
        for op in item["attributes"]["uploadOperations"]:
            hdrs = {h["name"]: h["value"] for h in op["requestHeaders"]}
            status, _, _ = self.fake.request(op["method"], op["url"], raw=blob[op["offset"]:op["offset"] + op["length"]],
                                             headers=hdrs, auth=False)
            self.assertEqual(status, 200)
        attributes = {"uploaded": True}
        if checksum:
            attributes["sourceFileChecksums"] = {"file": {"hash": hashlib.sha256(blob).hexdigest(), "algorithm": "SHA_256"}}
        return self.call("PATCH", "/v1/backgroundAssetUploadFiles/" + item["id"], {"data": {
            "type": "backgroundAssetUploadFiles", "id": item["id"], "attributes": attributes}}, 200)[1]["data"]

    def version_state(self, version_id):
        return self.call("GET", "/v1/backgroundAssetVersions/" + version_id, expect=200)[1]["data"]["attributes"]["state"]

    MANIFEST = {"assetPackID": "level1", "downloadPolicy": {"onDemand": {}}, "fileSelectors": [{"directory": "Levels"}],
                "platforms": ["iOS"]}

    def test_asset_pack_identifiers(self):
        for bad in ("level.1", "level_1", "-level1", "level1-", "", "level 1"):
            self.assertError(self.create_pack(bad, 409), "ENTITY_ERROR.ATTRIBUTE.INVALID",
                             "/data/attributes/assetPackIdentifier")
        pack = self.create_pack("Level-1")["data"]
        self.assertEqual(pack["attributes"]["assetPackIdentifier"], "Level-1")
        self.assertError(self.create_pack("Level-1", 409), "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE")
        listed = self.call("GET", "/v1/apps/%s/backgroundAssets?filter[assetPackIdentifier]=Level-1" % self.app, expect=200)[1]
        self.assertEqual([p["id"] for p in listed["data"]], [pack["id"]])
        for n in range(2, 101):
            self.create_pack("pack%d" % n)
        self.create_pack("pack101", 409)

    def test_versions_uploads_and_processing(self):
        pack = self.create_pack("level1")["data"]
        v1 = self.create_version(pack["id"])["data"]
        self.assertEqual((v1["attributes"]["version"], v1["attributes"]["state"]), ("1", "AWAITING_UPLOAD"))
        manifest = self.upload_file(v1["id"], "MANIFEST", "level1.json", json.dumps(self.MANIFEST).encode())
        self.assertEqual(manifest["attributes"]["assetDeliveryState"]["state"], "COMPLETE")
        blob = b"archive" * 1000
        asset = self.upload_file(v1["id"], "ASSET", "level1.aar", blob)
        self.assertEqual(asset["attributes"]["assetDeliveryState"]["state"], "COMPLETE")
        self.upload_file(v1["id"], "ASSET", "again.aar", blob, expect=409)
        self.create_version(pack["id"], 409)  # still processing
        self.assertEqual(self.version_state(v1["id"]), "PROCESSING")
        self.assertEqual(self.version_state(v1["id"]), "COMPLETE")
        read = self.call("GET", "/v1/backgroundAssets/%s/versions?include=assetFile" % pack["id"], expect=200)[1]
        self.assertEqual(read["data"][0]["relationships"]["assetFile"]["data"]["id"], asset["id"])
        self.assertEqual(read["included"][0]["attributes"]["fileName"], "level1.aar")
        self.assertEqual(read["data"][0]["attributes"]["platforms"], ["IOS"])
        # the next version is numbered by App Store Connect; a failure is reported in stateDetails
        self.fake.control("POST", "settings", {"backgroundAssetProcessing": "FAILED"})
        v2 = self.create_version(pack["id"])["data"]
        self.assertEqual(v2["attributes"]["version"], "2")
        self.upload_file(v2["id"], "ASSET", "level1.aar", blob)
        self.assertEqual(self.version_state(v2["id"]), "PROCESSING")
        got = self.call("GET", "/v1/backgroundAssetVersions/" + v2["id"], expect=200)[1]["data"]["attributes"]
        self.assertEqual(got["state"], "FAILED")
        self.assertTrue(got["stateDetails"]["errors"])
        self.assertEqual(self.create_version(pack["id"])["data"]["attributes"]["version"], "3")

    def test_bad_uploads_fail(self):
        pack = self.create_pack("level1")["data"]
        v1 = self.create_version(pack["id"])["data"]
        wrong = dict(self.MANIFEST, assetPackID="other")
        failed = self.upload_file(v1["id"], "MANIFEST", "m.json", json.dumps(wrong).encode())
        self.assertEqual(failed["attributes"]["assetDeliveryState"]["state"], "FAILED")
        self.assertEqual(self.version_state(v1["id"]), "FAILED")
        v2 = self.create_version(pack["id"])["data"]
        item = self.call("POST", "/v1/backgroundAssetUploadFiles", {"data": {
            "type": "backgroundAssetUploadFiles", "attributes": {"assetType": "ASSET", "fileName": "a.aar", "fileSize": 10},
            "relationships": {"backgroundAssetVersion": self.linkage("backgroundAssetVersions", v2["id"])}}}, 201)[1]["data"]
        done = self.call("PATCH", "/v1/backgroundAssetUploadFiles/" + item["id"], {"data": {
            "type": "backgroundAssetUploadFiles", "id": item["id"], "attributes": {"uploaded": True}}}, 200)[1]["data"]
        self.assertEqual(done["attributes"]["assetDeliveryState"]["errors"][0]["code"], "UPLOAD_INCOMPLETE")
        v3 = self.create_version(pack["id"])["data"]
        self.call("POST", "/v1/backgroundAssetUploadFiles", {"data": {
            "type": "backgroundAssetUploadFiles", "attributes": {"assetType": "PACKAGE", "fileName": "a", "fileSize": 1},
            "relationships": {"backgroundAssetVersion": self.linkage("backgroundAssetVersions", v3["id"])}}}, 409)

    def test_review_submission_of_a_pack_version(self):
        pack = self.create_pack("level1")["data"]
        version = self.create_version(pack["id"])["data"]

        def submission(expect=201):
            return self.call("POST", "/v1/reviewSubmissions", {"data": {
                "type": "reviewSubmissions", "attributes": {"platform": "IOS"},
                "relationships": {"app": self.linkage("apps", self.app)}}}, expect)[1]

        def item(sub_id, expect=201):
            return self.call("POST", "/v1/reviewSubmissionItems", {"data": {
                "type": "reviewSubmissionItems",
                "relationships": {"reviewSubmission": self.linkage("reviewSubmissions", sub_id),
                                  "backgroundAssetVersion": self.linkage("backgroundAssetVersions", version["id"])}}},
                expect)[1]

        sub = submission()["data"]
        submission(409)  # one open submission per platform
        item(sub["id"], 409)  # not COMPLETE yet
        self.call("PATCH", "/v1/reviewSubmissions/" + sub["id"], {"data": {
            "type": "reviewSubmissions", "id": sub["id"], "attributes": {"submitted": True}}}, 409)  # no item
        self.upload_file(version["id"], "ASSET", "level1.aar", b"x" * 100)
        self.version_state(version["id"])
        item(sub["id"])
        item(sub["id"], 409)  # once
        done = self.call("PATCH", "/v1/reviewSubmissions/" + sub["id"], {"data": {
            "type": "reviewSubmissions", "id": sub["id"], "attributes": {"submitted": True}}}, 200)[1]["data"]
        self.assertEqual(done["attributes"]["state"], "WAITING_FOR_REVIEW")
        cancelled = self.call("PATCH", "/v1/reviewSubmissions/" + sub["id"], {"data": {
            "type": "reviewSubmissions", "id": sub["id"], "attributes": {"canceled": True}}}, 200)[1]["data"]
        self.assertEqual(cancelled["attributes"]["state"], "CANCELING")
