import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// What only an auto-renewable subscription has of a product's own attributes: the subscription kind's slice of a
/// `ProductRecord`. `SubscriptionKind` alone reads it from App Store Connect, maps it to and from the catalog,
/// compares it and sends it, so a new subscription attribute is a field here and lines in that kind.
public struct SubscriptionAttributes: Sendable, Equatable {
    /// ISO 8601 period: P1W P1M P2M P3M P6M P1Y.
    public var period: String?
    public var groupLevel: Int?
    /// Whether organizations can buy seats (`multiSeatStatus`, API 4.5), and where (`marketSettings`, in
    /// `SubscriptionMarket` order). Nil: App Store Connect answered none (a subscription made before 4.5), or the
    /// catalog leaves App Store Connect's as it is.
    public var multiSeat: Bool?
    public var markets: [SubscriptionMarket]?

    public init(period: String? = nil, groupLevel: Int? = nil, multiSeat: Bool? = nil, markets: [SubscriptionMarket]? = nil) {
        self.period = period
        self.groupLevel = groupLevel
        self.multiSeat = multiSeat
        self.markets = markets.map(SubscriptionKind.ordered)
    }

    /// What the create request cannot carry (API 4.5 added multiseat to the update request alone): sent by an update
    /// right after the create.
    var afterCreate: SubscriptionAttributes { SubscriptionAttributes(multiSeat: multiSeat, markets: markets) }
}

extension ProductRecord {
    /// The subscription's period, which its offers' durations are read against.
    public var period: String? {
        get { subscription.period }
        set { subscription.period = newValue }
    }

    public var groupLevel: Int? {
        get { subscription.groupLevel }
        set { subscription.groupLevel = newValue }
    }
}

/// The auto-renewable subscription itself (`subscriptions`): product ID and period (fixed once set), reference
/// name, review note, family sharing (never turned off again) and its level in the group.
enum SubscriptionKind: ProductResourceKind {
    typealias Schemas = Components.Schemas

    static func ref(_ productID: String) -> String { "subscription:\(productID)" }

    /// The list entry holds every attribute: nothing more to read.
    static func estimatedReads(_ listing: SubscriptionListing) -> Int { 0 }

    static func read(into product: inout StoreProduct, listing: SubscriptionListing, reader: StoreReader) async throws(SyncError) {}

    static func record(_ subscription: Schemas.Subscription) -> StoreProduct? {
        guard let attributes = subscription.attributes, let productID = attributes.productId else { return nil }
        var record = ProductRecord(
            productID: productID, referenceName: attributes.name ?? productID, type: .autoRenewableSubscription,
            familySharable: attributes.familySharable ?? false,
            reviewNote: attributes.reviewNote.flatMap { $0.isEmpty ? nil : $0 })
        record.subscription = SubscriptionAttributes(
            period: attributes.subscriptionPeriod.flatMap { Vocabulary.isoDuration($0.rawValue) },
            groupLevel: attributes.groupLevel, multiSeat: attributes.multiSeatStatus.map { $0 == .enabled },
            markets: attributes.marketSettings.map { $0.compactMap { market(api: $0.rawValue) } })
        return StoreProduct(record: record, ids: ProductIDs(resource: subscription.id), state: attributes.state?.rawValue)
    }

    // MARK: - The catalog's keys

    /// The subscription's own attributes as the catalog asks for them.
    static func attributes(of subscription: Product) -> SubscriptionAttributes {
        SubscriptionAttributes(
            period: subscription.period, groupLevel: subscription.groupLevel, multiSeat: subscription.multiSeat,
            markets: subscription.markets)
    }

    /// The subscription's own attributes as `pull` writes them into the catalog.
    static func write(_ attributes: SubscriptionAttributes, into product: inout Product) {
        product.period = attributes.period
        product.groupLevel = attributes.groupLevel
        product.multiSeat = attributes.multiSeat
        product.markets = attributes.markets
    }

    /// Each market's name in App Store Connect's `marketSettings`.
    static let marketNames: [SubscriptionMarket: String] = [
        .appStore: "APP_STORE", .appleBusiness: "APPLE_BUSINESS", .appleSchool: "APPLE_SCHOOL",
    ]

    static func market(api name: String) -> SubscriptionMarket? { marketNames.first { $0.value == name }?.key }

    /// Markets once each, in the catalog's order of them, so the same set compares and writes the same.
    static func ordered(_ markets: [SubscriptionMarket]) -> [SubscriptionMarket] {
        SubscriptionMarket.allCases.filter(markets.contains)
    }

    static func text(_ markets: [SubscriptionMarket]) -> String { "[" + markets.map(\.rawValue).joined(separator: ", ") + "]" }

    /// The attributes that fill a field of this kind's slice, for `UnreadAttributes`.
    static let unreadFields: [UnreadAttributes.Field] = [
        .of("subscriptionPeriod", "period", \.period) { $0 },
        .of("groupLevel", "groupLevel", \.groupLevel) { $0.map(String.init) },
        .of("multiSeatStatus", "multiSeat", \.subscription.multiSeat) { $0.map(String.init) },
        .of("marketSettings", "markets", \.subscription.markets) { $0.map(text) },
    ]

    // MARK: - Plan

    /// What a new subscription's create change shows beside the shared attributes.
    static func creationFields(_ attributes: SubscriptionAttributes) -> [Change.Field] {
        var fields: [Change.Field] = []
        if let period = attributes.period { fields.append(Change.Field("period", from: nil, to: period)) }
        if let level = attributes.groupLevel { fields.append(Change.Field("groupLevel", from: nil, to: String(level))) }
        if let multiSeat = attributes.multiSeat { fields.append(Change.Field("multiSeat", from: nil, to: String(multiSeat))) }
        if let markets = attributes.markets { fields.append(Change.Field("markets", from: nil, to: text(markets))) }
        return fields
    }

    /// Adds a refused change for a new period; returns the fields that change and the attributes to send for them
    /// (nil leaves one as it is). An attribute App Store Connect answered with a value iapkit does not know
    /// (`unanswered`) is left alone: plan shows it as `?`.
    static func compare(
        _ wanted: ProductRecord, live: ProductRecord, unanswered: Set<String>, builder: inout PlanBuilder
    ) -> (fields: [Change.Field], send: SubscriptionAttributes) {
        if let period = wanted.period, let livePeriod = live.period, period != livePeriod {
            builder.add(
                .refused, .subscription, wanted, path: wanted.path.map { $0 / "period" },
                fields: [Change.Field("period", from: livePeriod, to: period)],
                reason: "App Store Connect cannot change a subscription's period once it is set")
        }
        var fields: [Change.Field] = []
        var send = SubscriptionAttributes()
        if let level = wanted.groupLevel, level != live.groupLevel {
            send.groupLevel = level
            fields.append(Change.Field("groupLevel", from: live.groupLevel.map(String.init), to: String(level)))
        }
        let (wantedOwn, liveOwn) = (wanted.subscription, live.subscription)
        // Multiseat beside Family Sharing is refused only as a change: a subscription App Store Connect already holds
        // that way (made so before it turned multiseat off for family-shared ones) is held, and a catalog keeping it
        // asks for nothing.
        let holdsBoth = live.familySharable && liveOwn.multiSeat == true
        if wantedOwn.multiSeat == true, wanted.familySharable || live.familySharable, !holdsBoth {
            builder.add(
                .refused, .subscription, wanted, path: wanted.path.map { $0 / "multiSeat" },
                fields: [Change.Field("multiSeat", from: liveOwn.multiSeat.map(String.init), to: "true")],
                reason: familySharingRefusal)
        } else if let multiSeat = wantedOwn.multiSeat, multiSeat != liveOwn.multiSeat, !unanswered.contains("multiSeat") {
            send.multiSeat = multiSeat
            fields.append(Change.Field("multiSeat", from: liveOwn.multiSeat.map(String.init), to: String(multiSeat)))
        } else if wantedOwn.multiSeat == nil, wanted.familySharable, !live.familySharable, liveOwn.multiSeat == true {
            // Not sent: App Store Connect turns multiseat off itself when Family Sharing goes on.
            fields.append(Change.Field("multiSeat", from: "true", to: "false"))
        }
        if let markets = wantedOwn.markets, markets != liveOwn.markets, !unanswered.contains("markets") {
            send.markets = markets
            fields.append(Change.Field("markets", from: liveOwn.markets.map(text), to: text(markets)))
        }
        return (fields, send)
    }

    static let familySharingRefusal =
        "App Store Connect turns multiseat off for a family-shared subscription "
        + "(Apple's documentation of the subscription update request, multiSeatStatus)"

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let live else {
            // The update after the create would be refused: refused here, before anything is written.
            if wanted.subscription.multiSeat == true, wanted.familySharable {
                builder.add(
                    .refused, .subscription, wanted, path: wanted.path.map { $0 / "multiSeat" },
                    fields: [Change.Field("multiSeat", from: nil, to: "true")], reason: familySharingRefusal)
            }
            builder.groupSize += 1
            var created = wanted
            // A level must lie within the group's size when it is set: beyond it, it is set once the group is whole.
            if let level = wanted.groupLevel, level > builder.groupSize {
                created.groupLevel = nil
                builder.deferredLevels.append(Update(subscription: product, own: SubscriptionAttributes(groupLevel: level)))
            }
            // Created, then updated with what the create request cannot carry, as one change.
            let afterCreate = Update(subscription: product, own: wanted.subscription.afterCreate)
            builder.add(
                .create, .subscription, wanted,
                fields: PlanBuilder.creationFields(wanted, own: creationFields(wanted.subscription)),
                operations: [Create(ref: ref(wanted.productID), group: groupRef(builder), record: created)]
                    + (afterCreate.sends ? [afterCreate] : []))
            return
        }
        let before = builder.changes.count
        var (fields, own) = compare(wanted, live: live.record, unanswered: live.unanswered, builder: &builder)
        let shared = ProductAttributes.compare(wanted, live: live.record, resource: .subscription, builder: &builder)
        fields = shared.fields + fields
        if !fields.isEmpty {
            // The same for a level raised past the group's size now (its other subscriptions are created later).
            if let level = own.groupLevel, level > builder.groupSize {
                own.groupLevel = nil
                builder.deferredLevels.append(Update(subscription: product, own: SubscriptionAttributes(groupLevel: level)))
            }
            let update = Update(subscription: product, shared: shared, own: own)
            // A change of one of the subscription's own keys is shown at that key's line.
            let key = fields.count == 1 && ownKeys.contains(fields[0].name) ? fields[0].name : nil
            builder.add(
                .update, .subscription, wanted, path: key.flatMap { key in wanted.path.map { $0 / key } }, fields: fields,
                operations: update.sends ? [update] : [])
        } else if builder.changes.count == before {
            builder.add(.unchanged, .subscription, wanted)
        }
    }

    /// The catalog keys of the subscription's own attributes that an update changes.
    static let ownKeys: Set<String> = ["groupLevel", "multiSeat", "markets"]

    /// The group the subscriptions being planned belong to: the latest group change names it.
    static func groupRef(_ builder: PlanBuilder) -> ResourceRef {
        builder.currentGroup ?? .created("group")
    }

    // MARK: - Operations

    struct Create: WriteOperation {
        var ref: String
        var group: ResourceRef
        var record: ProductRecord
        var summary: String { "create subscription \(record.productID)" }
        var createdRef: String? { ref }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let period = record.period.flatMap(Vocabulary.apiDuration).flatMap {
                Schemas.SubscriptionCreateRequest.DataPayload.AttributesPayload.SubscriptionPeriodPayload(rawValue: $0)
            }
            let body = Schemas.SubscriptionCreateRequest(
                data: .init(
                    _type: .subscriptions,
                    attributes: .init(
                        name: record.referenceName, productId: record.productID, familySharable: record.familySharable,
                        subscriptionPeriod: period, reviewNote: record.reviewNote, groupLevel: record.groupLevel),
                    relationships: .init(group: .init(data: .init(_type: .subscriptionGroups, id: context.id(group))))))
            let id = try await context.send { try await $0.subscriptionsCreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: ref)
        }
    }

    /// `PATCH /v1/subscriptions/{id}` with the attributes that change alone.
    struct Update: WriteOperation {
        var subscription: ResourceRef
        var shared = ProductAttributes.Update()
        var own = SubscriptionAttributes()
        var summary: String { "update subscription \(subscription)" }

        /// False when every change is refused or deferred: nothing to send.
        var sends: Bool {
            shared.referenceName != nil || shared.reviewNote != nil || shared.familySharable != nil || own != SubscriptionAttributes()
        }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let id = context.id(subscription)
            let body = Schemas.SubscriptionUpdateRequest(
                data: .init(
                    _type: .subscriptions, id: id,
                    attributes: .init(
                        name: shared.referenceName, familySharable: shared.familySharable, reviewNote: shared.reviewNote,
                        groupLevel: own.groupLevel, multiSeatStatus: own.multiSeat.map { $0 ? .enabled : .disabled },
                        marketSettings: own.markets.map { markets in markets.compactMap { marketNames[$0].flatMap { .init(rawValue: $0) } } })))
            _ = try await context.send { try await $0.subscriptionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
        }
    }
}

extension SubscriptionKind {
    /// `DELETE /v1/subscriptions/{id}` (`asc push --prune`, for a subscription never submitted).
    struct Delete: WriteOperation {
        var id: String
        var productID: String
        var summary: String { "delete subscription \(productID)" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            _ = try await context.send { try await $0.subscriptionsDeleteInstance(path: .init(id: id)).noContent }
        }
    }
}
