"""App Store review screenshots of in-app purchases and subscriptions, and their upload operations.

A POST reserves the asset and answers `uploadOperations` (PUTs to /__upload/TOKEN/N, no token); a PATCH with
`uploaded: true` commits it: every part must have arrived and the MD5 of the joined parts must match
`sourceFileChecksum`. App Store Connect processes assets asynchronously, which `assetProcessingReads` imitates.
"""

import base64
import hashlib
import struct
import uuid

from ..core.errors import entity_error, state_error

ROUTES = [
    ("GET", "/v2/inAppPurchases/{id}/appStoreReviewScreenshot",
     "inAppPurchasesV2_appStoreReviewScreenshot_getToOneRelated", "get_one"),
    ("GET", "/v1/subscriptions/{id}/appStoreReviewScreenshot",
     "subscriptions_appStoreReviewScreenshot_getToOneRelated", "get_one"),
    ("POST", "/v1/inAppPurchaseAppStoreReviewScreenshots", "inAppPurchaseAppStoreReviewScreenshots_createInstance",
     "create_screenshot"),
    ("PATCH", "/v1/inAppPurchaseAppStoreReviewScreenshots/{id}", "inAppPurchaseAppStoreReviewScreenshots_updateInstance",
     "update_screenshot"),
    ("DELETE", "/v1/inAppPurchaseAppStoreReviewScreenshots/{id}",
     "inAppPurchaseAppStoreReviewScreenshots_deleteInstance", "delete_screenshot"),
    ("POST", "/v1/subscriptionAppStoreReviewScreenshots", "subscriptionAppStoreReviewScreenshots_createInstance",
     "create_screenshot"),
    ("PATCH", "/v1/subscriptionAppStoreReviewScreenshots/{id}", "subscriptionAppStoreReviewScreenshots_updateInstance",
     "update_screenshot"),
    ("DELETE", "/v1/subscriptionAppStoreReviewScreenshots/{id}", "subscriptionAppStoreReviewScreenshots_deleteInstance",
     "delete_screenshot"),
]

SMALL_UPLOAD = 4096  # files above this are reserved in two upload parts


class Screenshots:
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
        reserve_upload(self, rec, a["fileSize"])
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
        blob, errors = take_upload(self, rec)
        if not errors:
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
        self.metadata_changed(rec)
        return self.updated(rec, c)

    def delete_screenshot(self, c):
        rec = self.store.need(c.path.split("/")[2], c.id)
        owner = self.store.parent(rec)
        self.store.remove(rec)
        self.metadata_changed(owner)
        return 204, None

    def processing_view(self, rec):
        """While `assetProcessingReads` reads remain, a committed asset still shows UPLOAD_COMPLETE."""
        left = self.asset_reads.get(rec["id"], 0)
        if left > 0:
            self.asset_reads[rec["id"]] = left - 1
            rec["_shown"] = {"state": "UPLOAD_COMPLETE", "errors": [], "warnings": []}
        else:
            rec.pop("_shown", None)


def reserve_upload(fake, rec, size):
    """Reserves the upload of `size` bytes for `rec`: one part up to SMALL_UPLOAD bytes, two above, each a PUT to
    /__upload/TOKEN/N, listed in the record's `uploadOperations`."""
    token = uuid.uuid4().hex
    cuts = [0, size] if size <= SMALL_UPLOAD else [0, size // 2, size]
    parts = [{"offset": cuts[i], "length": cuts[i + 1] - cuts[i], "data": None} for i in range(len(cuts) - 1)]
    fake.store.uploads[token] = {"type": rec["type"], "id": rec["id"], "parts": parts}
    rec["attributes"]["uploadOperations"] = [
        {"method": "PUT", "url": "%s/__upload/%s/%d" % (fake.base_url, token, i), "length": p["length"],
         "offset": p["offset"], "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"}]}
        for i, p in enumerate(parts)]


def take_upload(fake, rec):
    """The bytes uploaded for `rec` (its reservation is used up), and the errors when a part never arrived."""
    token = next((t for t, u in fake.store.uploads.items() if u["id"] == rec["id"]), None)
    parts = fake.store.uploads.pop(token)["parts"] if token else []
    missing = [i for i, p in enumerate(parts) if p["data"] is None]
    if missing or not parts:
        return b"", [{"code": "UPLOAD_INCOMPLETE", "description": "upload parts %s never arrived" % missing}]
    return b"".join(base64.b64decode(p["data"]) for p in parts), []


def image_size(blob):
    """Width and height of a PNG or JPEG, or 0x0 for anything else."""
    if blob[:8] == b"\x89PNG\r\n\x1a\n" and len(blob) >= 24:
        return struct.unpack(">II", blob[16:24])
    if blob[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(blob):  # bounded: every step moves past a segment
            if blob[i] != 0xFF:
                break
            marker, length = blob[i + 1], struct.unpack(">H", blob[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", blob[i + 5:i + 9])
                return w, h
            i += 2 + length
    return 0, 0
