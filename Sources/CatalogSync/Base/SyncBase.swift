#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// The third side of every sync: what App Store Connect held, in catalog form, the last time iapkit and it agreed
/// (a push that finished, a pull). With it, a difference between the catalog and App Store Connect has an author:
/// the catalog's change since the base (pending a push), App Store Connect's (drift, a colleague's web edit), or
/// both (a conflict). Pull, plan and push find it the same way and compare through `ChangeOrigins` (plan, push)
/// and `ThreeWayMerge` (pull), so neither author's edit is lost.
///
/// It is recorded beside the catalog, at `.iapkit/base/<catalog file name>`, as a catalog of its own: a team
/// commits it with the catalog, as it commits a lock file. `--base REF` takes the catalog at a git revision instead.
public struct SyncBase: Sendable {
    /// The base as a catalog.
    public let catalog: Catalog
    /// Where it was found, for messages: `.iapkit/base/catalog.yaml`, `release:catalog.yaml`.
    public let source: String

    init(catalog: Catalog, source: String) {
        self.catalog = catalog
        self.source = source
    }

    /// `FOLDER/.iapkit/base/catalog.yaml` for `FOLDER/catalog.yaml`.
    public static func recordedPath(for catalogPath: String) -> String {
        Path.join(Path.join(Path.parent(catalogPath), ".iapkit/base"), Path.lastComponent(catalogPath))
    }

    /// The base of `catalogPath`: the catalog at git revision `revision` when given, else the one recorded beside
    /// it, else none. A base that does not load is an error with its location: a sync without its base would take
    /// the catalog's own changes for App Store Connect's.
    static func find(for catalogPath: String, revision: String?) throws -> SyncBase? {
        if let revision {
            let text = try GitRevision.file(catalogPath, at: revision, option: "--base")
            return try load(text, file: "\(revision):\(catalogPath)")
        }
        let recorded = recordedPath(for: catalogPath)
        guard let text = FileManager.default.contents(atPath: recorded) else { return nil }
        return try load(text, file: recorded)
    }

    /// Whether the base is of `app` as App Store Connect holds it (`productIDs`): one recorded for another app (a
    /// catalog pushed to a copy of its app, a pull with --bundle-id) says nothing of this one, and nor does one naming
    /// products of which App Store Connect has none (another team's account, an app made anew), from which every
    /// product would read as deleted there.
    func isOf(_ app: StoreApp, holding productIDs: Set<String>) -> Bool {
        let named = Set(catalog.allProducts.compactMap(\.productID))
        if !named.isEmpty, named.isDisjoint(with: productIDs) { return false }
        guard let bundleID = catalog.app.bundleID, !app.bundleID.isEmpty else { return true }
        return bundleID == app.bundleID
    }

    /// Said when the base is not of the app synced.
    func notOf(_ app: StoreApp) -> String {
        "The base \(source) is of \(catalog.app.bundleID ?? "another app") as App Store Connect app \(app.named) does not hold it "
            + "(none of its products are there): it is not used, and the next push or pull records one of this app."
    }

    /// The catalog at HEAD when the working file differs from it: the base of a pull over uncommitted edits when
    /// none is recorded, so they are kept as the catalog's changes.
    static func lastCommit(of catalogPath: String, differingFrom text: Data) -> SyncBase? {
        guard let committed = try? GitRevision.file(catalogPath, at: "HEAD", option: "--base"), committed != text else { return nil }
        return try? load(committed, file: "HEAD:\(catalogPath)")
    }

    static func load(_ text: Data, file: String) throws -> SyncBase {
        do {
            return SyncBase(catalog: try CatalogLoader.load(data: text, file: file, findings: { _ in }), source: file)
        } catch {
            throw IAPKitError.malformed(
                location: SourceLocation(file: file),
                reason: "is the base of the last push or pull and does not load (\(error)); restore it from git, or delete it to sync without one")
        }
    }

    /// The catalog form of `records`, as a base is recorded: the form pull writes, so the three sides compare.
    static func canonicalTree(
        _ records: CatalogRecords, bundleID: String, territories: [String], images: (screenshots: [String: String], images: [String: String])
    ) throws -> YAMLTree {
        let form = records.catalog(bundleID: bundleID, allTerritories: territories, screenshotPaths: images.screenshots, imagePaths: images.images)
        return try YAMLTree(yaml: try CatalogYAMLWriter.bytes(form), file: "base") ?? .map([])
    }

    static let header =
        "# What App Store Connect held after the last `iapkit asc push` or `asc pull` of the catalog beside .iapkit/:\n"
        + "# the base pull, plan and push tell the catalog's changes from App Store Connect's by. Written by iapkit;\n"
        + "# commit it with the catalog, and do not edit it.\n"

    /// Records `tree` as the base of `catalogPath`: staged in `files` (a pull commits it with the catalog), or
    /// written atomically.
    static func record(_ tree: YAMLTree, for catalogPath: String, staging files: FileTransaction? = nil) throws {
        let path = recordedPath(for: catalogPath)
        let text = try YAMLTreeWriter.bytes(tree, header: header)
        if FileManager.default.contents(atPath: path).map({ Array($0) == text }) ?? false { return }
        do {
            try FileManager.default.createDirectory(atPath: Path.parent(path), withIntermediateDirectories: true)
        } catch {
            throw IAPKitError.io(path: Path.parent(path), reason: "cannot be made (\(AtomicFile.describe(error)))")
        }
        if let files { try files.stage(path).write(Data(text)) } else { try AtomicFile.write(text, to: path) }
    }

    /// Said once by a command that finds no base.
    static func absent(for catalogPath: String) -> String {
        "No base for \(catalogPath) (\(recordedPath(for: catalogPath)), written by each push and pull): changes are not told "
            + "apart as the catalog's or App Store Connect's; the next push or pull records one."
    }

    /// What a push records as the base once every operation is done: the catalog as pushed, for the products the
    /// plan compared (nil: every product), over the base it was planned from.
    struct Recording: Sendable {
        var desired: CatalogRecords
        var territories: [String]
        var bundleID: String
        var images: (screenshots: [String: String], images: [String: String])
        var products: Set<String>?
        var base: Catalog?
        var baseDirectory: String
        /// Products with writes the push does not send yet (waiting for App Review).
        var unsent: Set<String> = []

        /// Records the new base beside `catalogPath`; nil when a scoped push has no earlier base to add to.
        func record(for catalogPath: String) throws -> String? {
            let pushed = try canonicalTree(desired, bundleID: bundleID, territories: territories, images: images)
            let old = try base.map { base in
                let records = try CatalogRecords(
                    catalog: base, territories: territories, baseDirectory: baseDirectory, unreadableScreenshots: .skip)
                return try canonicalTree(records, bundleID: bundleID, territories: territories, images: base.imagePathsByProduct)
            }
            guard var tree = afterPush(pushed, products: products, old: old) else { return nil }
            // What waits for App Review was not written: those products keep their base, or have none yet.
            if !unsent.isEmpty { tree = ThreeWayMerge.replacingProducts(unsent, in: tree, from: old ?? .map([])) }
            try SyncBase.record(tree, for: catalogPath)
            return recordedPath(for: catalogPath)
        }
    }

    /// The base after a push of `pushed` (a tree in canonical form): the pushed products replace the base's, the
    /// rest stays; a push of the whole catalog is the whole base.
    static func afterPush(_ pushed: YAMLTree, products: Set<String>?, old: YAMLTree?) -> YAMLTree? {
        guard let products else { return pushed }
        guard let old else { return nil }
        return ThreeWayMerge.replacingProducts(products, in: old, from: pushed)
    }
}

/// A YAML tree written through libyaml (a base is a tree: the pulled form with what a conflict keeps).
enum YAMLTreeWriter {
    static func bytes(_ tree: YAMLTree, header: String) throws -> [UInt8] {
        let writer = YAMLWriter(preamble: header)
        func write(_ node: YAMLTree) {
            switch node {
            case let .scalar(text, quoted): writer.scalar(text, quoted: quoted)
            case let .list(items):
                writer.beginSequence()
                items.forEach(write)
                writer.endSequence()
            case let .map(pairs):
                writer.beginMapping()
                for pair in pairs {
                    writer.key(pair.key)
                    write(pair.value)
                }
                writer.endMapping()
            }
        }
        write(tree)
        return try writer.finish()
    }
}
