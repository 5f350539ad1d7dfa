import IAPCatalog

/// The attributes in-app purchases and subscriptions share: what may change, and what App Store Connect refuses.
enum ProductAttributes {
    struct Update {
        var fields: [Change.Field]
        var referenceName: String?
        var reviewNote: String?
        var familySharable: Bool?
        var groupLevel: Int?
    }

    /// Adds refused changes for a new period or family sharing turned off; returns the update to send, if any.
    static func compare(_ wanted: ProductRecord, live: ProductRecord, resource: String, builder: inout PlanBuilder) -> Update? {
        if let period = wanted.period, let livePeriod = live.period, period != livePeriod {
            builder.add(
                .refused, resource, wanted, path: wanted.path.map { $0 / "period" },
                fields: [Change.Field("period", from: livePeriod, to: period)],
                reason: "App Store Connect cannot change a subscription's period once it is set")
        }
        if live.familySharable && !wanted.familySharable {
            builder.add(
                .refused, resource, wanted, path: wanted.path.map { $0 / "familySharable" },
                fields: [Change.Field("familySharable", from: "true", to: "false")],
                reason: "App Store Connect cannot turn family sharing off once it is on")
        }
        var update = Update(fields: [])
        if wanted.referenceName != live.referenceName {
            update.referenceName = wanted.referenceName
            update.fields.append(Change.Field("referenceName", from: live.referenceName, to: wanted.referenceName))
        }
        if (wanted.reviewNote ?? "") != (live.reviewNote ?? "") {
            update.reviewNote = wanted.reviewNote ?? ""
            update.fields.append(Change.Field("reviewNote", from: live.reviewNote, to: wanted.reviewNote ?? ""))
        }
        if wanted.familySharable && !live.familySharable {
            update.familySharable = true
            update.fields.append(Change.Field("familySharable", from: "false", to: "true"))
        }
        if let level = wanted.groupLevel, level != live.groupLevel {
            update.groupLevel = level
            update.fields.append(Change.Field("groupLevel", from: live.groupLevel.map(String.init), to: String(level)))
        }
        return update.fields.isEmpty ? nil : update
    }
}
