import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore
import SyncPlan

/// `iapkit asc submit`: one App Store review submission holding the asset pack versions App Store Connect has
/// processed (and, when asked, the in-app purchases and subscriptions ready to submit), submitted as one. When
/// adding an item fails, the submission is cancelled, so no half-filled submission is left open.
public struct ReviewSubmitter: Sendable {
    public let asc: AppStoreConnectClient

    public init(asc: AppStoreConnectClient) { self.asc = asc }

    /// One thing to review: its relationship name in `reviewSubmissionItems` and its id.
    public struct Item: Sendable, Equatable {
        public enum Kind: String, Sendable { case backgroundAssetVersion, inAppPurchaseVersion, subscriptionVersion }
        public var kind: Kind
        public var id: String
        /// For people: `asset pack level1 version 3`, `in-app purchase com.example.app.level1`.
        public var name: String
    }

    /// What would go into the submission, and what is left out and why.
    public struct Selection: Sendable {
        public var items: [Item] = []
        public var skipped: [String] = []
    }

    /// The catalog's packs whose latest version is COMPLETE and holds the catalog's content; with `products` (the
    /// catalog's product IDs), those of its in-app purchases and subscriptions App Store Connect shows as ready to
    /// submit.
    public static func select(_ snapshot: StoreSnapshot, desired: CatalogRecords, products: Set<String>?) -> Selection {
        var selection = Selection()
        let live = Dictionary(snapshot.assetPacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for pack in desired.assetPacks {
            guard let version = live[pack.id]?.versions.last else {
                selection.skipped.append("asset pack \(pack.id): not in App Store Connect yet (run `iapkit asc push`)")
                continue
            }
            let name = "asset pack \(pack.id) version \(version.number)"
            if version.state != "COMPLETE" {
                selection.skipped.append("\(name): \(version.state), not COMPLETE")
            } else if version.contentDigest != pack.contentDigest {
                selection.skipped.append("\(name): holds other content than the catalog's (run `iapkit asc push`)")
            } else {
                selection.items.append(Item(kind: .backgroundAssetVersion, id: version.resourceID, name: name))
            }
        }
        guard let products else { return selection }
        let ready = "READY_TO_SUBMIT"
        for product in snapshot.inAppPurchases where product.state == ready && products.contains(product.record.productID) {
            guard let version = product.ids.version else { continue }
            selection.items.append(Item(kind: .inAppPurchaseVersion, id: version, name: "in-app purchase \(product.record.productID)"))
        }
        for product in snapshot.groups.flatMap(\.subscriptions) where product.state == ready && products.contains(product.record.productID) {
            guard let version = product.ids.version else { continue }
            selection.items.append(Item(kind: .subscriptionVersion, id: version, name: "subscription \(product.record.productID)"))
        }
        return selection
    }

    /// Creates the submission for `platform` (`IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`), adds every item, submits it,
    /// and returns its id. A failed item cancels the submission before the error is thrown.
    public func submit(app: StoreApp, platform: String, items: [Item]) async throws(SyncError) -> String {
        typealias Schemas = Components.Schemas
        let total = items.count + 2
        func failed(_ operation: String, _ error: ASCError, done: Int) -> SyncError {
            .write(operation: operation, productID: nil, location: nil, error: error, done: done, total: total)
        }
        let body = Schemas.ReviewSubmissionCreateRequest(data: .init(
            _type: .reviewSubmissions, attributes: .init(platform: Schemas.Platform(rawValue: platform)),
            relationships: .init(app: .init(data: .init(_type: .apps, id: app.id)))))
        let submission: String
        do { submission = try await asc.send { try await $0.reviewSubmissionsCreateInstance(body: .json(body)).created.body.json.data.id } } catch {
            throw failed("create a review submission", error, done: 0)
        }
        for (index, item) in items.enumerated() {
            let link = Schemas.ReviewSubmissionItemCreateRequest.DataPayload.RelationshipsPayload.self
            var relationships = link.init(reviewSubmission: .init(data: .init(_type: .reviewSubmissions, id: submission)))
            switch item.kind {
            case .backgroundAssetVersion:
                relationships.backgroundAssetVersion = .init(data: .init(_type: .backgroundAssetVersions, id: item.id))
            case .inAppPurchaseVersion:
                relationships.inAppPurchaseVersion = .init(data: .init(_type: .inAppPurchaseVersions, id: item.id))
            case .subscriptionVersion:
                relationships.subscriptionVersion = .init(data: .init(_type: .subscriptionVersions, id: item.id))
            }
            let request = Schemas.ReviewSubmissionItemCreateRequest(data: .init(_type: .reviewSubmissionItems, relationships: relationships))
            do {
                _ = try await asc.send { try await $0.reviewSubmissionItemsCreateInstance(body: .json(request)).created }
            } catch {
                let cancelled = (try? await update(submission, canceled: true)) != nil
                throw failed("add \(item.name) to review submission \(submission)"
                                 + (cancelled ? " (the submission was cancelled)" : " (cancelling the submission failed too)"),
                             error, done: index + 1)
            }
        }
        do { try await update(submission, canceled: false) } catch {
            throw failed("submit review submission \(submission)", error, done: total - 1)
        }
        return submission
    }

    private func update(_ id: String, canceled: Bool) async throws(ASCError) {
        let body = Components.Schemas.ReviewSubmissionUpdateRequest(data: .init(
            _type: .reviewSubmissions, id: id, attributes: canceled ? .init(canceled: true) : .init(submitted: true)))
        _ = try await asc.send { try await $0.reviewSubmissionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
