import IAPCatalog
import IAPCore

/// What App Store Connect holds for one app: the same records the catalog turns into, plus the ids needed to
/// change them. Read by `StoreReader`; compared with the catalog by `Planner`.
public struct StoreSnapshot: Sendable {
    public var app: StoreApp
    /// Every territory App Store Connect sells in.
    public var territories: [String]
    public var inAppPurchases: [StoreProduct]
    public var groups: [StoreGroup]
    /// App Store Connect's today (`20261123`, from its `Date` header): changes up to it have started.
    public var today: Int
    /// Each territory's customer prices, for the territories the catalog prices itself: `inAppPurchase|IND` and
    /// `subscription|IND` → canonical prices. Absent when no product of that kind exists yet to read them from.
    public var priceGrids: [String: [String]] = [:]
    /// The app's asset packs (background assets) and their versions.
    public var assetPacks: [StoreAssetPack] = []
    /// Where App Store Connect's storefronts and their currencies differ from the table lint uses offline.
    public var storefrontDifferences: [StorefrontDifference] = []
    /// What the app-level kinds read that the catalog cannot hold (a promoted purchase that names no product).
    public var appNotes: [String] = []

    public init(
        app: StoreApp, territories: [String], inAppPurchases: [StoreProduct] = [], groups: [StoreGroup] = [],
        today: Int = CalendarDay.today
    ) {
        self.today = today
        self.app = app
        self.territories = territories
        self.inAppPurchases = inAppPurchases
        self.groups = groups
    }

    /// The app's Billing Grace Period and its id (App Store Connect has one per app).
    public var gracePeriod: (id: String, record: GracePeriodRecord)?
    /// The app's promoted purchases in the App Store's order, with their ids.
    public var promotedPurchases: [(id: String, record: PromotedRecord)] = []

    /// The records alone, as `pull` writes them.
    public var records: CatalogRecords {
        var records = CatalogRecords(
            inAppPurchases: inAppPurchases.map(\.record),
            groups: groups.map { group in
                var record = group.record
                record.subscriptions = group.subscriptions.map(\.record)
                return record
            })
        records.gracePeriod = gracePeriod?.record
        records.promotedPurchases = promotedPurchases.map(\.record)
        return records
    }
}

public struct StoreApp: Sendable, Equatable {
    public var id: String
    public var bundleID: String
    public init(id: String, bundleID: String) {
        self.id = id
        self.bundleID = bundleID
    }
}

/// An in-app purchase or a subscription as App Store Connect has it.
public struct StoreProduct: Sendable {
    public var record: ProductRecord
    public var ids: ProductIDs
    /// App Store Connect's state (`MISSING_METADATA`, `APPROVED`, …), for messages.
    public var state: String?
    /// What the resource kinds found that the catalog holds differently or not at all.
    public var notes: [StoreNote] = []
    /// Fields App Store Connect did not answer although iapkit asked (`baseTerritory`, `availability`): neither
    /// pull nor plan takes a default for them; each comes with a note, and plan shows its old value as `?`.
    public var unanswered: Set<String> = []

    public init(record: ProductRecord, ids: ProductIDs, state: String? = nil) {
        self.record = record
        self.ids = ids
        self.state = state
    }

    /// Records that App Store Connect did not answer `field` of `resource`: a note (pull's comment and warning, plan's
    /// `?`), and no value in the record.
    public mutating func unanswered(_ field: String, of resource: ResourceName, _ text: String) {
        unanswered.insert(field)
        notes.append(StoreNote(resource: resource, managed: false, text: text))
    }
}

/// The App Store Connect ids behind a product's records.
public struct ProductIDs: Sendable, Equatable {
    public var resource: String
    /// The version whose localizations the records show, and whether it can still be edited.
    public var version: String?
    public var versionEditable: Bool
    public var localizations: [String: String]
    /// Subscriptions: the plan availability of the standard (up-front) plan; in-app purchases: the availability.
    public var availability: String?
    public var screenshot: String?
    /// Where the review screenshot can be downloaded (its image asset, rendered at full size).
    public var screenshotURL: String?
    /// The promotional image, and where it can be downloaded.
    public var image: String?
    public var imageURL: String?
    /// Introductory offers by territory.
    public var introductoryOffers: [String: String]
    /// The monthly billing plan's availability and introductory offers by territory.
    public var monthlyAvailability: String?
    public var monthlyIntroductoryOffers: [String: String] = [:]
    public var promotionalOffers: [String: String]
    public var offerCodes: [String: String]
    /// Each offer code's one-time-use batches (by offer code name) and every custom code (by its text), with ids.
    public var oneTimeCodeBatches: [String: [BatchID]] = [:]
    public var customCodes: [String: String] = [:]
    public var winBackOffers: [String: String]
    /// Subscription prices that start after today, by billing plan (`UPFRONT`, `MONTHLY`) and day, so a change the
    /// catalog no longer has can be withdrawn.
    public var scheduledPrices: [String: [Int: [String]]] = [:]

    public init(
        resource: String, version: String? = nil, versionEditable: Bool = false, localizations: [String: String] = [:],
        availability: String? = nil, screenshot: String? = nil, introductoryOffers: [String: String] = [:],
        promotionalOffers: [String: String] = [:], offerCodes: [String: String] = [:],
        winBackOffers: [String: String] = [:]
    ) {
        self.resource = resource
        self.version = version
        self.versionEditable = versionEditable
        self.localizations = localizations
        self.availability = availability
        self.screenshot = screenshot
        self.introductoryOffers = introductoryOffers
        self.promotionalOffers = promotionalOffers
        self.offerCodes = offerCodes
        self.winBackOffers = winBackOffers
    }
}

/// A batch of one-time-use codes and its id (batches have no name to key them by).
public struct BatchID: Sendable, Equatable {
    public var batch: OfferCodesRecord.Batch
    public var id: String
    public init(batch: OfferCodesRecord.Batch, id: String) {
        self.batch = batch
        self.id = id
    }
}

/// A subscription group as App Store Connect has it.
public struct StoreGroup: Sendable {
    public var record: GroupRecord
    public var id: String
    public var version: String?
    public var versionEditable: Bool
    public var localizations: [String: String]
    public var subscriptions: [StoreProduct]

    public init(
        record: GroupRecord, id: String, version: String? = nil, versionEditable: Bool = false,
        localizations: [String: String] = [:], subscriptions: [StoreProduct] = []
    ) {
        self.record = record
        self.id = id
        self.version = version
        self.versionEditable = versionEditable
        self.localizations = localizations
        self.subscriptions = subscriptions
    }
}

/// Something a resource kind read that the catalog says differently or cannot say: `pull` reports each one on
/// standard error and as a comment at the product; `plan` shows the product as not fully managed (`?`) when the
/// catalog cannot hold it.
public struct StoreNote: Sendable, Equatable {
    /// App Store Connect's resource the note is about (`inAppPurchaseAppStoreReviewScreenshot`, `winBackOffer`, …).
    public var resource: ResourceName
    /// True when the catalog still says exactly what App Store Connect holds and the note only explains how; false
    /// when something was left out, so the product is not fully managed.
    public var managed: Bool
    public var text: String
    /// The catalog field App Store Connect answered with a value iapkit does not know, if that is what the note is
    /// about (plan shows it as `?`).
    public var field: String?

    public init(resource: ResourceName, managed: Bool, text: String, field: String? = nil) {
        self.resource = resource
        self.managed = managed
        self.text = text
        self.field = field
    }

    /// `count` resources (`price`, `introductory offer`) answered without the linkage iapkit asked for (`its territory
    /// or price point`): left out of the records, never taken for the USA's or dropped in silence.
    public static func unlinked(_ count: Int, _ what: String, without linkage: String, resource: ResourceName) -> StoreNote {
        StoreNote(
            resource: resource, managed: false,
            text: "App Store Connect answered " + Format.count(count, what)
                + " without \(linkage); the catalog leaves " + (count == 1 ? "it" : "them") + " out")
    }
}
