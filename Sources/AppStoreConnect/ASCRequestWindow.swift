#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// App Store Connect's hourly request budget is a rolling hour: the limit less the requests made in the previous 60
/// minutes (Apple's "Identifying rate limits"), which `X-Rate-Limit` reports as `user-hour-lim` and `user-hour-rem`.
/// Nothing comes back at a steady rate: a request gives its place back when it is an hour old. The client keeps the
/// time of each request it made, so it can tell when `n` more can be paid for: when the request that must age out
/// turns an hour old; for requests another client made, whose times it cannot know, a whole hour.
public final class ASCRequestWindow: Sendable {
    public static let length = Duration.seconds(3600)
    private let times = Locked<[ContinuousClock.Instant]>([])
    private let clock = ContinuousClock()

    public init() {}

    /// A request App Store Connect answered now.
    func record() {
        let now = clock.now
        times.withLock { times in
            if let first = times.first, first + Self.length <= now { times.removeAll { $0 + Self.length <= now } }
            times.append(now)
        }
    }

    /// How long until `needed` requests can be paid for, with `remaining` left now.
    public func wait(for needed: Int, remaining: Int) -> Duration {
        guard needed > remaining else { return .zero }
        let now = clock.now
        let ours = times.withLock { times in times.filter { $0 + Self.length > now } }
        let ageingOut = needed - remaining
        guard ageingOut <= ours.count else { return Self.length }
        return max(.seconds(1), ours[ageingOut - 1] + Self.length - now)
    }
}
