"""Promotional images of in-app purchases and subscriptions (`inAppPurchaseImages`, `subscriptionImages`), uploaded
like review screenshots: a POST reserves the image and answers `uploadOperations`, the parts are PUT, a PATCH with
`uploaded: true` commits it.

API 4.4.1 has two forms of the same resource type. The v1 form (`/v1/...Images`, the product's `images` list and its
`include=images`) names its product, carries `sourceFileChecksum` and a `state` that goes on into review. The v2 form
(`/v2/...Images`, and the versions' `image`/`images`) is made for a product version, carries `assetDeliveryState`
and takes no checksum. One record serves both; which form an answer shows depends on the operation.

On commit the bytes are checked: every part arrived, the MD5 matches `sourceFileChecksum` (v1), and the image is a
PNG or JPEG of exactly 1024x1024 pixels without transparency (App Store Connect Help, In-App Purchase information,
Promotional Image). A failing image ends `FAILED`: the v1 PATCH answers 409 with the reason (its schema has no place
for one), the v2 PATCH answers it in `assetDeliveryState.errors`.
"""

import hashlib
import struct

from ..core.errors import entity_error, state_error
from ..reference import ref
from .screenshots import reserve_upload, take_upload
from .versions import EDITABLE_VERSION_STATES

ROUTES = [
    ("GET", "/v2/inAppPurchases/{id}/images", "inAppPurchasesV2_images_getToManyRelated", "get_product_images"),
    ("GET", "/v1/subscriptions/{id}/images", "subscriptions_images_getToManyRelated", "get_product_images"),
    ("POST", "/v1/inAppPurchaseImages", "inAppPurchaseImages_createInstance", "create_image"),
    ("GET", "/v1/inAppPurchaseImages/{id}", "inAppPurchaseImages_getInstance", "get_image"),
    ("PATCH", "/v1/inAppPurchaseImages/{id}", "inAppPurchaseImages_updateInstance", "update_image"),
    ("DELETE", "/v1/inAppPurchaseImages/{id}", "inAppPurchaseImages_deleteInstance", "delete_image"),
    ("POST", "/v2/inAppPurchaseImages", "inAppPurchaseImagesV2_createInstance", "create_image"),
    ("GET", "/v2/inAppPurchaseImages/{id}", "inAppPurchaseImagesV2_getInstance", "get_image"),
    ("PATCH", "/v2/inAppPurchaseImages/{id}", "inAppPurchaseImagesV2_updateInstance", "update_image"),
    ("DELETE", "/v2/inAppPurchaseImages/{id}", "inAppPurchaseImagesV2_deleteInstance", "delete_image"),
    ("POST", "/v1/subscriptionImages", "subscriptionImages_createInstance", "create_image"),
    ("GET", "/v1/subscriptionImages/{id}", "subscriptionImages_getInstance", "get_image"),
    ("PATCH", "/v1/subscriptionImages/{id}", "subscriptionImages_updateInstance", "update_image"),
    ("DELETE", "/v1/subscriptionImages/{id}", "subscriptionImages_deleteInstance", "delete_image"),
    ("POST", "/v2/subscriptionImages", "subscriptionImagesV2_createInstance", "create_image"),
    ("GET", "/v2/subscriptionImages/{id}", "subscriptionImagesV2_getInstance", "get_image"),
    ("PATCH", "/v2/subscriptionImages/{id}", "subscriptionImagesV2_updateInstance", "update_image"),
    ("DELETE", "/v2/subscriptionImages/{id}", "subscriptionImagesV2_deleteInstance", "delete_image"),
]

# image type -> (product type, the relationship naming the product, the version type)
IMAGE_TYPES = {"inAppPurchaseImages": ("inAppPurchases", "inAppPurchase", "inAppPurchaseVersions"),
               "subscriptionImages": ("subscriptions", "subscription", "subscriptionVersions")}
IMAGE_OF_PRODUCT = {product: image for image, (product, _, _) in IMAGE_TYPES.items()}
# Operations whose answers show images in the v2 form: the v2 operations and the versions' reads.
V2_FORM_OPS = {op for _, path, op, _ in ROUTES if path.startswith("/v2/") and "Images" in path} | {
    "inAppPurchasesV2_versions_getToManyRelated", "subscriptions_versions_getToManyRelated"}
# v1 `state` values once the bytes are in: the image then goes through review with its product.
COMMITTED = ("PREPARE_FOR_SUBMISSION", "WAITING_FOR_REVIEW", "APPROVED", "REJECTED")
# The promotional image's size (App Store Connect Help, In-App Purchase information).
SIZE = 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_ALPHA_COLOUR_TYPES = (4, 6)  # greyscale with alpha, truecolour with alpha
# JPEG start-of-frame markers (SOF0...SOF15 but DHT, JPG and DAC).
JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def delivery_state(state):
    """A v1 `state` as the v2 form's `assetDeliveryState.state`: once processed, an image is COMPLETE there."""
    return state if state in ("AWAITING_UPLOAD", "UPLOAD_COMPLETE", "FAILED") else "COMPLETE"


class Images:
    """Mixin of the service."""

    def image_of(self, product):
        return self.store.slot(product, "image")

    def version_image(self, version):
        """A version's image: its product's image, when that image was made for this version."""
        product = self.store.parent(version)
        image = self.image_of(product) if product is not None else None
        return image if image is not None and image.get("version") == version["id"] else None

    # -- reads
    def get_product_images(self, c):
        product = self.store.need("inAppPurchases" if c.path.startswith("/v2/") else "subscriptions", c.id)
        images = [i for i in [self.image_of(product)] if i is not None]
        for image in images:
            self.processing_view(image)
        return 200, self.page(images, c.q, c.path)

    def get_image(self, c):
        rec = self.store.need(c.path.split("/")[2], c.id)
        self.processing_view(rec)
        return 200, self.single(rec, c.q, c.path)

    # -- reserve, commit, delete
    def create_image(self, c):
        data = c.body["data"]
        a = data["attributes"]
        product_type, rel, version_type = IMAGE_TYPES[data["type"]]
        version = None
        if c.path.startswith("/v2/"):
            version = self.related_need(data, "version", version_type)
            if version["attributes"]["state"] not in EDITABLE_VERSION_STATES:
                raise state_error("Version %d is %s and can't be edited; create a new version"
                                  % (version["attributes"]["version"], version["attributes"]["state"]),
                                  "/data/relationships/version")
            product, pointer = self.store.parent(version), "/data/relationships/version"
        else:
            product, pointer = self.related_need(data, rel, product_type), "/data/relationships/" + rel
            versions = self.store.kid_recs(product, "versions")
            version = versions[-1] if versions else None
        if self.image_of(product) is not None:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID",
                               "This product already has a promotional image; delete it first", pointer)
        if a["fileSize"] <= 0:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileSize must be positive", "/data/attributes/fileSize")
        if not a["fileName"] or "/" in a["fileName"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileName must be a plain file name",
                               "/data/attributes/fileName")
        rec = self.new_image(product, a["fileName"], a["fileSize"], version)
        reserve_upload(self, rec, a["fileSize"])
        status, doc = self.created(rec, c)
        doc["links"]["self"] = doc["data"]["links"]["self"]  # the form's own path, /v1 or /v2
        return status, doc

    def new_image(self, product, file_name, file_size, version=None):
        """A promotional image reserved for `product` (AWAITING_UPLOAD, no upload operations yet)."""
        image_type = IMAGE_OF_PRODUCT[product["type"]]
        rel = IMAGE_TYPES[image_type][1]
        rec = {"type": image_type, "id": self.store.new_id(False),
               "attributes": {"fileSize": file_size, "fileName": file_name, "sourceFileChecksum": None,
                              "assetToken": None, "imageAsset": None, "state": "AWAITING_UPLOAD"},
               "rels": {rel: {"data": ref(product["type"], product["id"])}},
               "version": version["id"] if version else None, "errors": []}
        return self.store.set_slot(product, "image", rec)

    def update_image(self, c):
        self.check_update_id(c)
        rec = self.store.need(c.path.split("/")[2], c.id)
        a = c.body["data"].get("attributes") or {}
        v1 = c.path.startswith("/v1/")
        if not a.get("uploaded"):
            return self.updated(rec, c)
        if rec["attributes"]["state"] != "AWAITING_UPLOAD":
            raise state_error("This image has already been committed (%s)" % rec["attributes"]["state"])
        if v1 and not a.get("sourceFileChecksum"):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.REQUIRED", "Committing an upload needs sourceFileChecksum",
                               "/data/attributes/sourceFileChecksum")
        blob, errors = take_upload(self, rec)
        rec["attributes"].pop("uploadOperations", None)
        if v1:
            rec["attributes"]["sourceFileChecksum"] = a["sourceFileChecksum"]
            if not errors and hashlib.md5(blob).hexdigest() != a["sourceFileChecksum"].lower():
                errors.append({"code": "CHECKSUM_MISMATCH",
                               "description": "sourceFileChecksum does not match the MD5 of the uploaded file"})
        if not errors:
            errors = image_problems(blob)
        if errors:
            rec["attributes"]["state"] = "FAILED"
            rec["errors"] = errors
            if v1:  # the v1 form has no place for the reason: the commit is refused with it
                pointer = "/data/attributes/" + ("sourceFileChecksum" if errors[0]["code"] == "CHECKSUM_MISMATCH"
                                                 else "uploaded")
                raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                                   "%s: %s; the image is FAILED, delete it and upload another"
                                   % (errors[0]["code"], errors[0]["description"]), pointer)
            return self.updated(rec, c)
        self.commit_image(rec, blob)
        self.asset_reads[rec["id"]] = self.settings["assetProcessingReads"]
        self.processing_view(rec)
        return self.updated(rec, c)

    def commit_image(self, rec, blob, state="PREPARE_FOR_SUBMISSION"):
        """The image's bytes are in: served at its imageAsset URL; the image waits for review with its product."""
        rec["attributes"].update({
            "state": state, "assetToken": "fake/%s" % rec["id"],
            "imageAsset": {"templateUrl": "%s/__assets/%s/{w}x{h}bb.{f}" % (self.base_url, rec["id"]),
                           "width": SIZE, "height": SIZE}})
        rec["errors"] = []
        rec["checksum"] = hashlib.md5(blob).hexdigest()
        self.assets[rec["id"]] = blob

    def delete_image(self, c):
        rec = self.store.need(c.path.split("/")[2], c.id)
        self.assets.pop(rec["id"], None)
        self.store.remove(rec)
        return 204, None

    # -- review
    def review_image(self, product, states, to):
        """Moves the product's image along with the product's review: from one of `states` to `to`."""
        image = self.image_of(product)
        if image is not None and image["attributes"]["state"] in states:
            image["attributes"]["state"] = to

    # -- the two forms
    def shape_image(self, rec, out):
        """Turns a rendered image into the form the current operation answers with."""
        attrs = out.get("attributes", {})
        shown = attrs.pop("assetDeliveryState", None)  # a commit still processing (`assetProcessingReads`)
        state = shown["state"] if shown else rec["attributes"]["state"]
        if getattr(self, "operation", None) not in V2_FORM_OPS:
            attrs["state"] = state
            return out
        attrs.pop("state", None)
        attrs.pop("sourceFileChecksum", None)
        attrs["assetDeliveryState"] = {"state": delivery_state(state),
                                       "errors": list(rec.get("errors") or []) if state == "FAILED" else [],
                                       "warnings": []}
        out.pop("relationships", None)
        out["links"] = {"self": "%s/v2/%s/%s" % (self.base_url, rec["type"], rec["id"])}
        return out


def image_problems(blob):
    """Why `blob` is no promotional image: [{"code", "description"}], empty when it is one."""
    kind, width, height, alpha = read_image(blob)
    if kind is None:
        return [{"code": "INVALID_IMAGE_FORMAT", "description": "the file is not a PNG or JPEG image"}]
    problems = []
    if (width, height) != (SIZE, SIZE):
        problems.append({"code": "IMAGE_INCORRECT_DIMENSIONS",
                         "description": "the image is %dx%d pixels; a promotional image is %dx%d"
                                        % (width, height, SIZE, SIZE)})
    if alpha:
        problems.append({"code": "IMAGE_ALPHA_NOT_ALLOWED",
                         "description": "the image has transparency (%s); a promotional image has none" % alpha})
    return problems


def read_image(blob):
    """(format, width, height, transparency) of a PNG or JPEG read from its bytes; format None when it is neither.
    Transparency is why the image has some (a PNG colour type with alpha, a tRNS chunk), or None."""
    if blob[:8] == PNG_SIGNATURE:
        return read_png(blob)
    if blob[:3] == b"\xff\xd8\xff":
        return read_jpeg(blob)
    return None, 0, 0, None


def read_png(blob):
    if len(blob) < 33 or blob[12:16] != b"IHDR" or struct.unpack(">I", blob[8:12])[0] != 13:
        return None, 0, 0, None
    width, height, _depth, colour = struct.unpack(">IIBB", blob[16:26])
    alpha = "PNG colour type %d" % colour if colour in PNG_ALPHA_COLOUR_TYPES else None
    i = 8
    while i + 8 <= len(blob):  # bounded: every step moves past a chunk
        length, kind = struct.unpack(">I", blob[i:i + 4])[0], blob[i + 4:i + 8]
        if kind == b"tRNS":
            alpha = alpha or "a tRNS chunk"
        if kind in (b"IDAT", b"IEND"):  # tRNS comes before the image data
            break
        i += 12 + length
    return "png", width, height, alpha


def read_jpeg(blob):
    i = 2
    while i + 4 <= len(blob):  # bounded: every step moves past a marker
        if blob[i] != 0xFF:
            break
        marker = blob[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the scan before any frame header
            break
        length = struct.unpack(">H", blob[i + 2:i + 4])[0]
        if marker in JPEG_SOF and i + 9 <= len(blob):
            height, width = struct.unpack(">HH", blob[i + 5:i + 9])
            return "jpeg", width, height, None  # JPEG has no alpha channel
        i += 2 + length
    return None, 0, 0, None
