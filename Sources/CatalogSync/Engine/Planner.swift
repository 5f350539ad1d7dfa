import IAPCatalog
import IAPCore

/// Compares what the catalog asks for with what App Store Connect holds and decides, resource by resource, what
/// `push` does. Pure: no network, so `plan`, `push` and `export asc` (an app with no products) share it. What is
/// decided per resource lives in the resource kinds; the planner matches products and groups and runs the kinds.
public struct Planner: Sendable {
    public var catalog: Catalog
    public var desired: CatalogRecords

    public init(catalog: Catalog, desired: CatalogRecords) {
        self.catalog = catalog
        self.desired = desired
    }

    /// The plan of the products in `scope` (nil: every product); see `PlanScope`. App-level resources (asset packs)
    /// are planned unless `appResources` is false. With `prune`, products App Store Connect has and the catalog does
    /// not are deleted where App Store Connect allows it (never submitted) instead of listed.
    public func plan(
        against store: StoreSnapshot, scope: Set<String>? = nil, appResources: Bool = true, prune: Bool = false,
        replaceUnanswered: Bool = false
    ) -> Plan {
        var builder = PlanBuilder(catalog: catalog, app: store.app, territories: store.territories)
        builder.replacesUnanswered = replaceUnanswered
        for product in store.inAppPurchases + store.groups.flatMap(\.subscriptions) where !product.unanswered.isEmpty {
            builder.unanswered[product.record.productID] = product.unanswered
        }
        let retired = Set(catalog.retiredProductIDs.map(\.value))
        let liveInAppPurchases = Dictionary(store.inAppPurchases.map { ($0.record.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let liveSubscriptions = Dictionary(
            store.groups.flatMap { group in group.subscriptions.map { ($0.record.productID, (group, $0)) } },
            uniquingKeysWith: { a, _ in a })

        // Changes that have started by App Store Connect's today are today's prices.
        var desired = self.desired.scoped(to: scope)
        let inScope = { (productID: String) in scope?.contains(productID) ?? true }
        for index in desired.inAppPurchases.indices { desired.inAppPurchases[index] = desired.inAppPurchases[index].asOf(store.today) }
        for group in desired.groups.indices {
            for index in desired.groups[group].subscriptions.indices {
                desired.groups[group].subscriptions[index] = desired.groups[group].subscriptions[index].asOf(store.today)
            }
        }
        builder.today = store.today
        builder.priceGrids = store.priceGrids
        for product in desired.inAppPurchases {
            if retired.contains(product.productID) {
                builder.refuse(product, reason: Self.retiredReason(product.productID))
            } else if let (_, live) = liveSubscriptions[product.productID] {
                builder.refuse(
                    product, field: Change.Field("type", from: live.record.type.rawValue, to: product.type.rawValue),
                    reason: Self.typeReason)
            } else if let live = liveInAppPurchases[product.productID], live.record.type != product.type {
                builder.refuse(
                    product, field: Change.Field("type", from: live.record.type.rawValue, to: product.type.rawValue),
                    reason: Self.typeReason)
            } else {
                let live = liveInAppPurchases[product.productID]
                let ref = live.map { ResourceRef.id($0.ids.resource) } ?? .created(InAppPurchaseKind.ref(product.productID))
                for kind in InAppPurchaseKinds.all { kind.plan(product, live: live, product: ref, builder: &builder) }
            }
        }

        let liveGroups = Dictionary(store.groups.map { ($0.record.referenceName, $0) }, uniquingKeysWith: { a, _ in a })
        for group in desired.groups {
            let live = liveGroups[group.referenceName]
            let groupRef = SubscriptionGroupKind.plan(group, live: live, builder: &builder)
            builder.currentGroup = groupRef
            builder.groupSize = live?.subscriptions.count ?? 0
            builder.deferredLevels = []
            for subscription in group.subscriptions {
                if retired.contains(subscription.productID) {
                    builder.refuse(subscription, reason: Self.retiredReason(subscription.productID))
                } else if let live = liveInAppPurchases[subscription.productID] {
                    builder.refuse(
                        subscription, field: Change.Field("type", from: live.record.type.rawValue, to: subscription.type.rawValue),
                        reason: Self.typeReason)
                } else if let (liveGroup, _) = liveSubscriptions[subscription.productID], liveGroup.record.referenceName != group.referenceName {
                    builder.refuse(
                        subscription, field: Change.Field("group", from: liveGroup.record.referenceName, to: group.referenceName),
                        reason: "App Store Connect cannot move a subscription to another group")
                } else {
                    let live = liveSubscriptions[subscription.productID]?.1
                    let ref = live.map { ResourceRef.id($0.ids.resource) } ?? .created(SubscriptionKind.ref(subscription.productID))
                    for kind in SubscriptionKinds.all { kind.plan(subscription, live: live, product: ref, builder: &builder) }
                }
            }
            if !builder.deferredLevels.isEmpty { builder.appendToLast(builder.deferredLevels) }
        }

        if appResources { for kind in AppKinds.all { kind.plan(desired, store: store, builder: &builder) } }

        // What App Store Connect holds that the catalog cannot say: the product is not fully managed, never "unchanged".
        let wantedByID = Dictionary(desired.allProducts.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        for live in store.inAppPurchases + store.groups.flatMap(\.subscriptions) where inScope(live.record.productID) {
            for note in live.notes where !note.managed {
                // An attribute answered with a value iapkit does not know shows as `?` beside what the catalog says.
                let fields = note.field.map { field in
                    [Change.Field.unanswered(field, to: wantedByID[live.record.productID].flatMap { UnreadAttributes.value(field, of: $0) })]
                }
                builder.add(.unmanaged, note.resource, live.record, detail: Change.notFullyManaged, fields: fields ?? [], reason: note.text)
            }
        }

        // What App Store Connect has and the catalog does not: listed, or deleted when asked to prune.
        let wanted = Set(desired.allProducts.map(\.productID))
        for live in store.inAppPurchases where !wanted.contains(live.record.productID) && inScope(live.record.productID) {
            if prune { Self.prune(live, builder: &builder) } else { builder.unmanaged(.inAppPurchase, live.record) }
        }
        let wantedGroups = Set(desired.groups.map(\.referenceName))
        for group in store.groups {
            if scope == nil, !wantedGroups.contains(group.record.referenceName) {
                builder.unmanaged(.subscriptionGroup, nil, detail: group.record.referenceName)
            }
            for live in group.subscriptions where !wanted.contains(live.record.productID) && inScope(live.record.productID) {
                if prune { Self.prune(live, builder: &builder) } else { builder.unmanaged(.subscription, live.record) }
            }
        }
        return Plan(
            app: store.app, changes: builder.changes, storefrontDifferences: store.storefrontDifferences,
            uncheckedPrices: builder.uncheckedPrices)
    }

    static let typeReason = "App Store Connect cannot change a product's type"

    /// States of a product never sent to review: the only ones App Store Connect deletes.
    public static let deletableStates: Set<String> = ["MISSING_METADATA", "READY_TO_SUBMIT", "WAITING_FOR_UPLOAD", "PROCESSING_CONTENT"]

    /// A product only App Store Connect has, deleted when it was never submitted, refused otherwise.
    static func prune(_ live: StoreProduct, builder: inout PlanBuilder) {
        let resource = live.record.isSubscription ? ResourceName.subscription : .inAppPurchase
        let state = live.state ?? "unknown"
        guard deletableStates.contains(state) else {
            // Left as is rather than refused, so one old product does not stop the rest of a pruning push.
            builder.add(
                .unmanaged, resource, live.record, detail: state,
                reason: "App Store Connect deletes only products never sent to review; left as is. To stop selling it, "
                    + "list it with `availability: {territories: []}`")
            return
        }
        let operation: any PlannedOperation =
            live.record.isSubscription
            ? SubscriptionKind.Delete(id: live.ids.resource, productID: live.record.productID)
            : InAppPurchaseKind.Delete(id: live.ids.resource, productID: live.record.productID)
        builder.add(
            .delete, resource, live.record, detail: state,
            reason: "never submitted; its product ID can never be used again (add it to retiredProductIds)",
            operations: [operation])
    }

    static func retiredReason(_ productID: String) -> String {
        "\(productID) is listed in retiredProductIds; App Store Connect never allows a product ID again"
    }
}
