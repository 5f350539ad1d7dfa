/// A value shared across threads behind a lock: the project's one box for mutable shared state, so each type that
/// needs one says what it guards instead of pairing a lock with variables by hand.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = PThreadLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the value now.
    public var current: Value { withLock { $0 } }

    public func set(_ newValue: Value) { withLock { $0 = newValue } }
}
