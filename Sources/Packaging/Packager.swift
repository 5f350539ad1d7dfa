import FlatPackage
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
import IAPLint

/// Builds the upload archives for a set of hosted-content folders: lints each first and refuses on errors,
/// writes every archive and `iapkit-manifest.json` all-or-nothing, and records digests in `iapkit.lock`.
public struct Packager: Sendable {
    /// `pkg` or `zip`; the archive formats themselves are `FlatPackage`'s.
    public typealias Format = ArchiveFormat

    /// A folder to package, and the product ID the catalog expects for it (when packaging from a catalog).
    public struct Item: Sendable {
        public var folder: String
        public var expectedProductID: String?
        public init(folder: String, expectedProductID: String? = nil) {
            self.folder = folder
            self.expectedProductID = expectedProductID
        }
    }

    public struct Options: Sendable {
        public var outputDirectory: String
        public var format: Format
        public var jobs: Int
        /// Every timestamp in the archives (SOURCE_DATE_EPOCH, or a fixed date), so builds are reproducible.
        public var epoch: Int
        public var md5: Bool
        /// Where `iapkit.lock` lives (beside the catalog); nil writes no lock.
        public var lockPath: String?

        public init(
            outputDirectory: String, format: Format = .pkg, jobs: Int = 2, epoch: Int = Packager.defaultEpoch,
            md5: Bool = false, lockPath: String? = nil
        ) {
            self.outputDirectory = outputDirectory
            self.format = format
            self.jobs = jobs
            self.epoch = epoch
            self.md5 = md5
            self.lockPath = lockPath
        }
    }

    /// Apple's flat package, which App Store Connect takes for hosted content.
    public static let defaultFormat: Format = .pkg

    /// 2001-01-01T00:00:00Z, Apple's reference date, when SOURCE_DATE_EPOCH is not set.
    public static let defaultEpoch = 978_307_200
    public static let manifestName = "iapkit-manifest.json"

    public struct Built: Sendable {
        public var productID: String
        public var contentVersion: String
        public var path: String
        public var result: ArchiveResult
        /// The archive's size in bytes and SHA-256, as the manifest lists them.
        public var size: UInt64 { result.size }
        public var sha256: String { result.sha256 }
    }

    /// Progress of the whole run, in bytes of content read.
    public struct Progress: Sendable {
        public var productID: String
        public var done: UInt64
        public var total: UInt64
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    /// Every non-consumable with `hostedContent` in the catalog at `path`, after linting the catalog's own rules:
    /// a catalog with errors is refused (`refused`), as content with errors is, so a bad product ID never names a file.
    public static func items(forCatalog path: String, findings: @escaping FindingConsumer) throws(IAPKitError) -> [Item] {
        let catalog: Catalog
        switch try LintGate.open(path, strictness: .catalog, findings: findings) {
        case let .success(value): catalog = value
        case let .failure(refusal): throw .refused(reason: "nothing was packaged: \(refusal.summary)", findings: refusal.errors)
        }
        let base = Path.parent(path)
        var items: [Item] = []
        for product in catalog.products where product.type == .nonConsumable {
            guard let folder = product.hostedContent, let id = product.productID else { continue }
            items.append(
                Item(
                    folder: folder.hasPrefix("/") ? folder : Path.join(base, folder),
                    expectedProductID: id))
        }
        return items
    }

    /// Folders named on their own, each checked as its catalog would (`ContentFolderScope`: the catalog given or the
    /// nearest above it, the product that catalog names it for), and the lock they share: `lock`, else the one
    /// beside their catalog, else none. Folders that would record in different locks (or some in one and some in
    /// none) are refused, since one run writes one lock.
    public static func items(forFolders folders: [String], catalog: String?, lock: String?) throws(IAPKitError) -> (items: [Item], lockPath: String?)
    {
        var items: [Item] = []
        var locks: [(folder: String, lock: String?)] = []
        for folder in folders {
            let scope = try ContentFolderScope.find(folder: folder, catalog: catalog, lock: lock)
            items.append(Item(folder: folder, expectedProductID: scope.expectedProductID))
            if !locks.contains(where: { $0.lock == scope.lockPath }) { locks.append((folder, scope.lockPath)) }
        }
        guard locks.count <= 1 else {
            let described = locks.map { "\($0.folder) (\($0.lock.map { "records in \($0)" } ?? "no catalog above it, so no lock"))" }
            throw .invalidArgument(
                "the folders belong to different catalogs: " + described.joined(separator: ", ")
                    + "; package each catalog's folders apart, or name the lock to record in with --lock")
        }
        return (items, lock ?? locks.first?.lock)
    }

    public func package(
        _ items: [Item], findings: @escaping FindingConsumer,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) throws(IAPKitError) -> [Built] {
        // A run killed while committing left a journal: finish its renames before anything reads the old set.
        try FileTransaction.recover(journalDirectory: options.outputDirectory)
        // Then temporaries that killed runs left, before this run adds its own.
        StagedFiles.shared.sweepOnce(options.outputDirectory)
        if let lockPath = options.lockPath { StagedFiles.shared.sweepOnce(Path.parent(lockPath)) }
        if !options.format.epochRange.contains(options.epoch) {
            throw .invalidArgument(
                "SOURCE_DATE_EPOCH \(options.epoch) cannot be stored in a \(options.format.rawValue) archive; "
                    + "use a value from \(options.format.epochRange.lowerBound) to \(options.format.epochRange.upperBound)")
        }
        let lock = try options.lockPath.map { path throws(IAPKitError) in try ContentLock.read(path: path) } ?? ContentLock()
        // Lint everything first: nothing is written when any folder has errors.
        var errors: [Finding] = []
        var planned: [(item: Item, tree: ContentTree, name: ArchiveFileName, version: String)] = []
        for item in items {
            let collector = FindingCollector()
            let info = try? ContentInfo.read(folder: item.folder)
            let id = item.expectedProductID ?? info?.productID
            try ContentLinter().lint(folder: item.folder, expectedProductID: item.expectedProductID, lock: lock, consumer: collector.consumer)
            collector.findings.forEach(findings)
            errors += collector.findings.filter { $0.severity == .error }
            if let info, let id, let version = info.versionText, collector.findings.allSatisfy({ $0.severity != .error }) {
                // Lint has checked the ID; the typed name checks it again where the path is made.
                guard let name = ArchiveFileName(productID: id, format: options.format) else {
                    throw .invalidArgument("`\(id)` is not a valid product ID, so it cannot name an archive")
                }
                // What content-junk warns about (.DS_Store, files beside Contents/) stays out of the archive.
                planned.append((item, try ContentTree.scan(item.folder).packaged, name, version))
            }
        }
        if !errors.isEmpty {
            throw .refused(reason: "nothing was packaged: \(errors.count) error\(errors.count == 1 ? "" : "s") in the content", findings: errors)
        }
        let names = planned.map(\.name.productID)
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw .invalidArgument("two folders are for the product \(duplicate); package each product once")
        }

        // Archives, manifest and lock are replaced together: see FileTransaction.
        let transaction = FileTransaction(journalDirectory: options.outputDirectory)
        defer { transaction.discard() }
        var built: [Built] = []
        for plan in planned {
            let id = plan.name.productID
            let path = try plan.name.path(in: options.outputDirectory)
            let output = try transaction.stage(path)
            let total = plan.tree.totalFileBytes
            let report: ((UInt64) -> Void)? = progress.map { callback in { done in callback(Progress(productID: id, done: done, total: total)) } }
            let result: ArchiveResult
            switch options.format {
            case .pkg:
                result = try FlatPackageBuilder(jobs: options.jobs, epoch: options.epoch, md5: options.md5)
                    .build(tree: plan.tree, identifier: id, to: output, progress: report)
            case .zip:
                result = try ZipArchiver(epoch: options.epoch, md5: options.md5)
                    .build(tree: plan.tree, rootName: id, to: output, progress: report)
            }
            built.append(Built(productID: id, contentVersion: plan.version, path: path, result: result))
        }

        let manifest = try transaction.stage(Path.join(options.outputDirectory, Self.manifestName))
        try manifest.write(Data(manifestJSON(built).serialized(.pretty).utf8))
        if let lockPath = options.lockPath {
            var updated = lock
            for item in built {
                updated.entries[item.productID] = ContentLock.Entry(contentVersion: item.contentVersion, digest: item.result.contentDigest)
            }
            try transaction.stage(lockPath).write(try updated.data(path: lockPath))
        }
        try transaction.commit()
        return built
    }
}
