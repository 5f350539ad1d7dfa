import AppStoreConnect
import AppStoreConnectAPI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// How one uploaded image of a product (its App Review screenshot, its promotional image; an in-app purchase's or a
/// subscription's) spells its requests and where it sits in the records.
protocol UploadedImageAPI: Sendable {
    associatedtype Listing: Sendable
    /// `inAppPurchaseAppStoreReviewScreenshot`, `subscriptionImage`, ….
    static var resource: ResourceName { get }
    /// `review screenshot`, `promotional image`: for people.
    static var what: String { get }
    /// Where the image is in a product's records and ids, and in the catalog.
    static var record: WritableKeyPath<ProductRecord, ScreenshotRecord?> { get }
    static var id: WritableKeyPath<ProductIDs, String?> { get }
    static var url: WritableKeyPath<ProductIDs, String?> { get }
    static var catalogPath: [String] { get }
    /// The product's relationship that sends the image along with its list entry.
    static var listRelation: String { get }
    /// The image sent along with the product's list entry (`include=appStoreReviewScreenshot`, `include=images`); an
    /// empty relationship (`"data": null`) is none.
    static func listed(_ listing: Listing) -> ListedScreenshot?
    static func reserve(
        product: String, fileName: String, size: Int, _ context: WriteContext
    ) async throws(ASCError)
        -> (id: String, uploads: [Components.Schemas.UploadOperation])
    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError)
    static func delete(id: String, _ context: WriteContext) async throws(ASCError)
}

struct ListedScreenshot: Sendable {
    var id: String
    var fileName: String?
    var checksum: String?
    /// Screenshots' `assetDeliveryState.state`: AWAITING_UPLOAD (reserved, bytes never committed), UPLOAD_COMPLETE
    /// (committed, processing), COMPLETE, FAILED; images' `state`, which goes on into review. Nil when none is sent.
    var state: String?
    var imageAsset: Components.Schemas.ImageAsset?

    /// The states in which an image's bytes reached App Store Connect.
    static let committedStates: Set<String> = [
        "COMPLETE", "UPLOAD_COMPLETE", "PREPARE_FOR_SUBMISSION", "WAITING_FOR_REVIEW",
        "APPROVED", "REJECTED",
    ]

    /// Whether the image's bytes reached App Store Connect: only then is there an image to compare. A reservation
    /// never committed (what an interrupted upload leaves) or a failed one is none.
    var isCommitted: Bool { checksum?.isEmpty == false && (state.map(Self.committedStates.contains) ?? true) }
}

/// A product's uploaded image (App Review screenshot, promotional image), compared by content (its MD5, App Store
/// Connect's `sourceFileChecksum`).
enum UploadedImageKind<API: UploadedImageAPI>: ProductResourceKind {
    typealias Listing = API.Listing
    static var listRelations: [String] { [API.listRelation] }

    /// The list entry carries the image whole.
    static func estimatedReads(_ listing: Listing) -> Int { 0 }

    static func read(into product: inout StoreProduct, listing: Listing, reader: StoreReader) async throws(SyncError) {
        guard let screenshot = API.listed(listing) else { return }
        product.ids[keyPath: API.id] = screenshot.id
        product.ids[keyPath: API.url] = downloadURL(screenshot.imageAsset, fileName: screenshot.fileName)
        if screenshot.isCommitted, let checksum = screenshot.checksum {
            product.record[keyPath: API.record] = ScreenshotRecord(fileName: screenshot.fileName ?? "image", checksum: checksum.lowercased())
        } else {
            let state = screenshot.state.map { " (\($0))" } ?? ""
            product.notes.append(
                .init(
                    resource: API.resource, managed: true,
                    text: "its \(API.what) was never finished in App Store Connect\(state); the catalog holds "
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
        let old = live?.record[keyPath: API.record]
        guard let screenshot = wanted[keyPath: API.record], screenshot != old else { return }
        builder.add(
            old == nil ? .create : .update, API.resource, wanted,
            path: wanted.path.map { API.catalogPath.reduce($0) { $0 / $1 } },
            fields: [Change.Field(API.catalogPath.last ?? "image", from: old.map(PlanBuilder.describe), to: PlanBuilder.describe(screenshot))],
            operations: [Upload(product: product, screenshot: screenshot, replacing: live.flatMap { $0.ids[keyPath: API.id] })])
    }

    /// Removes the old screenshot (App Store Connect keeps one), reserves the new one, sends each part it asks
    /// for, and commits with the MD5 App Store Connect checks the bytes against.
    struct Upload: WriteOperation {
        var product: ResourceRef
        var screenshot: ScreenshotRecord
        var replacing: String?
        var summary: String { "upload \(API.what) \(screenshot.fileName)" }
        var estimatedRequests: Int { (replacing == nil ? 0 : 1) + 4 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let path = screenshot.path ?? screenshot.fileName
            let data = FileManager.default.contents(atPath: path)
            guard let data = data ?? (context.isRecording ? Data() : nil) else {
                throw .unexpectedResponse(operation: summary, status: nil, reason: "\(path): the \(API.what) file cannot be read")
            }
            if let replacing { try await API.delete(id: replacing, context) }
            let reservation = try await API.reserve(
                product: context.id(product), fileName: screenshot.fileName,
                size: screenshot.size, context)
            let ref = "\(API.resource):\(product.name)"
            context.record(created: reservation.id, as: ref)
            try await context.upload(file: path, data: data, operations: reservation.uploads, ref: ref)
            try await API.commit(id: context.id(.created(ref)), checksum: screenshot.checksum, context)
        }
    }
}

/// The review screenshot of an in-app purchase.
enum InAppPurchaseScreenshotAPI: UploadedImageAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.inAppPurchaseAppStoreReviewScreenshot
    static let listRelation = "appStoreReviewScreenshot"
    static let what = "review screenshot"
    static var record: WritableKeyPath<ProductRecord, ScreenshotRecord?> { \.screenshot }
    static var id: WritableKeyPath<ProductIDs, String?> { \.screenshot }
    static var url: WritableKeyPath<ProductIDs, String?> { \.screenshotURL }
    static let catalogPath = ["review", "screenshot"]

    static func listed(_ listing: InAppPurchaseListing) -> ListedScreenshot? {
        let sent = listing.one(listing.resource.relationships?.appStoreReviewScreenshot?.data?.id) {
            if case let .inAppPurchaseAppStoreReviewScreenshots(item) = $0 { item } else { nil }
        }
        return sent.map { item in
            ListedScreenshot(
                id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                state: item.attributes?.assetDeliveryState?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(
        product: String, fileName: String, size: Int, _ context: WriteContext
    ) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation])
    {
        let body = Schemas.InAppPurchaseAppStoreReviewScreenshotCreateRequest(
            data: .init(
                _type: .inAppPurchaseAppStoreReviewScreenshots, attributes: .init(fileSize: size, fileName: fileName),
                relationships: .init(inAppPurchaseV2: .init(data: .init(_type: .inAppPurchases, id: product)))))
        return try await context.send {
            let data = try await $0.inAppPurchaseAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseAppStoreReviewScreenshotUpdateRequest(
            data: .init(
                _type: .inAppPurchaseAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.inAppPurchaseAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.inAppPurchaseAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
    }
}

/// The review screenshot of a subscription.
enum SubscriptionScreenshotAPI: UploadedImageAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.subscriptionAppStoreReviewScreenshot
    static let listRelation = "appStoreReviewScreenshot"
    static let what = "review screenshot"
    static var record: WritableKeyPath<ProductRecord, ScreenshotRecord?> { \.screenshot }
    static var id: WritableKeyPath<ProductIDs, String?> { \.screenshot }
    static var url: WritableKeyPath<ProductIDs, String?> { \.screenshotURL }
    static let catalogPath = ["review", "screenshot"]

    static func listed(_ listing: SubscriptionListing) -> ListedScreenshot? {
        let sent = listing.one(listing.resource.relationships?.appStoreReviewScreenshot?.data?.id) {
            if case let .subscriptionAppStoreReviewScreenshots(item) = $0 { item } else { nil }
        }
        return sent.map { item in
            ListedScreenshot(
                id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                state: item.attributes?.assetDeliveryState?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(
        product: String, fileName: String, size: Int, _ context: WriteContext
    ) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation])
    {
        let body = Schemas.SubscriptionAppStoreReviewScreenshotCreateRequest(
            data: .init(
                _type: .subscriptionAppStoreReviewScreenshots, attributes: .init(fileSize: size, fileName: fileName),
                relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: product)))))
        return try await context.send {
            let data = try await $0.subscriptionAppStoreReviewScreenshotsCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionAppStoreReviewScreenshotUpdateRequest(
            data: .init(
                _type: .subscriptionAppStoreReviewScreenshots, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.subscriptionAppStoreReviewScreenshotsUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.subscriptionAppStoreReviewScreenshotsDeleteInstance(path: .init(id: id)).noContent }
    }
}

/// The promotional image of an in-app purchase (`inAppPurchaseImages`).
enum InAppPurchaseImageAPI: UploadedImageAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.inAppPurchaseImage
    static let listRelation = "images"
    static let what = "promotional image"
    static var record: WritableKeyPath<ProductRecord, ScreenshotRecord?> { \.image }
    static var id: WritableKeyPath<ProductIDs, String?> { \.image }
    static var url: WritableKeyPath<ProductIDs, String?> { \.imageURL }
    static let catalogPath = ["promotionalImage"]

    static func listed(_ listing: InAppPurchaseListing) -> ListedScreenshot? {
        let sent = listing.one(listing.resource.relationships?.images?.data?.first?.id) {
            if case let .inAppPurchaseImages(item) = $0 { item } else { nil }
        }
        return sent.map { item in
            ListedScreenshot(
                id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                state: item.attributes?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(
        product: String, fileName: String, size: Int, _ context: WriteContext
    ) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation])
    {
        let body = Schemas.InAppPurchaseImageCreateRequest(
            data: .init(
                _type: .inAppPurchaseImages, attributes: .init(fileSize: size, fileName: fileName),
                relationships: .init(inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: product)))))
        return try await context.send {
            let data = try await $0.inAppPurchaseImagesCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.InAppPurchaseImageUpdateRequest(
            data: .init(
                _type: .inAppPurchaseImages, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.inAppPurchaseImagesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.inAppPurchaseImagesDeleteInstance(path: .init(id: id)).noContent }
    }
}

/// The promotional image of a subscription (`subscriptionImages`).
enum SubscriptionImageAPI: UploadedImageAPI {
    typealias Schemas = Components.Schemas
    static let resource = ResourceName.subscriptionImage
    static let listRelation = "images"
    static let what = "promotional image"
    static var record: WritableKeyPath<ProductRecord, ScreenshotRecord?> { \.image }
    static var id: WritableKeyPath<ProductIDs, String?> { \.image }
    static var url: WritableKeyPath<ProductIDs, String?> { \.imageURL }
    static let catalogPath = ["promotionalImage"]

    static func listed(_ listing: SubscriptionListing) -> ListedScreenshot? {
        let sent = listing.one(listing.resource.relationships?.images?.data?.first?.id) {
            if case let .subscriptionImages(item) = $0 { item } else { nil }
        }
        return sent.map { item in
            ListedScreenshot(
                id: item.id, fileName: item.attributes?.fileName, checksum: item.attributes?.sourceFileChecksum,
                state: item.attributes?.state?.rawValue, imageAsset: item.attributes?.imageAsset)
        }
    }

    static func reserve(
        product: String, fileName: String, size: Int, _ context: WriteContext
    ) async throws(ASCError)
        -> (id: String, uploads: [Schemas.UploadOperation])
    {
        let body = Schemas.SubscriptionImageCreateRequest(
            data: .init(
                _type: .subscriptionImages, attributes: .init(fileSize: size, fileName: fileName),
                relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: product)))))
        return try await context.send {
            let data = try await $0.subscriptionImagesCreateInstance(body: .json(body)).created.body.json.data
            return (data.id, data.attributes?.uploadOperations ?? [])
        }
    }

    static func commit(id: String, checksum: String, _ context: WriteContext) async throws(ASCError) {
        let body = Schemas.SubscriptionImageUpdateRequest(
            data: .init(
                _type: .subscriptionImages, id: id, attributes: .init(sourceFileChecksum: checksum, uploaded: true)))
        _ = try await context.send { try await $0.subscriptionImagesUpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }

    static func delete(id: String, _ context: WriteContext) async throws(ASCError) {
        _ = try await context.send { try await $0.subscriptionImagesDeleteInstance(path: .init(id: id)).noContent }
    }
}
