import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// A subscription group: its reference name (unique in the app) and its localizations on the current version.
enum SubscriptionGroupKind {
    typealias Schemas = Components.Schemas

    static func ref(_ name: String) -> String { "group:\(name)" }

    /// Reads the group's current localizations (one request: its versions with `include=localizations`).
    static func read(_ group: Schemas.SubscriptionGroup, reader: StoreReader) async throws(SyncError) -> StoreGroup {
        let name = group.attributes?.referenceName ?? group.id
        var result = StoreGroup(record: GroupRecord(referenceName: name), id: group.id)
        if let current = try await VersionLocalizationsKind<GroupLocalizationAPI>.currentVersion(owner: group.id, reader: reader) {
            result.version = current.version.id
            result.versionEditable = current.editable
            for localization in current.localizations {
                result.record.localizations.append(localization.record)
                result.localizations[localization.record.locale] = localization.id
            }
            result.record.localizations.sort { $0.locale < $1.locale }
        }
        return result
    }

    /// Adds the group's changes; returns how later operations name it.
    static func plan(_ group: GroupRecord, live: StoreGroup?, builder: inout PlanBuilder) -> ResourceRef {
        let ref: ResourceRef
        if let live {
            ref = .id(live.id)
            builder.add(.unchanged, .subscriptionGroup, nil, path: group.path, detail: group.referenceName)
        } else {
            ref = .created(Self.ref(group.referenceName))
            builder.add(
                .create, .subscriptionGroup, nil, path: group.path, detail: group.referenceName,
                fields: [Change.Field("referenceName", from: nil, to: group.referenceName)],
                operations: [Create(ref: Self.ref(group.referenceName), app: builder.app.id, referenceName: group.referenceName)])
        }
        let ids = live.map { ProductIDs(resource: $0.id, version: $0.version, versionEditable: $0.versionEditable, localizations: $0.localizations) }
        VersionLocalizationsKind<GroupLocalizationAPI>.plan(
            group.localizations, live: live?.record.localizations ?? [], ids: ids, ownerName: group.referenceName, owner: ref,
            ownerIsNew: live == nil, record: nil, path: group.path, detailPrefix: group.referenceName, builder: &builder)
        return ref
    }

    struct Create: WriteOperation {
        var ref: String
        var app: String
        var referenceName: String
        var summary: String { "create subscription group \(referenceName)" }
        var createdRef: String? { ref }

        func perform(_ context: WriteContext) async throws(ASCError) {
            let body = Schemas.SubscriptionGroupCreateRequest(
                data: .init(
                    _type: .subscriptionGroups, attributes: .init(referenceName: referenceName),
                    relationships: .init(app: .init(data: .init(_type: .apps, id: app)))))
            let id = try await context.send { try await $0.subscriptionGroupsCreateInstance(body: .json(body)).created.body.json.data.id }
            context.record(created: id, as: ref)
        }
    }
}
