import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog
import SyncPlan

/// Localizations of an in-app purchase version (`inAppPurchaseVersions`, `inAppPurchaseLocalizations` v2).
enum InAppPurchaseLocalizationAPI: LocalizationAPI {
    typealias Listing = InAppPurchaseListing
    static let resource = "inAppPurchaseLocalization"
    static let versionPrefix = "iap-version"

    static func versions(owner: String, reader: StoreReader) async throws(SyncError) -> [VersionListing] {
        let pages = try await reader.pages("reading the versions of in-app purchase \(owner)") {
            try await $0.inAppPurchasesV2VersionsGetToManyRelated(
                path: .init(id: owner), query: .init(limit: 200, include: [.localizations], limitLocalizations: 50)
            ).ok.body.json
        } next: {
            $0.links.next
        }
        var texts: [String: LocalizationListing] = [:]
        for case let .inAppPurchaseLocalizations(item) in pages.flatMap({ $0.included ?? [] }) {
            guard let locale = item.attributes?.locale else { continue }
            texts[item.id] = LocalizationListing(
                id: item.id,
                record: LocalizationRecord(
                    locale: locale, name: item.attributes?.name ?? "", description: item.attributes?.description))
        }
        return pages.flatMap(\.data).map { version in
            let links = version.relationships?.localizations
            let ids = links?.data?.map(\.id) ?? []
            return VersionListing(
                id: version.id, number: version.attributes?.version, state: version.attributes?.state?.rawValue,
                localizations: ids.compactMap { texts[$0] },
                complete: links?.data != nil && links?.meta.isComplete(count: ids.count, cap: 50) != false)
        }
    }

    static func localizations(version: String, reader: StoreReader) async throws(SyncError) -> [LocalizationListing] {
        try await reader.pages("reading the localizations of in-app purchase version \(version)") {
            try await $0.inAppPurchaseVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body.json
        } next: {
            $0.links.next
        }.flatMap(\.data).compactMap { item in
            item.attributes?.locale.map {
                LocalizationListing(
                    id: item.id,
                    record: LocalizationRecord(
                        locale: $0, name: item.attributes?.name ?? "", description: item.attributes?.description))
            }
        }
    }

    static func createVersion(owner: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.InAppPurchaseVersionCreateRequest(
            data: .init(
                _type: .inAppPurchaseVersions, relationships: .init(inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: owner)))))
        return try await context.send { try await $0.inAppPurchaseVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func localizationIDs(version: String, _ context: WriteContext) async throws(ASCError) -> [String: String] {
        let items = try await context.allPages(
            {
                try await $0.inAppPurchaseVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body.json
            }, next: { $0.links.next }
        ).flatMap(\.data)
        return Dictionary(items.compactMap { item in item.attributes?.locale.map { ($0, item.id) } }, uniquingKeysWith: { a, _ in a })
    }

    static func create(_ localization: LocalizationRecord, version: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.InAppPurchaseLocalizationV2CreateRequest(
            data: .init(
                _type: .inAppPurchaseLocalizations,
                attributes: .init(name: localization.name, locale: localization.locale, description: localization.description),
                relationships: .init(version: .init(data: .init(_type: .inAppPurchaseVersions, id: version)))))
        return try await context.send { try await $0.inAppPurchaseLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func update(_ localization: LocalizationRecord, id: String, _ context: WriteContext) async throws(ASCError) {
        let body = Components.Schemas.InAppPurchaseLocalizationV2UpdateRequest(
            data: .init(
                _type: .inAppPurchaseLocalizations, id: id,
                attributes: .init(name: localization.name, description: localization.description)))
        _ = try await context.send { try await $0.inAppPurchaseLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
