import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore
import IAPCatalog

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
        /// Every operation of `change` was accepted (a saved plan's journal counts them).
        case changeDone(Change)
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

    /// How long `.wait` may wait for the budget in all (`--wait-max`), shared with the plan's reads.
    let allowance: WaitAllowance
    /// Start a push the hour cannot pay for whole, and stop where the budget ends (`--allow-partial`).
    let allowsPartial: Bool

    public init(
        asc: AppStoreConnectClient, budget: BudgetPolicy = .stop, allowance: WaitAllowance = WaitAllowance(), allowsPartial: Bool = false
    ) {
        self.asc = asc
        self.budget = budget
        self.allowance = allowance
        self.allowsPartial = allowsPartial
    }

    /// Applies `plan`, recording in `ledger` each operation as App Store Connect accepts it, so a failure or an
    /// interruption can say what was written and what is left.
    public func apply(_ plan: Plan, ledger: PushLedger? = nil, progress: Progress? = nil) async throws(SyncError) -> Outcome {
        try await apply(plan, context: WriteContext(asc: asc), ledger: ledger, progress: progress)
    }

    func apply(_ planned: Plan, context: WriteContext, ledger: PushLedger? = nil, progress: Progress? = nil) async throws(SyncError) -> Outcome {
        // Prices no grid was read for are checked before anything but the product that gives access to the grid.
        // `export asc` records the same order, without the check (it reads nothing).
        let (plan, checks) = Self.probingFirst(planned)
        var pendingChecks = checks[...]
        ledger?.start(plan)
        var outcome = Outcome()
        outcome.unchanged = plan.count(.unchanged)
        let total = plan.operations.count
        var left = plan.estimatedRequests
        var index = 0
        var changesDone = 0
        asc.observeWaits { delay in progress?(.waiting(delay, reason: "App Store Connect asked to wait")) }
        context.onWait = { delay, reason in progress?(.waiting(delay, reason: reason)) }
        defer { asc.observeWaits(nil) }
        if !context.isRecording, !allowsPartial { try await payBeforeStarting(left, total: total, progress: progress) }
        for change in plan.changes where !change.operations.isEmpty {
            for operation in change.operations {
                if let check = pendingChecks.first, check.operations == index {
                    try await self.check(Array(pendingChecks), plan: plan, context: context)
                    pendingChecks = []
                }
                if !context.isRecording {
                    try await pace(
                        needed: operation.estimatedRequests, left: left, done: index, total: total,
                        changesDone: changesDone, progress: progress)
                }
                progress?(.operation(index: index, total: total, change: change, operation: operation))
                guard let write = operation as? any WriteOperation else {
                    throw .store(context: operation.summary, reason: "no resource kind knows how to send this operation")
                }
                do {
                    try await write.perform(context)
                } catch {
                    throw .write(
                        operation: operation.summary, productID: change.productID, location: change.location,
                        error: error, done: index, total: total)
                }
                left -= operation.estimatedRequests
                outcome.operations += 1
                index += 1
                ledger?.operationDone()
            }
            changesDone += 1
            progress?(.changeDone(change))
        }
        if !pendingChecks.isEmpty { try await self.check(Array(pendingChecks), plan: plan, context: context) }
        // Counted from the plan as made: probing first may split a change in two.
        outcome.created = planned.changes.filter { $0.action == .create && !$0.operations.isEmpty }.count
        outcome.updated = planned.changes.filter { $0.action == .update && !$0.operations.isEmpty }.count
        outcome.requests = context.requests
        return outcome
    }

    /// Checks the unchecked prices of every kind against the grids read through the products just created, and
    /// refuses them all at once: one run names every price to fix.
    func check(_ checks: [GridCheck], plan: Plan, context: WriteContext) async throws(SyncError) {
        guard !context.isRecording, let last = checks.last else { return }
        var refusals: [String] = []
        for check in checks {
            do {
                refusals += try await Self.refusals(plan, check, context: context)
            } catch {
                throw .read(context: "reading the price points of \(check.product.name)", error: error)
            }
        }
        guard refusals.isEmpty else {
            let created = plan.changes.prefix { $0.operations.count == 1 }.prefix(last.operations).compactMap(\.operations.first?.summary)
            throw .pricesRefused(created: created, refusals: refusals)
        }
    }

    /// A change is whole or not started: before the first write, the hour must pay for the estimate and a tenth. When
    /// it cannot, nothing is written: exit 75 with when it can, or (`.wait`) a wait until then. A push larger than a
    /// whole hour's budget cannot be whole within one; it is refused unless it may be paced across hours (`.wait`).
    func payBeforeStarting(_ estimate: Int, total: Int, progress: Progress?) async throws(SyncError) {
        guard let limit = asc.rateLimit, let remaining = limit.remaining else { return }
        let needed = estimate + (estimate + 9) / 10
        guard remaining < needed else { return }
        let hourly = limit.limit ?? 3600
        let wait = asc.budgetWait(for: min(needed, hourly))
        guard budget == .wait else {
            throw .budgetNotStarted(needed: needed, remaining: remaining, hourly: limit.limit, resumeAfter: wait, total: total)
        }
        // Larger than an hour's budget: paced across hours, operation by operation, as asked.
        guard needed <= hourly else { return }
        guard allowance.take(wait) else {
            throw .budgetWait(context: "starting the push (about \(needed) requests)", resumeAfter: wait, waitMax: allowance.limit)
        }
        progress?(.waiting(wait, reason: "App Store Connect's hourly budget: \(remaining) requests left, about \(needed) needed to start"))
        do { try await Task.sleep(for: wait) } catch {
            throw .write(operation: "waiting for the hourly budget", productID: nil, location: nil, error: .cancelled, done: 0, total: total)
        }
        asc.assumeRateLimit(remaining: needed)
    }

    /// Never starts an operation the hourly budget cannot pay for: stops at this consistent point, or waits.
    func pace(needed: Int, left: Int, done: Int, total: Int, changesDone: Int, progress: Progress?) async throws(SyncError) {
        while let remaining = asc.rateLimit?.remaining, remaining < needed {
            // A rolling hour: requests come back as the ones made an hour before age out.
            let wait = asc.budgetWait(for: needed)
            switch budget {
            case .wait where !allowance.take(wait), .stop:
                throw .budgetExhausted(
                    done: done, total: total, changesDone: changesDone, remaining: remaining,
                    needed: left, resumeAfter: asc.budgetWait(for: min(left, asc.rateLimit?.limit ?? 3600)))
            case .wait:
                progress?(.waiting(wait, reason: "App Store Connect's hourly budget: \(remaining) requests left"))
                do { try await Task.sleep(for: wait) } catch {
                    throw .write(
                        operation: "waiting for the hourly budget", productID: nil, location: nil, error: .cancelled, done: done, total: total)
                }
                // The next answer tells the real remainder; until then assume the wait paid for this operation.
                asc.assumeRateLimit(remaining: needed)
            }
        }
    }
}

/// What a push has written so far, kept as it goes: read from any thread (an interruption's handler reads it while
/// the push runs), it says what reached App Store Connect and what is left.
public final class PushLedger: @unchecked Sendable {
    private let lock = PThreadLock()
    /// Each change with operations, as `resource productID`, and how many operations it has.
    private var changes: [(name: String, operations: Int)] = []
    private var done = 0
    /// The saved plan being pushed, if any: what finishes an interrupted push is that plan pushed again, never a
    /// plain push, which would send what nobody reviewed.
    private var savedPlan: String?

    public init() {}

    func pushing(savedPlan file: String) { lock.withLock { savedPlan = file } }

    func start(_ plan: Plan) {
        lock.withLock {
            changes = plan.changes.filter { !$0.operations.isEmpty }.map { change in
                (change.resource.rawValue + (change.productID.map { " " + $0 } ?? ""), change.operations.count)
            }
            done = 0
        }
    }

    func operationDone() { lock.withLock { done += 1 } }

    /// Operations App Store Connect accepted, and how many the plan has.
    public var progress: (done: Int, total: Int) {
        lock.withLock { (done, changes.reduce(0) { $0 + $1.operations }) }
    }

    /// Two sentences for the person who ran the push: what was written (whole changes, and a change written in
    /// part), what is left, and that running push again finishes it.
    /// - Parameter advisesRerun: false when running push again would only ask what App Store Connect refused.
    public func report(listing limit: Int = 5, advisesRerun: Bool = true) -> String {
        lock.withLock {
            let total = changes.reduce(0) { $0 + $1.operations }
            guard total > 0 else { return "Nothing was planned, so nothing was written." }
            var counted = 0
            var complete: [String] = []
            var partial: (name: String, done: Int, operations: Int)?
            var untouched: [String] = []
            for change in changes {
                if counted + change.operations <= done {
                    complete.append(change.name)
                } else if counted < done {
                    partial = (change.name, done - counted, change.operations)
                } else {
                    untouched.append(change.name)
                }
                counted += change.operations
            }
            func list(_ names: [String]) -> String {
                names.count <= limit
                    ? names.joined(separator: ", ") : names.prefix(limit).joined(separator: ", ") + " and \(names.count - limit) more"
            }
            guard done > 0 else {
                let nothing = "Nothing was written to App Store Connect (\(Format.count(total, "operation")) planned)."
                // A write whose answer was lost may have been made all the same: the same saved plan finishes it.
                return nothing
                    + (savedPlan.flatMap { advisesRerun ? $0 : nil }.map {
                        " Run `iapkit asc push --plan \($0)` again to finish: it sends what is left of the reviewed plan."
                    } ?? "")
            }
            // Every number adds up: the written operations are those of the complete changes plus the part written of
            // one change; the left ones are that change's rest plus those of the changes not started.
            let partialDone = partial?.done ?? 0
            var written: [String] = []
            if !complete.isEmpty {
                written.append("\(done - partialDone) in \(Format.count(complete.count, "complete change")): \(list(complete))")
            }
            if let partial { written.append("\(partial.done) of \(partial.operations) in \(partial.name)") }
            var text = "Written to App Store Connect: \(done) of \(Format.count(total, "operation")) (" + written.joined(separator: "; ") + "). "
            if done == total { return text + "Nothing is left." }
            var left: [String] = []
            if let partial { left.append("\(partial.operations - partial.done) in \(partial.name)") }
            if !untouched.isEmpty {
                let operations = total - done - (partial.map { $0.operations - $0.done } ?? 0)
                left.append("\(operations) in \(Format.count(untouched.count, "change")) not started: \(list(untouched))")
            }
            text += "Left: \(Format.count(total - done, "operation")) (" + left.joined(separator: "; ") + ")"
            guard advisesRerun else { return text + "." }
            if let savedPlan {
                return text + ". Run `iapkit asc push --plan \(savedPlan)` again to finish: it sends only what is left of the "
                    + "reviewed plan (what reached App Store Connect is recorded in \(savedPlan).applied), so nothing is sent twice."
            }
            return text + ". Run `iapkit asc push` again to finish: it plans against what App Store Connect holds then, "
                + "so nothing is created twice."
        }
    }
}
