import IAPCatalog

/// The app's Billing Grace Period in App Store Connect's terms.
public struct GracePeriodRecord: Sendable, Equatable {
    public var optIn: Bool
    public var sandboxOptIn: Bool
    /// THREE_DAYS, SIXTEEN_DAYS or TWENTY_EIGHT_DAYS.
    public var duration: String
    /// ALL_RENEWALS or PAID_TO_PAID_ONLY.
    public var renewalType: String
    public var path: CatalogPath?

    /// What App Store Connect gives an app that never set it: off, 16 days, every renewal.
    public init(
        optIn: Bool = false, sandboxOptIn: Bool = false, duration: String = "SIXTEEN_DAYS",
        renewalType: String = "ALL_RENEWALS", path: CatalogPath? = nil
    ) {
        self.optIn = optIn
        self.sandboxOptIn = sandboxOptIn
        self.duration = duration
        self.renewalType = renewalType
        self.path = path
    }

    static let durations = ["P3D": "THREE_DAYS", "P16D": "SIXTEEN_DAYS", "P28D": "TWENTY_EIGHT_DAYS"]

    /// The catalog's grace period, absent values at App Store Connect's own.
    public init(_ grace: BillingGracePeriod) {
        self.init(path: grace.path)
        optIn = grace.enabled ?? false
        sandboxOptIn = grace.sandbox ?? false
        if let duration = grace.duration.flatMap({ Self.durations[$0] }) { self.duration = duration }
        if grace.renewals == "paid-to-paid" { renewalType = "PAID_TO_PAID_ONLY" }
    }

    /// The catalog's form: nil when App Store Connect holds its defaults, so a pull writes nothing for them.
    public var catalogEntry: BillingGracePeriod? {
        guard self != GracePeriodRecord() else { return nil }
        return BillingGracePeriod(
            path: .root, enabled: optIn, sandbox: sandboxOptIn,
            duration: Self.durations.first { $0.value == duration }?.key,
            renewals: renewalType == "PAID_TO_PAID_ONLY" ? "paid-to-paid" : "all")
    }

    public var fields: [String: String] {
        ["optIn": String(optIn), "sandboxOptIn": String(sandboxOptIn), "duration": duration, "renewalType": renewalType]
    }

    public static func == (lhs: GracePeriodRecord, rhs: GracePeriodRecord) -> Bool {
        lhs.optIn == rhs.optIn && lhs.sandboxOptIn == rhs.sandboxOptIn && lhs.duration == rhs.duration && lhs.renewalType == rhs.renewalType
    }
}
