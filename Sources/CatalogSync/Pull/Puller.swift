import AppStoreConnect
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

    /// - Parameters:
    ///   - catalogDirectory: the folder the catalog goes to; screenshots land in its `review/`, promotional images
    ///     in its `images/`.
    ///   - transaction: stages the images, for the caller to commit with the catalog. Without one they are committed
    ///     when the pull has read everything: a pull that fails leaves no image behind.
    public func pull(app: StoreApp, catalogDirectory: String, staging transaction: FileTransaction? = nil) async throws(SyncError) -> Result {
        let files = transaction ?? FileTransaction(journalDirectory: catalogDirectory)
        var snapshot = try await reader.snapshot(app: app)
        var notes: [(productID: String, text: String)] = []
        Self.withoutUnknownPrices(&snapshot)
        var screenshotPaths: [String: String] = [:]
        var imagePaths: [String: String] = [:]
        let products = snapshot.inAppPurchases + snapshot.groups.flatMap(\.subscriptions)
        for product in products {
            let id = product.record.productID
            notes += product.notes.map { (id, $0.text) }
            if let image = product.record.image {
                if let url = product.ids.imageURL.flatMap(URL.init(string:)), url.scheme != nil {
                    let relative = "images/" + Self.fileName(productID: id, original: image.fileName)
                    try await download(url, to: Path.join(catalogDirectory, relative), what: "a promotional image", into: files)
                    imagePaths[id] = relative
                } else {
                    notes.append((id, "its promotional image has no image to download yet; the catalog names none"))
                }
            }
            if product.record.screenshot != nil {
                guard let url = product.ids.screenshotURL.flatMap(URL.init(string:)), url.scheme != nil else {
                    notes.append((id, "its review screenshot has no image to download yet; the catalog names none"))
                    continue
                }
                let relative = "review/" + Self.fileName(productID: id, original: product.record.screenshot?.fileName ?? "")
                try await download(url, to: Path.join(catalogDirectory, relative), what: "a review screenshot", into: files)
                screenshotPaths[id] = relative
            }
        }
        let catalog = snapshot.records.catalog(
            bundleID: app.bundleID, allTerritories: snapshot.territories,
            screenshotPaths: screenshotPaths, imagePaths: imagePaths)
        if transaction == nil {
            do { try files.commit() } catch { throw .store(context: "saving the images", reason: error.description) }
        }
        let byProduct = Dictionary(grouping: notes, by: \.productID).mapValues { $0.map { "iapkit asc pull: " + $0.text } }
        return Result(
            catalog: catalog, notes: snapshot.appNotes + notes.map { "\($0.productID): \($0.text)" }, notesByProduct: byProduct,
            snapshot: snapshot)
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

    func download(_ target: URL, to path: String, what: String, into files: FileTransaction) async throws(SyncError) {
        let data: Data
        do { data = try await reader.asc.download(target) } catch {
            throw .read(context: "downloading \(what)", error: error)
        }
        do {
            let staged = try files.stage(path)
            try staged.write(data)
            // Closed now: an app's images could otherwise hold more descriptors open than the process may have.
            try staged.finish()
        } catch {
            throw .store(context: "saving \(what)", reason: error.description)
        }
    }
}
