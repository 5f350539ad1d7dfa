"""Background assets (Apple-hosted asset packs): a pack per `assetPackIdentifier`, its versions numbered by App
Store Connect, and each version's upload files (an optional MANIFEST, validated, then the ASSET archive).

- `POST /v1/backgroundAssets`: the identifier takes only A-Z a-z 0-9 and `-`, with no leading or trailing hyphen
  (dots and underscores too are refused, `409 ENTITY_ERROR.ATTRIBUTE.INVALID`, as ITMS-91133 reports); one pack per
  identifier per app (`409 ...DUPLICATE`); at most 100 per app (409).
- `POST /v1/backgroundAssetVersions`: versions are numbered 1, 2, 3… per pack and start `AWAITING_UPLOAD`. A new
  version cannot be created while the latest is `PROCESSING` (`409 STATE_ERROR`); one still awaiting its upload is
  left behind.
- `POST /v1/backgroundAssetUploadFiles` (`assetType` ASSET or MANIFEST, `fileName`, `fileSize`): only for a version
  `AWAITING_UPLOAD`, one of each type per version, MANIFEST before ASSET; answers `uploadOperations` like screenshots.
- `PATCH /v1/backgroundAssetUploadFiles/{id}` with `uploaded: true` commits: every part must have arrived, and
  `sourceFileChecksums.file` (MD5 or SHA_256), when given, must match. A MANIFEST is then validated (JSON with
  `assetPackID` equal to the pack's identifier, a known `downloadPolicy`, `fileSelectors`, `platforms`); a bad one is
  `FAILED` with errors. A committed ASSET moves the version to `PROCESSING`; each read of the version afterwards
  counts down `backgroundAssetProcessingReads` (default 1), then the version is `COMPLETE`, or `FAILED` with
  `stateDetails.errors` when the setting `backgroundAssetProcessing` is `"FAILED"`. A failed MANIFEST fails the
  version at once.
- Releases (read-only in API 4.4.1; the document has no create for them), each a to-one relationship of the version:
  a version that becomes `COMPLETE` gets an internal beta release `READY_FOR_TESTING` (the pack's older ones are then
  `SUPERSEDED`); a version added to a review submission gets an App Store release `PREPARE_FOR_SUBMISSION`, which
  review moves to `WAITING_FOR_REVIEW`, `IN_REVIEW` and, approved, `READY_FOR_DISTRIBUTION` (the pack's older one is
  then `SUPERSEDED`; a cancelled submission puts it back to `PREPARE_FOR_SUBMISSION`). No external beta release: the
  document offers no way to send a pack version to external testing (beta review takes builds only).
"""

import datetime
import hashlib
import json
import re

from ..core.errors import entity_error, state_error
from .screenshots import reserve_upload, take_upload

ROUTES = [
    ("GET", "/v1/apps/{id}/backgroundAssets", "apps_backgroundAssets_getToManyRelated", "get_app_background_assets"),
    ("POST", "/v1/backgroundAssets", "backgroundAssets_createInstance", "create_background_asset"),
    ("GET", "/v1/backgroundAssets/{id}/versions", "backgroundAssets_versions_getToManyRelated", "get_background_asset_kids"),
    ("POST", "/v1/backgroundAssetVersions", "backgroundAssetVersions_createInstance", "create_background_asset_version"),
    ("GET", "/v1/backgroundAssetVersions/{id}", "backgroundAssetVersions_getInstance", "get_background_asset_version"),
    ("GET", "/v1/backgroundAssetVersions/{id}/backgroundAssetUploadFiles",
     "backgroundAssetVersions_backgroundAssetUploadFiles_getToManyRelated", "get_background_asset_kids"),
    ("POST", "/v1/backgroundAssetUploadFiles", "backgroundAssetUploadFiles_createInstance", "create_background_asset_file"),
    ("PATCH", "/v1/backgroundAssetUploadFiles/{id}", "backgroundAssetUploadFiles_updateInstance",
     "update_background_asset_file"),
    ("GET", "/v1/backgroundAssetVersionInternalBetaReleases/{id}", "backgroundAssetVersionInternalBetaReleases_getInstance",
     "get_instance"),
    ("GET", "/v1/backgroundAssetVersionExternalBetaReleases/{id}", "backgroundAssetVersionExternalBetaReleases_getInstance",
     "get_instance"),
    ("GET", "/v1/backgroundAssetVersionAppStoreReleases/{id}", "backgroundAssetVersionAppStoreReleases_getInstance",
     "get_instance"),
]

# release relationship of a version -> its resource type
RELEASE_TYPES = {"internalBetaRelease": "backgroundAssetVersionInternalBetaReleases",
                 "appStoreRelease": "backgroundAssetVersionAppStoreReleases"}

KID_LISTS = {
    "backgroundAssets_versions_getToManyRelated": ("backgroundAssets", "versions"),
    "backgroundAssetVersions_backgroundAssetUploadFiles_getToManyRelated": ("backgroundAssetVersions", "uploadFiles"),
}

IDENTIFIER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$")
MAX_PACKS = 100
POLICIES = {"essential", "prefetch", "onDemand"}
EVENTS = {"firstInstallation", "subsequentUpdate"}
PLATFORM_CODES = {"iOS": "IOS", "macOS": "MAC_OS", "tvOS": "TV_OS", "visionOS": "VISION_OS"}
MANIFEST_PLATFORMS = set(PLATFORM_CODES)


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000+00:00")


def manifest_errors(blob, identifier):
    """What App Store Connect would say of an uploaded manifest, as upload-state errors."""
    try:
        doc = json.loads(blob.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return [{"code": "MANIFEST_INVALID", "description": "the manifest is not JSON"}]
    errors = []
    if not isinstance(doc, dict):
        return [{"code": "MANIFEST_INVALID", "description": "the manifest is not a JSON object"}]
    if doc.get("assetPackID") != identifier:
        errors.append({"code": "MANIFEST_INVALID", "description": "assetPackID %r is not this pack's identifier %r"
                       % (doc.get("assetPackID"), identifier)})
    policy = doc.get("downloadPolicy")
    if not isinstance(policy, dict) or len(policy) != 1 or next(iter(policy)) not in POLICIES:
        errors.append({"code": "MANIFEST_INVALID", "description": "downloadPolicy needs one of %s" % sorted(POLICIES)})
    else:
        name, value = next(iter(policy.items()))
        if name == "onDemand" and value != {}:
            errors.append({"code": "MANIFEST_INVALID", "description": "onDemand takes an empty object"})
        if name != "onDemand" and not (isinstance(value, dict) and value.get("installationEventTypes")
                                       and set(value["installationEventTypes"]) <= EVENTS):
            errors.append({"code": "MANIFEST_INVALID", "description": "%s needs installationEventTypes" % name})
    if not isinstance(doc.get("fileSelectors"), list) or not doc["fileSelectors"]:
        errors.append({"code": "MANIFEST_INVALID", "description": "fileSelectors is missing or empty"})
    platforms = doc.get("platforms")
    if not isinstance(platforms, list) or not platforms or not set(platforms) <= MANIFEST_PLATFORMS:
        errors.append({"code": "ITMS-91148", "description": "platforms must be from %s" % sorted(MANIFEST_PLATFORMS)})
    return errors


class BackgroundAssets:
    """Mixin of the service."""

    def get_background_asset_kids(self, c):
        parent_type, name = KID_LISTS[c.op]
        parent = self.store.need(parent_type, c.id)
        recs = self.store.kid_recs(parent, name)
        for rec in recs:
            self.advance_background_asset_version(rec, read=False)
        return 200, self.page(self.filtered(recs, c.q), c.q, c.path)

    def get_app_background_assets(self, c):
        app = self.store.need("apps", c.id)
        return 200, self.page(self.filtered(self.store.kid_recs(app, "backgroundAssets", "backgroundAssets"), c.q),
                              c.q, c.path)

    def create_background_asset(self, c):
        data = c.body["data"]
        app = self.related_need(data, "app", "apps")
        identifier = data["attributes"]["assetPackIdentifier"]
        pointer = "/data/attributes/assetPackIdentifier"
        if not IDENTIFIER.match(identifier):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID",
                               "An asset pack identifier can only contain A-Z, a-z, 0-9 and hyphens, and cannot start "
                               "or end with a hyphen (ITMS-91133)", pointer)
        packs = self.store.kid_recs(app, "backgroundAssets", "backgroundAssets")
        if any(p["attributes"]["assetPackIdentifier"] == identifier for p in packs):
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE",
                               "The asset pack identifier '%s' is already used by this app" % identifier, pointer)
        if len(packs) >= MAX_PACKS:
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "An app can have at most %d asset packs" % MAX_PACKS,
                               "/data/relationships/app")
        rec = {"type": "backgroundAssets", "id": self.store.new_id(False),
               "attributes": {"assetPackIdentifier": identifier, "archived": False, "createdDate": now(), "usedBytes": 0},
               "rels": {}}
        self.store.add_kid(app, "backgroundAssets", rec)
        return self.created(rec, c)

    def create_background_asset_version(self, c):
        data = c.body["data"]
        pack = self.related_need(data, "backgroundAsset", "backgroundAssets")
        versions = self.store.kid_recs(pack, "versions")
        if versions:
            self.advance_background_asset_version(versions[-1], read=False)
            if versions[-1]["attributes"]["state"] == "PROCESSING":
                raise state_error("Version %s of this asset pack is still processing"
                                  % versions[-1]["attributes"]["version"])
        rec = {"type": "backgroundAssetVersions", "id": self.store.new_id(False),
               "attributes": {"createdDate": now(), "platforms": [], "state": "AWAITING_UPLOAD",
                              "stateDetails": {"errors": [], "warnings": [], "infos": []},
                              "version": str(len(versions) + 1)},
               "rels": {}}
        self.store.add_kid(pack, "versions", rec)
        return self.created(rec, c)

    def get_background_asset_version(self, c):
        rec = self.store.need("backgroundAssetVersions", c.id)
        self.advance_background_asset_version(rec, read=True)
        return 200, self.single(rec, c.q, c.path)

    def advance_background_asset_version(self, rec, read):
        """Processing ends after `backgroundAssetProcessingReads` reads of the version."""
        a = rec["attributes"]
        if a["state"] != "PROCESSING":
            return
        left = self.asset_reads.get(rec["id"], 0)
        if read and left > 0:
            self.asset_reads[rec["id"]] = left - 1
            return
        if left > 0:
            return
        if self.settings["backgroundAssetProcessing"] == "FAILED":
            a["state"] = "FAILED"
            a["stateDetails"]["errors"] = [{"code": "ITMS-91139",
                                            "description": "The asset pack could not be processed (failure injected)"}]
        else:
            a["state"] = "COMPLETE"
            pack = self.store.parent(rec)
            size = sum(f["attributes"]["fileSize"] for f in self.store.kid_recs(rec, "uploadFiles")
                       if f["attributes"]["assetType"] == "ASSET")
            pack["attributes"]["usedBytes"] = max(pack["attributes"]["usedBytes"], size)
            self.new_release(rec, "internalBetaRelease", "READY_FOR_TESTING")
            self.supersede_releases(pack, "internalBetaRelease", "READY_FOR_TESTING")

    # -- releases
    def new_release(self, version, name, state):
        rec = {"type": RELEASE_TYPES[name], "id": self.store.new_id(False), "attributes": {"state": state}, "rels": {}}
        self.store.set_slot(version, name, rec)
        version["rels"][name] = {"data": {"type": rec["type"], "id": rec["id"]}}
        return rec

    def release(self, version, name):
        return self.store.slot(version, name)

    def app_store_release(self, version):
        """The version's App Store release, made when it is first added to a review submission."""
        return self.release(version, "appStoreRelease") or self.new_release(version, "appStoreRelease",
                                                                            "PREPARE_FOR_SUBMISSION")

    def supersede_releases(self, pack, name, live):
        """Of the pack's releases in state `live`, the newest version's stays; the older ones are SUPERSEDED."""
        found = [(int(v["attributes"]["version"]), r) for v in self.store.kid_recs(pack, "versions")
                 for r in [self.release(v, name)] if r is not None and r["attributes"]["state"] == live]
        for _, r in sorted(found, key=lambda x: x[0])[:-1]:
            r["attributes"]["state"] = "SUPERSEDED"

    def pack_version_released(self, pack, name, live):
        """The newest version of the pack whose release `name` is in state `live` (a pack's to-one relationship)."""
        found = [v for v in self.store.kid_recs(pack, "versions")
                 if (self.release(v, name) or {}).get("attributes", {}).get("state") == live]
        return found[-1] if found else None

    def pack_app_store_version(self, pack):
        return self.pack_version_released(pack, "appStoreRelease", "READY_FOR_DISTRIBUTION")

    def pack_internal_beta_version(self, pack):
        return self.pack_version_released(pack, "internalBetaRelease", "READY_FOR_TESTING")

    def create_background_asset_file(self, c):
        data = c.body["data"]
        a = data["attributes"]
        version = self.related_need(data, "backgroundAssetVersion", "backgroundAssetVersions")
        if version["attributes"]["state"] != "AWAITING_UPLOAD":
            raise state_error("Version %s is %s; upload files only to a version awaiting upload"
                              % (version["attributes"]["version"], version["attributes"]["state"]))
        kind = a["assetType"]
        files = self.store.kid_recs(version, "uploadFiles")
        if any(f["attributes"]["assetType"] == kind for f in files):
            raise entity_error("ENTITY_ERROR.RELATIONSHIP.INVALID", "This version already has its %s file" % kind,
                               "/data/attributes/assetType")
        if kind == "MANIFEST" and any(f["attributes"]["assetType"] == "ASSET" for f in files):
            raise state_error("The manifest is checked before the asset: upload it first")
        if a["fileSize"] <= 0:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileSize must be positive", "/data/attributes/fileSize")
        if not a["fileName"] or "/" in a["fileName"]:
            raise entity_error("ENTITY_ERROR.ATTRIBUTE.INVALID", "fileName must be a plain file name",
                               "/data/attributes/fileName")
        rec = {"type": "backgroundAssetUploadFiles", "id": self.store.new_id(False),
               "attributes": {"assetType": kind, "fileName": a["fileName"], "fileSize": a["fileSize"],
                              "assetDeliveryState": {"state": "AWAITING_UPLOAD", "errors": [], "warnings": []}},
               "rels": {}}
        reserve_upload(self, rec, a["fileSize"])
        self.store.add_kid(version, "uploadFiles", rec)
        version["rels"]["assetFile" if kind == "ASSET" else "manifestFile"] = {
            "data": {"type": "backgroundAssetUploadFiles", "id": rec["id"]}}
        return self.created(rec, c)

    def update_background_asset_file(self, c):
        self.check_update_id(c)
        rec = self.store.need("backgroundAssetUploadFiles", c.id)
        a = c.body["data"].get("attributes") or {}
        if not a.get("uploaded"):
            return self.updated(rec, c)
        if rec["attributes"]["assetDeliveryState"]["state"] != "AWAITING_UPLOAD":
            raise state_error("This file has already been committed")
        blob, errors = take_upload(self, rec)
        checksum = (a.get("sourceFileChecksums") or {}).get("file")
        if not errors and checksum:
            algorithm = hashlib.sha256 if checksum.get("algorithm") == "SHA_256" else hashlib.md5
            if algorithm(blob).hexdigest() != (checksum.get("hash") or "").lower():
                errors.append({"code": "CHECKSUM_MISMATCH",
                               "description": "sourceFileChecksums does not match the uploaded file"})
        if checksum:
            rec["attributes"]["sourceFileChecksums"] = {"file": checksum}
        version = self.store.parent(rec)
        pack = self.store.parent(version)
        if not errors and rec["attributes"]["assetType"] == "MANIFEST":
            errors = manifest_errors(blob, pack["attributes"]["assetPackIdentifier"])
            if not errors:
                version["attributes"]["platforms"] = [PLATFORM_CODES[p] for p in json.loads(blob)["platforms"]]
        rec["attributes"].pop("uploadOperations", None)
        rec["attributes"]["assetDeliveryState"] = {"state": "FAILED" if errors else "COMPLETE", "errors": errors,
                                                   "warnings": []}
        if errors:
            version["attributes"]["state"] = "FAILED"
            version["attributes"]["stateDetails"]["errors"] = errors
        elif rec["attributes"]["assetType"] == "ASSET":
            version["attributes"]["state"] = "PROCESSING"
            self.asset_reads[version["id"]] = self.settings["backgroundAssetProcessingReads"]
        return self.updated(rec, c)
