import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// What a plan's reads do when App Store Connect's hourly request budget (`X-Rate-Limit`) cannot pay for them.
public enum ReadBudget: Sendable {
    /// Read regardless (pull, and plans that asked for nothing else).
    case ignore
    /// Read nothing in detail and stop with `SyncError.readBudget` (exit 75).
    case stop
    /// Pace the reads: wait for the budget to come back (as the rolling hour gives requests back) whenever it runs low.
    case wait
}

/// How long one run may wait for App Store Connect's hourly budget in all (`--wait-max`), its reads' waits and its
/// writes' together: a pipeline's job is bounded, and past the limit the run stops with exit 75 and when to run again.
public final class WaitAllowance: Sendable {
    /// Three hours: half of a GitHub Actions job's six, so a nightly job that waits still ends on its own.
    public static let standardLimit = Duration.seconds(3 * 3600)

    public let limit: Duration
    private let spent = Locked<Duration>(.zero)

    public init(limit: Duration = WaitAllowance.standardLimit) { self.limit = limit }

    /// Takes `wait` from what is left; false, taking nothing, when it would pass the limit.
    func take(_ wait: Duration) -> Bool {
        spent.withLock { spent in
            guard spent + wait <= limit else { return false }
            spent += wait
            return true
        }
    }
}

/// Progress of paced reads: a wait for the budget, with the requests read so far of about how many.
public enum ReadEvent: Sendable {
    case waiting(Duration, done: Int, total: Int)
}

public typealias ReadProgress = @Sendable (ReadEvent) -> Void

/// Keeps the detail reads within the hourly budget, as `PlanExecutor.pace` keeps the writes.
final class ReadPacer: @unchecked Sendable {
    let asc: AppStoreConnectClient
    let budget: ReadBudget
    let total: Int
    let writes: (requests: Int, operations: Int)?
    let progress: ReadProgress?
    let allowance: WaitAllowance
    private let lock = PThreadLock()
    private var done = 0

    init(
        asc: AppStoreConnectClient, budget: ReadBudget, total: Int, writes: (requests: Int, operations: Int)? = nil,
        allowance: WaitAllowance, progress: ReadProgress?
    ) {
        self.asc = asc
        self.budget = budget
        self.total = total
        self.writes = writes
        self.allowance = allowance
        self.progress = progress
    }

    /// The estimate is within a tenth of what is sent; a plan starts only when the hour pays for that much more.
    var needed: Int { total + (total + 9) / 10 }

    /// Before the first detail read: with `.stop`, refuses reads the hour cannot pay for, with their margin.
    /// A saved plan's push also needs its writes paid for: otherwise it reads nothing and writes nothing.
    func checkBeforeReading(products: Int) throws(SyncError) {
        guard budget == .stop, let limit = asc.rateLimit, let remaining = limit.remaining else { return }
        if let writes, writes.operations > 0 {
            let whole = needed + writes.requests + (writes.requests + 9) / 10
            guard remaining >= whole else {
                throw .budgetNotStarted(
                    needed: whole, remaining: remaining, hourly: limit.limit, resumeAfter: asc.budgetWait(for: min(whole, limit.limit ?? 3600)),
                    total: writes.operations)
            }
        }
        guard remaining < needed else { return }
        throw .readBudget(products: products, needed: needed, remaining: remaining, hourly: limit.limit, refill: asc.budgetWait(for: needed))
    }

    /// Runs one product's reads (`requests` of them, by the estimate). With `.wait` it first waits until the budget
    /// can pay for them, and when App Store Connect still refuses (429 past the retries) it waits as it asks and reads
    /// the product again from the start. Concurrent reads share one wait, reported once.
    func run<Result>(_ requests: Int, _ read: () async throws(SyncError) -> Result) async throws(SyncError) -> Result {
        while true {
            while let remaining = asc.rateLimit?.remaining, remaining < requests, budget != .ignore {
                let refill = asc.budgetWait(for: requests)
                // Never a product read half: with `.stop` the run ends here (exit 75), between two products.
                guard budget == .wait else { throw .budgetWait(context: readingContext, resumeAfter: refill, waitMax: nil) }
                try await waitForBudget(refill)
                // The next answer tells the real remainder; until then assume the wait paid for these reads.
                asc.assumeRateLimit(remaining: requests)
            }
            do {
                let result = try await read()
                lock.withLock { done += requests }
                return result
            } catch let error {
                guard budget == .wait, case let .read(_, asc) = error, let wait = asc.rateLimitWait else { throw error }
                try await waitForBudget(wait)
            }
        }
    }

    var readingContext: String { "reading the products in detail (\(lock.withLock { done }) of about \(total) requests read)" }

    private var resumeAt: ContinuousClock.Instant?

    /// Sleeps `wait`, or until the wait another read already started ends (reported once).
    private func waitForBudget(_ wait: Duration) async throws(SyncError) {
        let clock = ContinuousClock()
        let (until, isNew): (ContinuousClock.Instant?, Bool) = lock.withLock {
            if let resumeAt, resumeAt > clock.now { return (resumeAt, false) }
            guard allowance.take(wait) else { return (nil, true) }
            let until = clock.now + wait
            resumeAt = until
            return (until, true)
        }
        guard let until else { throw .budgetWait(context: readingContext, resumeAfter: wait, waitMax: allowance.limit) }
        if isNew { progress?(.waiting(wait, done: lock.withLock { done }, total: total)) }
        do { try await Task.sleep(until: until, clock: clock) } catch {
            throw .read(context: "waiting for the hourly budget", error: .cancelled)
        }
    }

}
