import Foundation
import HostedContent
import IAPCatalog
import IAPCore

/// What a lint run covered, for summaries.
public struct LintSummary: Sendable, Equatable {
    public var products: Int
    public var contentFolders: Int
    /// Every product ID in catalog order (for reports that list clean products too).
    public var productIDs: [String]
}

/// Lints a catalog and every hosted-content folder it names, handing each finding to `consumer`.
public struct CatalogLinter: Sendable {
    public init() {}

    /// Loads and lints the catalog at `path`. Throws only when the file cannot be read or is not YAML.
    @discardableResult
    public func lint(catalogAt path: String, consumer: @escaping FindingConsumer) throws(IAPKitError) -> LintSummary {
        let catalog = try CatalogLoader.load(path: path, findings: consumer)
        return try lint(catalog, baseDirectory: (path as NSString).deletingLastPathComponent, consumer: consumer)
    }

    /// Runs only `rules` over a loaded catalog, without its content folders (for export's shape check).
    public func check(_ catalog: Catalog, rules: [any CatalogRule.Type], baseDirectory: String, consumer: @escaping FindingConsumer) {
        let context = CatalogLintContext(catalog: catalog, baseDirectory: baseDirectory, consumer: consumer)
        for rule in rules { rule.init().check(context) }
    }

    /// Lints an already loaded catalog.
    @discardableResult
    public func lint(_ catalog: Catalog, baseDirectory: String, consumer: @escaping FindingConsumer) throws(IAPKitError) -> LintSummary {
        let context = CatalogLintContext(catalog: catalog, baseDirectory: baseDirectory, consumer: consumer)
        for rule in RuleRegistry.catalogRules { rule.init().check(context) }

        let lock = try ContentLock.read(path: ContentLock.path(forCatalog: catalog.file))
        let contentLinter = ContentLinter()
        var folders = 0
        let allProducts = context.allProducts
        for product in allProducts {
            guard let folder = product.hostedContent, product.type == .nonConsumable else { continue }
            folders += 1
            try contentLinter.lint(folder: context.resolve(folder), expectedProductID: product.productID,
                                   lockEntry: product.productID.flatMap { lock.entries[$0] }, consumer: consumer)
        }
        return LintSummary(products: allProducts.count, contentFolders: folders, productIDs: allProducts.compactMap(\.productID))
    }
}

/// Lints hosted-content folders on their own or for a catalog.
public struct ContentLinter: Sendable {
    public init() {}

    public func lint(folder: String, expectedProductID: String? = nil, lockEntry: ContentLock.Entry? = nil,
                     consumer: @escaping FindingConsumer) throws(IAPKitError) {
        var tree: ContentTree?
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue {
            tree = try ContentTree.scan(folder)
        }
        var info: ContentInfo?
        var infoError: IAPKitError?
        if tree?.entries.contains(where: { $0.relativePath == ContentInfo.fileName && $0.kind == .file }) == true {
            do throws(IAPKitError) { info = try ContentInfo.read(folder: folder) } catch { infoError = error }
        }
        let context = ContentLintContext(folder: folder, tree: tree, info: info, infoError: infoError,
                                         expectedProductID: expectedProductID, lockEntry: lockEntry, consumer: consumer)
        for rule in RuleRegistry.contentRules { rule.init().check(context) }
    }
}
