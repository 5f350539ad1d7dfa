import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// Localizations of a subscription group version (`subscriptionGroupVersions`, `subscriptionGroupLocalizations` v2).
enum GroupLocalizationAPI: LocalizationAPI {
    typealias Listing = Never
    static let resource = ResourceName.subscriptionGroupLocalization
    static let owner = "subscription group"
    static let versionPrefix = "group-version"

    static func versions(owner: String) -> @Sendable (Client) async throws -> VersionPage {
        { client in
            let page = try await client.subscriptionGroupsVersionsGetToManyRelated(
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
                    guard case let .subscriptionGroupLocalizations(item) = $0 else { return nil }
                    return listing(item)
                },
                next: page.links.next)
        }
    }

    static func localizations(version: String) -> @Sendable (Client) async throws -> LocalizationPage {
        { client in
            let page = try await client.subscriptionGroupVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok
                .body.json
            return LocalizationPage(localizations: page.data.compactMap(listing), next: page.links.next)
        }
    }

    static func listing(_ item: Components.Schemas.SubscriptionGroupLocalizationV2) -> LocalizationListing? {
        item.attributes?.locale.map {
            LocalizationListing(
                id: item.id, record: LocalizationRecord(locale: $0, name: item.attributes?.name ?? "", customAppName: item.attributes?.customAppName))
        }
    }

    static func createVersion(owner: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.SubscriptionGroupVersionCreateRequest(
            data: .init(
                _type: .subscriptionGroupVersions, relationships: .init(subscriptionGroup: .init(data: .init(_type: .subscriptionGroups, id: owner))))
        )
        return try await context.send { try await $0.subscriptionGroupVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func create(_ localization: LocalizationRecord, version: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.SubscriptionGroupLocalizationV2CreateRequest(
            data: .init(
                _type: .subscriptionGroupLocalizations,
                attributes: .init(name: localization.name, customAppName: localization.customAppName, locale: localization.locale),
                relationships: .init(version: .init(data: .init(_type: .subscriptionGroupVersions, id: version)))))
        return try await context.send { try await $0.subscriptionGroupLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func update(_ localization: LocalizationRecord, id: String, _ context: WriteContext) async throws(ASCError) {
        let body = Components.Schemas.SubscriptionGroupLocalizationV2UpdateRequest(
            data: .init(
                _type: .subscriptionGroupLocalizations, id: id,
                attributes: .init(name: localization.name, customAppName: localization.customAppName)))
        _ = try await context.send { try await $0.subscriptionGroupLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
