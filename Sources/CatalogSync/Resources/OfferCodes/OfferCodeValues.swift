import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import OpenAPIRuntime

/// `iapkit asc offer-codes download`: the one-time-use code values of the catalog's offer codes, as rows for a CSV
/// file the user names. The values are secrets: they go nowhere else (not the plan, not a trace, not the catalog).
public struct OfferCodeValues: Sendable {
    public let asc: AppStoreConnectClient

    public init(asc: AppStoreConnectClient) { self.asc = asc }

    /// One code of one batch; `product` is the subscription's or in-app purchase's product ID.
    public struct Row: Sendable, Equatable {
        public var product: String
        public var offerCode: String
        /// `production` or `sandbox`; empty when App Store Connect did not answer it.
        public var environment: String
        public var expires: String
        public var active: Bool
        public var code: String
    }

    /// A batch whose codes are to be downloaded.
    public struct Batch: Sendable {
        public var product: String
        public var offerCode: String
        public var batch: BatchID
        /// An in-app purchase's offer code (its codes are `inAppPurchaseOfferCodeOneTimeUseCodes`).
        public var inAppPurchase: Bool
    }

    /// The batches of the catalog's offer codes (those named in `offerCodes`, or all) in `snapshot`: the active
    /// batches of active offer codes, or every batch with `includeInactive` (a deactivated code redeems nothing).
    public static func batches(in snapshot: StoreSnapshot, catalog: Catalog, offerCodes: Set<String>, includeInactive: Bool = false) -> [Batch] {
        let declared = Dictionary(
            (catalog.products + catalog.allSubscriptions).compactMap { product in
                product.productID.map { ($0, Set(product.offerCodes.compactMap(\.referenceName))) }
            }, uniquingKeysWith: { a, _ in a })
        var result: [Batch] = []
        let products = snapshot.inAppPurchases.map { ($0, true) } + snapshot.groups.flatMap(\.subscriptions).map { ($0, false) }
        for (product, inAppPurchase) in products {
            let id = product.record.productID
            guard let names = declared[id] else { continue }
            let inactiveOffers = Set(product.record.offerCodes.filter { $0.codes?.active == false }.compactMap(\.identifier))
            for name in names.sorted() where offerCodes.isEmpty || offerCodes.contains(name) {
                if !includeInactive && inactiveOffers.contains(name) { continue }
                for batch in product.ids.oneTimeCodeBatches[name] ?? [] where includeInactive || batch.batch.active {
                    result.append(Batch(product: id, offerCode: name, batch: batch, inAppPurchase: inAppPurchase))
                }
            }
        }
        return result
    }

    /// Reads each batch's values (one request a batch).
    public func rows(_ batches: [Batch]) async throws(SyncError) -> [Row] {
        var rows: [Row] = []
        for batch in batches {
            let id = batch.batch.id
            let text: String
            do {
                let inAppPurchase = batch.inAppPurchase
                text = try await asc.send { client in
                    let body =
                        inAppPurchase
                        ? try await client.inAppPurchaseOfferCodeOneTimeUseCodesValuesGetToOneRelated(path: .init(id: id)).ok.body.csv
                        : try await client.subscriptionOfferCodeOneTimeUseCodesValuesGetToOneRelated(path: .init(id: id)).ok.body.csv
                    return try await String(collecting: body, upTo: 64 << 20)
                }
            } catch {
                throw .read(context: "downloading the codes of a batch of offer code \(batch.offerCode)", error: error)
            }
            let expires = CalendarDay.format(batch.batch.batch.expires)
            let environment = batch.batch.batch.environment?.rawValue ?? ""
            for code in Self.codes(inCSV: text) {
                rows.append(
                    Row(
                        product: batch.product, offerCode: batch.offerCode, environment: environment, expires: expires,
                        active: batch.batch.batch.active, code: code))
            }
        }
        return rows
    }

    /// The codes of App Store Connect's CSV answer: the first field of each record, a header record left out.
    static func codes(inCSV text: String) -> [String] {
        let records = (try? CSVRecords.parse(text)) ?? []
        return records.compactMap { record in
            guard let field = record.fields.first?.filter({ $0 != " " }), !field.isEmpty,
                field.allSatisfy({ $0.isLetter || $0.isNumber }), field.lowercased() != "code"
            else { return nil }
            return field
        }
    }

    /// The file's text: a header, then a row a code.
    public static func csv(_ rows: [Row]) -> String {
        var text = CSVRecords.record(["product", "offerCode", "environment", "expires", "active", "code"])
        for row in rows {
            text += CSVRecords.record([row.product, row.offerCode, row.environment, row.expires, row.active ? "true" : "false", row.code])
        }
        return text
    }

    /// How many codes of each environment `rows` hold (`production`, `sandbox`, and `unanswered` when App Store
    /// Connect did not say), for the summary line.
    public static func countsByEnvironment(_ rows: [Row]) -> [(environment: String, count: Int)] {
        let counts = Dictionary(grouping: rows, by: { $0.environment.isEmpty ? "unanswered" : $0.environment }).mapValues(\.count)
        return (CodeEnvironment.allCases.map(\.rawValue) + ["unanswered"]).compactMap { name in counts[name].map { (name, $0) } }
    }
}
