#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// `asc reprice`: a bulk price change made as an edit of the catalog. The products `patterns` match (as `asc plan
/// --product` matches them) get new prices in their base territory and in every territory priced by hand, each on
/// that territory's own grid; equalized territories are left to App Store Connect. Today's `price` and
/// `territoryPrices` change, or, with `from`, a `priceChanges` entry of that day (made, or updated when there is
/// one), computed from the prices in force on that day. The edit goes through `CatalogTextEditor`: only the changed
/// values move, in the file's style. Pure: the grids come in, the edited text and what it did go out.
public struct Reprice: Sendable {
    public var patterns: [String]
    public var move: RepriceMove
    /// The first day of the new prices (`20270115`); nil for today's prices.
    public var from: Int?
    /// For a dated change of a subscription: what its existing subscribers pay.
    public var existingSubscribers: ExistingSubscribers?

    public init(patterns: [String], move: RepriceMove, from: Int? = nil, existingSubscribers: ExistingSubscribers? = nil) {
        self.patterns = patterns
        self.move = move
        self.from = from
        self.existingSubscribers = existingSubscribers
    }

    /// The lint-rule-like id of a product reprice refuses, in findings.
    public static let ruleID = "reprice"

    /// What the edit did.
    public struct Outcome: Sendable {
        /// The edited text; nil when nothing changes.
        public var text: [UInt8]?
        /// Products given new prices, and how many values changed.
        public var products: [String] = []
        public var values = 0
        /// What the user should know: a price rounding kept that moved one point, what was left as it was.
        public var notes: [String] = []
        /// Products that cannot be repriced as asked, each located: nothing is written while there is one.
        public var refusals: [Finding] = []
    }

    /// The products the patterns match, in file order; a pattern that matches none is bad input.
    public func matched(_ catalog: Catalog, file: String) throws(IAPKitError) -> [Product] {
        for pattern in patterns where !catalog.allProducts.contains(where: { $0.productID.map(PlanScope(patterns: [pattern]).matches) ?? false }) {
            throw .malformed(
                location: SourceLocation(file: file),
                reason: "has no product that `--product \(pattern)` matches (IDs or glob patterns, as asc plan takes them)")
        }
        let scope = PlanScope(patterns: patterns)
        return catalog.allProducts.filter { $0.productID.map(scope.matches) ?? false }
    }

    /// The territories whose grids the matched products need, by kind (the USA's is offline).
    public func territories(_ products: [Product]) -> [PriceGrid: [String]] {
        var needed: [PriceGrid: Set<String>] = [:]
        for product in products {
            let kind: PriceGrid = product.isSubscription ? .subscription : .inAppPurchase
            for entry in product.territoryPrices + product.priceChanges.flatMap(\.territoryPrices) where entry.territory != Vocabulary.baseTerritory {
                needed[kind, default: []].insert(entry.territory)
            }
        }
        return needed.mapValues { $0.sorted() }
    }

    /// Edits `editor`'s catalog. `grids` holds each territory's canonical prices by `kind|territory`, as
    /// `StoreSnapshot.priceGrids`; `today` is App Store Connect's.
    public func apply(to editor: CatalogTextEditor, grids: [String: [String]], today: Int) throws(IAPKitError) -> Outcome {
        var editor = editor
        var outcome = Outcome()
        let catalog = editor.catalog
        let products = try matched(catalog, file: editor.file)
        for product in products {
            guard let id = product.productID else { continue }
            var edit = ProductEdit(product: product, id: id, reprice: self, grids: grids, today: today)
            edit.compute()
            outcome.notes += edit.notes
            if !edit.refusals.isEmpty {
                outcome.refusals += edit.refusals.map { refusal in
                    Finding(
                        ruleID: Self.ruleID, severity: .error, message: "\(id): \(refusal.message)", location: catalog.location(of: refusal.path),
                        path: refusal.path.description, productID: id)
                }
                continue
            }
            guard edit.count > 0 else { continue }
            try edit.write(into: &editor)
            outcome.products.append(id)
            outcome.values += edit.count
        }
        // Nothing is written while a product is refused: the edit is all or nothing.
        if editor.hasEdits, outcome.refusals.isEmpty { outcome.text = editor.text() }
        return outcome
    }
}

/// One product's new prices: computed from the prices in force (today, or on the change's day), then written.
struct ProductEdit {
    let product: Product
    let id: String
    let reprice: Reprice
    let grids: [String: [String]]
    let today: Int
    var notes: [String] = []
    var refusals: [(path: CatalogPath, message: String)] = []
    /// The mapping whose values change (the product, or the day's `priceChanges` entry), and the changes.
    var target: CatalogPath?
    var changes: [YAMLTree.Pair] = []
    /// A new `priceChanges` entry, when there is none of the day.
    var entry: [YAMLTree.Pair]?
    /// How many prices change.
    var count = 0

    var kind: PriceGrid { product.isSubscription ? .subscription : .inAppPurchase }
    var mayBeFree: Bool { product.type == .nonConsumable }

    mutating func refuse(_ message: String, at path: CatalogPath? = nil) { refusals.append((path ?? product.path, message)) }

    mutating func compute() {
        if let sheet = product.priceSheet {
            return refuse(
                "its territory prices are in the price sheet `\(sheet)`, which reprice does not edit; change the sheet's rows, "
                    + "or move them into `territoryPrices`", at: product.path / "priceSheet")
        }
        let base = product.baseTerritory ?? Vocabulary.baseTerritory
        if base != Vocabulary.baseTerritory, case .to = reprice.move {
            return refuse(
                "its base territory is \(base), priced in its own currency; --to sets a USD base price (use --by or --steps)",
                at: product.path / "baseTerritory")
        }
        // The prices in force on the day: today's, then every dated change up to it.
        let day = reprice.from ?? today
        let dated = product.priceChanges.enumerated().compactMap { entry in entry.element.day.map { (entry.offset, $0, entry.element) } }
        if reprice.from == nil, let started = dated.first(where: { $0.1 <= today }) {
            return refuse(
                "its price change of \(CalendarDay.format(started.1)) has started; fold it into `price` and `territoryPrices` "
                    + "first (lint suggests it), then reprice", at: started.2.path)
        }
        // A legacy `tier` is its USD price; the new price is written as `price` where the tier stood.
        var basePrice = (product.price?.cents ?? product.resolvedPriceCents).map(Price.format(cents:)).flatMap(LocalPrice.canonical)
        var territories: [String: String] = [:]
        for entry in product.territoryPrices {
            if let text = entry.price?.text, let price = LocalPrice.canonical(text) { territories[entry.territory] = price }
        }
        for (_, changeDay, change) in dated.sorted(by: { $0.1 < $1.1 }) where changeDay <= day {
            if let cents = change.price?.cents { basePrice = LocalPrice.canonical(Price.format(cents: cents)) }
            for entry in change.territoryPrices {
                if let text = entry.price?.text, let price = LocalPrice.canonical(text) { territories[entry.territory] = price }
            }
        }
        guard basePrice != nil || !territories.isEmpty else {
            notes.append("\(id): has no price; left as it is")
            return
        }
        if reprice.from == nil, dated.contains(where: { $0.1 > today }) {
            notes.append("\(id): its scheduled price changes are left as they are (--from DATE reprices one of them)")
        }
        if product.billingPlans.contains(where: { $0.type == .monthly }) {
            notes.append("\(id): its monthly billing plan's prices are left as they are")
        }
        // The base price first: --to sets it, and every hand-set territory follows by its ratio.
        var factor: Double?
        var newBase: String?
        if let old = basePrice {
            switch reprice.move {
            case let .to(cents):
                newBase = LocalPrice.canonical(Price.format(cents: cents))
                factor = LocalPrice.value(newBase ?? old) / max(LocalPrice.value(old), 1e-9)
            default:
                newBase = moved(old, territory: Vocabulary.baseTerritory, grid: RepriceGrid.usd, factor: nil)
            }
        } else if case .to = reprice.move {
            return refuse("has no USD base price for --to to set", at: product.path)
        }
        var newTerritories: [String: String] = [:]
        for (territory, old) in territories.sorted(by: { $0.key < $1.key }) {
            let grid = territory == Vocabulary.baseTerritory ? RepriceGrid.usd : grids["\(kind.rawValue)|\(territory)"] ?? []
            guard !grid.isEmpty else {
                refuse(
                    "App Store Connect answered no price points of \(territory) for its \(kind == .subscription ? "subscriptions" : "in-app purchases") "
                        + "(they are read through a product of the kind: push one first)", at: product.path / "territoryPrices")
                continue
            }
            newTerritories[territory] = moved(old, territory: territory, grid: grid, factor: factor)
        }
        guard refusals.isEmpty else { return }
        plan(basePrice: basePrice, newBase: newBase, territories: territories, newTerritories: newTerritories, dated: dated)
    }

    /// The price `old` of `territory` moved as asked; nil (and a refusal) when it cannot move.
    mutating func moved(_ old: String, territory: String, grid: [String], factor: Double?) -> String? {
        let points = RepriceGrid.points(grid, mayBeFree: mayBeFree)
        let result: RepricedPrice
        switch reprice.move {
        case let .percent(percent):
            result = RepriceGrid.scaled(old, by: 1 + percent / 100, on: points, territory: territory, what: reprice.move.description)
        case let .steps(count):
            result = RepriceGrid.stepped(old, by: count, on: points, territory: territory)
        case .to:
            result = RepriceGrid.scaled(old, by: factor ?? 1, on: points, territory: territory, what: "the base price's ratio")
        }
        switch result {
        case let .moved(price, note):
            if let note { notes.append("\(id): \(note)") }
            return price
        case let .refused(message):
            refuse(message, at: territory == Vocabulary.baseTerritory ? product.path / "price" : product.path / "territoryPrices" / territory)
            return nil
        }
    }

    /// Where the new prices go: today's values, the day's entry, or a new entry.
    mutating func plan(
        basePrice: String?, newBase: String?, territories: [String: String], newTerritories: [String: String],
        dated: [(Int, Int, PriceChange)]
    ) {
        func scalar(_ price: String, _ territory: String) -> YAMLTree { .scalar(LocalPrice.display(price, territory: territory), quoted: false) }
        let changedTerritories = newTerritories.filter { territories[$0.key] != $0.value }.sorted { $0.key < $1.key }
        let baseChanged = newBase != nil && newBase != basePrice
        guard baseChanged || !changedTerritories.isEmpty else { return }
        var pairs: [YAMLTree.Pair] = []
        if baseChanged, let newBase { pairs.append(YAMLTree.Pair("price", scalar(newBase, Vocabulary.baseTerritory))) }
        guard let from = reprice.from else {
            if !changedTerritories.isEmpty {
                pairs.append(YAMLTree.Pair("territoryPrices", .map(changedTerritories.map { YAMLTree.Pair($0.key, scalar($0.value, $0.key)) })))
            }
            target = product.path
            changes = pairs
            count = (baseChanged ? 1 : 0) + changedTerritories.count
            return
        }
        let existing = dated.first { $0.1 == from }
        let subscribers = reprice.existingSubscribers?.rawValue
        if product.isSubscription, subscribers == nil, existing?.2.existingSubscribers == nil {
            return refuse(
                "is a subscription: a dated price change must say what its existing subscribers pay; pass --existing-subscribers keep "
                    + "(they keep their price) or move (they move to the new one)")
        }
        // A new entry restates every hand-set territory in force on the day, so it holds all of the new prices.
        let written = existing == nil ? newTerritories.sorted { $0.key < $1.key } : changedTerritories
        if !written.isEmpty {
            pairs.append(YAMLTree.Pair("territoryPrices", .map(written.map { YAMLTree.Pair($0.key, scalar($0.value, $0.key)) })))
        }
        if product.isSubscription, let subscribers, existing?.2.existingSubscribers?.rawValue != subscribers {
            pairs.append(YAMLTree.Pair("existingSubscribers", .scalar(subscribers, quoted: false)))
        }
        count = pairs.filter { $0.key != "territoryPrices" }.count + written.count
        guard let existing else {
            entry = [YAMLTree.Pair("startDate", .scalar(CalendarDay.format(from), quoted: false))] + pairs
            return
        }
        target = existing.2.path
        changes = pairs
    }

    /// Makes the edit in the catalog's text.
    func write(into editor: inout CatalogTextEditor) throws(IAPKitError) {
        if let entry {
            if product.priceChanges.isEmpty {
                try editor.merge([YAMLTree.Pair("priceChanges", .list([.map(entry)]))], into: product.path)
            } else {
                try editor.append(.map(entry), to: product.path / "priceChanges")
            }
        }
        if let target, !changes.isEmpty { try editor.merge(changes, into: target) }
    }
}
