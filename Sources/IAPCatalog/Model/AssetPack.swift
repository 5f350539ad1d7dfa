/// An Apple-hosted asset pack (Background Assets) the app ships, declared beside the products that unlock it.
/// Each pack becomes a manifest for Apple's packaging tool (`ba-package`) and an archive uploaded to App Store
/// Connect; App Store Connect links no pack to a product, so `unlockedBy` is for the app, which unlocks the pack
/// after verifying the purchase.
public struct AssetPack: Sendable, Hashable {
    /// `essential` and `prefetch` download with the app (for the installation events listed); `onDemand` only when
    /// the app asks.
    public enum DownloadPolicy: String, Sendable, Hashable, CaseIterable {
        case essential, prefetch, onDemand
    }

    /// The installation events an `essential` or `prefetch` pack downloads on.
    public static let installationEventTypes = ["firstInstallation", "subsequentUpdate"]
    /// The platforms a pack's manifest may name, as Apple's manifest spells them.
    public static let platformNames = ["iOS", "macOS", "tvOS", "visionOS"]

    /// One entry of the manifest's `fileSelectors`: a file, or a folder taken whole, relative to the pack's source
    /// folder (the packaging tool runs there).
    public struct FileSelector: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case file, directory }
        public var path: CatalogPath
        public var kind: Kind
        public var value: String
        public init(path: CatalogPath, kind: Kind, value: String) {
            self.path = path
            self.kind = kind
            self.value = value
        }
    }

    public var path: CatalogPath
    /// `assetPackID` in the manifest, `assetPackIdentifier` in App Store Connect.
    public var id: String?
    /// The folder the pack's files are in, relative to the catalog.
    public var source: String?
    /// Empty when the catalog lists none: the whole source folder.
    public var files: [FileSelector]
    public var downloadPolicy: DownloadPolicy?
    /// The policy text as written, kept when it names no policy (the `asset-pack-policy` rule reports it).
    public var downloadPolicyText: String?
    public var installationEvents: [Located<String>]
    public var platforms: [Located<String>]
    /// The language the pack is for (2026 manifests), a BCP 47 code such as `en` or `pt-BR`.
    public var language: String?
    /// The products whose purchase unlocks the pack.
    public var unlockedBy: [Located<String>]
    /// Where a processed version goes: `app-store` (the default: `asc submit` sends it to App Review with the app)
    /// or `testflight` (testers only; App Store Connect releases processed versions to TestFlight by itself).
    public var release: String?

    public static let releases = ["app-store", "testflight"]
    /// Whether `asc submit` sends the pack's processed version to App Review.
    public var releasesToAppStore: Bool { release != "testflight" }

    public init(
        path: CatalogPath, id: String? = nil, source: String? = nil, files: [FileSelector] = [],
        downloadPolicy: DownloadPolicy? = nil, installationEvents: [Located<String>] = [],
        platforms: [Located<String>] = [], language: String? = nil, unlockedBy: [Located<String>] = []
    ) {
        self.path = path
        self.id = id
        self.source = source
        self.files = files
        self.downloadPolicy = downloadPolicy
        self.installationEvents = installationEvents
        self.platforms = platforms
        self.language = language
        self.unlockedBy = unlockedBy
    }

    /// The selectors the manifest lists: the catalog's, or the whole source folder.
    public var effectiveSelectors: [FileSelector] {
        files.isEmpty ? [FileSelector(path: path / "source", kind: .directory, value: ".")] : files
    }

    /// Whether buying a product unlocks the pack.
    public var isPurchaseGated: Bool { !unlockedBy.isEmpty }
}

extension AssetPack {
    /// Why App Store Connect would refuse `id` as an asset-pack identifier (409, ITMS-91133), or nil: only
    /// A–Z a–z 0–9 and `-`, no leading or trailing hyphen.
    public static func identifierProblem(_ id: String) -> String? {
        if id.isEmpty { return "an asset pack ID is empty" }
        if let bad = id.unicodeScalars.first(where: { !(($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-") }) {
            let shown = bad == "." ? "a period" : bad == "_" ? "an underscore" : bad == " " ? "a space" : "`\(bad)`"
            return "the asset pack ID `\(id)` has \(shown); App Store Connect takes only A-Z a-z 0-9 and - (ITMS-91133)"
        }
        if id.hasPrefix("-") || id.hasSuffix("-") {
            return "the asset pack ID `\(id)` starts or ends with a hyphen, which App Store Connect refuses (ITMS-91133)"
        }
        return nil
    }
}
