import AppStoreConnect
import IAPCore
import IAPCatalog

/// Why an `asc` command could not do its job. Problems in the catalog are findings or refused changes instead.
public enum SyncError: ToolError, Sendable {
    /// No app with this bundle ID is visible to the API key.
    case appNotFound(bundleID: String)
    /// A read failed; `context` says what was being read.
    case read(context: String, error: ASCError)
    /// A write failed. `done` counts the operations that completed before it; running `push` again finishes.
    case write(operation: String, productID: String?, location: SourceLocation?, error: ASCError, done: Int, total: Int)
    /// The hourly request budget left is smaller than the work left: push stopped before operation `done + 1`
    /// (a consistent point; `changesDone` whole changes are in place). Running push again later finishes.
    case budgetExhausted(done: Int, total: Int, changesDone: Int, remaining: Int, needed: Int, resumeAfter: Duration)
    /// A plan's detail reads cost more than the hour has left: nothing was read past the product lists.
    case readBudget(products: Int, needed: Int, remaining: Int, hourly: Int?, refill: Duration)
    /// App Store Connect answered in a way the sync cannot use (a missing price point, an upload that failed).
    case store(context: String, reason: String)
    /// Territory prices plan could not check (no product of their kind existed) that the grid read through the
    /// first product push created does not offer: push stopped after `created`, before any other write.
    case pricesRefused(created: [String], refusals: [String])
    /// What was asked is refused for what it holds, before anything was written: a plan with refused changes, a
    /// stale saved plan.
    case refused(String)
    /// Push stopped on `error` after writing what `written` says (and what is left).
    indirect case pushStopped(SyncError, written: String)

    /// The process's exit status for it: 1 when the catalog or the plan is refused for what it holds, 75 when the
    /// hourly budget is spent (nothing is wrong; the next run finishes), 2 when the job could not be done.
    public var exitCode: Int32 {
        switch self {
        case .pricesRefused, .refused: return ExitStatus.refused
        case .budgetExhausted, .readBudget: return ExitStatus.budgetSpent
        case let .pushStopped(error, _): return error.exitCode
        default: return ExitStatus.failed
        }
    }

    public var description: String {
        switch self {
        case let .appNotFound(bundleID):
            return "no app with bundle ID \(bundleID) is visible to this API key; check app.bundleId or pass --app-id"
        case let .read(context, error):
            return "\(context): \(error)"
        case let .write(operation, productID, location, error, done, total):
            var text = ""
            if let location { text += "\(location): " }
            text += "\(operation)"
            if let productID { text += " (\(productID))" }
            text += " failed: \(error). \(done) of \(Format.count(total, "operation")) were done; run push again to finish"
            return text
        case let .store(context, reason):
            return "\(context): \(reason)"
        case let .refused(reason):
            return reason
        case let .pushStopped(error, written):
            return "\(error)\n\(written)"
        case let .pricesRefused(created, refusals):
            return refusals.joined(separator: "; ") + ". Push ran " + created.map { "`\($0)`" }.joined(separator: " and ")
                + " to read the price points through (App Store Connect shows them only through a product) and stopped before "
                + "any other write; fix the price\(refusals.count == 1 ? "" : "s") in the catalog and run push again"
        case let .readBudget(products, needed, remaining, hourly, refill):
            let minutes = max(1, Int((Double(refill.components.seconds) / 60).rounded(.up)))
            return "reading \(Format.count(products, "product")) in detail needs about \(needed) requests, and App Store Connect's "
                + "hourly budget has \(remaining) left\(hourly.map { " of \($0)" } ?? ""): nothing was read past the product lists. "
                + "Plan only what changed (--changed-since REF, --product ID), run again in about \(minutes) minute\(minutes == 1 ? "" : "s"), "
                + "or pass --wait to pace the reads across hours"
        case let .budgetExhausted(done, total, changesDone, remaining, needed, resumeAfter):
            let minutes = max(1, Int((Double(resumeAfter.components.seconds) / 60).rounded(.up)))
            return "App Store Connect's hourly request budget is nearly used up (\(remaining) left, about \(needed) needed): "
                + "stopped after \(done) of \(Format.count(total, "operation")) (\(Format.count(changesDone, "change")) done, "
                + "\(Format.count(total - done, "operation")) left). "
                + "Run push again in about \(minutes) minute\(minutes == 1 ? "" : "s"), or pass --wait to wait for the budget"
        }
    }
}
