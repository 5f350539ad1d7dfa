import AppStoreConnect
import AppStoreConnectAPI
import IAPCatalog

/// The app's Billing Grace Period (`subscriptionGracePeriods`): App Store Connect has exactly one per app, so it is
/// only ever read and updated, never created or deleted.
enum GracePeriodKind: AppResourceKind {
    typealias Schemas = Components.Schemas

    static var estimatedReads: Int { 1 }

    static func read(into snapshot: inout StoreSnapshot, reader: StoreReader) async throws(SyncError) {
        let app = snapshot.app.id
        let answer = try await reader.read("reading the app's Billing Grace Period") {
            try await $0.appsSubscriptionGracePeriodGetToOneRelated(path: .init(id: app)).ok.body.json
        }
        let attributes = answer.data.attributes
        var record = GracePeriodRecord()
        if let optIn = attributes?.optIn { record.optIn = optIn }
        if let sandbox = attributes?.sandboxOptIn { record.sandboxOptIn = sandbox }
        if let duration = attributes?.duration?.rawValue { record.duration = duration }
        if let renewal = attributes?.renewalType?.rawValue { record.renewalType = renewal }
        snapshot.gracePeriod = (answer.data.id, record)
    }

    static func plan(_ desired: CatalogRecords, store: StoreSnapshot, builder: inout PlanBuilder) {
        let live = store.gracePeriod
        guard let wanted = desired.gracePeriod else {
            // Off in production and sandbox, its duration and renewals do nothing: whatever App Store Connect
            // answers for an app that never turned it on, it is nothing the catalog leaves out.
            if let live, live.record.optIn || live.record.sandboxOptIn {
                builder.unmanaged(.subscriptionGracePeriod, nil, detail: "optIn \(live.record.optIn), \(live.record.duration)")
            }
            return
        }
        let before = live?.record ?? GracePeriodRecord()
        guard before != wanted || live == nil else {
            builder.add(.unchanged, .subscriptionGracePeriod, nil, path: wanted.path)
            return
        }
        let fields = wanted.fields.keys.sorted().compactMap { key in
            before.fields[key] == wanted.fields[key] ? nil : Change.Field(key, from: live == nil ? nil : before.fields[key], to: wanted.fields[key])
        }
        builder.add(
            .update, .subscriptionGracePeriod, nil, path: wanted.path, fields: fields,
            operations: [Update(id: live?.id, app: store.app.id, record: wanted)])
    }

    /// `PATCH /v1/subscriptionGracePeriods/{id}` with every field. A plan made without reading App Store Connect has
    /// no id: push looks it up first; `export asc` writes `${subscriptionGracePeriod}`.
    struct Update: WriteOperation {
        var id: String?
        var app: String
        var record: GracePeriodRecord
        var summary: String { "update the Billing Grace Period" }
        var estimatedRequests: Int { id == nil ? 2 : 1 }

        func perform(_ context: WriteContext) async throws(ASCError) {
            var resource = id ?? ""
            if id == nil {
                // `export asc` reads nothing: its request names the app's grace period by a placeholder.
                resource =
                    context.isRecording
                    ? "${subscriptionGracePeriod}"
                    : try await context.send {
                        try await $0.appsSubscriptionGracePeriodGetToOneRelated(path: .init(id: app)).ok.body.json.data.id
                    }
            }
            let body = Schemas.SubscriptionGracePeriodUpdateRequest(
                data: .init(
                    _type: .subscriptionGracePeriods, id: resource,
                    attributes: .init(
                        optIn: record.optIn, sandboxOptIn: record.sandboxOptIn,
                        duration: .init(rawValue: record.duration), renewalType: .init(rawValue: record.renewalType))))
            _ = try await context.send {
                try await $0.subscriptionGracePeriodsUpdateInstance(path: .init(id: resource), body: .json(body)).ok.body.json
            }
        }
    }
}
