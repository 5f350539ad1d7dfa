import IAPCatalog

/// The attributes in-app purchases and subscriptions share: what may change, and what App Store Connect refuses.
/// What only one kind has is that kind's (`SubscriptionKind`'s period, level and multiseat settings).
enum ProductAttributes {
    /// The shared attributes an update request sends: nil leaves one as it is.
    struct Update {
        var fields: [Change.Field] = []
        var referenceName: String?
        var reviewNote: String?
        var familySharable: Bool?
    }

    /// Adds a refused change for family sharing turned off; returns the update of the shared attributes.
    static func compare(_ wanted: ProductRecord, live: ProductRecord, resource: ResourceName, builder: inout PlanBuilder) -> Update {
        if live.familySharable && !wanted.familySharable {
            builder.add(
                .refused, resource, wanted, path: wanted.path.map { $0 / "familySharable" },
                fields: [Change.Field("familySharable", from: "true", to: "false")],
                reason: "App Store Connect cannot turn family sharing off once it is on")
        }
        var update = Update()
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
        return update
    }

    /// The attributes both kinds fill a record field from, for `UnreadAttributes`.
    static let unreadFields: [UnreadAttributes.Field] = [
        .of("name", "referenceName", \.referenceName) { $0 },
        .of("familySharable", "familySharable", \.familySharable) { String($0) },
        .of("reviewNote", "reviewNote", \.reviewNote) { $0 },
    ]
}
