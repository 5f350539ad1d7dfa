import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// Localizations of an in-app purchase version (`inAppPurchaseVersions`, `inAppPurchaseLocalizations` v2).
enum InAppPurchaseLocalizationAPI: LocalizationAPI {
    typealias Listing = InAppPurchaseListing
    static let resource = ResourceName.inAppPurchaseLocalization
    static let owner = "in-app purchase"
    static let versionPrefix = "iap-version"

    static func versions(owner: String) -> @Sendable (Client) async throws -> VersionPage {
        { client in
            let page = try await client.inAppPurchasesV2VersionsGetToManyRelated(
                path: .init(id: owner), query: .init(limit: 200, include: [.localizations], limitLocalizations: includedCap)
            ).ok.body.json
            return VersionPage(
                versions: page.data.map { version in
                    let links = version.relationships?.localizations
                    return VersionPage.Version(
                        id: version.id, number: version.attributes?.version, state: version.attributes?.state?.rawValue,
                        localizationIDs: links?.data?.map(\.id), paging: links?.meta)
                },
                localizations: (page.included ?? []).compactMap {
                    guard case let .inAppPurchaseLocalizations(item) = $0 else { return nil }
                    return listing(item)
                },
                next: page.links.next)
        }
    }

    static func localizations(version: String) -> @Sendable (Client) async throws -> LocalizationPage {
        { client in
            let page = try await client.inAppPurchaseVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body
                .json
            return LocalizationPage(localizations: page.data.compactMap(listing), next: page.links.next)
        }
    }

    static func listing(_ item: Components.Schemas.InAppPurchaseLocalizationV2) -> LocalizationListing? {
        item.attributes?.locale.map {
            LocalizationListing(
                id: item.id, record: LocalizationRecord(locale: $0, name: item.attributes?.name ?? "", description: item.attributes?.description))
        }
    }

    static func createVersion(owner: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.InAppPurchaseVersionCreateRequest(
            data: .init(
                _type: .inAppPurchaseVersions, relationships: .init(inAppPurchase: .init(data: .init(_type: .inAppPurchases, id: owner)))))
        return try await context.send { try await $0.inAppPurchaseVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
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
