import AppStoreConnect
import AppStoreConnectAPI
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

/// Applies a plan to App Store Connect, one write at a time, in the plan's order.
///
/// Every run starts from a fresh plan against what App Store Connect holds, so a push that failed or was killed
/// midway is finished by running it again: what was created is found and not created twice.
public final class PlanExecutor: @unchecked Sendable {
    public let asc: AppStoreConnectClient
    /// Called before each operation: its position, the total, the change it belongs to and the operation.
    public typealias Progress = @Sendable (_ index: Int, _ total: Int, _ change: Change, _ operation: Operation) -> Void

    /// What a push did.
    public struct Outcome: Sendable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        public var operations = 0
        public var requests = 0
    }

    let resolver = LiveResolver()
    /// Localizations each version had when the push opened or found it, by locale.
    var versionLocalizations: [String: [String: String]] = [:]

    public init(asc: AppStoreConnectClient) { self.asc = asc }

    public func apply(_ plan: Plan, progress: Progress? = nil) async throws(SyncError) -> Outcome {
        var outcome = Outcome()
        outcome.unchanged = plan.count(.unchanged)
        let work = plan.changes.flatMap { change in change.operations.map { (change, $0) } }
        for (index, (change, operation)) in work.enumerated() {
            progress?(index, work.count, change, operation)
            do {
                outcome.requests += try await perform(operation)
            } catch {
                throw .write(operation: operation.summary, productID: change.productID, location: change.location, error: error,
                             done: index, total: work.count)
            }
            outcome.operations += 1
            if operation == change.operations.last {
                if change.action == .create { outcome.created += 1 } else if change.action == .update { outcome.updated += 1 }
            }
        }
        return outcome
    }

    /// Sends an operation's requests; returns how many were sent.
    func perform(_ operation: Operation) async throws(ASCError) -> Int {
        switch operation {
        case let .ensureInAppPurchaseVersion(ref, product):
            return try await ensureVersion(ref: ref, operation: operation) { id async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.inAppPurchasesV2VersionsGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }
            } localizations: { version async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.inAppPurchaseVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).compactMap { item in item.attributes?.locale.map { ($0, item.id) } }
            } product: { self.resolver.id(product) }
        case let .ensureSubscriptionVersion(ref, subscription):
            return try await ensureVersion(ref: ref, operation: operation) { id async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.subscriptionsVersionsGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }
            } localizations: { version async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.subscriptionVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).compactMap { item in item.attributes?.locale.map { ($0, item.id) } }
            } product: { self.resolver.id(subscription) }
        case let .ensureGroupVersion(ref, group):
            return try await ensureVersion(ref: ref, operation: operation) { id async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.subscriptionGroupsVersionsGetToManyRelated(path: .init(id: id), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).map { ($0.id, $0.attributes?.version, $0.attributes?.state?.rawValue) }
            } localizations: { version async throws(ASCError) in
                try await self.asc.allPages({
                    try await $0.subscriptionGroupVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).compactMap { item in item.attributes?.locale.map { ($0, item.id) } }
            } product: { self.resolver.id(group) }

        // A new version starts from the previous texts: a locale it already has is updated, not created twice.
        case let .createInAppPurchaseLocalization(version, localization):
            if let id = versionLocalizations[resolver.id(version)]?[localization.locale] {
                return try await perform(.updateInAppPurchaseLocalization(id: id, localization: localization))
            }
        case let .createSubscriptionLocalization(version, localization):
            if let id = versionLocalizations[resolver.id(version)]?[localization.locale] {
                return try await perform(.updateSubscriptionLocalization(id: id, localization: localization))
            }
        case let .createGroupLocalization(version, localization):
            if let id = versionLocalizations[resolver.id(version)]?[localization.locale] {
                return try await perform(.updateGroupLocalization(id: id, localization: localization))
            }

        case let .setInAppPurchasePrice(product, cents):
            try await resolver.lookUpPricePoints(asc, product: product, subscription: false, cents: cents, territories: [])
        case let .setSubscriptionPrices(subscription, cents, territories, _):
            try await resolver.lookUpPricePoints(asc, product: subscription, subscription: true, cents: cents, territories: territories)
        case let .createIntroductoryOffers(subscription, offer, territories),
             let .createPromotionalOffer(subscription, offer, territories),
             let .createOfferCode(subscription, offer, territories),
             let .createWinBackOffer(subscription, offer, territories):
            if let cents = offer.priceCents {
                try await resolver.lookUpPricePoints(asc, product: subscription, subscription: true, cents: cents, territories: territories)
            }
        case let .uploadInAppPurchaseScreenshot(_, screenshot, _):
            return try await uploadScreenshot(operation, screenshot: screenshot, subscription: false)
        case let .uploadSubscriptionScreenshot(_, screenshot, _):
            return try await uploadScreenshot(operation, screenshot: screenshot, subscription: true)
        default:
            break
        }
        let requests = RequestBuilder.requests(for: operation, resolver: resolver)
        for request in requests {
            let created = try await request.send(asc)
            if let ref = operation.createdRef, let created { resolver.created[ref] = created }
        }
        return requests.count
    }

    /// Uses the version still being edited, or opens one when every version has gone to review.
    func ensureVersion(ref: String, operation: Operation,
                       versions: (String) async throws(ASCError) -> [(String, Int?, String?)],
                       localizations: (String) async throws(ASCError) -> [(String, String)],
                       product: () -> String) async throws(ASCError) -> Int {
        var sent = 1
        let existing = try await versions(product())
        let version: String
        if let current = StoreReader.currentVersion(existing.map { (id: $0.0, number: $0.1, state: $0.2) }), current.editable {
            version = current.id
        } else {
            guard let created = try await RequestBuilder.requests(for: operation, resolver: resolver).first?.send(asc) else {
                throw .unexpectedResponse(operation: operation.summary, status: nil, reason: "no id in the answer")
            }
            version = created
            sent += 1
        }
        resolver.created[ref] = version
        versionLocalizations[version] = Dictionary(try await localizations(version), uniquingKeysWith: { a, _ in a })
        return sent + 1
    }

    /// Reserve, upload each part, commit with the MD5 App Store Connect checks the bytes against.
    func uploadScreenshot(_ operation: Operation, screenshot: ScreenshotRecord, subscription: Bool) async throws(ASCError) -> Int {
        guard let path = screenshot.path, let data = FileManager.default.contents(atPath: path) else {
            throw .unexpectedResponse(operation: operation.summary, status: nil, reason: "the screenshot file cannot be read")
        }
        var sent = 0
        let requests = RequestBuilder.requests(for: operation, resolver: resolver)
        for request in requests.dropLast() {
            _ = try await request.send(asc)
            sent += 1
        }
        guard let reservation = requests.last else { return sent }
        let (id, uploads): (String, [Components.Schemas.UploadOperation])
        switch reservation {
        case let .createInAppPurchaseScreenshot(body):
            (id, uploads) = try await asc.send {
                let data = try await $0.inAppPurchaseAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
                return (data.id, data.attributes?.uploadOperations ?? [])
            }
        case let .createSubscriptionScreenshot(body):
            (id, uploads) = try await asc.send {
                let data = try await $0.subscriptionAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
                return (data.id, data.attributes?.uploadOperations ?? [])
            }
        default:
            return sent
        }
        sent += 1
        for upload in uploads {
            guard let text = upload.url, let url = URL(string: text) else { continue }
            let offset = upload.offset ?? 0
            let length = upload.length ?? (data.count - offset)
            guard offset >= 0, length >= 0, offset + length <= data.count else {
                throw .unexpectedResponse(operation: operation.summary, status: nil, reason: "an upload part lies outside the file")
            }
            try await asc.upload(data.subdata(in: offset..<(offset + length)), to: url, method: upload.method ?? "PUT",
                                 headers: (upload.requestHeaders ?? []).compactMap { header in
                                     header.name.flatMap { name in header.value.map { (name: name, value: $0) } }
                                 })
            sent += 1
        }
        _ = try await RequestBuilder.screenshotCommit(id: id, subscription: subscription, checksum: screenshot.checksum).send(asc)
        return sent + 1
    }
}

extension Operation: Equatable {
    public static func == (lhs: Operation, rhs: Operation) -> Bool { lhs.summary == rhs.summary && lhs.createdRef == rhs.createdRef }

    /// The name later operations use for the resource this one creates.
    var createdRef: String? {
        switch self {
        case let .createInAppPurchase(ref, _, _), let .ensureInAppPurchaseVersion(ref, _), let .createGroup(ref, _, _),
             let .ensureGroupVersion(ref, _), let .createSubscription(ref, _, _), let .ensureSubscriptionVersion(ref, _):
            return ref
        default:
            return nil
        }
    }
}

/// Real ids: resources created during the push, and price points looked up from App Store Connect.
final class LiveResolver: IDResolver, @unchecked Sendable {
    var created: [String: String] = [:]
    /// (product id, territory, cents) -> price point id.
    var pricePoints: [String: String] = [:]

    func id(_ ref: ResourceRef) -> String {
        switch ref {
        case let .id(id): return id
        case let .created(name): return created[name] ?? "${\(name)}"
        }
    }

    func pricePoint(product: ResourceRef, subscription: Bool, cents: Int, territory: String) -> String {
        pricePoints[Self.key(id(product), territory, cents)] ?? "${pricePoint:\(product):\(territory):\(Price.format(cents: cents))}"
    }

    static func key(_ product: String, _ territory: String, _ cents: Int) -> String { "\(product)|\(territory)|\(cents)" }

    /// Finds the product's USA price point for `cents` and, for the other territories listed, its equalizations.
    func lookUpPricePoints(_ asc: AppStoreConnectClient, product: ResourceRef, subscription: Bool, cents: Int,
                           territories: [String]) async throws(ASCError) {
        let productID = id(product)
        let base = Vocabulary.baseTerritory
        if pricePoints[Self.key(productID, base, cents)] == nil {
            let points: [(String, String?)]
            if subscription {
                points = try await asc.allPages({
                    try await $0.subscriptionsPricePointsGetToManyRelated(path: .init(id: productID),
                                                                          query: .init(filterTerritory: [base], limit: 8000)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).map { ($0.id, $0.attributes?.customerPrice) }
            } else {
                points = try await asc.allPages({
                    try await $0.inAppPurchasesV2PricePointsGetToManyRelated(path: .init(id: productID),
                                                                              query: .init(filterTerritory: [base], limit: 8000)).ok.body.json
                }, next: { $0.links.next }).flatMap(\.data).map { ($0.id, $0.attributes?.customerPrice) }
            }
            guard let match = points.first(where: { $0.1.flatMap { Price(text: $0)?.cents } == cents }) else {
                throw .unexpectedResponse(operation: "price points of \(productID)", status: nil,
                                          reason: "App Store Connect has no USA price point of \(Price.format(cents: cents)) USD")
            }
            pricePoints[Self.key(productID, base, cents)] = match.0
        }
        let missing = territories.filter { $0 != base && pricePoints[Self.key(productID, $0, cents)] == nil }
        guard subscription, !missing.isEmpty, let usa = pricePoints[Self.key(productID, base, cents)] else { return }
        let equalizations = try await asc.allPages({
            try await $0.subscriptionPricePointsEqualizationsGetToManyRelated(path: .init(id: usa), query: .init(limit: 8000, include: [.territory])).ok.body.json
        }, next: { $0.links.next }).flatMap(\.data)
        for point in equalizations {
            guard let territory = point.relationships?.territory?.data?.id else { continue }
            pricePoints[Self.key(productID, territory, cents)] = point.id
        }
    }
}
