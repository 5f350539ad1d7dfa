import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
    /// A push the hour's budget cannot pay for whole (its estimate and a tenth): nothing was written.
    case budgetNotStarted(needed: Int, remaining: Int, hourly: Int?, resumeAfter: Duration, total: Int)
    /// A plan's detail reads cost more than the hour has left: nothing was read past the product lists.
    case readBudget(products: Int, needed: Int, remaining: Int, hourly: Int?, refill: Duration)
    /// App Store Connect's hourly budget cannot pay for `context` now, and `--wait` was not given or waiting for it
    /// would pass `--wait-max` (`waitMax`): nothing more was sent. The next run after `resumeAfter` goes on.
    case budgetWait(context: String, resumeAfter: Duration, waitMax: Duration?)
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
        case .budgetExhausted, .budgetNotStarted, .readBudget, .budgetWait: return ExitStatus.budgetSpent
        case let .pushStopped(error, _): return error.exitCode
        // A 429 past the retries: the hour's budget is spent, nothing is wrong, and the next run goes on.
        case let .read(_, error), let .write(_, _, _, error, _, _): return error.isRateLimited ? ExitStatus.budgetSpent : ExitStatus.failed
        default: return ExitStatus.failed
        }
    }

    /// `in about 52 minutes (after 2025-06-01T14:07:00Z)`: when a run can go on, for a person and for a scheduler.
    static func runAgain(after wait: Duration) -> String {
        let seconds = Double(wait.components.seconds)
        let minutes = max(1, Int((seconds / 60).rounded(.up)))
        let at = Date(timeIntervalSinceNow: seconds.rounded(.up)).formatted(.iso8601)
        return "in about \(Format.count(minutes, "minute")) (after \(at))"
    }

    /// `3h`, `90m`, `45s`: a wait limit as `--wait-max` takes it.
    static func limit(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        return seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
    }

    public var description: String {
        switch self {
        case let .appNotFound(bundleID):
            return "no app with bundle ID \(bundleID) is visible to this API key; check app.bundleId or pass --app-id"
        case let .read(context, error):
            if let wait = error.rateLimitWait {
                return "\(context): App Store Connect's hourly request budget is spent (\(error.refusal)). "
                    + "Run again \(Self.runAgain(after: wait)), or pass --wait to wait for it (up to --wait-max)"
            }
            return "\(context): \(error)"
        case let .write(operation, productID, location, error, done, total):
            var text = ""
            if let location { text += "\(location): " }
            text += "\(operation)"
            if let productID { text += " (\(productID))" }
            if let wait = error.rateLimitWait {
                return text + " was refused: App Store Connect's hourly request budget is spent (\(error.refusal)). "
                    + "\(done) of \(Format.count(total, "operation")) were done; run push again "
                    + "\(Self.runAgain(after: wait)) to finish, or pass --wait to wait for the budget"
            }
            text += " failed: \(error). \(done) of \(Format.count(total, "operation")) were done; "
            // Refused for what it asks (a product ID App Store Connect already has, a value it forbids): running push
            // again asks the same; the network or a server error: running it again finishes.
            return text + (error.refusesTheRequest ? "fix what App Store Connect refused, then run push again" : "run push again to finish")
        case let .budgetWait(context, resumeAfter, waitMax):
            let way =
                waitMax.map {
                    "waiting for it would pass --wait-max \(Self.limit($0)); run again \(Self.runAgain(after: resumeAfter)), or raise --wait-max"
                }
                ?? "run again \(Self.runAgain(after: resumeAfter)), or pass --wait to wait for it (up to --wait-max)"
            return "\(context): App Store Connect's hourly request budget cannot pay for it now; nothing more was sent. " + way
        case let .store(context, reason):
            return "\(context): \(reason)"
        case let .refused(reason):
            return reason
        case let .pushStopped(error, written):
            return "\(error)\n\(written)"
        case let .pricesRefused(created, refusals):
            // One line per price, so a long list reads (and greps) as one refusal each.
            return "\(Format.count(refusals.count, "territory price")) App Store Connect does not offer:\n"
                + refusals.map { "  " + $0 + "\n" }.joined() + "Push ran " + created.map { "`\($0)`" }.joined(separator: " and ")
                + " to read the price points through (App Store Connect shows them only through a product) and stopped before "
                + "any other write; fix the price\(refusals.count == 1 ? "" : "s") in the catalog and run push again"
        case let .readBudget(products, needed, remaining, hourly, refill):
            return "reading \(Format.count(products, "product")) in detail needs about \(needed) requests, and App Store Connect's "
                + "hourly budget has \(remaining) left\(hourly.map { " of \($0)" } ?? ""): nothing was read past the product lists. "
                + "Plan only what changed (--changed-since REF, --product ID), run again \(Self.runAgain(after: refill)), "
                + "or pass --wait to pace the reads across hours"
        case let .budgetNotStarted(needed, remaining, hourly, resumeAfter, total):
            let larger = hourly.map { needed > $0 } ?? false
            return "the push needs about \(needed) requests (\(Format.count(total, "operation")), with a tenth to spare) and App Store "
                + "Connect's hourly budget has \(remaining) left\(hourly.map { " of \($0)" } ?? ""): nothing was written, so the change "
                + "is not left half made. "
                + (larger
                    ? "It is larger than one hour's budget: pass --wait to pace it across hours (it stops and resumes safely), or "
                        + "--allow-partial to write what this hour pays for"
                    : "Run again \(Self.runAgain(after: resumeAfter)) (a rolling hour: requests come back an hour after they were "
                        + "made), pass --wait to wait for it, or --allow-partial to write what this hour pays for")
        case let .budgetExhausted(done, total, changesDone, remaining, needed, resumeAfter):
            return "App Store Connect's hourly request budget is nearly used up (\(remaining) left, about \(needed) needed): "
                + "stopped after \(done) of \(Format.count(total, "operation")) (\(Format.count(changesDone, "change")) done, "
                + "\(Format.count(total - done, "operation")) left). "
                + "Run push again \(Self.runAgain(after: resumeAfter)), or pass --wait to wait for the budget (up to --wait-max)"
        }
    }
}

extension ASCError {
    /// Whether App Store Connect refused for the hour's budget (429 past the retries), in a replayed answer too.
    var isRateLimited: Bool {
        switch self {
        case .rateLimited: return true
        case let .replayed(_, error): return error.isRateLimited
        default: return false
        }
    }

    /// How long App Store Connect asked to wait, when it refused for the budget (an hour when it did not say).
    /// App Store Connect refused the request itself (a 4xx other than 429): sending it again is refused again.
    var refusesTheRequest: Bool {
        switch self {
        case let .api(status, _): return (400..<500).contains(status) && status != 429
        case let .replayed(_, error): return error.refusesTheRequest
        default: return false
        }
    }

    /// `429, Retry-After 5m`, quoting a wait only when App Store Connect sent one.
    var refusal: String {
        switch self {
        case let .rateLimited(_, retryAfter?): return "429, Retry-After \(SyncError.limit(retryAfter))"
        case let .replayed(_, error): return error.refusal
        default: return "429, with no time to wait given: within the rolling hour"
        }
    }

    var rateLimitWait: Duration? {
        switch self {
        case let .rateLimited(_, retryAfter): return retryAfter ?? .seconds(3600)
        case let .replayed(_, error): return error.rateLimitWait
        default: return nil
        }
    }
}
