import IAPCatalog
import IAPCore

/// Whose change a difference between the catalog and App Store Connect is, measured from the base.
public enum ChangeOrigin: String, Sendable, CaseIterable {
    /// The catalog changed it since the base; App Store Connect still has the base's value: pending a push.
    case catalog
    /// App Store Connect changed it since the base (a web edit); the catalog still has the base's value: drift.
    case appStoreConnect
    /// Both changed it, to different values.
    case conflict

    /// The tag a plan line ends with.
    var tag: String {
        switch self {
        case .catalog: return "[pending: the catalog's change]"
        case .appStoreConnect: return "[drift: App Store Connect's change]"
        case .conflict: return "[conflict]"
        }
    }
}

/// Gives each change of a plan its origin. The comparison is the plan's own, made twice against the same App Store
/// Connect: once for the catalog (the plan) and once for the base (`basePlan`). A field the base plan does not
/// change is one App Store Connect holds as the base has it, so the catalog changed it; one it changes to the
/// catalog's value is App Store Connect's change; one it changes to another value both changed.
enum ChangeOrigins {
    static func mark(_ plan: inout Plan, basePlan: Plan, base: String) {
        plan.base = base
        var baseFields: [String: Change.Field] = [:]
        var baseChanges: [String: Int] = [:]
        var byResource: [String: [String]] = [:]
        for change in basePlan.changes where classified(change.action) {
            let key = Self.key(change)
            baseChanges[key, default: 0] += 1
            byResource[resourceKey(change), default: []].append(key)
            for field in change.fields { baseFields[key + "\u{1F}" + field.name] = field }
        }
        for index in plan.changes.indices where classified(plan.changes[index].action) {
            let change = plan.changes[index]
            // A file's bytes are the catalog's, read now for the base too: only the catalog changes them.
            if fileBacked.contains(change.resource) {
                plan.changes[index].origin = .catalog
                continue
            }
            var key = Self.key(change)
            // A detail that counts (`174 territories`) differs between the two plans of one resource.
            if baseChanges[key] == nil, let only = byResource[resourceKey(change)], only.count == 1 { key = only[0] }
            var drift = false
            var conflicts: [Change.Field] = []
            if change.fields.isEmpty { drift = baseChanges[key] != nil }
            // A value App Store Connect did not answer cannot be told changed: the plan already asks before replacing it.
            for field in change.fields where !field.fromUnanswered {
                guard let based = baseFields[key + "\u{1F}" + field.name] else { continue }
                if based.to == field.to { drift = true } else { conflicts.append(Change.Field(field.name, from: nil, to: based.to)) }
            }
            plan.changes[index].origin = !conflicts.isEmpty ? .conflict : drift ? .appStoreConnect : .catalog
            plan.changes[index].baseFields = conflicts
        }
    }

    /// Resources whose value is a file beside the catalog (an image, a screenshot, an asset pack's archive).
    static let fileBacked: Set<ResourceName> = [
        .inAppPurchaseAppStoreReviewScreenshot, .inAppPurchaseImage, .subscriptionAppStoreReviewScreenshot, .subscriptionImage,
        .backgroundAsset, .backgroundAssetVersion,
    ]

    static func classified(_ action: Change.Action) -> Bool { [.create, .update, .delete, .refused].contains(action) }

    static func key(_ change: Change) -> String { resourceKey(change) + "\u{1F}" + (change.detail ?? "") }

    static func resourceKey(_ change: Change) -> String { change.resource.rawValue + "\u{1F}" + (change.productID ?? "") }

    /// The changes a push would make over App Store Connect's own since the base: refused unless the catalog's side
    /// is taken (`--take catalog`). A deletion is asked for by name (`--prune`), and is no overwrite.
    static func overwrites(_ plan: Plan) -> [Change] {
        plan.changes.filter { ($0.origin == .appStoreConnect || $0.origin == .conflict) && $0.action != .delete && !$0.operations.isEmpty }
    }

    /// Why push refuses to overwrite App Store Connect's changes, naming each as plan prints it.
    static func refusal(_ plan: Plan, file: String) -> SyncError? {
        let overwrites = overwrites(plan)
        guard !overwrites.isEmpty else { return nil }
        return .refused(
            "App Store Connect changed \(Format.count(overwrites.count, "resource")) since the base (\(plan.base ?? "none")), and "
                + "the push would overwrite \(overwrites.count == 1 ? "it" : "them"); nothing was written. `iapkit asc pull -o \(file)` "
                + "takes App Store Connect's changes into the catalog (a conflict: `--take asc` or `--take catalog`); "
                + "`--take catalog` pushes the catalog's values over them:\n"
                + overwrites.map { "  " + PlanReport.line($0, marker: "~") }.joined(separator: "\n"))
    }

    /// `Since the base (.iapkit/base/catalog.yaml): 2 the catalog's changes (pending push), 1 App Store Connect's
    /// (drift), 0 conflicts.`
    static func summaryLine(_ plan: Plan) -> String? {
        guard let base = plan.base else { return nil }
        return "Since the base (\(base)): \(Format.count(plan.count(origin: .catalog), "change")) of the catalog's (pending push), "
            + "\(plan.count(origin: .appStoreConnect)) of App Store Connect's (drift), "
            + "\(Format.count(plan.count(origin: .conflict), "conflict")) (both changed)."
    }
}

extension Change {
    /// `[drift: App Store Connect's change]`, `[conflict: the base has price "1.49"]`: how plan lines end.
    var originTag: String? {
        guard let origin else { return nil }
        let base = baseFields.map { "\($0.name) \(PlanReport.quote($0.to))" }.joined(separator: ", ")
        return base.isEmpty ? origin.tag : "[conflict: the base has \(base)]"
    }
}

extension Plan {
    public func count(origin: ChangeOrigin) -> Int { changes.lazy.filter { $0.origin == origin }.count }
}
