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
import Dispatch
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
    /// How many threads share the product rules: nil chooses by the machine and the catalog's size.
    public var threads: Int?

    public init(threads: Int? = nil) {
        self.threads = threads
    }

    /// Loads and lints the catalog at `path`. Throws only when the file cannot be read or is not YAML.
    @discardableResult
    public func lint(catalogAt path: String, consumer: @escaping FindingConsumer) throws(IAPKitError) -> LintSummary {
        let catalog = try CatalogLoader.load(path: path, findings: consumer)
        return try lint(catalog, baseDirectory: Path.parent(path), consumer: consumer)
    }

    /// Runs only `rules` over a loaded catalog, without its content folders (for export's shape check).
    public func check(_ catalog: Catalog, rules: [any CatalogRule.Type], baseDirectory: String, consumer: @escaping FindingConsumer) {
        let context = CatalogLintContext(
            catalog: catalog, baseDirectory: baseDirectory,
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
        var productIDs: [String] = []
        productIDs.reserveCapacity(context.allProducts.count)
        var folders: [(folder: String, productID: String?)] = []
        context.allProducts.forEach(in: context.allProducts.indices) { product in
            if let productID = product.productID { productIDs.append(productID) }
            if let folder = product.hostedContent, product.type == .nonConsumable { folders.append((folder, product.productID)) }
        }
        for (folder, productID) in folders {
            try contentLinter.lint(folder: context.resolve(folder), expectedProductID: productID, lock: lock, consumer: consumer)
        }
        return LintSummary(products: context.allProducts.count, contentFolders: folders.count, productIDs: productIDs)
    }
}

extension CatalogLinter {
    typealias SlottedRule = (slot: Int, rule: any ProductRule)

    /// Runs `rules`: the whole-catalog ones each on their own, the product rules together in one pass over the
    /// products. Findings reach the consumer in the order the rules are listed, as if each had run alone.
    func run(_ rules: [any CatalogRule.Type], in context: CatalogLintContext) {
        var productRules: [SlottedRule] = []
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
        let products = context.allProducts
        let workers = ProductList.threads(requested: threads, products: products.count, units: productRules.count)
        if workers > 1 {
            runShared(&productRules, among: workers, in: context)
        } else {
            Self.pass(&productRules, over: products.indices, in: context)
            Self.finish(&productRules, in: context)
        }
        context.flushBuffers()
    }

    /// The products at `positions`, each handed in place to every rule.
    private static func pass(_ rules: inout [SlottedRule], over positions: Range<Int>, in context: CatalogLintContext) {
        context.allProducts.forEach(in: positions) { product in
            for index in rules.indices {
                context.slot = rules[index].slot
                rules[index].rule.check(product, in: context)
            }
        }
    }

    private static func finish(_ rules: inout [SlottedRule], in context: CatalogLintContext) {
        for index in rules.indices {
            context.slot = rules[index].slot
            rules[index].rule.finish(context)
        }
    }

    /// The product rules shared out among threads, each thread walking the products once with its own rules. A
    /// rule keeps what it has seen (duplicate IDs, names), so a rule is never split, only the set of rules. The
    /// first products are checked on this thread, timing each rule, and the rules are then dealt out longest first
    /// to the least loaded thread. Each thread reports into its own buffers; they are joined in rule order, so
    /// the findings are the same, in the same order, as with one thread.
    private func runShared(_ rules: inout [SlottedRule], among workers: Int, in context: CatalogLintContext) {
        let products = context.allProducts
        let sampled = min(products.count, max(1, products.count / 8), Self.sampleSize)
        var costs = [UInt64](repeating: 0, count: rules.count)
        products.forEach(in: 0..<sampled) { product in
            for index in rules.indices {
                let start = DispatchTime.now().uptimeNanoseconds
                context.slot = rules[index].slot
                rules[index].rule.check(product, in: context)
                costs[index] += DispatchTime.now().uptimeNanoseconds - start
            }
        }
        var groups = [[SlottedRule]](repeating: [], count: workers)
        var loads = [UInt64](repeating: 0, count: workers)
        for index in rules.indices.sorted(by: { costs[$0] > costs[$1] }) {
            let lightest = loads.indices.min { loads[$0] < loads[$1] }!
            groups[lightest].append(rules[index])
            loads[lightest] += costs[index] + 1
        }
        let threads = groups.map { SharedPass(rules: $0, context: CatalogLintContext(sharing: context)) }
        let remaining = sampled..<products.count
        DispatchQueue.concurrentPerform(iterations: threads.count) { thread in
            let pass = threads[thread]
            Self.pass(&pass.rules, over: remaining, in: pass.context)
            Self.finish(&pass.rules, in: pass.context)
        }
        for pass in threads { context.append(pass.context) }
    }

    /// One thread's share of the product pass: its rules and the context they report into, touched by that thread
    /// alone until the threads are joined.
    private final class SharedPass: @unchecked Sendable {
        var rules: [SlottedRule]
        let context: CatalogLintContext

        init(rules: [SlottedRule], context: CatalogLintContext) {
            self.rules = rules
            self.context = context
        }
    }

    static let sampleSize = 1_000
}

/// Lints hosted-content folders on their own or for a catalog.
public struct ContentLinter: Sendable {
    public init() {}

    public func lint(
        folder: String, expectedProductID: String? = nil, lockEntry: ContentLock.Entry? = nil,
        lockListsProducts: Bool = false, consumer: @escaping FindingConsumer
    ) throws(IAPKitError) {
        var tree: ContentTree?
        if Path.isDirectory(folder) {
            tree = try ContentTree.scan(folder)
        }
        var info: ContentInfo?
        var infoError: IAPKitError?
        if tree?.entries.contains(where: { $0.relativePath == ContentInfo.fileName && $0.kind == .file }) == true {
            do throws(IAPKitError) { info = try ContentInfo.read(folder: folder) } catch { infoError = error }
        }
        let context = ContentLintContext(
            folder: folder, tree: tree, info: info, infoError: infoError,
            expectedProductID: expectedProductID, lockEntry: lockEntry,
            lockListsProducts: lockListsProducts, consumer: consumer)
        for rule in RuleRegistry.contentRules { rule.init().check(context) }
    }

    /// Lints a folder against the lock: what it recorded for the product the catalog names (`expectedProductID`),
    /// or, for a folder on its own, the one its ContentInfo.plist names.
    public func lint(folder: String, expectedProductID: String?, lock: ContentLock, consumer: @escaping FindingConsumer) throws(IAPKitError) {
        let id = expectedProductID ?? (try? ContentInfo.read(folder: folder))?.productID
        try lint(
            folder: folder, expectedProductID: expectedProductID, lockEntry: id.flatMap { lock.entries[$0] },
            lockListsProducts: !lock.entries.isEmpty, consumer: consumer)
    }

    /// Lints a folder named on its own as its catalog would: `scope` (`ContentFolderScope.find`) names the product the
    /// catalog has it for, and the lock.
    public func lint(_ scope: ContentFolderScope, consumer: @escaping FindingConsumer) throws(IAPKitError) {
        let lock = try scope.lockPath.map { path throws(IAPKitError) in try ContentLock.read(path: path) } ?? ContentLock()
        try lint(folder: scope.folder, expectedProductID: scope.expectedProductID, lock: lock, consumer: consumer)
    }
}
