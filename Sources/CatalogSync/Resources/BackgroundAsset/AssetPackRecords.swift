import AssetPacks
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HostedContent
import IAPCatalog
import IAPCore

/// An asset pack as the plan compares it: its identifier and the digest of what its archive is built from.
///
/// App Store Connect keeps no digest of its own that iapkit controls, so iapkit names the uploaded archive after
/// it: the version's ASSET upload file is `ID-HEX.aar`, HEX the 64 hex digits of the content digest. A later plan
/// reads the latest version's `assetFile` and compares the name's digest with the catalog's.
public struct AssetPackRecord: Sendable, Equatable {
    public var id: String
    public var path: CatalogPath?
    /// `sha256:` and 64 hex digits (`AssetPackSelection.contentDigest`).
    public var contentDigest: String
    /// The manifest iapkit writes for the pack (uploaded first, as the MANIFEST file App Store Connect checks).
    public var manifest: Data
    /// The archive `iapkit package --asset-packs` built from exactly this content (from `iapkit.lock`), or nil.
    public var archive: Archive?
    /// Whether `asc submit` sends the processed version to App Review (`release: app-store`, the default).
    public var releasesToAppStore = true

    public struct Archive: Sendable, Equatable {
        public var path: String
        public var sha256: String
        public var size: Int
        public init(path: String, sha256: String, size: Int) {
            self.path = path
            self.sha256 = sha256
            self.size = size
        }
    }

    public init(id: String, path: CatalogPath? = nil, contentDigest: String, manifest: Data = Data(), archive: Archive? = nil) {
        self.id = id
        self.path = path
        self.contentDigest = contentDigest
        self.manifest = manifest
        self.archive = archive
    }

    /// The name the archive is uploaded under, carrying the content digest.
    public var uploadFileName: String { Self.uploadFileName(id: id, digest: contentDigest) }

    public static func uploadFileName(id: String, digest: String) -> String {
        "\(id)-\(digest.replacingAll(ContentDigest.prefix, with: "")).aar"
    }

    /// The content digest an uploaded file name carries, or nil for a name iapkit did not give.
    public static func digest(fromUploadFileName name: String, id: String) -> String? {
        guard name.hasPrefix(id + "-"), name.hasSuffix(".aar") else { return nil }
        let hex = name.dropFirst(id.count + 1).dropLast(4)
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return ContentDigest.prefix + hex
    }

    /// `sha256:0123456789ab…`, for plans.
    public static func short(_ digest: String) -> String {
        let hex = digest.replacingAll(ContentDigest.prefix, with: "")
        return String(hex.prefix(12)) + "…"
    }

    /// The catalog's packs: each one's selection and digest, and the archive the lock beside the catalog records
    /// for that digest (archive paths in the lock are relative to the lock's folder).
    public static func desired(catalog: Catalog, baseDirectory: String) throws(IAPKitError) -> [AssetPackRecord] {
        guard !catalog.assetPacks.isEmpty else { return [] }
        let lockPath = ContentLock.path(forCatalog: catalog.file)
        let lock = try ContentLock.read(path: lockPath)
        var records: [AssetPackRecord] = []
        for pack in catalog.assetPacks {
            guard let id = pack.id else { continue }
            let digest = try AssetPackSelector.select(pack, baseDirectory: baseDirectory).contentDigest()
            var record = AssetPackRecord(id: id, path: pack.path, contentDigest: digest, manifest: AssetPackManifest.data(pack))
            record.releasesToAppStore = pack.releasesToAppStore
            if let entry = lock.assetPacks[id], entry.contentDigest == digest {
                let path = entry.archive.hasPrefix("/") ? entry.archive : Path.join(Path.parent(lockPath), entry.archive)
                // The archive must still be there, at its size (its SHA-256 is checked by App Store Connect on commit).
                var info = stat()
                if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == entry.size {
                    record.archive = Archive(path: path, sha256: entry.sha256, size: entry.size)
                }
            }
            records.append(record)
        }
        return records
    }
}

/// An asset pack as App Store Connect has it.
public struct StoreAssetPack: Sendable {
    public var id: String
    public var resourceID: String
    /// Oldest first.
    public var versions: [StoreAssetPackVersion]
    /// What the pack counts against the app's 200 GB: App Store Connect's `usedBytes`, its largest version.
    public var usedBytes: Int

    public init(id: String, resourceID: String, versions: [StoreAssetPackVersion] = [], usedBytes: Int = 0) {
        self.id = id
        self.resourceID = resourceID
        self.versions = versions
        self.usedBytes = usedBytes
    }
}

public struct StoreAssetPackVersion: Sendable, Equatable {
    public var resourceID: String
    /// App Store Connect's number (1, 2, 3…).
    public var number: Int
    /// `AWAITING_UPLOAD`, `PROCESSING`, `COMPLETE` or `FAILED`.
    public var state: String
    /// Read from the uploaded archive's name; nil when nothing (or a file iapkit did not name) was uploaded.
    public var contentDigest: String?
    /// The version's releases App Store Connect reports (read-only in API 4.4.1), by audience: `internal`,
    /// `external` (TestFlight) and `appStore`, each with its state (`READY_FOR_TESTING`, `WAITING_FOR_REVIEW`, …).
    public var releases: [String: String] = [:]

    public init(resourceID: String, number: Int, state: String, contentDigest: String?) {
        self.resourceID = resourceID
        self.number = number
        self.state = state
        self.contentDigest = contentDigest
    }
}
