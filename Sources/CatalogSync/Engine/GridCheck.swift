import AppStoreConnect
import IAPCatalog
import IAPCore

/// A create operation whose product gives access to its kind's price grid: App Store Connect lists price points
/// only through a product, so a hand-set territory price of an app's first in-app purchase or subscription can be
/// checked only once that product exists.
protocol PriceGridProbe: WriteOperation {
    var gridKind: PriceGrid { get }
    /// The resource the create needs first (a subscription's group), when the same push creates it.
    var prerequisite: ResourceRef? { get }
    var createdRef: String? { get }
}

extension InAppPurchaseKind.Create: PriceGridProbe {
    var gridKind: PriceGrid { .inAppPurchase }
    var prerequisite: ResourceRef? { nil }
}

extension SubscriptionKind.Create: PriceGridProbe {
    var gridKind: PriceGrid { .subscription }
    var prerequisite: ResourceRef? { group }
}

extension PlanExecutor {
    /// A check push makes in the middle of a plan: after `operations` operations, read `kind`'s grid through `product`.
    struct GridCheck {
        var operations: Int
        var kind: PriceGrid
        var product: ResourceRef
    }

    /// The plan with, for each kind of `plan.uncheckedPrices`, the first product it creates (and that product's new
    /// group) moved to the front as changes of their own, and where to check the grids: once every such product
    /// exists, so every unchecked price of every kind is checked in one run, and nothing else is written before. Only the create operations move; what else their changes
    /// hold (localizations, deferred group levels) stays where the plan put it.
    static func probingFirst(_ plan: Plan) -> (plan: Plan, checks: [GridCheck]) {
        var kinds: [PriceGrid] = []
        for price in plan.uncheckedPrices where !kinds.contains(price.kind) { kinds.append(price.kind) }
        var changes = plan.changes
        var front: [Change] = []
        var checks: [GridCheck] = []
        /// Takes the operation creating `name` out of its change, as a change of its own.
        func take(_ name: String) -> Bool {
            for index in changes.indices {
                guard let at = changes[index].operations.firstIndex(where: { $0.createdRef == name }) else { continue }
                var moved = changes[index]
                moved.operations = [changes[index].operations.remove(at: at)]
                front.append(moved)
                return true
            }
            return false
        }
        for kind in kinds {
            guard
                let probe = changes.lazy.flatMap(\.operations).compactMap({ $0 as? any PriceGridProbe })
                    .first(where: { $0.gridKind == kind }), let ref = probe.createdRef
            else { continue }
            if case let .created(group)? = probe.prerequisite { _ = take(group) }
            guard take(ref) else { continue }
            checks.append(GridCheck(operations: 0, kind: kind, product: .created(ref)))
        }
        guard !front.isEmpty else { return (plan, []) }
        let created = front.reduce(0) { $0 + $1.operations.count }
        for index in checks.indices { checks[index].operations = created }
        var ordered = plan
        ordered.changes = front + changes
        return (ordered, checks)
    }

    /// Reads the grid through the product just created and refuses every unchecked price of `kind` it does not offer.
    static func refusals(_ plan: Plan, _ check: GridCheck, context: WriteContext) async throws(ASCError) -> [String] {
        let prices = plan.uncheckedPrices.filter { $0.kind == check.kind }
        let grids = try await context.priceGrids(
            of: check.product, subscription: check.kind == .subscription,
            territories: Array(Set(prices.map(\.territory))).sorted())
        // Only a non-consumable may be free; the products of unchecked prices are the ones this plan creates.
        let free = Set(
            plan.operations.compactMap { ($0 as? InAppPurchaseKind.Create)?.record }.filter { $0.type == .nonConsumable }.map(\.productID))
        var refusals: [String] = []
        for price in prices {
            let grid = Array((grids[price.territory] ?? [:]).keys)
            guard let message = LocalPrice.refusal(price.price, territory: price.territory, grid: grid, free: free.contains(price.productID))
            else { continue }
            let located = (price.location.map { "\($0): " } ?? "") + "\(price.productID): " + message
            if !refusals.contains(located) { refusals.append(located) }
        }
        return refusals
    }
}
