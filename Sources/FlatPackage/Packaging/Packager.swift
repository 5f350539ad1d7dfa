import Foundation
import HostedContent
import IAPCatalog
import IAPCore
import IAPLint

/// Builds the upload archives for a set of hosted-content folders: lints each first and refuses on errors,
/// writes every archive and `iapkit-manifest.json` all-or-nothing, and records digests in `iapkit.lock`.
public struct Packager: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case pkg, zip
    }

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

        public init(outputDirectory: String, format: Format = .pkg, jobs: Int = 2, epoch: Int = Packager.defaultEpoch,
                    md5: Bool = false, lockPath: String? = nil) {
            self.outputDirectory = outputDirectory
            self.format = format
            self.jobs = jobs
            self.epoch = epoch
            self.md5 = md5
            self.lockPath = lockPath
        }
    }

    /// 2001-01-01T00:00:00Z, Apple's reference date, when SOURCE_DATE_EPOCH is not set.
    public static let defaultEpoch = 978_307_200
    public static let manifestName = "iapkit-manifest.json"

    public struct Built: Sendable {
        public var productID: String
        public var contentVersion: String
        public var path: String
        public var result: ArchiveResult
    }

    /// Progress of the whole run, in bytes of content read.
    public struct Progress: Sendable {
        public var productID: String
        public var done: UInt64
        public var total: UInt64
    }

    public var options: Options
    public init(options: Options) { self.options = options }

    public func package(_ items: [Item], findings: @escaping FindingConsumer,
                        progress: (@Sendable (Progress) -> Void)? = nil) throws(IAPKitError) -> [Built] {
        let lock = try options.lockPath.map { path throws(IAPKitError) in try ContentLock.read(path: path) } ?? ContentLock()
        // Lint everything first: nothing is written when any folder has errors.
        var errors: [Finding] = []
        var planned: [(item: Item, tree: ContentTree, id: String, version: String)] = []
        for item in items {
            let collector = FindingCollector()
            let info = try? ContentInfo.read(folder: item.folder)
            let id = item.expectedProductID ?? info?.productID
            try ContentLinter().lint(folder: item.folder, expectedProductID: item.expectedProductID,
                                     lockEntry: id.flatMap { lock.entries[$0] }, consumer: collector.consumer)
            collector.findings.forEach(findings)
            errors += collector.findings.filter { $0.severity == .error }
            if let info, let id, let version = info.versionText, collector.findings.allSatisfy({ $0.severity != .error }) {
                planned.append((item, try ContentTree.scan(item.folder), id, version))
            }
        }
        if !errors.isEmpty {
            throw .refused(reason: "nothing was packaged: \(errors.count) error\(errors.count == 1 ? "" : "s") in the content", findings: errors)
        }
        let names = planned.map(\.id)
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw .invalidArgument("two folders are for the product \(duplicate); package each product once")
        }

        var staged: [StagedFile] = []
        defer { staged.forEach { $0.discard() } }
        var built: [Built] = []
        for plan in planned {
            let path = (options.outputDirectory as NSString).appendingPathComponent("\(plan.id).\(options.format.rawValue)")
            let output = try StagedFile(finalPath: path)
            staged.append(output)
            let total = plan.tree.totalFileBytes
            let report: ((UInt64) -> Void)? = progress.map { callback in { done in callback(Progress(productID: plan.id, done: done, total: total)) } }
            let result: ArchiveResult
            switch options.format {
            case .pkg:
                result = try FlatPackageBuilder(jobs: options.jobs, epoch: options.epoch, md5: options.md5)
                    .build(tree: plan.tree, identifier: plan.id, to: output, progress: report)
            case .zip:
                result = try ZipArchiver(epoch: options.epoch, md5: options.md5)
                    .build(tree: plan.tree, rootName: plan.id, to: output, progress: report)
            }
            built.append(Built(productID: plan.id, contentVersion: plan.version, path: path, result: result))
        }

        let manifest = try StagedFile(finalPath: (options.outputDirectory as NSString).appendingPathComponent(Self.manifestName))
        staged.append(manifest)
        do { try manifest.handle.write(contentsOf: Data(manifestJSON(built).serialized(.pretty).utf8)) } catch {
            throw .io(path: manifest.finalPath, reason: "cannot write: \(AtomicFile.describe(error))")
        }
        for file in staged { try file.commit() }
        staged = []

        if let lockPath = options.lockPath {
            var updated = lock
            for item in built {
                updated.entries[item.productID] = ContentLock.Entry(contentVersion: item.contentVersion, digest: item.result.contentDigest)
            }
            try updated.write(path: lockPath)
        }
        return built
    }

    func manifestJSON(_ built: [Built]) -> JSONValue {
        .object([
            ("tool", .object([("name", .string("iapkit")), ("version", .string(InstallerDocuments.generator.replacingOccurrences(of: "iapkit-", with: "")))])),
            ("format", .string(options.format.rawValue)),
            ("sourceDateEpoch", .int(options.epoch)),
            ("packages", .array(built.map { item in
                var fields: [(String, JSONValue)] = [
                    ("productId", .string(item.productID)),
                    ("contentVersion", .string(item.contentVersion)),
                    ("fileName", .string((item.path as NSString).lastPathComponent)),
                    ("size", .int(Int(item.result.size))),
                    ("sha256", .string(item.result.sha256)),
                ]
                if let md5 = item.result.md5 { fields.append(("md5", .string(md5))) }
                fields += [("contentDigest", .string(item.result.contentDigest)), ("fileCount", .int(item.result.fileCount))]
                return .object(fields)
            })),
        ])
    }
}
