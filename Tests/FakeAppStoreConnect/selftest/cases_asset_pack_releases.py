"""The releases of asset pack versions: internal and external beta, and the App Store's through a review submission
(with the submission helpers of `ReviewAndRemovalCases`, mixed into the same test case)."""


class AssetPackReleaseCases:
    def complete_pack_version(self, pack_id):
        version = self.call("POST", "/v1/backgroundAssetVersions", {"data": {
            "type": "backgroundAssetVersions",
            "relationships": {"backgroundAsset": self.link("backgroundAssets", pack_id)}}}, 201)[1]["data"]
        blob = b"archive" * 10
        item = self.call("POST", "/v1/backgroundAssetUploadFiles", {"data": {
            "type": "backgroundAssetUploadFiles", "attributes": {"assetType": "ASSET", "fileName": "a.aar",
                                                                 "fileSize": len(blob)},
            "relationships": {"backgroundAssetVersion": self.link("backgroundAssetVersions", version["id"])}}},
            201)[1]["data"]
        for op in item["attributes"]["uploadOperations"]:
            self.fake.request(op["method"], op["url"], raw=blob[op["offset"]:op["offset"] + op["length"]],
                              headers={h["name"]: h["value"] for h in op["requestHeaders"]}, auth=False)
        self.call("PATCH", "/v1/backgroundAssetUploadFiles/" + item["id"], {"data": {
            "type": "backgroundAssetUploadFiles", "id": item["id"], "attributes": {"uploaded": True}}}, 200)
        for _ in range(2):  # processing ends after a read
            state = self.call("GET", "/v1/backgroundAssetVersions/" + version["id"], expect=200)[1]["data"]
        self.assertEqual(state["attributes"]["state"], "COMPLETE")
        return version["id"]

    def release_state(self, version_id, name):
        doc = self.call("GET", "/v1/backgroundAssetVersions/%s?include=%s" % (version_id, name), expect=200)[1]
        linked = doc["data"]["relationships"][name]["data"]
        if linked is None:
            return None
        type_ = linked["type"]
        got = self.call("GET", "/v1/%s/%s?include=backgroundAssetVersion" % (type_, linked["id"]), expect=200)[1]
        self.assertEqual(got["data"]["relationships"]["backgroundAssetVersion"]["data"]["id"], version_id)
        self.assertEqual([x["id"] for x in got["included"]], [version_id])
        return got["data"]["attributes"]["state"]

    def test_asset_pack_versions_are_released(self):
        pack = self.call("POST", "/v1/backgroundAssets", {"data": {
            "type": "backgroundAssets", "attributes": {"assetPackIdentifier": "level1"},
            "relationships": {"app": self.link("apps", self.app)}}}, 201)[1]["data"]["id"]
        v1 = self.complete_pack_version(pack)
        plain = self.call("GET", "/v1/backgroundAssetVersions/" + v1, expect=200)[1]["data"]
        self.assertLinksOnly(plain, "internalBetaRelease", "appStoreRelease", "externalBetaRelease")  # not included
        read = self.call("GET", "/v1/backgroundAssetVersions/%s?include=internalBetaRelease,appStoreRelease" % v1,
                         expect=200)[1]["data"]["relationships"]
        self.assertEqual(read["internalBetaRelease"]["data"]["type"], "backgroundAssetVersionInternalBetaReleases")
        self.assertIsNone(read["appStoreRelease"]["data"])  # none until the version is added to a submission
        self.assertEqual(self.release_state(v1, "internalBetaRelease"), "READY_FOR_TESTING")
        self.assertIsNone(self.release_state(v1, "appStoreRelease"))
        self.assertIsNone(self.release_state(v1, "externalBetaRelease"))
        v2 = self.complete_pack_version(pack)
        self.assertEqual((self.release_state(v1, "internalBetaRelease"), self.release_state(v2, "internalBetaRelease")),
                         ("SUPERSEDED", "READY_FOR_TESTING"))

        def review(version_id):
            sub = self.submission()["data"]["id"]
            self.add_item(sub, "backgroundAssetVersion", "backgroundAssetVersions", version_id)
            self.assertEqual(self.release_state(version_id, "appStoreRelease"), "PREPARE_FOR_SUBMISSION")
            self.patch_submission(sub, {"submitted": True})
            self.assertEqual(self.release_state(version_id, "appStoreRelease"), "WAITING_FOR_REVIEW")
            self.fake.control("POST", "review", {"appId": self.app, "outcome": "inReview"})
            self.assertEqual(self.release_state(version_id, "appStoreRelease"), "IN_REVIEW")
            self.fake.control("POST", "review", {"appId": self.app, "outcome": "approve"})
            self.assertEqual(self.release_state(version_id, "appStoreRelease"), "READY_FOR_DISTRIBUTION")
        review(v1)
        v3 = self.complete_pack_version(pack)
        review(v3)
        self.assertEqual(self.release_state(v1, "appStoreRelease"), "SUPERSEDED")
        listed = self.call("GET", "/v1/backgroundAssets/%s/versions?include=internalBetaRelease,externalBetaRelease,"
                                  "appStoreRelease" % pack, expect=200)[1]
        self.assertEqual(sorted({x["type"] for x in listed["included"]}),
                         ["backgroundAssetVersionAppStoreReleases", "backgroundAssetVersionInternalBetaReleases"])
        self.assertEqual([v["relationships"]["externalBetaRelease"]["data"] for v in listed["data"]], [None] * 3)
        packs = self.call("GET", "/v1/apps/%s/backgroundAssets?include=appStoreVersion,internalBetaVersion,"
                                 "externalBetaVersion" % self.app, expect=200)[1]["data"][0]["relationships"]
        self.assertEqual((packs["appStoreVersion"]["data"]["id"], packs["internalBetaVersion"]["data"]["id"]), (v3, v3))
        self.assertIsNone(packs["externalBetaVersion"]["data"])
        internal = read["internalBetaRelease"]["data"]["id"]
        self.call("GET", "/v1/backgroundAssetVersionExternalBetaReleases/" + internal, expect=404)
        self.call("GET", "/v1/backgroundAssetVersionInternalBetaReleases/%s?include=app" % internal, expect=400)
        self.assertEqual(self.fake.control("GET", "validations")["responseFailures"], [])

    def test_a_cancelled_pack_release_is_prepared_again(self):
        pack = self.call("POST", "/v1/backgroundAssets", {"data": {
            "type": "backgroundAssets", "attributes": {"assetPackIdentifier": "level1"},
            "relationships": {"app": self.link("apps", self.app)}}}, 201)[1]["data"]["id"]
        v1 = self.complete_pack_version(pack)
        sub = self.submission()["data"]["id"]
        self.add_item(sub, "backgroundAssetVersion", "backgroundAssetVersions", v1)
        self.patch_submission(sub, {"submitted": True})
        self.patch_submission(sub, {"canceled": True})
        self.assertEqual(self.release_state(v1, "appStoreRelease"), "PREPARE_FOR_SUBMISSION")
        again = self.submission()["data"]["id"]
        self.add_item(again, "backgroundAssetVersion", "backgroundAssetVersions", v1)
        self.assertEqual(len(self.state("backgroundAssetVersionAppStoreReleases")), 1)
