import AppStoreConnect
import IAPCatalog
import IAPCore

/// How a plan is printed: text (`+`, `~`, `-`, `!`, `?` lines), JSON, or Markdown for a pull request.
public enum PlanFormat: String, Sendable, CaseIterable {
    case text, json, markdown
}

/// A plan made against App Store Connect, with the client that read it (push writes through the same one, so the
/// hourly budget it saw is the one it spends).
public struct PlannedSync: Sendable {
    var plan: Plan
    let client: AppStoreConnectClient?
    public let catalogPath: String
    /// What a push of this plan records as the new base.
    var recording: SyncBase.Recording?

    init(plan: Plan, client: AppStoreConnectClient?, catalogPath: String) {
        self.plan = plan
        self.client = client
        self.catalogPath = catalogPath
    }

    /// The plan in `format`; the text ends with the request budget line.
    public func report(_ format: PlanFormat, showUnchanged: Bool = false) -> String {
        let limit = client?.rateLimit?.limit, remaining = client?.rateLimit?.remaining
        switch format {
        case .text:
            return PlanReport.text(plan, showUnchanged: showUnchanged) + PlanReport.budgetLine(plan, limit: limit, remaining: remaining) + "\n"
        case .json:
            return PlanReport.json(plan, limit: limit, remaining: remaining).serialized(.pretty)
        case .markdown:
            return PlanReport.markdown(plan, limit: PlanReport.commentLimit)
        }
    }

    /// Whether App Store Connect differs from the catalog (`plan --check`): creates, updates or refused changes;
    /// with a base, only refused changes and App Store Connect's own since the base (drift, conflicts), since the
    /// catalog's changes are what the next push sends.
    public var differs: Bool {
        guard plan.base != nil else { return plan.count(.create) + plan.count(.update) + plan.count(.refused) > 0 }
        return plan.count(.refused) + plan.count(origin: .appStoreConnect) + plan.count(origin: .conflict) > 0
    }

    public var operationCount: Int { plan.operations.count }

    public var appID: String { plan.app.id }

    /// Why push refuses this plan before writing anything (exit 1), or nil: `plan` and `plan --out` exit with it
    /// too, after printing and saving the plan, so a plan App Store Connect would refuse is never one that passed.
    public var refusal: SyncError? { Self.refusal(plan, what: "the plan") }

    /// The refusal of a plan with changes App Store Connect forbids, naming each as plan prints it.
    static func refusal(_ plan: Plan, what: String) -> SyncError? {
        let refused = plan.changes.filter { $0.action == .refused }
        guard !refused.isEmpty else { return nil }
        return .refused(
            "\(what) has \(Format.count(refused.count, "change")) App Store Connect would refuse (marked !); nothing can be "
                + "pushed until the catalog is fixed and planned again:\n"
                + refused.map { "  " + PlanReport.line($0, marker: "!") }.joined(separator: "\n"))
    }
}
