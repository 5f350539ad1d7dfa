import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// Localizations of a subscription version (`subscriptionVersions`, `subscriptionLocalizations` v2).
enum SubscriptionLocalizationAPI: LocalizationAPI {
    typealias Listing = SubscriptionListing
    static let resource = ResourceName.subscriptionLocalization
    static let owner = "subscription"
    static let versionPrefix = "subscription-version"

    static func versions(owner: String) -> @Sendable (Client) async throws -> VersionPage {
        { client in
            let page = try await client.subscriptionsVersionsGetToManyRelated(
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
                    guard case let .subscriptionLocalizations(item) = $0 else { return nil }
                    return listing(item)
                },
                next: page.links.next)
        }
    }

    static func localizations(version: String) -> @Sendable (Client) async throws -> LocalizationPage {
        { client in
            let page = try await client.subscriptionVersionsLocalizationsGetToManyRelated(path: .init(id: version), query: .init(limit: 200)).ok.body
                .json
            return LocalizationPage(localizations: page.data.compactMap(listing), next: page.links.next)
        }
    }

    static func listing(_ item: Components.Schemas.SubscriptionLocalizationV2) -> LocalizationListing? {
        item.attributes?.locale.map {
            LocalizationListing(
                id: item.id, record: LocalizationRecord(locale: $0, name: item.attributes?.name ?? "", description: item.attributes?.description))
        }
    }

    static func createVersion(owner: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.SubscriptionVersionCreateRequest(
            data: .init(
                _type: .subscriptionVersions, relationships: .init(subscription: .init(data: .init(_type: .subscriptions, id: owner)))))
        return try await context.send { try await $0.subscriptionVersionsCreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func create(_ localization: LocalizationRecord, version: String, _ context: WriteContext) async throws(ASCError) -> String {
        let body = Components.Schemas.SubscriptionLocalizationV2CreateRequest(
            data: .init(
                _type: .subscriptionLocalizations,
                attributes: .init(name: localization.name, locale: localization.locale, description: localization.description),
                relationships: .init(version: .init(data: .init(_type: .subscriptionVersions, id: version)))))
        return try await context.send { try await $0.subscriptionLocalizationsV2CreateInstance(body: .json(body)).created.body.json.data.id }
    }

    static func update(_ localization: LocalizationRecord, id: String, _ context: WriteContext) async throws(ASCError) {
        let body = Components.Schemas.SubscriptionLocalizationV2UpdateRequest(
            data: .init(
                _type: .subscriptionLocalizations, id: id,
                attributes: .init(name: localization.name, description: localization.description)))
        _ = try await context.send { try await $0.subscriptionLocalizationsV2UpdateInstance(path: .init(id: id), body: .json(body)).ok }
    }
}
