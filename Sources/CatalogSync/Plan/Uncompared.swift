/// A record's field that says how or where a value was found (its catalog path, what App Store Connect charges
/// today), not what App Store Connect holds: records compare equal whatever it is, so their equality can be
/// synthesized from the fields that are state and a new field is compared without a hand-written `==` to keep.
@propertyWrapper
public struct Uncompared<Value: Sendable>: Sendable, Equatable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public static func == (lhs: Self, rhs: Self) -> Bool { true }
}
