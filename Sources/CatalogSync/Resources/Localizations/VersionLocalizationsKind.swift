import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// How one owner of versioned localizations (an in-app purchase, a subscription, a subscription group) spells
/// its requests. Since App Store Connect API 4.4, localizations belong to a version: the draft container of one
/// review cycle, created by the client, read-only once submitted.
protocol LocalizationAPI: Sendable {
    associatedtype Listing: Sendable
    /// `inAppPurchaseLocalization`, `subscriptionLocalization`, `subscriptionGroupLocalization`.
    static var resource: ResourceName { get }
    /// `in-app purchase`, `subscription`, `subscription group`: for people.
    static var owner: String { get }
    /// The name a version created in the push goes by (`iap-version:PRODUCT`).
    static var versionPrefix: String { get }
    /// The first page of the owner's versions, each with its localizations sent along (`include=localizations`, up
    /// to `LocalizationPages.includedCap` of them): one request for all.
    static func versions(owner: String) -> @Sendable (Client) async throws -> VersionPage
    /// The first page of one version's localizations.
    static func localizations(version: String) -> @Sendable (Client) async throws -> LocalizationPage
    static func createVersion(owner: String, _ context: WriteContext) async throws(ASCError) -> String
    static func create(_ localization: LocalizationRecord, version: String, _ context: WriteContext) async throws(ASCError) -> String
    static func update(_ localization: LocalizationRecord, id: String, _ context: WriteContext) async throws(ASCError)
}

/// A page of an owner's versions, as its adapter reads it.
struct VersionPage: Sendable {
    struct Version: Sendable {
        var id: String
        var number: Int?
        var state: String?
        /// The localizations' linkage; nil when the answer carried none.
        var localizationIDs: [String]?
        var paging: Components.Schemas.PagingInformation?
    }
    var versions: [Version]
    /// The localizations sent along.
    var localizations: [LocalizationListing]
    var next: String?
}

/// A page of a version's localizations, as its adapter reads it.
struct LocalizationPage: Sendable {
    var localizations: [LocalizationListing]
    var next: String?
}

extension LocalizationAPI {
    /// How many localizations a version sends along with the list of versions (`limit[localizations]`).
    static var includedCap: Int { 50 }

    /// The owner's versions with each one's localizations.
    static func versions(owner: String, reader: StoreReader) async throws(SyncError) -> [VersionListing] {
        let pages = try await reader.pages("reading the versions of \(self.owner) \(owner)", versions(owner: owner), next: { $0.next })
        let texts = Dictionary(pages.flatMap(\.localizations).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return pages.flatMap(\.versions).map { version in
            let ids = version.localizationIDs ?? []
            return VersionListing(
                id: version.id, number: version.number, state: version.state, localizations: ids.compactMap { texts[$0] },
                complete: version.localizationIDs != nil && version.paging.isComplete(count: ids.count, cap: includedCap))
        }
    }

    /// The localizations of one version (when the included list was cut short).
    static func localizations(version: String, reader: StoreReader) async throws(SyncError) -> [LocalizationListing] {
        try await reader.pages("reading the localizations of \(owner) version \(version)", localizations(version: version), next: { $0.next })
            .flatMap(\.localizations)
    }

    /// A version's localizations' ids by locale, right after the push created it.
    static func localizationIDs(version: String, _ context: WriteContext) async throws(ASCError) -> [String: String] {
        let items = try await context.allPages(localizations(version: version), next: { $0.next }).flatMap(\.localizations)
        return Dictionary(items.map { ($0.record.locale, $0.id) }, uniquingKeysWith: { a, _ in a })
    }
}

struct VersionListing: Sendable {
    var id: String
    var number: Int?
    var state: String?
    var localizations: [LocalizationListing]
    /// False when App Store Connect cut the included localizations short.
    var complete: Bool
}

struct LocalizationListing: Sendable {
    var id: String
    var record: LocalizationRecord
}

/// A product's localizations on its current version, for any owner that has them.
enum VersionLocalizationsKind<API: LocalizationAPI>: ProductResourceKind {
    typealias Listing = API.Listing

    /// The versions with their localizations, in one request.
    static func estimatedReads(_ listing: Listing) -> Int { 1 }

    static func read(into product: inout StoreProduct, listing: Listing, reader: StoreReader) async throws(SyncError) {
        guard let current = try await currentVersion(owner: product.ids.resource, reader: reader) else { return }
        product.ids.version = current.version.id
        product.ids.versionEditable = current.editable
        for localization in current.localizations {
            product.record.localizations.append(localization.record)
            product.ids.localizations[localization.record.locale] = localization.id
        }
        product.record.localizations.sort { $0.locale < $1.locale }
    }

    /// The version whose localizations count, with them: the one still being edited, else the newest.
    static func currentVersion(
        owner: String, reader: StoreReader
    ) async throws(SyncError)
        -> (version: VersionListing, editable: Bool, localizations: [LocalizationListing])?
    {
        let versions = try await API.versions(owner: owner, reader: reader)
        guard let current = Self.current(versions) else { return nil }
        let localizations =
            current.version.complete
            ? current.version.localizations
            : try await API.localizations(version: current.version.id, reader: reader)
        return (current.version, current.editable, localizations)
    }

    static func current(_ versions: [VersionListing]) -> (version: VersionListing, editable: Bool)? {
        let editableStates: Set<String> = ["PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "REJECTED", "DEVELOPER_REJECTED"]
        if let editable = versions.filter({ editableStates.contains($0.state ?? "") }).max(by: { ($0.number ?? 0) < ($1.number ?? 0) }) {
            return (editable, true)
        }
        return versions.max { ($0.number ?? 0) < ($1.number ?? 0) }.map { ($0, false) }
    }

    static func plan(_ wanted: ProductRecord, live: StoreProduct?, product: ResourceRef, builder: inout PlanBuilder) {
        plan(
            wanted.localizations, live: live?.record.localizations ?? [], ids: live?.ids, ownerName: wanted.productID,
            owner: product, ownerIsNew: live == nil, record: wanted, path: wanted.path, builder: &builder)
    }

    /// Creates and updates localizations on the owner's current version, opening a new version first when the
    /// current one is already submitted. Localizations App Store Connect has and the catalog does not stay.
    static func plan(
        _ wanted: [LocalizationRecord], live: [LocalizationRecord], ids: ProductIDs?, ownerName: String,
        owner: ResourceRef, ownerIsNew: Bool, record: ProductRecord?, path: CatalogPath?,
        detailPrefix: String? = nil, builder: inout PlanBuilder
    ) {
        let pending = builder.diffLocalizations(wanted, live: live, resource: API.resource, product: record, detailPrefix: detailPrefix)
        guard !pending.isEmpty else { return }
        let editable = ids?.versionEditable == true
        let versionRef: ResourceRef
        var opening: [any PlannedOperation] = []
        if let version = ids?.version, editable {
            versionRef = .id(version)
        } else {
            let name = "\(API.versionPrefix):\(ownerName)"
            versionRef = .created(name)
            opening = [OpenVersion(ref: name, owner: owner, ownerIsNew: ownerIsNew)]
        }
        for (position, (localization, old)) in pending.enumerated() {
            let fields = PlanBuilder.localizationFields(from: old, to: localization)
            // The line of the value shown: the localization's own place in the catalog, and its one changed field.
            let location = path.flatMap { path in
                (localization.position ?? wanted.firstIndex(of: localization)).map { index -> CatalogPath in
                    let entry = path / "localizations" + index
                    return old != nil && fields.count == 1 ? entry / fields[0].name : entry
                }
            }
            let operation: any PlannedOperation
            if old != nil, editable, let id = ids?.localizations[localization.locale] {
                operation = Update(id: id, localization: localization)
            } else {
                operation = Create(version: versionRef, localization: localization)
            }
            builder.add(
                old == nil ? .create : .update, API.resource, record, path: location,
                detail: [detailPrefix, localization.locale].compactMap { $0 }.joined(separator: " "),
                fields: fields, operations: (position == 0 ? opening : []) + [operation])
        }
    }

    /// Opens a version for edits: a new owner has none yet; an owner whose versions are all submitted gets a new
    /// one, which App Store Connect fills with the previous texts (read back, so those locales are updated).
    struct OpenVersion: WriteOperation {
        var ref: String
        var owner: ResourceRef
        var ownerIsNew: Bool
        var summary: String { "open a version of \(owner)" }
        var createdRef: String? { ref }
        var estimatedRequests: Int { ownerIsNew ? 1 : 2 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let version = try await API.createVersion(owner: context.id(owner), context)
            context.record(created: version, as: ref)
            if !ownerIsNew, !context.isRecording {
                context.setLocalizations(try await API.localizationIDs(version: version, context), ofVersion: version)
            }
        }
    }

    struct Create: WriteOperation {
        var version: ResourceRef
        var localization: LocalizationRecord
        var summary: String { "create \(localization.locale) localization" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let versionID = context.id(version)
            if let id = context.localizations(ofVersion: versionID)[localization.locale] {
                try await API.update(localization, id: id, context)
            } else {
                _ = try await API.create(localization, version: versionID, context)
            }
        }
    }

    struct Update: WriteOperation {
        var id: String
        var localization: LocalizationRecord
        var summary: String { "update \(localization.locale) localization" }

        func perform(_ context: WriteContext) async throws(ASCError) {
            try await API.update(localization, id: id, context)
        }
    }
}
