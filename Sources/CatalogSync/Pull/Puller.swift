import AppStoreConnect
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCatalog
import IAPCore

/// Turns what App Store Connect holds into a catalog (`iapkit asc pull`), downloading review screenshots beside it.
public struct Puller: Sendable {
    public let reader: StoreReader

    public init(reader: StoreReader) { self.reader = reader }

    public struct Result: Sendable {
        public var catalog: Catalog
        /// What the catalog cannot hold, product by product, each a sentence.
        public var notes: [String]
        /// The same notes by product ID, for comments at each product.
        public var notesByProduct: [String: [String]]
        /// What App Store Connect held, as read: `plan` of the pulled catalog against it shows no change.
        public var snapshot: StoreSnapshot
    }

    /// The catalog a pull writes over: its products' records and the image files it names, so a pull keeps what
    /// it did not get from App Store Connect and names the images the catalog already has.
    public struct Kept: Sendable {
        public var records: CatalogRecords
        /// Review screenshots and promotional images by product ID, as the catalog names them.
        public var screenshotPaths: [String: String]
        public var imagePaths: [String: String]

        private let byID: [String: ProductRecord]

        public init(records: CatalogRecords, screenshotPaths: [String: String], imagePaths: [String: String]) {
            self.records = records
            self.screenshotPaths = screenshotPaths
            self.imagePaths = imagePaths
            byID = Dictionary(records.allProducts.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        }

        public func product(_ id: String) -> ProductRecord? { byID[id] }
    }

    /// - Parameters:
    ///   - catalogDirectory: the folder the catalog goes to; screenshots land in its `review/`, promotional images
    ///     in its `images/`.
    ///   - transaction: stages the images, for the caller to commit with the catalog. Without one they are committed
    ///     when the pull has read everything: a pull that fails leaves no image behind.
    ///   - kept: the catalog pulled over, if any: what App Store Connect did not answer keeps its value, and an
    ///     image whose bytes the catalog already has keeps the catalog's path.
    public func pull(
        app: StoreApp, catalogDirectory: String, staging transaction: FileTransaction? = nil, kept: Kept? = nil
    ) async throws(SyncError) -> Result {
        let files = transaction ?? FileTransaction(journalDirectory: catalogDirectory)
        var snapshot = try await reader.snapshot(app: app)
        var notes: [(productID: String, text: String)] = []
        if let kept { Self.keepUnanswered(&snapshot, kept: kept) }
        Self.withoutUnknownPrices(&snapshot)
        var images = ImageFiles(directory: catalogDirectory, kept: kept)
        let products = snapshot.inAppPurchases + snapshot.groups.flatMap(\.subscriptions)
        for product in products {
            let id = product.record.productID
            notes += product.notes.map { (id, $0.text) }
            if let image = product.record.image {
                if let url = product.ids.imageURL.flatMap(URL.init(string:)), url.scheme != nil {
                    try await images.place(
                        image, of: id, folder: "images", original: image.fileName, kept: kept?.imagePaths[id],
                        keptRecord: kept?.product(id)?.image, what: "a promotional image", into: files
                    ) { () async throws(SyncError) -> Data in try await download(url, what: "a promotional image") }
                } else {
                    notes.append((id, "its promotional image has no image to download yet; the catalog names none"))
                }
            }
            if let screenshot = product.record.screenshot {
                guard let url = product.ids.screenshotURL.flatMap(URL.init(string:)), url.scheme != nil else {
                    notes.append((id, "its review screenshot has no image to download yet; the catalog names none"))
                    continue
                }
                try await images.place(
                    screenshot, of: id, folder: "review", original: screenshot.fileName, kept: kept?.screenshotPaths[id],
                    keptRecord: kept?.product(id)?.screenshot, what: "a review screenshot", into: files
                ) { () async throws(SyncError) -> Data in try await download(url, what: "a review screenshot") }
            }
        }
        let catalog = snapshot.records.catalog(
            bundleID: app.bundleID, allTerritories: snapshot.territories,
            screenshotPaths: images.paths["review"] ?? [:], imagePaths: images.paths["images"] ?? [:])
        if transaction == nil {
            do { try files.commit() } catch { throw .store(context: "saving the images", reason: error.description) }
        }
        let byProduct = Dictionary(grouping: notes, by: \.productID).mapValues { $0.map { "iapkit asc pull: " + $0.text } }
        return Result(
            catalog: catalog, notes: snapshot.appNotes + notes.map { "\($0.productID): \($0.text)" }, notesByProduct: byProduct,
            snapshot: snapshot)
    }

    /// What App Store Connect did not answer keeps the kept catalog's value: a pull never turns it into a default.
    static func keepUnanswered(_ snapshot: inout StoreSnapshot, kept: Kept) {
        func keep(_ product: inout StoreProduct) {
            guard let old = kept.product(product.record.productID) else { return }
            if product.record.isSubscription {
                // The catalog's hand-set prices that read back as equalized stay as the catalog writes them.
                product.record.takeHandSetPrices(from: old)
                if var monthly = product.record.monthlyPlan, old.monthlyPlan != nil {
                    var view = SubscriptionPriceKind.pricing(of: product.record, plan: "MONTHLY")
                    view.takeHandSetPrices(from: SubscriptionPriceKind.pricing(of: old, plan: "MONTHLY"))
                    (monthly.territoryPrices, monthly.priceChanges) = (view.territoryPrices, view.priceChanges)
                    product.record.monthlyPlan = monthly
                }
            }
            if product.unanswered.contains("availability") {
                // Only what the catalog declares: its "everywhere" was computed from the offline territory table.
                product.record.availability = old.availabilityDeclared ? old.availability : nil
                product.record.availabilityDeclared = old.availabilityDeclared
            }
            if product.unanswered.contains("baseTerritory") { product.record.baseTerritory = old.baseTerritory }
            UnreadAttributes.keep(product.unanswered, of: &product.record, from: old)
            if product.unanswered.contains("price") {
                product.record.priceCents = old.priceCents
                product.record.baseTerritory = old.baseTerritory
                product.record.territoryPrices = old.territoryPrices
                product.record.priceChanges = old.priceChanges
                product.record.sales = old.sales
                product.record.pricedTerritories = old.pricedTerritories
            }
            func offers(_ live: inout [OfferRecord], _ wanted: [OfferRecord]) {
                for index in live.indices where live[index].pricesUnanswered {
                    if let same = wanted.first(where: { $0.identifier != nil && $0.identifier == live[index].identifier }) { live[index] = same }
                }
            }
            offers(&product.record.promotionalOffers, old.promotionalOffers)
            offers(&product.record.offerCodes, old.offerCodes)
            offers(&product.record.winBackOffers, old.winBackOffers)
            if product.record.monthlyPlan != nil, let plan = old.monthlyPlan {
                offers(&product.record.monthlyPlan!.promotionalOffers, plan.promotionalOffers)
            }
        }
        for index in snapshot.inAppPurchases.indices { keep(&snapshot.inAppPurchases[index]) }
        for group in snapshot.groups.indices {
            for index in snapshot.groups[group].subscriptions.indices { keep(&snapshot.groups[group].subscriptions[index]) }
        }
    }

    /// An offer whose prices App Store Connect answered without their territory or point cannot be written with the
    /// price it has: it is left out of the catalog (its note says so), and plan shows it as `?`.
    static func withoutUnknownPrices(_ snapshot: inout StoreSnapshot) {
        func strip(_ record: inout ProductRecord) {
            record.promotionalOffers.removeAll(where: \.pricesUnanswered)
            record.offerCodes.removeAll(where: \.pricesUnanswered)
            record.winBackOffers.removeAll(where: \.pricesUnanswered)
            record.monthlyPlan?.promotionalOffers.removeAll(where: \.pricesUnanswered)
        }
        for index in snapshot.inAppPurchases.indices { strip(&snapshot.inAppPurchases[index].record) }
        for group in snapshot.groups.indices {
            for index in snapshot.groups[group].subscriptions.indices { strip(&snapshot.groups[group].subscriptions[index].record) }
        }
    }

    /// `PRODUCT_ID.png`: one file per product, named so it cannot leave `review/` (or `images/`).
    static func fileName(productID: String, original: String) -> String {
        let safe = String(productID.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
        let ext = Path.pathExtension(original).lowercased()
        let name = safe.isEmpty || safe.hasPrefix(".") ? "product" + safe : safe
        return name + "." + (["png", "jpg", "jpeg"].contains(ext) ? ext : "png")
    }

    func download(_ target: URL, what: String) async throws(SyncError) -> Data {
        do { return try await reader.asc.download(target) } catch {
            throw .read(context: "downloading \(what)", error: error)
        }
    }
}

/// Where a pull puts each image: one file per distinct content, named by the first product that has it; the
/// kept catalog's own file where its bytes are the same (left untouched, its time too).
struct ImageFiles {
    let directory: String
    /// Relative paths by folder (`review`, `images`), then product ID.
    var paths: [String: [String: String]] = [:]
    /// Files this pull placed or found, by MD5.
    private var byChecksum: [String: String] = [:]

    init(directory: String, kept: Puller.Kept?) {
        self.directory = directory
        guard let kept else { return }
        for (id, path) in kept.screenshotPaths { if let checksum = kept.product(id)?.screenshot?.checksum { byChecksum[checksum] = path } }
        for (id, path) in kept.imagePaths { if let checksum = kept.product(id)?.image?.checksum { byChecksum[checksum] = path } }
    }

    mutating func place(
        _ record: ScreenshotRecord, of productID: String, folder: String, original: String, kept: String?,
        keptRecord: ScreenshotRecord?, what: String, into files: FileTransaction, bytes: () async throws(SyncError) -> Data
    ) async throws(SyncError) {
        if let kept, keptRecord == record {
            paths[folder, default: [:]][productID] = kept
            return
        }
        if !record.checksum.isEmpty, let same = byChecksum[record.checksum] {
            paths[folder, default: [:]][productID] = same
            return
        }
        let data = try await bytes()
        let checksum = Insecure.MD5.hash(data: data).map { Format.hex($0, width: 2) }.joined()
        if let same = byChecksum[checksum] {
            paths[folder, default: [:]][productID] = same
            return
        }
        let relative = folder + "/" + Puller.fileName(productID: productID, original: original)
        let path = Path.join(directory, relative)
        // A file already there with these bytes stays as it is.
        if FileManager.default.contents(atPath: path) != data {
            do {
                let staged = try files.stage(path)
                try staged.write(data)
                // Closed now: an app's images could otherwise hold more descriptors open than the process may have.
                try staged.finish()
            } catch {
                throw .store(context: "saving \(what)", reason: error.description)
            }
        }
        // Under both the bytes' digest and the one App Store Connect answered (a replayed trace holds placeholders).
        byChecksum[checksum] = relative
        if !record.checksum.isEmpty { byChecksum[record.checksum] = relative }
        paths[folder, default: [:]][productID] = relative
    }
}
