import IAPCatalog
import IAPCore

/// What `push` would do to bring App Store Connect in line with the catalog: one `Change` per resource, each
/// with the operations that make it, in the order they must run.
public struct Plan: Sendable {
    public var app: StoreApp
    public var changes: [Change]

    public init(app: StoreApp, changes: [Change]) {
        self.app = app
        self.changes = changes
    }

    /// Every write, in dependency order.
    public var operations: [Operation] { changes.flatMap(\.operations) }

    /// True when `push` would write nothing.
    public var isEmpty: Bool { changes.allSatisfy { $0.action == .unchanged || $0.action == .unmanaged || $0.action == .refused } }

    public func count(_ action: Change.Action) -> Int { changes.lazy.filter { $0.action == action }.count }
}

/// One resource's fate in a plan.
public struct Change: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case create, update, unchanged
        /// A change App Store Connect forbids (a product ID, a type, a period, family sharing once on, a reused
        /// retired ID): shown, never attempted.
        case refused
        /// In App Store Connect but not in the catalog: listed, never deleted.
        case unmanaged
    }

    /// One field's old and new value, as text for people and JSON for machines.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var from: String?
        public var to: String?
        public init(_ name: String, from: String?, to: String?) {
            self.name = name
            self.from = from
            self.to = to
        }
    }

    public var action: Action
    /// `inAppPurchase`, `inAppPurchaseLocalization`, `subscriptionPrices`, … (App Store Connect's resource names).
    public var resource: String
    public var productID: String?
    /// The catalog path of the value behind the change (`products[0].localizations[1]`).
    public var path: String?
    /// The catalog line and column, when the change comes from the catalog.
    public var location: SourceLocation?
    /// A locale, an offer id or a territory count that tells resources of one kind apart.
    public var detail: String?
    public var fields: [Field]
    /// Why a change is refused or what an unmanaged resource is.
    public var reason: String?
    public var operations: [Operation]

    public init(action: Action, resource: String, productID: String? = nil, path: String? = nil,
                location: SourceLocation? = nil, detail: String? = nil, fields: [Field] = [], reason: String? = nil,
                operations: [Operation] = []) {
        self.action = action
        self.resource = resource
        self.productID = productID
        self.path = path
        self.location = location
        self.detail = detail
        self.fields = fields
        self.reason = reason
        self.operations = operations
    }
}

/// A resource an operation acts on: one App Store Connect already has, or one an earlier operation creates.
public enum ResourceRef: Sendable, Hashable, CustomStringConvertible {
    case id(String)
    /// Created earlier in the same push; `export asc` writes it as `${name}`.
    case created(String)

    public var description: String {
        switch self {
        case let .id(id): return id
        case let .created(name): return "${\(name)}"
        }
    }
}

/// One write (or a short, fixed series of them) that `push` performs and `export asc` lists.
public enum Operation: Sendable {
    case createInAppPurchase(ref: String, app: String, record: ProductRecord)
    case updateInAppPurchase(product: ResourceRef, referenceName: String?, reviewNote: String?, familySharable: Bool?)
    /// Uses the product's editable version, or creates one when every version is already submitted.
    case ensureInAppPurchaseVersion(ref: String, product: ResourceRef)
    case createInAppPurchaseLocalization(version: ResourceRef, localization: LocalizationRecord)
    case updateInAppPurchaseLocalization(id: String, localization: LocalizationRecord)
    case setInAppPurchaseAvailability(product: ResourceRef, availability: AvailabilityRecord)
    /// A price schedule with the USD price in the base territory; App Store Connect equalizes the rest.
    case setInAppPurchasePrice(product: ResourceRef, cents: Int)
    case uploadInAppPurchaseScreenshot(product: ResourceRef, screenshot: ScreenshotRecord, replacing: String?)

    case createGroup(ref: String, app: String, referenceName: String)
    case ensureGroupVersion(ref: String, group: ResourceRef)
    case createGroupLocalization(version: ResourceRef, localization: LocalizationRecord)
    case updateGroupLocalization(id: String, localization: LocalizationRecord)

    case createSubscription(ref: String, group: ResourceRef, record: ProductRecord)
    case updateSubscription(subscription: ResourceRef, referenceName: String?, reviewNote: String?, familySharable: Bool?,
                            groupLevel: Int?)
    case ensureSubscriptionVersion(ref: String, subscription: ResourceRef)
    case createSubscriptionLocalization(version: ResourceRef, localization: LocalizationRecord)
    case updateSubscriptionLocalization(id: String, localization: LocalizationRecord)
    /// The standard plan's availability (`subscriptionPlanAvailabilities`, plan type UPFRONT).
    case setSubscriptionAvailability(subscription: ResourceRef, existing: String?, availability: AvailabilityRecord, planType: String)
    /// The USD price point in USA and its equalizations in the other territories listed; `planType` names the
    /// billing plan when the subscription lists them.
    case setSubscriptionPrices(subscription: ResourceRef, cents: Int, territories: [String], planType: String?)
    case deleteIntroductoryOffers(ids: [String])
    case createIntroductoryOffers(subscription: ResourceRef, offer: OfferRecord, territories: [String])
    case createPromotionalOffer(subscription: ResourceRef, offer: OfferRecord, territories: [String])
    case createOfferCode(subscription: ResourceRef, offer: OfferRecord, territories: [String])
    case createWinBackOffer(subscription: ResourceRef, offer: OfferRecord, territories: [String])
    case uploadSubscriptionScreenshot(subscription: ResourceRef, screenshot: ScreenshotRecord, replacing: String?)

    /// A short description for progress lines and failure messages.
    public var summary: String {
        switch self {
        case let .createInAppPurchase(_, _, record): return "create in-app purchase \(record.productID)"
        case let .updateInAppPurchase(product, _, _, _): return "update in-app purchase \(product)"
        case let .ensureInAppPurchaseVersion(_, product): return "open a version of in-app purchase \(product)"
        case let .createInAppPurchaseLocalization(_, localization): return "create \(localization.locale) localization"
        case let .updateInAppPurchaseLocalization(_, localization): return "update \(localization.locale) localization"
        case let .setInAppPurchaseAvailability(_, availability):
            return "set availability (\(availability.territories.count) territories)"
        case let .setInAppPurchasePrice(_, cents): return "set the USD price \(Price.format(cents: cents))"
        case let .uploadInAppPurchaseScreenshot(_, screenshot, _): return "upload review screenshot \(screenshot.fileName)"
        case let .createGroup(_, _, name): return "create subscription group \(name)"
        case let .ensureGroupVersion(_, group): return "open a version of subscription group \(group)"
        case let .createGroupLocalization(_, localization): return "create group \(localization.locale) localization"
        case let .updateGroupLocalization(_, localization): return "update group \(localization.locale) localization"
        case let .createSubscription(_, _, record): return "create subscription \(record.productID)"
        case let .updateSubscription(subscription, _, _, _, _): return "update subscription \(subscription)"
        case let .ensureSubscriptionVersion(_, subscription): return "open a version of subscription \(subscription)"
        case let .createSubscriptionLocalization(_, localization): return "create \(localization.locale) localization"
        case let .updateSubscriptionLocalization(_, localization): return "update \(localization.locale) localization"
        case let .setSubscriptionAvailability(_, _, availability, planType):
            return "set \(planType.lowercased()) plan availability (\(availability.territories.count) territories)"
        case let .setSubscriptionPrices(_, cents, territories, planType):
            return "set the \(planType.map { $0.lowercased() + " " } ?? "")price \(Price.format(cents: cents)) USD in \(territories.count) territories"
        case let .deleteIntroductoryOffers(ids): return "remove the introductory offer (\(ids.count) territories)"
        case let .createIntroductoryOffers(_, _, territories): return "create the introductory offer in \(territories.count) territories"
        case let .createPromotionalOffer(_, offer, _): return "create promotional offer \(offer.identifier ?? "")"
        case let .createOfferCode(_, offer, _): return "create offer code \(offer.identifier ?? "")"
        case let .createWinBackOffer(_, offer, _): return "create win-back offer \(offer.identifier ?? "")"
        case let .uploadSubscriptionScreenshot(_, screenshot, _): return "upload review screenshot \(screenshot.fileName)"
        }
    }
}
