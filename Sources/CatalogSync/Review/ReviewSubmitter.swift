import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// `iapkit asc submit`: one App Store review submission holding the asset pack versions App Store Connect has
/// processed (and, when asked, the in-app purchases and subscriptions ready to submit), submitted as one. When
/// adding an item fails, the submission is cancelled, so no half-filled submission is left open.
public struct ReviewSubmitter: Sendable {
    public let asc: AppStoreConnectClient

    public init(asc: AppStoreConnectClient) { self.asc = asc }

    /// One thing to review: its relationship name in `reviewSubmissionItems` and its id.
    public struct Item: Sendable, Equatable {
        public enum Kind: String, Sendable { case backgroundAssetVersion, inAppPurchaseVersion, subscriptionVersion, appStoreVersion }
        public var kind: Kind
        public var id: String
        /// For people: `asset pack level1 version 3`, `in-app purchase com.example.app.level1`.
        public var name: String
        public init(kind: Kind, id: String, name: String) {
            self.kind = kind
            self.id = id
            self.name = name
        }
    }

    /// Something of the catalog that is not in this submission, and why.
    public struct Skipped: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// In review, approved, or meant for TestFlight only: nothing to do.
            case settled
            /// Needs a change first (in the catalog, a push, or App Store Connect).
            case blocked
        }
        public var reason: Reason
        /// `in-app purchase com.example.gems (MISSING_METADATA): no review screenshot …`.
        public var text: String
        /// The catalog line of what is blocked.
        public var location: SourceLocation?
    }

    /// What would go into the submission, and what is left out and why.
    public struct Selection: Sendable {
        public var items: [Item] = []
        public var skipped: [Skipped] = []
        /// Product versions are in the submission while no product of the app was ever approved: App Store Connect
        /// reviews an app's first in-app purchase or subscription with a new app version.
        public var needsAppVersion = false
        /// For each pack in the submission, the products that unlock it (`unlockedBy`) which are neither in it nor in
        /// review nor approved: App Store Connect links no pack to a product, so it would send the pack to review
        /// while no one can buy what unlocks it. One sentence each.
        public var unsubmittedUnlocks: [String] = []

        /// Nothing to submit, and nothing that needs a change: everything is in review or done.
        public var isSettled: Bool { items.isEmpty && skipped.allSatisfy { $0.reason == .settled } }
    }

    /// Product states of App Store Connect's review, by what `submit` makes of them.
    static let inReviewStates: Set<String> = ["WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL"]
    static let approvedStates: Set<String> = ["APPROVED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE"]
    /// An asset pack version's App Store release that is already on its way (or done).
    static let releasedStates: Set<String> = [
        "WAITING_FOR_REVIEW", "IN_REVIEW", "ACCEPTED", "PROCESSING_FOR_DISTRIBUTION",
        "READY_FOR_DISTRIBUTION",
    ]

    /// The catalog's packs whose latest version is COMPLETE, holds the catalog's content and is not on its way to
    /// the App Store yet (packs declared `release: testflight` stay out); with `products` (the catalog's product
    /// IDs), those of its in-app purchases and subscriptions App Store Connect shows as ready to submit, and for every
    /// other one what holds it back, found from App Store Connect and from the catalog (with its line).
    public static func select(
        _ snapshot: StoreSnapshot, desired: CatalogRecords, catalog: Catalog? = nil,
        products: Set<String>?
    ) -> Selection {
        var selection = selectItems(snapshot, desired: desired, catalog: catalog, products: products)
        selection.unsubmittedUnlocks = unsubmittedUnlocks(of: selection, snapshot: snapshot, catalog: catalog)
        return selection
    }

    /// The sentences of `Selection.unsubmittedUnlocks`.
    static func unsubmittedUnlocks(of selection: Selection, snapshot: StoreSnapshot, catalog: Catalog?) -> [String] {
        guard let catalog else { return [] }
        let liveProducts = snapshot.inAppPurchases + snapshot.groups.flatMap(\.subscriptions)
        let liveByID = Dictionary(liveProducts.map { ($0.record.productID, $0) }, uniquingKeysWith: { a, _ in a })
        var sentences: [String] = []
        for pack in catalog.assetPacks {
            guard let id = pack.id,
                let item = selection.items.first(where: { $0.kind == .backgroundAssetVersion && $0.name.hasPrefix("asset pack \(id) version ") })
            else { continue }
            for unlock in pack.unlockedBy {
                let product = unlock.value
                let submitted = selection.items.contains {
                    ($0.kind == .inAppPurchaseVersion || $0.kind == .subscriptionVersion) && $0.name.hasSuffix(" \(product)")
                }
                let state = liveByID[product]?.state
                if submitted || inReviewStates.contains(state ?? "") || approvedStates.contains(state ?? "") { continue }
                let standing =
                    state.map { "not submitted (\($0))" } ?? "not in App Store Connect yet (run `iapkit asc push`)"
                sentences.append(
                    "\(item.name) goes to review, but \(product), whose purchase unlocks it, is \(standing): no one can buy it "
                        + "until App Review approves it; submit it too (`iapkit asc submit --with-iaps` once it is ready to submit)")
            }
        }
        return sentences
    }

    static func selectItems(
        _ snapshot: StoreSnapshot, desired: CatalogRecords, catalog: Catalog?, products: Set<String>?
    ) -> Selection {
        var selection = Selection()
        let live = Dictionary(snapshot.assetPacks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for pack in desired.assetPacks {
            let location = pack.path.flatMap { path in catalog.map { $0.location(of: path) } }
            func skip(_ reason: Skipped.Reason, _ text: String) { selection.skipped.append(Skipped(reason: reason, text: text, location: location)) }
            guard let version = live[pack.id]?.versions.last else {
                skip(.blocked, "asset pack \(pack.id): not in App Store Connect yet (run `iapkit asc push`)")
                continue
            }
            let name = "asset pack \(pack.id) version \(version.number)"
            if version.state != "COMPLETE" {
                skip(.blocked, "\(name): \(version.state), not COMPLETE")
            } else if version.contentDigest != pack.contentDigest {
                skip(.blocked, "\(name): holds other content than the catalog's (run `iapkit asc push`)")
            } else if !pack.releasesToAppStore {
                skip(
                    .settled,
                    "\(name): for TestFlight testers only (`release: testflight`)"
                        + (version.releases["internal"].map { "; TestFlight \($0)" } ?? ""))
            } else if let release = version.releases["appStore"], releasedStates.contains(release) {
                skip(.settled, "\(name): already on its way to the App Store (\(release))")
            } else {
                selection.items.append(Item(kind: .backgroundAssetVersion, id: version.resourceID, name: name))
            }
        }
        guard let products else { return selection }
        let catalogProducts = Dictionary(
            (catalog?.allProducts ?? []).compactMap { product in product.productID.map { ($0, product) } },
            uniquingKeysWith: { a, _ in a })
        let liveProducts = snapshot.inAppPurchases + snapshot.groups.flatMap(\.subscriptions)
        let liveByID = Dictionary(liveProducts.map { ($0.record.productID, $0) }, uniquingKeysWith: { a, _ in a })
        for id in (catalog?.allProducts.compactMap(\.productID) ?? products.sorted()) where products.contains(id) {
            let declared = catalogProducts[id]
            let location = declared.flatMap { product in catalog.map { $0.location(of: product.path) } }
            let kind = declared?.isSubscription == true || liveByID[id]?.record.isSubscription == true ? "subscription" : "in-app purchase"
            func skip(_ reason: Skipped.Reason, _ text: String) {
                selection.skipped.append(Skipped(reason: reason, text: "\(kind) \(id)\(text)", location: location))
            }
            guard let product = liveByID[id] else {
                skip(.blocked, ": not in App Store Connect yet (run `iapkit asc push`)")
                continue
            }
            let state = product.state ?? "unknown"
            if state == "READY_TO_SUBMIT", let version = product.ids.version {
                selection.items.append(
                    Item(
                        kind: product.record.isSubscription ? .subscriptionVersion : .inAppPurchaseVersion,
                        id: version, name: "\(kind) \(id)"))
            } else if inReviewStates.contains(state) {
                skip(.settled, " (\(state)): already in review")
            } else if approvedStates.contains(state) {
                skip(.settled, " (\(state)): reviewed already")
            } else if state == "MISSING_METADATA" {
                skip(
                    .blocked,
                    " (MISSING_METADATA): " + blockers(product.record, declared: declared, unanswered: product.unanswered).joined(separator: "; "))
            } else {
                skip(.blocked, " (\(state)): App Review or App Store Connect needs something first; see the product in App Store Connect")
            }
        }
        let submitsProducts = selection.items.contains { $0.kind == .inAppPurchaseVersion || $0.kind == .subscriptionVersion }
        let everApproved = liveProducts.contains { approvedStates.contains($0.state ?? "") }
        selection.needsAppVersion = submitsProducts && !everApproved
        return selection
    }

    /// Why App Store Connect keeps a product in Missing Metadata: each part it lacks, and whether the catalog has it
    /// (then a push is the fix) or not (then the catalog is).
    /// What App Store Connect did not answer (`unanswered`) is said as such, never as missing.
    static func blockers(_ live: ProductRecord, declared: Product?, unanswered: Set<String> = []) -> [String] {
        var reasons: [String] = []
        func lack(_ what: String, catalogHasIt: Bool, key: String) {
            reasons.append(
                catalogHasIt
                    ? "no \(what) in App Store Connect; the catalog has one (run `iapkit asc push`)"
                    : "no \(what): add `\(key)` to the product in the catalog")
        }
        func notAnswered(_ what: String) {
            reasons.append("its \(what) not answered by App Store Connect (iapkit cannot tell whether it has one); check it there")
        }
        if live.localizations.isEmpty {
            lack("localization", catalogHasIt: declared.map { !$0.localizations.isEmpty } ?? false, key: "localizations")
        }
        if unanswered.contains("price") || unanswered.contains("iapPriceSchedule") {
            notAnswered("price")
        } else if live.priceCents == nil, live.territoryPrices.isEmpty, live.baseTerritory == nil {
            lack("price", catalogHasIt: declared.map { $0.price != nil || $0.tier != nil || !$0.territoryPrices.isEmpty } ?? false, key: "price")
        }
        if unanswered.contains("availability") {
            notAnswered("availability")
        } else if live.availability == nil || live.availability == .nowhere {
            let sold = declared.map { $0.availability?.territories.map { !$0.isEmpty } ?? true } ?? false
            reasons.append(
                sold
                    ? "not available in any territory in App Store Connect; the catalog sells it (run `iapkit asc push`)"
                    : "not available in any territory: the catalog's `availability` names none")
        }
        if unanswered.contains("appStoreReviewScreenshot") {
            notAnswered("review screenshot")
        } else if live.screenshot == nil {
            lack("review screenshot", catalogHasIt: declared?.review?.screenshot.map { !$0.isEmpty } ?? false, key: "review.screenshot")
        }
        return reasons.isEmpty ? ["App Store Connect has not finished checking it; try again in a minute"] : reasons
    }

    /// An App Store version of the app, as `submit --app-version` looks for it.
    public struct AppVersion: Sendable, Equatable {
        public var id: String
        public var versionString: String
        public var state: String
        public var editable: Bool { Self.editableStates.contains(state) }
        /// The states in which a version can still be added to a review submission.
        public static let editableStates: Set<String> = [
            "PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "DEVELOPER_REJECTED",
            "REJECTED", "METADATA_REJECTED", "INVALID_BINARY",
        ]
    }

    /// The app's App Store versions on `platform`, newest first.
    public func appVersions(app: StoreApp, platform: String) async throws(SyncError) -> [AppVersion] {
        typealias Query = Operations.AppsAppStoreVersionsGetToManyRelated.Input.Query
        let answer: Components.Schemas.AppStoreVersionsResponse
        do {
            answer = try await asc.send {
                try await $0.appsAppStoreVersionsGetToManyRelated(
                    path: .init(id: app.id),
                    query: .init(
                        filterPlatform: Query.FilterPlatformPayloadPayload(rawValue: platform).map { [$0] },
                        fieldsAppStoreVersions: [.platform, .versionString, .appStoreState, .appVersionState, .createdDate],
                        limit: 200)
                ).ok.body.json
            }
        } catch {
            throw .read(context: "listing the app's App Store versions", error: error)
        }
        return answer.data.compactMap { version in
            guard let string = version.attributes?.versionString else { return nil }
            let state = version.attributes?.appVersionState?.rawValue ?? version.attributes?.appStoreState?.rawValue ?? "unknown"
            return AppVersion(id: version.id, versionString: string, state: state)
        }.reversed()
    }

    /// Creates the submission for `platform` (`IOS`, `MAC_OS`, `TV_OS`, `VISION_OS`), adds every item, submits it,
    /// and returns its id. A failed item cancels the submission before the error is thrown.
    public func submit(app: StoreApp, platform: String, items: [Item]) async throws(SyncError) -> String {
        typealias Schemas = Components.Schemas
        let total = items.count + 2
        func failed(_ operation: String, _ error: ASCError, done: Int) -> SyncError {
            .write(operation: operation, productID: nil, location: nil, error: error, done: done, total: total)
        }
        let body = Schemas.ReviewSubmissionCreateRequest(
            data: .init(
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
            case .appStoreVersion:
                relationships.appStoreVersion = .init(data: .init(_type: .appStoreVersions, id: item.id))
            }
            let request = Schemas.ReviewSubmissionItemCreateRequest(data: .init(_type: .reviewSubmissionItems, relationships: relationships))
            do {
                _ = try await asc.send { try await $0.reviewSubmissionItemsCreateInstance(body: .json(request)).created }
            } catch {
                let cancelled = (try? await update(submission, canceled: true)) != nil
                throw failed(
                    "add \(item.name) to review submission \(submission)"
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
        let body = Components.Schemas.ReviewSubmissionUpdateRequest(
            data: .init(
                _type: .reviewSubmissions, id: id, attributes: canceled ? .init(canceled: true) : .init(submitted: true)))
        _ = try await asc.send { try await $0.reviewSubmissionsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
