#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore
import HTTPTypes

/// When to send a request again, and how long to wait first. Every decision is a pure function, so the policy is
/// tested without a network.
///
/// Only answers that prove nothing happened, or requests that cannot do harm twice, are retried:
/// - 429 on any method: App Store Connect refused the request before processing it.
/// - 5xx on GET, HEAD, PUT, PATCH and DELETE: reading twice is harmless, and PUT (an upload's bytes), PATCH (set
///   these attributes) and DELETE are idempotent. POST never: a create that failed late may have happened and
///   would be duplicated.
/// - A transport failure (no answer) on GET and HEAD only: a write may have reached the server.
public struct ASCRetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The most time spent waiting between attempts of one request.
    public var maxTotalWait: Duration
    /// The wait after the first failure; doubled after each further one.
    public var baseDelay: Duration
    /// The longest computed wait (a longer `Retry-After` is honoured while it fits in `maxTotalWait`).
    public var maxDelay: Duration
    /// Attempts in all while App Store Connect answers 429: such a request was refused unprocessed and names its
    /// own wait, so a storm of them is outlasted rather than given up on (within `maxTotalWait`).
    public var rateLimitedAttempts: Int

    public init(
        maxAttempts: Int = 5, maxTotalWait: Duration = .seconds(120), baseDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(30), rateLimitedAttempts: Int = 16
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.rateLimitedAttempts = max(self.maxAttempts, rateLimitedAttempts)
        self.maxTotalWait = maxTotalWait
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let `default` = ASCRetryPolicy()
    /// One attempt, no retries.
    public static let never = ASCRetryPolicy(maxAttempts: 1, maxTotalWait: .zero, rateLimitedAttempts: 1)

    /// Whether an answer with this status may be retried for this method.
    public static func mayRetry(method: HTTPRequest.Method, status: Int) -> Bool {
        if status == 429 { return true }
        guard (500...599).contains(status) else { return false }
        switch method {
        case .get, .head, .put, .patch, .delete: return true
        default: return false
        }
    }

    /// Whether a request that got no answer at all may be sent again.
    public static func mayRetryAfterTransportFailure(method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head
    }

    /// The exponential backoff after failed attempt number `attempt` (1 for the first), with "equal jitter": half
    /// of the delay is fixed, the other half scaled by `jitter` in 0...1, so concurrent clients spread out.
    public func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(Self.seconds(baseDelay) * pow(2, Double(exponent)), Self.seconds(maxDelay))
        let spread = min(max(jitter, 0), 1)
        return .milliseconds(Int64((full / 2 + full / 2 * spread) * 1000))
    }

    /// What to do after failed attempt number `attempt` (1 for the first).
    /// - Parameters:
    ///   - status: the answer's status, or nil when no answer came.
    ///   - waited: the time already spent waiting for this request.
    ///   - retryAfter: the server's `Retry-After`, which replaces the computed backoff when present.
    public func decide(
        method: HTTPRequest.Method, status: Int?, attempt: Int, waited: Duration,
        retryAfter: Duration?, jitter: Double
    ) -> ASCRetryDecision {
        let retryable =
            status.map { Self.mayRetry(method: method, status: $0) }
            ?? Self.mayRetryAfterTransportFailure(method: method)
        guard retryable else { return .stop(.notRetryable) }
        let attempts = status == 429 ? rateLimitedAttempts : maxAttempts
        guard attempt < attempts else { return .stop(.attemptsExhausted) }
        let delay = retryAfter.map { max($0, .zero) } ?? backoff(afterAttempt: attempt, jitter: jitter)
        guard waited + delay <= maxTotalWait else { return .stop(.waitExhausted) }
        return .retry(after: delay)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

public enum ASCRetryDecision: Sendable, Equatable {
    case retry(after: Duration)
    case stop(StopReason)

    public enum StopReason: Sendable, Equatable {
        /// The method and status (or transport failure) are never retried.
        case notRetryable
        case attemptsExhausted
        /// The next wait would go past the policy's total wait.
        case waitExhausted
    }
}

/// The `Retry-After` header: a number of seconds or an HTTP date (RFC 9110, section 10.2.3).
public enum ASCRetryAfter {
    /// The wait the header asks for, never negative; nil when it is absent or malformed.
    public static func parse(_ value: String?, now: Date) -> Duration? {
        guard let text = value?.trimmingSpaces(), !text.isEmpty else { return nil }
        if text.allSatisfy(\.isASCIIDigit) {
            guard let seconds = Int64(text) else { return nil }
            return .seconds(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now)).rounded(.up)
        return .seconds(Int64(seconds))
    }

    private static func httpDate(_ text: String) -> Date? {
        // IMF-fixdate (the only form senders may use), and the two obsolete forms receivers must accept.
        HTTPDate.parse(text)
    }
}

/// App Store Connect's hourly request budget, from the `X-Rate-Limit` header (`user-hour-lim:3600;user-hour-rem:3599;`).
public struct ASCRateLimit: Sendable, Equatable {
    /// Requests allowed per hour, when the header says.
    public var limit: Int?
    /// Requests left this hour.
    public var remaining: Int?

    public init(limit: Int?, remaining: Int?) {
        self.limit = limit
        self.remaining = remaining
    }

    /// Nil when the header is absent or names neither number.
    public static func parse(_ header: String?) -> ASCRateLimit? {
        guard let header else { return nil }
        var result = ASCRateLimit(limit: nil, remaining: nil)
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { String($0).trimmingSpaces() }
            guard pair.count == 2, let value = Int(pair[1]) else { continue }
            if pair[0].hasSuffix("-lim") { result.limit = value }
            if pair[0].hasSuffix("-rem") { result.remaining = value }
        }
        return result.limit == nil && result.remaining == nil ? nil : result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
