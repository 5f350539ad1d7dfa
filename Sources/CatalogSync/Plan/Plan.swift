import IAPCatalog
import IAPCore

/// What `push` would do to bring App Store Connect in line with the catalog: one `Change` per resource, each
/// with the operations that make it, in the order they must run.
public struct Plan: Sendable {
    public var app: StoreApp
    public var changes: [Change]
    /// Where App Store Connect's storefronts differ from the table lint checks prices with offline.
    public var storefrontDifferences: [StorefrontDifference]
    /// Territory prices no grid could be read for: the app has no product of their kind yet, and App Store Connect
    /// shows price points only through a product. Push checks them right after creating the first one.
    public var uncheckedPrices: [UncheckedPrice]
    /// Where the base came from when the changes carry their origins (`ChangeOrigins`), else nil.
    public var base: String?

    public init(
        app: StoreApp, changes: [Change], storefrontDifferences: [StorefrontDifference] = [],
        uncheckedPrices: [UncheckedPrice] = []
    ) {
        self.app = app
        self.changes = changes
        self.storefrontDifferences = storefrontDifferences
        self.uncheckedPrices = uncheckedPrices
    }

    /// Every write, in dependency order.
    public var operations: [any PlannedOperation] { changes.flatMap(\.operations) }

    /// About how many requests `push` sends for this plan (an upper bound for most operations).
    public var estimatedRequests: Int { operations.reduce(0) { $0 + $1.estimatedRequests } }

    /// True when `push` would write nothing.
    public var isEmpty: Bool {
        changes.allSatisfy { $0.action == .unchanged || $0.action == .unmanaged || $0.action == .refused || $0.action == .waiting }
    }

    public func count(_ action: Change.Action) -> Int { changes.lazy.filter { $0.action == action }.count }
}

/// A hand-set territory price plan could not check against the territory's price points.
public struct UncheckedPrice: Sendable, Equatable {
    public var kind: PriceGrid
    public var productID: String
    public var territory: String
    /// The customer price, canonical (`100`, `5.9`).
    public var price: String
    public var location: SourceLocation?

    public init(kind: PriceGrid, productID: String, territory: String, price: String, location: SourceLocation?) {
        self.kind = kind
        self.productID = productID
        self.territory = territory
        self.price = price
        self.location = location
    }

    /// As plan's JSON and a saved plan write it.
    public var json: JSONValue {
        .object([
            ("kind", .string(kind.rawValue)), ("productId", .string(productID)), ("territory", .string(territory)),
            ("price", .string(price)), ("location", location.map { .string($0.description) } ?? .null),
        ])
    }

    /// `IND 100 (com.example.gems)`
    public var description: String { "\(territory) \(LocalPrice.display(price, territory: territory)) (\(productID))" }
}

/// One resource's fate in a plan.
public struct Change: Sendable {
    /// The detail of a product's note: what App Store Connect holds that the catalog cannot say (`StoreNote`).
    public static let notFullyManaged = "not fully managed"
    /// A note of what App Store Connect holds beyond the catalog: plan's `?`, no change to make.
    public var isNote: Bool { action == .unmanaged && detail == Self.notFullyManaged }

    public enum Action: String, Sendable, CaseIterable {
        case create, update, unchanged
        /// A change App Store Connect forbids (a product ID, a type, a period, family sharing once on, a reused
        /// retired ID): shown, never attempted.
        case refused
        /// In App Store Connect but not in the catalog: listed, never deleted (unless `--prune` makes it a `delete`).
        case unmanaged
        /// In App Store Connect but not in the catalog, and deleted because the plan was asked to prune.
        case delete
        /// A write App Store Connect takes only once App Review has approved the product (`…`): shown, not sent;
        /// the first push after the approval sends it.
        case waiting
    }

    /// One field's old and new value, as text for people and JSON for machines.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var from: String?
        public var to: String?
        /// App Store Connect did not answer the old value (`?` in the plan): never taken for "none" or a default.
        public var fromUnanswered = false
        /// The currency of a territory's price (`INR`), for people reading the plan; not compared.
        public var currency: String?
        public init(_ name: String, from: String?, to: String?, currency: String? = nil) {
            self.name = name
            self.from = from
            self.to = to
            self.currency = currency
        }

        public static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.name == rhs.name && lhs.from == rhs.from && lhs.to == rhs.to && lhs.fromUnanswered == rhs.fromUnanswered
        }

        /// A field whose old value App Store Connect did not answer.
        public static func unanswered(_ name: String, to: String?) -> Field {
            var field = Field(name, from: nil, to: to)
            field.fromUnanswered = true
            return field
        }
    }

    public var action: Action
    /// `inAppPurchase`, `inAppPurchaseLocalization`, `subscriptionPrices`, … (App Store Connect's resource names).
    public var resource: ResourceName
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
    public var operations: [any PlannedOperation]
    /// Whose change it is since the base (nil without one).
    public var origin: ChangeOrigin?
    /// For a conflict, the base's value of each field both sides changed (as `to`).
    public var baseFields: [Field] = []

    public init(
        action: Action, resource: ResourceName, productID: String? = nil, path: String? = nil,
        location: SourceLocation? = nil, detail: String? = nil, fields: [Field] = [], reason: String? = nil,
        operations: [any PlannedOperation] = []
    ) {
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

    /// The name without `${}`, or the id.
    public var name: String {
        switch self {
        case let .id(id): return id
        case let .created(name): return name
        }
    }
}

/// One write (or a short, fixed series of them) that `push` performs and `export asc` lists. Each resource kind
/// declares its own operations next to the code that reads and compares it; the plan only needs what follows.
public protocol PlannedOperation: Sendable {
    /// A short description for progress lines and failure messages.
    var summary: String { get }
    /// The name later operations use for the resource this one creates (`${name}` in `export asc`).
    var createdRef: String? { get }
    /// The requests this operation sends, for the plan's budget line and push's pacing.
    var estimatedRequests: Int { get }
}

extension PlannedOperation {
    public var createdRef: String? { nil }
    public var estimatedRequests: Int { 1 }
}
