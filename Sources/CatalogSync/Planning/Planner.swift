import IAPCatalog
import IAPCore

/// Compares what the catalog asks for with what App Store Connect holds and decides, resource by resource, what
/// `push` does. Pure: no network, so `plan`, `push` and `export asc` (an app with no products) share it.
public struct Planner: Sendable {
    public var catalog: Catalog
    public var desired: CatalogRecords

    public init(catalog: Catalog, desired: CatalogRecords) {
        self.catalog = catalog
        self.desired = desired
    }

    public func plan(against store: StoreSnapshot) -> Plan {
        var builder = PlanBuilder(catalog: catalog, store: store)
        let retired = Set(catalog.retiredProductIDs.map(\.value))
        let liveInAppPurchases = Dictionary(store.inAppPurchases.map { ($0.record.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let liveSubscriptions = Dictionary(store.groups.flatMap { group in group.subscriptions.map { ($0.record.productID, (group, $0)) } },
                                           uniquingKeysWith: { a, _ in a })

        for product in desired.inAppPurchases {
            if retired.contains(product.productID) {
                builder.refuse(product, reason: "\(product.productID) is listed in retiredProductIds; App Store Connect never allows a product ID again")
            } else if let (_, live) = liveSubscriptions[product.productID] {
                builder.refuse(product, field: Change.Field("type", from: live.record.type.rawValue, to: product.type.rawValue),
                               reason: "App Store Connect cannot change a product's type")
            } else {
                builder.inAppPurchase(product, live: liveInAppPurchases[product.productID])
            }
        }
        let liveGroups = Dictionary(store.groups.map { ($0.record.referenceName, $0) }, uniquingKeysWith: { a, _ in a })
        for (index, group) in desired.groups.enumerated() {
            let live = liveGroups[group.referenceName]
            let groupRef = builder.group(group, index: index, live: live)
            // A level must lie within the group's size when it is set: new subscriptions whose level is beyond the
            // group's size so far get it once every subscription of the group exists.
            builder.groupSize = live?.subscriptions.count ?? 0
            builder.deferredLevels = []
            for subscription in group.subscriptions {
                if retired.contains(subscription.productID) {
                    builder.refuse(subscription, reason: "\(subscription.productID) is listed in retiredProductIds; App Store Connect never allows a product ID again")
                } else if let live = liveInAppPurchases[subscription.productID] {
                    builder.refuse(subscription, field: Change.Field("type", from: live.record.type.rawValue, to: subscription.type.rawValue),
                                   reason: "App Store Connect cannot change a product's type")
                } else if let (liveGroup, live) = liveSubscriptions[subscription.productID], liveGroup.record.referenceName != group.referenceName {
                    builder.refuse(subscription, field: Change.Field("group", from: liveGroup.record.referenceName, to: group.referenceName),
                                   reason: "App Store Connect cannot move a subscription to another group")
                    _ = live
                } else {
                    builder.subscription(subscription, group: groupRef, live: liveSubscriptions[subscription.productID]?.1)
                }
            }
            if !builder.deferredLevels.isEmpty, let last = builder.changes.indices.last {
                builder.changes[last].operations += builder.deferredLevels
            }
        }

        // What App Store Connect has and the catalog does not: listed, never deleted.
        let wanted = Set(desired.allProducts.map(\.productID))
        for live in store.inAppPurchases where !wanted.contains(live.record.productID) {
            builder.unmanaged(live.record)
        }
        let wantedGroups = Set(desired.groups.map(\.referenceName))
        for group in store.groups {
            if !wantedGroups.contains(group.record.referenceName) {
                builder.changes.append(Change(action: .unmanaged, resource: "subscriptionGroup", detail: group.record.referenceName,
                                              reason: "in App Store Connect but not in the catalog; left as is"))
            }
            for live in group.subscriptions where !wanted.contains(live.record.productID) { builder.unmanaged(live.record) }
        }
        return Plan(app: store.app, changes: builder.changes)
    }
}

/// Accumulates changes; one method per kind of resource.
struct PlanBuilder {
    let catalog: Catalog
    let store: StoreSnapshot
    var changes: [Change] = []
    /// Subscriptions the group will have when the next one is created.
    var groupSize = 0
    var deferredLevels: [Operation] = []

    init(catalog: Catalog, store: StoreSnapshot) {
        self.catalog = catalog
        self.store = store
    }

    func location(_ path: CatalogPath?) -> SourceLocation? { path.map { catalog.location(of: $0) } }

    mutating func add(_ action: Change.Action, _ resource: String, _ product: ProductRecord?, path: CatalogPath? = nil,
                      detail: String? = nil, fields: [Change.Field] = [], reason: String? = nil, operations: [Operation] = []) {
        let path = path ?? product?.path
        changes.append(Change(action: action, resource: resource, productID: product?.productID, path: path?.description,
                              location: location(path), detail: detail, fields: fields, reason: reason,
                              operations: operations))
    }

    mutating func refuse(_ product: ProductRecord, field: Change.Field? = nil, reason: String) {
        add(.refused, product.isSubscription ? "subscription" : "inAppPurchase", product, fields: field.map { [$0] } ?? [],
            reason: reason)
    }

    mutating func unmanaged(_ record: ProductRecord) {
        changes.append(Change(action: .unmanaged, resource: record.isSubscription ? "subscription" : "inAppPurchase",
                              productID: record.productID, reason: "in App Store Connect but not in the catalog; left as is"))
    }

    // MARK: In-app purchases

    mutating func inAppPurchase(_ product: ProductRecord, live: StoreProduct?) {
        let productRef: ResourceRef
        if let live {
            productRef = .id(live.ids.resource)
            let before = changes.count
            compareProduct(product, live: live.record, resource: "inAppPurchase") { name, note, sharable in
                [.updateInAppPurchase(product: productRef, referenceName: name, reviewNote: note, familySharable: sharable)]
            }
            if changes.count == before { add(.unchanged, "inAppPurchase", product) }
            if changes[before...].contains(where: { $0.action == .refused && $0.fields.contains { $0.name == "type" } }) { return }
        } else {
            productRef = .created("iap:\(product.productID)")
            add(.create, "inAppPurchase", product, fields: Self.creationFields(product),
                operations: [.createInAppPurchase(ref: "iap:\(product.productID)", app: store.app.id, record: product)])
        }
        localizations(product, live: live, resource: "inAppPurchaseLocalization", productRef: productRef,
                      ensureVersion: { .ensureInAppPurchaseVersion(ref: "iap-version:\(product.productID)", product: productRef) },
                      versionRef: .created("iap-version:\(product.productID)"),
                      create: { .createInAppPurchaseLocalization(version: $0, localization: $1) },
                      update: { .updateInAppPurchaseLocalization(id: $0, localization: $1) })
        if let availability = product.availability, availability != live?.record.availability {
            add(live?.record.availability == nil ? .create : .update, "inAppPurchaseAvailability", product,
                fields: Self.availabilityFields(from: live?.record.availability, to: availability),
                operations: [.setInAppPurchaseAvailability(product: productRef, availability: availability)])
        }
        if let cents = product.priceCents, cents != live?.record.priceCents {
            add(live?.record.priceCents == nil ? .create : .update, "inAppPurchasePriceSchedule", product,
                path: product.path.map { $0 / "price" },
                fields: [Change.Field("price", from: live?.record.priceCents.map(Price.format(cents:)), to: Price.format(cents: cents))],
                operations: [.setInAppPurchasePrice(product: productRef, cents: cents)])
        }
        if let screenshot = product.screenshot, screenshot != live?.record.screenshot {
            add(live?.record.screenshot == nil ? .create : .update, "inAppPurchaseAppStoreReviewScreenshot", product,
                path: product.path.map { $0 / "review" / "screenshot" },
                fields: [Change.Field("screenshot", from: live?.record.screenshot.map(Self.describe), to: Self.describe(screenshot))],
                operations: [.uploadInAppPurchaseScreenshot(product: productRef, screenshot: screenshot, replacing: live?.ids.screenshot)])
        }
    }

    /// Reference name, review note, family sharing; refuses what App Store Connect cannot change.
    mutating func compareProduct(_ product: ProductRecord, live: ProductRecord, resource: String,
                                 operations: (String?, String?, Bool?) -> [Operation]) {
        if live.type != product.type {
            add(.refused, resource, product, fields: [Change.Field("type", from: live.type.rawValue, to: product.type.rawValue)],
                reason: "App Store Connect cannot change a product's type")
            return
        }
        if let period = product.period, let livePeriod = live.period, period != livePeriod {
            add(.refused, resource, product, path: product.path.map { $0 / "period" },
                fields: [Change.Field("period", from: livePeriod, to: period)],
                reason: "App Store Connect cannot change a subscription's period once it is set")
        }
        if live.familySharable && !product.familySharable {
            add(.refused, resource, product, path: product.path.map { $0 / "familySharable" },
                fields: [Change.Field("familySharable", from: "true", to: "false")],
                reason: "App Store Connect cannot turn family sharing off once it is on")
        }
        var fields: [Change.Field] = []
        let name = product.referenceName != live.referenceName ? product.referenceName : nil
        if let name { fields.append(Change.Field("referenceName", from: live.referenceName, to: name)) }
        let note = (product.reviewNote ?? "") != (live.reviewNote ?? "") ? product.reviewNote ?? "" : nil
        if let note { fields.append(Change.Field("reviewNote", from: live.reviewNote, to: note)) }
        let sharable = product.familySharable && !live.familySharable ? true : nil
        if sharable != nil { fields.append(Change.Field("familySharable", from: "false", to: "true")) }
        let level = product.groupLevel != nil && product.groupLevel != live.groupLevel ? product.groupLevel : nil
        if let level { fields.append(Change.Field("groupLevel", from: live.groupLevel.map(String.init), to: String(level))) }
        if !fields.isEmpty { add(.update, resource, product, fields: fields, operations: operations(name, note, sharable)) }
    }

    /// Creates and updates localizations on the product's current version, opening a new version first when the
    /// current one is already submitted. Localizations App Store Connect has and the catalog does not stay.
    mutating func localizations(_ product: ProductRecord, live: StoreProduct?, resource: String, productRef: ResourceRef,
                                ensureVersion: () -> Operation, versionRef createdVersion: ResourceRef,
                                create: (ResourceRef, LocalizationRecord) -> Operation,
                                update: (String, LocalizationRecord) -> Operation) {
        let liveByLocale = Dictionary((live?.record.localizations ?? []).map { ($0.locale, $0) }, uniquingKeysWith: { a, _ in a })
        var pending: [(LocalizationRecord, LocalizationRecord?)] = []
        for localization in product.localizations where liveByLocale[localization.locale] != localization {
            pending.append((localization, liveByLocale[localization.locale]))
        }
        let wanted = Set(product.localizations.map(\.locale))
        for extra in live?.record.localizations ?? [] where !wanted.contains(extra.locale) {
            add(.unmanaged, resource, product, detail: extra.locale, reason: "in App Store Connect but not in the catalog; left as is")
        }
        guard !pending.isEmpty else { return }
        // A submitted version is read-only: edits go to a new version, which starts from the current texts.
        let versionRef: ResourceRef
        var opening: [Operation] = []
        if let version = live?.ids.version, live?.ids.versionEditable == true {
            versionRef = .id(version)
        } else {
            versionRef = createdVersion
            opening = [ensureVersion()]
        }
        for (index, (localization, old)) in pending.enumerated() {
            let path = product.path.flatMap { path in
                product.localizations.firstIndex(of: localization).map { path / "localizations" + $0 }
            }
            let fields = Self.localizationFields(from: old, to: localization)
            let operation: Operation
            if let old, let id = live?.ids.localizations[old.locale], live?.ids.versionEditable == true {
                operation = update(id, localization)
            } else {
                operation = create(versionRef, localization)
            }
            add(old == nil ? .create : .update, resource, product, path: path, detail: localization.locale, fields: fields,
                operations: (index == 0 ? opening : []) + [operation])
        }
    }

    // MARK: Subscription groups and subscriptions

    mutating func group(_ group: GroupRecord, index: Int, live: StoreGroup?) -> ResourceRef {
        let ref: ResourceRef
        if let live {
            ref = .id(live.id)
            add(.unchanged, "subscriptionGroup", nil, path: group.path, detail: group.referenceName)
        } else {
            ref = .created("group:\(group.referenceName)")
            add(.create, "subscriptionGroup", nil, path: group.path, detail: group.referenceName,
                fields: [Change.Field("referenceName", from: nil, to: group.referenceName)],
                operations: [.createGroup(ref: "group:\(group.referenceName)", app: store.app.id, referenceName: group.referenceName)])
        }
        let liveByLocale = Dictionary((live?.record.localizations ?? []).map { ($0.locale, $0) }, uniquingKeysWith: { a, _ in a })
        let pending = group.localizations.filter { liveByLocale[$0.locale] != $0 }
        let versionRef: ResourceRef
        var opening: [Operation] = []
        if let version = live?.version, live?.versionEditable == true {
            versionRef = .id(version)
        } else {
            versionRef = .created("group-version:\(group.referenceName)")
            opening = [.ensureGroupVersion(ref: "group-version:\(group.referenceName)", group: ref)]
        }
        for (position, localization) in pending.enumerated() {
            let old = liveByLocale[localization.locale]
            let operation: Operation
            if old != nil, let id = live?.localizations[localization.locale], live?.versionEditable == true {
                operation = .updateGroupLocalization(id: id, localization: localization)
            } else {
                operation = .createGroupLocalization(version: versionRef, localization: localization)
            }
            let path = group.path.flatMap { path in group.localizations.firstIndex(of: localization).map { path / "localizations" + $0 } }
            add(old == nil ? .create : .update, "subscriptionGroupLocalization", nil, path: path,
                detail: "\(group.referenceName) \(localization.locale)", fields: Self.localizationFields(from: old, to: localization),
                operations: (position == 0 ? opening : []) + [operation])
        }
        let wanted = Set(group.localizations.map(\.locale))
        for extra in live?.record.localizations ?? [] where !wanted.contains(extra.locale) {
            add(.unmanaged, "subscriptionGroupLocalization", nil, detail: "\(group.referenceName) \(extra.locale)",
                reason: "in App Store Connect but not in the catalog; left as is")
        }
        return ref
    }

    mutating func subscription(_ product: ProductRecord, group: ResourceRef, live: StoreProduct?) {
        let ref: ResourceRef
        if let live {
            ref = .id(live.ids.resource)
            let before = changes.count
            compareProduct(product, live: live.record, resource: "subscription") { name, note, sharable in
                [.updateSubscription(subscription: ref, referenceName: name, reviewNote: note, familySharable: sharable,
                                     groupLevel: product.groupLevel != live.record.groupLevel ? product.groupLevel : nil)]
            }
            if changes.count == before { add(.unchanged, "subscription", product) }
            if changes[before...].contains(where: { $0.action == .refused && $0.fields.contains { $0.name == "type" } }) { return }
        } else {
            ref = .created("subscription:\(product.productID)")
            groupSize += 1
            var created = product
            if let level = product.groupLevel, level > groupSize {
                created.groupLevel = nil
                deferredLevels.append(.updateSubscription(subscription: ref, referenceName: nil, reviewNote: nil, familySharable: nil,
                                                          groupLevel: level))
            }
            add(.create, "subscription", product, fields: Self.creationFields(product),
                operations: [.createSubscription(ref: "subscription:\(product.productID)", group: group, record: created)])
        }
        localizations(product, live: live, resource: "subscriptionLocalization", productRef: ref,
                      ensureVersion: { .ensureSubscriptionVersion(ref: "subscription-version:\(product.productID)", subscription: ref) },
                      versionRef: .created("subscription-version:\(product.productID)"),
                      create: { .createSubscriptionLocalization(version: $0, localization: $1) },
                      update: { .updateSubscriptionLocalization(id: $0, localization: $1) })
        let liveRecord = live?.record
        let territories = product.availability?.territories ?? store.territories
        billingPlan(PlanSlice(upfrontOf: product), live: liveRecord.map(PlanSlice.init(upfrontOf:)), product: product, subscription: ref,
                    ids: live.map { ($0.ids.availability, $0.ids.introductoryOffers) }, territories: territories)
        if let monthly = product.monthlyPlan {
            billingPlan(PlanSlice(monthly: monthly), live: liveRecord?.monthlyPlan.map(PlanSlice.init(monthly:)), product: product,
                        subscription: ref, ids: live.map { ($0.ids.monthlyAvailability, $0.ids.monthlyIntroductoryOffers) },
                        territories: monthly.availability?.territories ?? territories)
        }
        offers(product, subscription: ref, live: live, territories: territories)
        if let screenshot = product.screenshot, screenshot != liveRecord?.screenshot {
            add(liveRecord?.screenshot == nil ? .create : .update, "subscriptionAppStoreReviewScreenshot", product,
                path: product.path.map { $0 / "review" / "screenshot" },
                fields: [Change.Field("screenshot", from: liveRecord?.screenshot.map(Self.describe), to: Self.describe(screenshot))],
                operations: [.uploadSubscriptionScreenshot(subscription: ref, screenshot: screenshot, replacing: live?.ids.screenshot)])
        }
    }

    /// One billing plan's availability, prices, introductory and promotional offers: the standard (up-front) plan,
    /// or the monthly plan of a subscription that has one.
    struct PlanSlice {
        var planType: String
        /// Requests name the plan only when the subscription lists billing plans.
        var named: Bool
        var availability: AvailabilityRecord?
        var priceCents: Int?
        var pricedTerritories: [String]?
        var introductoryOffer: OfferRecord?
        var introductoryOfferTerritories: [String]?
        var promotionalOffers: [OfferRecord]
        /// Where the plan's values sit in a catalog product.
        var key: String?

        init(upfrontOf product: ProductRecord) {
            planType = "UPFRONT"
            named = product.namesPlans
            availability = product.availability
            priceCents = product.priceCents
            pricedTerritories = product.pricedTerritories
            introductoryOffer = product.introductoryOffer
            introductoryOfferTerritories = product.introductoryOfferTerritories
            promotionalOffers = product.promotionalOffers
        }

        init(monthly: MonthlyPlanRecord) {
            planType = "MONTHLY"
            named = true
            availability = monthly.availability
            priceCents = monthly.priceCents
            pricedTerritories = monthly.pricedTerritories
            introductoryOffer = monthly.introductoryOffer
            introductoryOfferTerritories = monthly.introductoryOfferTerritories
            promotionalOffers = monthly.promotionalOffers
            key = "billingPlans"
        }

        var resourceSuffix: String { planType == "MONTHLY" ? " (monthly plan)" : "" }
    }

    mutating func billingPlan(_ plan: PlanSlice, live: PlanSlice?, product: ProductRecord, subscription ref: ResourceRef,
                              ids: (availability: String?, introductoryOffers: [String: String])?, territories: [String]) {
        let detail = plan.planType == "MONTHLY" ? "monthly plan" : nil
        let path = { (key: String) in product.path.map { plan.key == nil ? $0 / key : $0 / "billingPlans" } }
        if let availability = plan.availability, availability != live?.availability {
            add(live?.availability == nil ? .create : .update, "subscriptionPlanAvailability", product, detail: detail,
                fields: Self.availabilityFields(from: live?.availability, to: availability),
                operations: [.setSubscriptionAvailability(subscription: ref, existing: ids?.availability, availability: availability,
                                                          planType: plan.planType)])
        }
        let planType = plan.named ? plan.planType : nil
        if let cents = plan.priceCents {
            let priced = Set(live?.pricedTerritories ?? [])
            if cents != live?.priceCents {
                add(live?.priceCents == nil ? .create : .update, "subscriptionPrices", product, path: path("price"),
                    detail: [detail, "\(territories.count) territories"].compactMap { $0 }.joined(separator: ", "),
                    fields: [Change.Field("price", from: live?.priceCents.map(Price.format(cents:)), to: Price.format(cents: cents))],
                    operations: [.setSubscriptionPrices(subscription: ref, cents: cents, territories: territories, planType: planType)])
            } else if case let missing = territories.filter({ !priced.contains($0) }), !missing.isEmpty {
                add(.update, "subscriptionPrices", product, path: path("price"),
                    detail: [detail, "\(missing.count) territories without a price"].compactMap { $0 }.joined(separator: ", "),
                    fields: [Change.Field("pricedTerritories", from: String(priced.count), to: String(priced.count + missing.count))],
                    operations: [.setSubscriptionPrices(subscription: ref, cents: cents, territories: missing, planType: planType)])
            }
        }
        let introPath = path("introductoryOffer")
        if let offer = plan.introductoryOffer {
            let liveOffer = live?.introductoryOffer
            let covered = Set(live?.introductoryOfferTerritories ?? [])
            if let liveOffer, liveOffer != offer {
                // Introductory offers cannot be edited: the old one is removed and the new one created.
                add(.update, "subscriptionIntroductoryOffer", product, path: introPath, detail: detail,
                    fields: Self.termFields(from: liveOffer, to: offer),
                    operations: [.deleteIntroductoryOffers(ids: ids?.introductoryOffers.values.sorted() ?? []),
                                 .createIntroductoryOffers(subscription: ref, offer: offer, territories: territories)])
            } else if liveOffer == nil {
                add(.create, "subscriptionIntroductoryOffer", product, path: introPath, detail: detail,
                    fields: Self.termFields(from: nil, to: offer),
                    operations: [.createIntroductoryOffers(subscription: ref, offer: offer, territories: territories)])
            } else if case let missing = territories.filter({ !covered.contains($0) }), !missing.isEmpty {
                add(.update, "subscriptionIntroductoryOffer", product, path: introPath,
                    detail: [detail, "\(missing.count) territories without it"].compactMap { $0 }.joined(separator: ", "),
                    fields: [Change.Field("territories", from: String(covered.count), to: String(covered.count + missing.count))],
                    operations: [.createIntroductoryOffers(subscription: ref, offer: offer, territories: missing)])
            }
        } else if live?.introductoryOffer != nil {
            add(.unmanaged, "subscriptionIntroductoryOffer", product, detail: detail,
                reason: "in App Store Connect but not in the catalog; left as is")
        }
        compareOffers("subscriptionPromotionalOffer", wanted: plan.promotionalOffers, existing: live?.promotionalOffers ?? [],
                      product: product, key: plan.key ?? "promotionalOffers") {
            .createPromotionalOffer(subscription: ref, offer: $0, territories: territories)
        }
    }

    /// Offers with an id: created when new, refused when their terms changed, unmanaged when only in App Store Connect.
    mutating func compareOffers(_ resource: String, wanted: [OfferRecord], existing: [OfferRecord], product: ProductRecord,
                                key: String, create: (OfferRecord) -> Operation) {
        let liveByID = Dictionary(existing.map { ($0.identifier ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        for (index, offer) in wanted.enumerated() {
            let path = product.path.map { key == "billingPlans" ? $0 / key : $0 / key + index }
            guard let old = liveByID[offer.identifier ?? ""] else {
                add(.create, resource, product, path: path, detail: offer.identifier, fields: Self.termFields(from: nil, to: offer),
                    operations: [create(offer)])
                continue
            }
            if old == offer {
                add(.unchanged, resource, product, path: path, detail: offer.identifier)
            } else {
                add(.refused, resource, product, path: path, detail: offer.identifier, fields: Self.termFields(from: old, to: offer),
                    reason: "App Store Connect cannot change an offer's terms; give the new terms a new id")
            }
        }
        let wantedIDs = Set(wanted.map { $0.identifier ?? "" })
        for old in existing where !wantedIDs.contains(old.identifier ?? "") {
            add(.unmanaged, resource, product, detail: old.identifier, reason: "in App Store Connect but not in the catalog; left as is")
        }
    }

    mutating func offers(_ product: ProductRecord, subscription ref: ResourceRef, live: StoreProduct?, territories: [String]) {
        let liveRecord = live?.record
        let kinds: [(String, [OfferRecord], [OfferRecord], String, (OfferRecord) -> Operation)] = [
            ("subscriptionOfferCode", product.offerCodes, liveRecord?.offerCodes ?? [], "offerCodes",
             { .createOfferCode(subscription: ref, offer: $0, territories: territories) }),
            ("winBackOffer", product.winBackOffers, liveRecord?.winBackOffers ?? [], "winBackOffers",
             { .createWinBackOffer(subscription: ref, offer: $0, territories: territories) }),
        ]
        for (resource, wanted, existing, key, create) in kinds {
            compareOffers(resource, wanted: wanted, existing: existing, product: product, key: key, create: create)
        }
    }

    // MARK: Fields

    static func creationFields(_ product: ProductRecord) -> [Change.Field] {
        var fields = [Change.Field("productId", from: nil, to: product.productID),
                      Change.Field("referenceName", from: nil, to: product.referenceName),
                      Change.Field("type", from: nil, to: product.type.rawValue)]
        if let period = product.period { fields.append(Change.Field("period", from: nil, to: period)) }
        if let level = product.groupLevel { fields.append(Change.Field("groupLevel", from: nil, to: String(level))) }
        fields.append(Change.Field("familySharable", from: nil, to: String(product.familySharable)))
        if let note = product.reviewNote { fields.append(Change.Field("reviewNote", from: nil, to: note)) }
        return fields
    }

    static func localizationFields(from old: LocalizationRecord?, to new: LocalizationRecord) -> [Change.Field] {
        var fields: [Change.Field] = []
        if old?.name != new.name { fields.append(Change.Field("name", from: old?.name, to: new.name)) }
        if old?.description != new.description, new.description != nil || old != nil {
            fields.append(Change.Field("description", from: old?.description, to: new.description))
        }
        if old?.customAppName != new.customAppName {
            fields.append(Change.Field("customAppName", from: old?.customAppName, to: new.customAppName))
        }
        return fields
    }

    static func availabilityFields(from old: AvailabilityRecord?, to new: AvailabilityRecord) -> [Change.Field] {
        var fields: [Change.Field] = []
        if old?.territories != new.territories {
            let added = Set(new.territories).subtracting(old?.territories ?? []).count
            let removed = Set(old?.territories ?? []).subtracting(new.territories).count
            fields.append(Change.Field("territories", from: old.map { String($0.territories.count) },
                                       to: "\(new.territories.count) (+\(added) -\(removed))"))
        }
        if old?.availableInNewTerritories != new.availableInNewTerritories {
            fields.append(Change.Field("availableInNewTerritories", from: old.map { String($0.availableInNewTerritories) },
                                       to: String(new.availableInNewTerritories)))
        }
        return fields
    }

    static func termFields(from old: OfferRecord?, to new: OfferRecord) -> [Change.Field] {
        let before = old?.terms ?? [:]
        return new.terms.keys.sorted().compactMap { key in
            before[key] == new.terms[key] ? nil : Change.Field(key, from: before[key], to: new.terms[key])
        }
    }

    static func describe(_ screenshot: ScreenshotRecord) -> String { "\(screenshot.fileName) (md5 \(screenshot.checksum.prefix(8)))" }
}

extension CatalogPath {
    static func + (path: CatalogPath, index: Int) -> CatalogPath { path.index(index) }
}
