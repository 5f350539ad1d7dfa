import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// One kind of App Store Connect resource that belongs to a product (its localizations, its availability, its
/// prices, one kind of offer, its review screenshot, …), the way each lint rule is one unit.
///
/// A kind reads its part of a live product from the product's list entry (App Store Connect sends related
/// resources along with `include=`) and, where that entry cannot say everything, with a request or two of its own;
/// it compares the catalog's record with the live one field by field and adds changes to the plan, refusing what
/// App Store Connect forbids; and it declares the operations that make those changes, which send their requests
/// through the generated client. The engine (`StoreReader`, `Planner`, `PlanExecutor`) runs the kinds listed in
/// `InAppPurchaseKinds` and `SubscriptionKinds`, in order: adding a kind is one file and one line there.
protocol ProductResourceKind<Listing> {
    associatedtype Listing: Sendable
    /// The relationships of the product this kind reads from its list entry: the list request names them in
    /// `include=` (App Store Connect sends a relationship's linkage only when asked), the union of every kind's.
    static var listRelations: [String] { get }
    /// Fills this kind's part of a live product.
    static func read(into product: inout StoreProduct, listing: Listing, reader: StoreReader) async throws(SyncError)
    /// How many requests `read` sends for this list entry (what a plan's estimate adds up).
    static func estimatedReads(_ listing: Listing) -> Int
    /// Adds this kind's changes for one product; `product` names the product (created earlier in the plan when new).
    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder)
}

extension ProductResourceKind {
    static var listRelations: [String] { [] }
}

/// The relationships a list of products names in `include=`: what the kinds declare, each once, in kind order.
func listRelations<Listing>(_ kinds: [any ProductResourceKind<Listing>.Type]) -> [String] {
    var seen: [String] = []
    for name in kinds.flatMap({ $0.listRelations }) where !seen.contains(name) { seen.append(name) }
    return seen
}

/// The kinds of an in-app purchase, in the order their changes run.
enum InAppPurchaseKinds {
    static var all: [any ProductResourceKind<InAppPurchaseListing>.Type] {
        [
            InAppPurchaseKind.self,
            VersionLocalizationsKind<InAppPurchaseLocalizationAPI>.self,
            InAppPurchaseAvailabilityKind.self,
            InAppPurchasePriceScheduleKind.self,
            UploadedImageKind<InAppPurchaseScreenshotAPI>.self,
            UploadedImageKind<InAppPurchaseImageAPI>.self,
            OfferCodeKind<InAppPurchaseOfferCodeAPI>.self,
        ]
    }

    static func estimatedReads(_ listing: InAppPurchaseListing) -> Int { all.reduce(0) { $0 + $1.estimatedReads(listing) } }
}

/// The kinds of an auto-renewable subscription, in the order their changes run.
enum SubscriptionKinds {
    static var all: [any ProductResourceKind<SubscriptionListing>.Type] {
        [
            SubscriptionKind.self,
            VersionLocalizationsKind<SubscriptionLocalizationAPI>.self,
            SubscriptionPlanAvailabilityKind.self,
            SubscriptionPriceKind.self,
            IntroductoryOfferKind.self,
            PromotionalOfferKind.self,
            OfferCodeKind<SubscriptionOfferCodeAPI>.self,
            WinBackOfferKind.self,
            UploadedImageKind<SubscriptionScreenshotAPI>.self,
            UploadedImageKind<SubscriptionImageAPI>.self,
        ]
    }

    static func estimatedReads(_ listing: SubscriptionListing) -> Int { all.reduce(0) { $0 + $1.estimatedReads(listing) } }
}

/// A product as its list returns it, with the resources the list sent along (`included`). Each kind takes its own
/// from them through the product's relationships, which App Store Connect fills only for what `include=` named
/// (the relations the kinds declare).
/// A list entry that knows which relationships it was asked for and not answered.
protocol LinkageAnswering: Sendable {
    var unanswered: Set<String> { get }
}

struct ProductListing<Resource: Sendable, Related: ListedResource>: LinkageAnswering {
    var resource: Resource
    /// The list's `included` resources by id. An id is unique only within its type (an in-app purchase's
    /// availability has the purchase's own id), so a kind picks its type among the resources under an id.
    var related: [String: [Related]] = [:]
    /// Relationships the list's `include=` named that came back with links only: asked for, not answered, so a kind
    /// takes them as unknown (a note, `?` in the plan), never as empty.
    var unanswered: Set<String> = []

    /// The resource a to-one relationship names; nil for an empty relationship (`"data": null`).
    func one<Item>(_ id: String?, _ pick: (Related) -> Item?) -> Item? {
        guard let id, let candidates = related[id] else { return nil }
        return candidates.lazy.compactMap(pick).first
    }

    /// The resources a to-many relationship names, and whether they are all it has: a list sends at most `cap` of
    /// them (`limit[…]`), and without the relationship's data (an older server) it cannot prove there are none.
    func many<Item>(
        _ ids: [String]?, paging: Components.Schemas.PagingInformation?, cap: Int, _ pick: (Related) -> Item?
    ) -> Included<Item> {
        guard let ids else { return Included(items: [], complete: false) }
        return Included(items: ids.compactMap { one($0, pick) }, complete: paging.isComplete(count: ids.count, cap: cap))
    }
}

/// A resource a product list sends along (`included`), whatever its type.
protocol ListedResource: Sendable {
    var id: String { get }
}

/// An in-app purchase as the app's list of them returns it.
typealias InAppPurchaseListing = ProductListing<
    Components.Schemas.InAppPurchaseV2, Components.Schemas.InAppPurchasesV2Response.IncludedPayloadPayload
>

/// A subscription as its group's list of them returns it.
typealias SubscriptionListing = ProductListing<
    Components.Schemas.Subscription, Components.Schemas.SubscriptionsResponse.IncludedPayloadPayload
>

// The resource types the lists can send along are the `include=` the kinds declare (the generated client keeps no
// other); a kind that adds one makes the compiler ask for its line here.
extension Components.Schemas.InAppPurchasesV2Response.IncludedPayloadPayload: ListedResource {
    var id: String {
        switch self {
        case let .inAppPurchaseAppStoreReviewScreenshots(value): value.id
        case let .inAppPurchaseAvailabilities(value): value.id
        case let .inAppPurchaseImages(value): value.id
        case let .inAppPurchaseOfferCodes(value): value.id
        case let .inAppPurchasePriceSchedules(value): value.id
        }
    }
}

extension Components.Schemas.SubscriptionsResponse.IncludedPayloadPayload: ListedResource {
    var id: String {
        switch self {
        case let .subscriptionAppStoreReviewScreenshots(value): value.id
        case let .subscriptionImages(value): value.id
        case let .subscriptionIntroductoryOffers(value): value.id
        case let .subscriptionOfferCodes(value): value.id
        case let .subscriptionPlanAvailabilities(value): value.id
        case let .subscriptionPromotionalOffers(value): value.id
        case let .winBackOffers(value): value.id
        }
    }
}

/// Related resources sent along with a list, and whether the list sent is all there is.
struct Included<Resource: Sendable>: Sendable {
    var items: [Resource] = []
    var complete = true
}

extension Components.Schemas.PagingInformation? {
    /// Whether `count` linkages are the whole relationship. Without paging information a short list is taken as
    /// whole only when it is under the cap.
    func isComplete(count: Int, cap: Int) -> Bool {
        if let total = self?.paging.total { return count >= total }
        return count < cap
    }
}

/// One kind of App Store Connect resource that belongs to the app rather than to a product (its grace period, its
/// promoted purchases, its asset packs). The
/// engine reads each kind after the products and plans it after them; adding one is a file and a line in `AppKinds`.
protocol AppResourceKind {
    /// Fills this kind's part of the snapshot.
    static func read(into snapshot: inout StoreSnapshot, reader: StoreReader) async throws(SyncError)
    /// About how many requests `read` sends.
    static var estimatedReads: Int { get }
    /// Adds this kind's changes.
    static func plan(_ desired: CatalogRecords, store: StoreSnapshot, builder: inout PlanBuilder)
}

/// The app-level kinds, in the order their changes run (after every product's).
enum AppKinds {
    static var all: [any AppResourceKind.Type] { [GracePeriodKind.self, PromotedPurchaseKind.self, BackgroundAssetKind.self] }
}
