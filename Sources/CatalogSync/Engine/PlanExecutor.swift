import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore
import IAPCatalog
import SyncPlan

/// Applies a plan to App Store Connect in the plan's order (each resource kind adds its changes after those it
/// depends on), one write at a time, within App Store Connect's hourly request budget.
///
/// Every run starts from a fresh plan against what App Store Connect holds, so a push that failed, was killed or
/// stopped for the budget is finished by running it again: what was created is found and not created twice.
public final class PlanExecutor: Sendable {
    public let asc: AppStoreConnectClient
    /// What to do when the hourly budget left is smaller than the next operation needs.
    public let budget: BudgetPolicy

    public enum BudgetPolicy: Sendable {
        /// Stop before the operation with `SyncError.budgetExhausted` (exit 75): the next run finishes.
        case stop
        /// Wait until the budget has refilled enough (at the rate of the hourly limit), then go on.
        case wait
    }

    /// What the executor tells the command line as it goes.
    public enum Event: Sendable {
        case operation(index: Int, total: Int, change: Change, operation: any PlannedOperation)
        /// Waiting: for a retry App Store Connect asked for (429, `Retry-After`), or for the hourly budget.
        case waiting(Duration, reason: String)
    }

    public typealias Progress = @Sendable (Event) -> Void

    /// What a push did.
    public struct Outcome: Sendable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        public var operations = 0
        public var requests = 0
    }

    public init(asc: AppStoreConnectClient, budget: BudgetPolicy = .stop) {
        self.asc = asc
        self.budget = budget
    }

    public func apply(_ plan: Plan, progress: Progress? = nil) async throws(SyncError) -> Outcome {
        try await apply(plan, context: WriteContext(asc: asc), progress: progress)
    }

    func apply(_ plan: Plan, context: WriteContext, progress: Progress? = nil) async throws(SyncError) -> Outcome {
        var outcome = Outcome()
        outcome.unchanged = plan.count(.unchanged)
        let total = plan.operations.count
        var left = plan.estimatedRequests
        var index = 0
        var changesDone = 0
        asc.observeWaits { delay in progress?(.waiting(delay, reason: "App Store Connect asked to wait")) }
        context.onWait = { delay, reason in progress?(.waiting(delay, reason: reason)) }
        defer { asc.observeWaits(nil) }
        for change in plan.changes where !change.operations.isEmpty {
            for operation in change.operations {
                if !context.isRecording {
                    try await pace(needed: operation.estimatedRequests, left: left, done: index, total: total,
                                   changesDone: changesDone, progress: progress)
                }
                progress?(.operation(index: index, total: total, change: change, operation: operation))
                guard let write = operation as? any WriteOperation else {
                    throw .store(context: operation.summary, reason: "no resource kind knows how to send this operation")
                }
                do {
                    try await write.perform(context)
                } catch {
                    throw .write(operation: operation.summary, productID: change.productID, location: change.location,
                                 error: error, done: index, total: total)
                }
                left -= operation.estimatedRequests
                outcome.operations += 1
                index += 1
            }
            changesDone += 1
            if change.action == .create { outcome.created += 1 } else if change.action == .update { outcome.updated += 1 }
        }
        outcome.requests = context.requests
        return outcome
    }

    /// Never starts an operation the hourly budget cannot pay for: stops at this consistent point, or waits.
    func pace(needed: Int, left: Int, done: Int, total: Int, changesDone: Int, progress: Progress?) async throws(SyncError) {
        while let limit = asc.rateLimit, let remaining = limit.remaining, remaining < needed {
            let hourly = max(limit.limit ?? 3600, 1)
            // The budget is an hourly allowance: it comes back at about `hourly` requests an hour.
            let perRequest = 3600.0 / Double(hourly)
            let wait = Duration.milliseconds(Int64(Double(max(needed - remaining, 1)) * perRequest * 1000))
            switch budget {
            case .stop:
                let refill = Duration.milliseconds(Int64(Double(max(left - remaining, 1)) * perRequest * 1000))
                throw .budgetExhausted(done: done, total: total, changesDone: changesDone, remaining: remaining,
                                       needed: left, resumeAfter: refill)
            case .wait:
                progress?(.waiting(wait, reason: "App Store Connect's hourly budget: \(remaining) requests left"))
                do { try await Task.sleep(for: wait) } catch { throw .write(
                    operation: "waiting for the hourly budget", productID: nil, location: nil, error: .cancelled, done: done, total: total) }
                // The next answer tells the real remainder; until then assume the wait paid for this operation.
                asc.assumeRateLimit(remaining: needed)
            }
        }
    }
}
