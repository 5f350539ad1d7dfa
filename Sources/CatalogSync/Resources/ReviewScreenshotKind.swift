import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import SyncPlan

/// How an owner of an App Review screenshot (an in-app purchase, a subscription) spells its requests.
protocol ScreenshotAPI: Sendable {
    associatedtype Listing: Sendable
    /// `inAppPurchaseAppStoreReviewScreenshot`, `subscriptionAppStoreReviewScreenshot`.
    static var resource: String { get }
    /// The screenshot sent along with the product's list entry (`include=appStoreReviewScreenshot`); an empty
    /// relationship (`"data": null`) is none.
    static func listed(_ listing: Listing) -> ListedScreenshot?
    static func reserve(product: String, fileName: String, size: Int, _ context: WriteContext) async throws(ASCError)
        -> (id: String, uploads: [Components.Schemas.UploadOperation])
    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError)
    static func delete(id: String, _ context: WriteContext) async throws(ASCError)
}

struct ListedScreenshot: Sendable {
    var id: String
    var fileName: String?
    var checksum: String?
    /// `assetDeliveryState.state`: AWAITING_UPLOAD (reserved, bytes never committed), UPLOAD_COMPLETE (committed,
    /// processing), COMPLETE, FAILED; nil when App Store Connect sends none.
    var state: String?
    var imageAsset: Components.Schemas.ImageAsset?

    /// Whether the screenshot's bytes reached App Store Connect: only then is there a screenshot to compare.
    /// A reservation never committed (what an interrupted upload leaves) or a failed one is no screenshot.
    var isCommitted: Bool { checksum?.isEmpty == false && (state == nil || state == "COMPLETE" || state == "UPLOAD_COMPLETE") }
}

/// A product's App Review screenshot, compared by content (its MD5, App Store Connect's `sourceFileChecksum`).
enum ReviewScreenshotKind<API: ScreenshotAPI>: ProductResourceKind {
    typealias Listing = API.Listing

    /// The list entry carries the screenshot whole.
    static func estimatedReads(_ listing: Listing) -> Int { 0 }

    static func read(into product: inout StoreProduct, listing: Listing, reader: StoreReader) async throws(SyncError) {
        guard let screenshot = API.listed(listing) else { return }
        product.ids.screenshot = screenshot.id
        product.ids.screenshotURL = downloadURL(screenshot.imageAsset, fileName: screenshot.fileName)
        if screenshot.isCommitted, let checksum = screenshot.checksum {
            product.record.screenshot = ScreenshotRecord(fileName: screenshot.fileName ?? "screenshot", checksum: checksum.lowercased())
        } else {
            let state = screenshot.state.map { " (\($0))" } ?? ""
            product.notes.append(.init(resource: API.resource, managed: true,
                                       text: "its review screenshot was never finished in App Store Connect\(state); the catalog holds "
                                           + "none, and a push with one replaces it"))
        }
    }

    /// The full-size image of an asset: its template with the width, height and the file's own format filled in.
    static func downloadURL(_ asset: Components.Schemas.ImageAsset?, fileName: String?) -> String? {
        guard let asset, let template = asset.templateUrl, !template.isEmpty else { return nil }
        let format = (fileName.map { Path.pathExtension($0).lowercased() }).flatMap { $0 == "jpeg" ? "jpg" : ($0.isEmpty ? nil : $0) } ?? "png"
        return template.replacingAll("{w}", with: String(asset.width ?? 0))
            .replacingAll("{h}", with: String(asset.height ?? 0))
            .replacingAll("{f}", with: format)
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        guard let screenshot = wanted.screenshot, screenshot != live?.record.screenshot else { return }
        builder.add(live?.record.screenshot == nil ? .create : .update, API.resource, wanted,
                    path: wanted.path.map { $0 / "review" / "screenshot" },
                    fields: [Change.Field("screenshot", from: live?.record.screenshot.map(PlanBuilder.describe),
                                          to: PlanBuilder.describe(screenshot))],
                    operations: [Upload(product: product, screenshot: screenshot, replacing: live?.ids.screenshot)])
    }

    /// Removes the old screenshot (App Store Connect keeps one), reserves the new one, sends each part it asks
    /// for, and commits with the MD5 App Store Connect checks the bytes against.
    struct Upload: WriteOperation {
        var product: ResourceRef
        var screenshot: ScreenshotRecord
        var replacing: String?
        var summary: String { "upload review screenshot \(screenshot.fileName)" }
        var estimatedRequests: Int { (replacing == nil ? 0 : 1) + 4 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let path = screenshot.path ?? screenshot.fileName
            let data = FileManager.default.contents(atPath: path)
            guard let data = data ?? (context.isRecording ? Data() : nil) else {
                throw .unexpectedResponse(operation: summary, status: nil, reason: "\(path): the screenshot file cannot be read")
            }
            if let replacing { try await API.delete(id: replacing, context) }
            let reservation = try await API.reserve(product: context.id(product), fileName: screenshot.fileName,
                                                    size: screenshot.size, context)
            let ref = "screenshot:\(product.name)"
            context.record(created: reservation.id, as: ref)
            try await context.upload(file: path, data: data, operations: reservation.uploads, ref: ref)
            try await API.commit(id: context.id(.created(ref)), checksum: screenshot.checksum, context)
        }
    }
}

/// The review screenshot of an in-app purchase.
enum InAppPurchaseScreenshotAPI: ScreenshotAPI {
    typealias Schemas = Components.Schemas
    static let resource = "inAppPurchaseAppStoreReviewScreenshot"

    static func listed(_ listing: InAppPurchaseListing) -> ListedScreenshot? {
        listing.screenshot.map { item in
            ListedScreenshot(id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                             state: item.attributes?.assetDeliveryState?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(product: String, fileName: String, size: Int, _ context: WriteContext) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation]) {
        let body = Schemas.InAppPurchaseAppStoreReviewScreenshotCreateRequest(data: .init(
            _type: .inAppPurchaseAppStoreReviewScreenshots, attributes: .init(fileSize: size, fileName: fileName),
            relationships: .init(inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: product)))))
        return try await context.send {
            let data = try await $0.inAppPurchaseAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseAppStoreReviewScreenshotUpdateRequest(data: .init(
            _type: .inAppPurchaseAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.inAppPurchaseAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.inAppPurchaseAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
    }
}

/// The review screenshot of a subscription.
enum SubscriptionScreenshotAPI: ScreenshotAPI {
    typealias Schemas = Components.Schemas
    static let resource = "subscriptionAppStoreReviewScreenshot"

    static func listed(_ listing: SubscriptionListing) -> ListedScreenshot? {
        listing.screenshot.map { item in
            ListedScreenshot(id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                             state: item.attributes?.assetDeliveryState?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(product: String, fileName: String, size: Int, _ context: WriteContext) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation]) {
        let body = Schemas.SubscriptionAppStoreReviewScreenshotCreateRequest(data: .init(
            _type: .subscriptionAppStoreReviewScreenshots, attributes: .init(fileSize: size, fileName: fileName),
            relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: product)))))
        return try await context.send {
            let data = try await $0.subscriptionAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionAppStoreReviewScreenshotUpdateRequest(data: .init(
            _type: .subscriptionAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.subscriptionAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.subscriptionAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
    }
}
