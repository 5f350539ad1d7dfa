import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// An operation a resource kind declares: what `push` sends for one change, through the generated client.
/// `export asc` runs the same `perform` against a recording transport, so requests are described once.
protocol WriteOperation: PlannedOperation {
    func perform(_ context: WriteContext) async throws(ASCError)
}

/// What operations share while a plan is applied: the client, the ids of resources created so far, the price
/// points looked up, and how many requests went out. `push` uses live ids; `export asc` records requests and
/// names what does not exist yet with `${…}` placeholders.
final class WriteContext: @unchecked Sendable {
    let asc: AppStoreConnectClient
    /// Set when requests are recorded for `export asc` instead of sent.
    let recorder: RequestRecorder?
    private let lock = PThreadLock()
    private var created: [String: String] = [:]
    /// (product id, territory, cents) -> price point id.
    private var points: [String: String] = [:]
    private var localPoints: [String: String] = [:]
    /// Localizations a version had when the push opened or found it, by locale, so a locale a new version copied
    /// from the previous one is updated instead of created twice.
    private var versionLocalizations: [String: [String: String]] = [:]
    private(set) var requests = 0
    /// Told when an operation waits (App Store Connect processing an upload), for the progress line.
    var onWait: (@Sendable (Duration, String) -> Void)?

    init(asc: AppStoreConnectClient, recorder: RequestRecorder? = nil) {
        self.asc = asc
        self.recorder = recorder
    }

    var isRecording: Bool { recorder != nil }

    // MARK: Ids

    func id(_ ref: ResourceRef) -> String {
        switch ref {
        case let .id(id): return id
        case let .created(name): return lock.withLock { created[name] } ?? "${\(name)}"
        }
    }

    func record(created id: String, as name: String) {
        lock.withLock { created[name] = isRecording ? "${\(name)}" : id }
        recorder?.tagLast(ref: name)
    }

    func localizations(ofVersion version: String) -> [String: String] { lock.withLock { versionLocalizations[version] ?? [:] } }
    func setLocalizations(_ byLocale: [String: String], ofVersion version: String) {
        lock.withLock { versionLocalizations[version] = byLocale }
    }

    // MARK: Requests

    /// Sends one generated operation, counting it.
    func send<Value>(_ call: (Client) async throws -> Value) async throws(ASCError) -> Value {
        lock.withLock { requests += 1 }
        return try await asc.send(call)
    }

    /// Every page of a list, each counted.
    func allPages<Page: Sendable>(
        _ first: @escaping @Sendable (Client) async throws -> Page,
        next: @escaping @Sendable (Page) -> String?
    ) async throws(ASCError) -> [Page] {
        let pages = try await asc.allPages(first, next: next)
        lock.withLock { requests += pages.count }
        return pages
    }

    /// Sends the parts of an upload App Store Connect reserved (`uploadOperations`), or, when recording, one entry
    /// naming the file.
    func upload(file path: String, data: Data, operations: [Components.Schemas.UploadOperation], ref: String) async throws(ASCError) {
        try await upload(file: path, size: data.count, operations: operations, ref: ref) { offset, length in
            data.subdata(in: offset..<(offset + length))
        }
    }

    /// The same for a file read part by part (`part(offset, length)`), so a large archive is never held whole.
    func upload(
        file path: String, size: Int, operations: [Components.Schemas.UploadOperation], ref: String,
        part: (Int, Int) throws(ASCError) -> Data
    ) async throws(ASCError) {
        if let recorder {
            recorder.note(method: "PUT", path: "${\(ref).uploadOperations}", file: path)
            return
        }
        for upload in operations {
            guard let text = upload.url, let url = URL(string: text) else { continue }
            let offset = upload.offset ?? 0
            let length = upload.length ?? (size - offset)
            guard offset >= 0, length >= 0, offset + length <= size else {
                throw .unexpectedResponse(operation: "upload of \(path)", status: nil, reason: "an upload part lies outside the file")
            }
            lock.withLock { requests += 1 }
            try await asc.upload(
                try part(offset, length), to: url, method: upload.method ?? "PUT",
                headers: (upload.requestHeaders ?? []).compactMap { header in
                    header.name.flatMap { name in header.value.map { (name: name, value: $0) } }
                })
        }
    }

    // MARK: Price points

    /// The price point of `product` for `cents` in `territory`: the USA point, or its equalization elsewhere.
    /// Call `lookUpPricePoints` first; when recording, a placeholder names it.
    func pricePoint(product: ResourceRef, cents: Int, territory: String) -> String {
        let productID = id(product)
        return lock.withLock { points[Self.key(productID, territory, cents)] }
            ?? "${pricePoint:\(product.name):\(territory):\(Price.format(cents: cents))}"
    }

    static func key(_ product: String, _ territory: String, _ cents: Int) -> String { "\(product)|\(territory)|\(cents)" }

    /// Finds the product's USA price point for `cents` (one request) and, for other territories, its equalizations
    /// (one more). Points already known are not asked for again.
    func lookUpPricePoints(product: ResourceRef, subscription: Bool, cents: Int, territories: [String]) async throws(ASCError) {
        guard !isRecording else { return }
        let productID = id(product)
        let base = Vocabulary.baseTerritory
        if lock.withLock({ points[Self.key(productID, base, cents)] }) == nil {
            let candidates: [(String, String?)]
            if subscription {
                candidates = try await allPages(
                    {
                        try await $0.subscriptionsPricePointsGetToManyRelated(
                            path: .init(id: productID),
                            query: .init(filterTerritory: [base], limit: 8000)
                        ).ok.body.json
                    }, next: { $0.links.next }
                ).flatMap(\.data).map { ($0.id, $0.attributes?.customerPrice) }
            } else {
                candidates = try await allPages(
                    {
                        try await $0.inAppPurchasesV2PricePointsGetToManyRelated(
                            path: .init(id: productID),
                            query: .init(filterTerritory: [base], limit: 8000)
                        ).ok.body.json
                    }, next: { $0.links.next }
                ).flatMap(\.data).map { ($0.id, $0.attributes?.customerPrice) }
            }
            guard let match = candidates.first(where: { $0.1.flatMap { Price(text: $0)?.cents } == cents }) else {
                throw .unexpectedResponse(
                    operation: "price points of \(productID)", status: nil,
                    reason: "App Store Connect has no USA price point of \(Price.format(cents: cents)) USD")
            }
            lock.withLock { points[Self.key(productID, base, cents)] = match.0 }
        }
        let missing = lock.withLock { territories.filter { $0 != base && points[Self.key(productID, $0, cents)] == nil } }
        guard !missing.isEmpty, let usa = lock.withLock({ points[Self.key(productID, base, cents)] }) else { return }
        let equalizations: [(id: String, territory: String?)]
        if subscription {
            equalizations = try await allPages(
                {
                    try await $0.subscriptionPricePointsEqualizationsGetToManyRelated(
                        path: .init(id: usa), query: .init(limit: 8000, include: [.territory])
                    ).ok.body.json
                }, next: { $0.links.next }
            ).flatMap(\.data).map { ($0.id, $0.relationships?.territory?.data?.id) }
        } else {
            equalizations = try await allPages(
                {
                    try await $0.inAppPurchasePricePointsEqualizationsGetToManyRelated(
                        path: .init(id: usa), query: .init(limit: 8000, include: [.territory])
                    ).ok.body.json
                }, next: { $0.links.next }
            ).flatMap(\.data).map { ($0.id, $0.relationships?.territory?.data?.id) }
        }
        lock.withLock {
            for point in equalizations {
                guard let territory = point.territory else { continue }
                points[Self.key(productID, territory, cents)] = point.id
            }
        }
    }

    // MARK: Territories' own prices

    /// The price points `territories` offer, read through `product` (every product of a kind has the same grid):
    /// territory -> canonical customer price -> price point id.
    func priceGrids(of product: ResourceRef, subscription: Bool, territories: [String]) async throws(ASCError) -> [String: [String: String]] {
        let productID = id(product)
        let candidates: [(id: String, territory: String?, price: String?)]
        if subscription {
            candidates = try await allPages(
                {
                    try await $0.subscriptionsPricePointsGetToManyRelated(
                        path: .init(id: productID),
                        query: .init(filterTerritory: territories, limit: 8000, include: [.territory])
                    ).ok.body.json
                }, next: { $0.links.next }
            ).flatMap(\.data).map { ($0.id, $0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }
        } else {
            candidates = try await allPages(
                {
                    try await $0.inAppPurchasesV2PricePointsGetToManyRelated(
                        path: .init(id: productID),
                        query: .init(filterTerritory: territories, limit: 8000, include: [.territory])
                    ).ok.body.json
                }, next: { $0.links.next }
            ).flatMap(\.data).map { ($0.id, $0.relationships?.territory?.data?.id, $0.attributes?.customerPrice) }
        }
        var grids: [String: [String: String]] = [:]
        for candidate in candidates {
            guard let territory = candidate.territory, let price = candidate.price.flatMap(LocalPrice.canonical) else { continue }
            if grids[territory]?[price] == nil { grids[territory, default: [:]][price] = candidate.id }
        }
        return grids
    }

    func localPricePoint(product: ResourceRef, territory: String, price: String) -> String {
        let productID = id(product)
        return lock.withLock { localPoints["\(productID)|\(territory)|\(price)"] }
            ?? "${pricePoint:\(product.name):\(territory):\(price)}"
    }

    /// The requests a read of the price points of `territories` territories sends: one, or a page of 8,000 points for
    /// each ten (a territory has its 800 points and free), the most a page of price points holds.
    static func gridReads(territories: Int) -> Int { territories == 0 ? 0 : max(1, (territories * 801 + 7_999) / 8_000) }

    /// The price points of hand-set territory prices: one request for every territory at once. A price the
    /// territory does not offer stops here, naming the nearest ones.
    func lookUpLocalPricePoints(product: ResourceRef, subscription: Bool, prices: [LocalPricePair]) async throws(ASCError) {
        guard !isRecording, !prices.isEmpty else { return }
        let productID = id(product)
        let grids = try await priceGrids(
            of: product, subscription: subscription,
            territories: Array(Swift.Set(prices.map(\.territory))).sorted())
        for pair in prices {
            guard let point = grids[pair.territory]?[pair.price] else {
                // Plan and the grid check refused what they could; this names no free point, whatever the product.
                let reason =
                    LocalPrice.refusal(pair.price, territory: pair.territory, grid: Array((grids[pair.territory] ?? [:]).keys), free: false)
                    ?? "\(pair.territory) has no price point of \(pair.price)"
                throw .unexpectedResponse(operation: "price points of \(productID)", status: nil, reason: reason)
            }
            lock.withLock { localPoints["\(productID)|\(pair.territory)|\(pair.price)"] = point }
        }
    }
}
