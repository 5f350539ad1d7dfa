#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// `asc pull` over a catalog a team keeps: App Store Connect's changes made in the catalog's own text.
///
/// Both the kept catalog and what was pulled are put in one canonical form, the catalog `pull` would write for
/// their records; whatever differs between the two is a change App Store Connect holds, and `CatalogMerge` makes
/// exactly that change in the kept text. So a price written as its `tier`, a default spelled out, a flow list, a
/// comment, `retiredProductIds`, `hostedContent` and every key App Store Connect does not hold stay as they are.
/// The result is read back and put in the same form: a product that does not come out as pulled is written whole
/// instead, and anything else that does not is an error, so the pulled catalog always plans as App Store Connect is.
struct PullEdit {
    let file: String
    let keptText: Data
    let directory: String
    let territories: [String]
    let bundleID: String

    /// The edited text and what changed: the kept catalog, `before` in canonical form, made `after` (what App Store
    /// Connect holds, merged with the catalog's own changes since the base).
    func apply(before: YAMLTree, after: YAMLTree, allowsRemovals: Bool) throws -> (text: [UInt8], summary: CatalogMerge.Summary) {
        var whole: [String: YAMLTree] = [:]
        for attempt in 0..<2 {
            var merge = CatalogMerge(editor: try CatalogTextEditor(data: keptText, file: file))
            merge.replacedWhole = whole
            merge.allowsRemovals = allowsRemovals
            let target = merge.target(before: before, after: after)
            merge.apply(before: before, after: after)
            let text = merge.editor.text()
            let result: Catalog
            do {
                result = try CatalogLoader.load(data: Data(text), file: file, findings: { _ in })
            } catch {
                throw IAPKitError.malformed(
                    location: SourceLocation(file: file),
                    reason: "could not take App Store Connect's changes into it (\(error)); `iapkit asc pull --fresh` writes it anew")
            }
            let differences = Self.differences(try canonical(result), target)
            if differences.others.isEmpty, differences.products.isEmpty { return (text, merge.summary) }
            guard attempt == 0, differences.others.isEmpty else {
                let what = (differences.others + differences.products.sorted()).joined(separator: ", ")
                throw IAPKitError.malformed(
                    location: SourceLocation(file: file),
                    reason: "could not take App Store Connect's changes to \(what) into it; "
                        + "`iapkit asc pull --fresh -o OTHER.yaml` writes the pulled catalog beside it to compare")
            }
            // Those products are written whole, as they should come out.
            whole = Self.products(in: target).filter { differences.products.contains($0.key) }
        }
        fatalError("unreachable")
    }

    /// A catalog as `pull` writes its records: the form both sides are compared in.
    func canonical(_ catalog: Catalog) throws -> YAMLTree {
        let records = try CatalogRecords(catalog: catalog, territories: territories, baseDirectory: directory, unreadableScreenshots: .skip)
        let paths = catalog.imagePathsByProduct
        let form = records.catalog(bundleID: bundleID, allTerritories: territories, screenshotPaths: paths.screenshots, imagePaths: paths.images)
        return try YAMLTree(yaml: try CatalogYAMLWriter.bytes(form), file: file) ?? .map([])
    }

    /// Every product of a catalog's tree, by ID.
    static func products(in tree: YAMLTree) -> [String: YAMLTree] {
        let lists = [tree["products"]] + (tree["subscriptionGroups"]?.items ?? []).map { $0["subscriptions"] }
        return Dictionary(
            lists.flatMap { $0?.items ?? [] }.compactMap { item in item["productId"]?.text.map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Two trees that say the same, whatever the order of a mapping's keys (lists keep their order).
    static func equivalent(_ a: YAMLTree, _ b: YAMLTree) -> Bool {
        switch (a, b) {
        case let (.map(x), .map(y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { pair in b[pair.key].map { equivalent(pair.value, $0) } ?? false }
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy { equivalent($0, $1) }
        default: return a.sameValue(as: b)
        }
    }

    /// Where `result` is not `pulled`: products by ID, and anything else by its key.
    static func differences(_ result: YAMLTree, _ pulled: YAMLTree) -> (products: Set<String>, others: [String]) {
        var products: Set<String> = []
        var others: [String] = []
        func byID(_ list: YAMLTree?) -> [String: YAMLTree] {
            Dictionary((list?.items ?? []).compactMap { item in item["productId"]?.text.map { ($0, item) } }, uniquingKeysWith: { a, _ in a })
        }
        func compare(_ mine: YAMLTree?, _ theirs: YAMLTree?) {
            let have = byID(mine)
            let want = byID(theirs)
            for (id, product) in want where !(have[id].map { equivalent($0, product) } ?? false) { products.insert(id) }
            for id in have.keys where want[id] == nil { products.insert(id) }
        }
        compare(result["products"], pulled["products"])
        let groups = Dictionary(
            (result["subscriptionGroups"]?.items ?? []).compactMap { g in g["referenceName"]?.text.map { ($0, g) } }, uniquingKeysWith: { a, _ in a })
        for group in pulled["subscriptionGroups"]?.items ?? [] {
            let name = group["referenceName"]?.text ?? ""
            guard let mine = groups[name] else {
                others.append("subscription group \(name)")
                continue
            }
            if !equivalent(mine["localizations"] ?? .list([]), group["localizations"] ?? .list([])) {
                others.append("the localizations of subscription group \(name)")
            }
            compare(mine["subscriptions"], group["subscriptions"])
        }
        for pair in pulled.pairs where !["schemaVersion", "app", "products", "subscriptionGroups"].contains(pair.key) {
            if !(result[pair.key].map { equivalent($0, pair.value) } ?? false) { others.append(pair.key) }
        }
        return (products, others)
    }
}

extension Catalog {
    /// Review screenshots and promotional images by product ID, as the catalog names them.
    var imagePathsByProduct: (screenshots: [String: String], images: [String: String]) {
        var screenshots: [String: String] = [:]
        var images: [String: String] = [:]
        for product in allProducts {
            guard let id = product.productID else { continue }
            if let path = product.review?.screenshot { screenshots[id] = path }
            if let path = product.promotionalImage { images[id] = path }
        }
        return (screenshots, images)
    }
}
