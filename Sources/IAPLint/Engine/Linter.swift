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
        return try lint(catalog, baseDirectory: Path.parent(path), consumer: consumer)
    }

    /// Runs only `rules` over a loaded catalog, without its content folders (for export's shape check).
    public func check(_ catalog: Catalog, rules: [any CatalogRule.Type], baseDirectory: String, consumer: @escaping FindingConsumer) {
        let context = CatalogLintContext(catalog: catalog, baseDirectory: baseDirectory,
                                         consumer: DisableCommentFilter(catalog: catalog).wrap(consumer))
        run(rules, in: context)
    }

    /// Lints an already loaded catalog.
    @discardableResult
    public func lint(_ catalog: Catalog, baseDirectory: String, consumer given: @escaping FindingConsumer) throws(IAPKitError) -> LintSummary {
        // Findings a `# iapkit:disable` comment accepts stop here; a comment that accepted none is reported at the end.
        let filter = DisableCommentFilter(catalog: catalog)
        let consumer = filter.wrap(given)
        defer { filter.reportUnused(to: given) }
        let context = CatalogLintContext(catalog: catalog, baseDirectory: baseDirectory, consumer: consumer)
        run(RuleRegistry.catalogRules, in: context)

        let lock = try ContentLock.read(path: ContentLock.path(forCatalog: catalog.file))
        let contentLinter = ContentLinter()
        var folders = 0
        let allProducts = context.allProducts
        var productIDs: [String] = []
        productIDs.reserveCapacity(allProducts.count)
        // By index, reading only the fields needed: a product is large, and copying each one costs.
        for index in allProducts.indices {
            let productID = allProducts[index].productID
            if let productID { productIDs.append(productID) }
            guard let folder = allProducts[index].hostedContent, allProducts[index].type == .nonConsumable else { continue }
            folders += 1
            try contentLinter.lint(folder: context.resolve(folder), expectedProductID: productID,
                                   lockEntry: productID.flatMap { lock.entries[$0] }, consumer: consumer)
        }
        return LintSummary(products: allProducts.count, contentFolders: folders, productIDs: productIDs)
    }
}

extension CatalogLinter {
    /// Runs `rules`: the whole-catalog ones each on their own, the product rules together in one pass over the
    /// products. Findings reach the consumer in the order the rules are listed, as if each had run alone.
    func run(_ rules: [any CatalogRule.Type], in context: CatalogLintContext) {
        var productRules: [(slot: Int, rule: any ProductRule)] = []
        context.beginBuffering(slots: rules.count)
        for (slot, type) in rules.enumerated() {
            let rule = type.init()
            if let productRule = rule.asProductRule {
                productRules.append((slot, productRule))
            } else {
                context.slot = slot
                rule.check(context)
            }
        }
        for index in productRules.indices {
            context.slot = productRules[index].slot
            productRules[index].rule.start(context)
        }
        for product in context.allProducts {
            for index in productRules.indices {
                context.slot = productRules[index].slot
                productRules[index].rule.check(product, in: context)
            }
        }
        for index in productRules.indices {
            context.slot = productRules[index].slot
            productRules[index].rule.finish(context)
        }
        context.flushBuffers()
    }
}

/// Lints hosted-content folders on their own or for a catalog.
public struct ContentLinter: Sendable {
    public init() {}

    public func lint(folder: String, expectedProductID: String? = nil, lockEntry: ContentLock.Entry? = nil,
                     consumer: @escaping FindingConsumer) throws(IAPKitError) {
        var tree: ContentTree?
        if Path.isDirectory(folder) {
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
