import IAPCatalog
import IAPCore

/// An offer code's state beyond its terms: whether it is active, its one-time-use batches and its custom codes.
public struct OfferCodesRecord: Sendable, Equatable {
    public struct Batch: Sendable, Equatable, Comparable {
        public var count: Int
        /// `20270331`.
        public var expires: Int
        public var active: Bool
        /// Nil: App Store Connect did not answer it (never taken for production).
        public var environment: CodeEnvironment?
        public init(count: Int, expires: Int, active: Bool = true, environment: CodeEnvironment? = .production) {
            self.count = count
            self.expires = expires
            self.active = active
            self.environment = environment
        }
        public static func < (a: Batch, b: Batch) -> Bool {
            (a.expires, a.count, a.active ? 1 : 0, a.environment?.rawValue ?? "") < (
                b.expires, b.count, b.active ? 1 : 0, b.environment?.rawValue ?? ""
            )
        }
        /// The same codes, whether or not active: count, expiration and environment (an unanswered one matches any).
        public func isSameBatch(as other: Batch) -> Bool {
            count == other.count && expires == other.expires
                && (environment == nil || other.environment == nil || environment == other.environment)
        }
        public var text: String {
            "\(count) \(environment == .sandbox ? "sandbox " : "")codes until \(CalendarDay.format(expires))\(active ? "" : ", inactive")"
        }
    }

    public struct Custom: Sendable, Equatable {
        public var code: String
        public var count: Int
        public var expires: Int?
        public var active: Bool
        public init(code: String, count: Int, expires: Int? = nil, active: Bool = true) {
            self.code = code
            self.count = count
            self.expires = expires
            self.active = active
        }
        public var text: String { "\(count) redemptions\(expires.map { " until \(CalendarDay.format($0))" } ?? "")\(active ? "" : ", inactive")" }
    }

    public var active: Bool
    /// Sorted, so two records with the same batches are equal whatever order they were listed in. Nil: not managed
    /// (the catalog does not list them).
    public var batches: [Batch]?
    /// Sorted by code; nil: not managed.
    public var custom: [Custom]?

    /// An inactive offer code's batches and custom codes are inactive too: App Store Connect turns them off with it.
    public init(active: Bool = true, batches: [Batch]? = nil, custom: [Custom]? = nil) {
        self.active = active
        self.batches = batches?.map { batch in
            var batch = batch
            batch.active = batch.active && active
            return batch
        }.sorted()
        self.custom = custom?.map { code in
            var code = code
            code.active = code.active && active
            return code
        }.sorted { $0.code < $1.code }
    }

    /// The live record as far as the catalog's `wanted` manages it: lists the catalog leaves out are not compared.
    public func managed(like wanted: OfferCodesRecord?) -> OfferCodesRecord {
        var record = self
        if wanted?.batches == nil { record.batches = nil }
        if wanted?.custom == nil { record.custom = nil }
        return record
    }
}

extension OfferCodesRecord {
    /// The catalog's offer code: active unless it says not, its batches and custom codes (absent flags: active).
    public init(_ offer: Offer) {
        self.init(
            active: offer.active ?? true,
            batches: offer.oneTimeCodes?.compactMap { batch in
                guard let count = batch.count, let expires = batch.expires.flatMap(CalendarDay.parse) else { return nil }
                return Batch(count: count, expires: expires, active: batch.active ?? true, environment: batch.environment ?? .production)
            },
            custom: offer.customCodes?.compactMap { code in
                guard let text = code.code, let count = code.count else { return nil }
                return Custom(code: text, count: count, expires: code.expires.flatMap(CalendarDay.parse), active: code.active ?? true)
            })
    }

    /// Writes the record into a pulled offer code: only what is not the default.
    public func apply(to offer: inout Offer) {
        offer.active = active ? nil : false
        // Lists App Store Connect has none of are left out, so a pulled catalog manages only what exists.
        offer.oneTimeCodes = batches.flatMap { $0.isEmpty ? nil : $0 }?.map { batch in
            // Production is the catalog's default; an environment App Store Connect did not answer is left out, with its note.
            OneTimeCodeBatch(
                path: .root, count: batch.count, expires: CalendarDay.format(batch.expires), active: batch.active ? nil : false,
                environment: batch.environment == .sandbox ? .sandbox : nil)
        }
        offer.customCodes = custom.flatMap { $0.isEmpty ? nil : $0 }?.map { code in
            CustomOfferCode(
                path: .root, code: code.code, count: code.count, expires: code.expires.map(CalendarDay.format),
                active: code.active ? nil : false)
        }
    }
}

extension CatalogRecords {
    /// An in-app purchase's offer code: its price (0 is free) and customers, every customer when it names none.
    static func inAppPurchaseOfferCode(_ offer: Offer) -> OfferRecord? {
        guard let name = offer.referenceName else { return nil }
        var record = OfferRecord(
            kind: .inAppPurchaseOfferCode, identifier: name, referenceName: name, mode: "", duration: "", periods: 0,
            priceCents: offer.price?.cents,
            eligibilities: (offer.eligibility ?? OfferEligibility.inAppPurchaseCustomers).map(\.apiValue))
        record.territoryPrices = ProductRecord.territoryPrices(offer.territoryPrices)
        record.territories = offer.territories.map { Array(Set($0)).sorted() }
        record.codes = OfferCodesRecord(offer)
        return record
    }
}
