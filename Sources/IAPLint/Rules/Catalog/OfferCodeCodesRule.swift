import IAPCatalog

/// An offer code's one-time-use batches and custom codes, checked as App Store Connect checks them.
struct OfferCodeCodesRule: ProductRule {
    static let id = "offer-code-codes"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect limits how many one-time codes a batch holds and what a custom code may look like; codes cannot be changed once created."
    static let summary =
        "A batch of one-time codes or a custom code App Store Connect would refuse: a count out of range, "
        + "an expiration that is not a day, an environment other than production or sandbox, a custom code that is not letters and digits of the allowed length, or one used twice."
    static let examples = RuleExamples(
        triggering: [
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       oneTimeCodes: [{count: ↓0, expires: 2031-03-31}]}"),
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       oneTimeCodes: [{count: 10, expires: ↓next-year}]}"),
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       oneTimeCodes: [{count: 10, expires: 2031-03-31, environment: ↓testflight}]}"),
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       customCodes: [{code: ↓SPRING-27, count: 100}]}"),
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       customCodes: [{code: SPRING27, count: ↓0}]}"),
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new],\n"
                    + "       customCodes: [{code: SPRING27, count: 100}, {code: ↓SPRING27, count: 5}]}"),
        ],
        nonTriggering: [
            Example.subscription(
                "  offerCodes:\n    - {referenceName: Spring, mode: free-trial, duration: P1M, eligibility: [new], active: false,\n"
                    + "       oneTimeCodes: [{count: 500, expires: 2031-03-31}, {count: 10, expires: 2031-01-31, active: false},\n"
                    + "                      {count: 50, expires: 2031-01-31, environment: sandbox}],\n"
                    + "       customCodes: [{code: SPRING27, count: 1000, expires: 2031-03-31}]}")
        ])

    /// App Store Connect's bounds, the limits in one place: at most 1,000,000 codes an app a quarter (App Store
    /// Connect Help, offer codes); custom codes of letters and digits (StoreKit's offer-code article), up to 64 long
    /// (our reading: the Help names no length).
    static let batchCodes = 1...1_000_000
    static let customRedemptions = 1...1_000_000
    static let customCodeLength = 1...64

    /// Custom codes are unique across the app's offer codes.
    var seenCodes: [String: CatalogPath] = [:]

    mutating func check(_ product: Product, in context: CatalogLintContext) {
        for offer in product.offerCodes + product.billingPlans.flatMap(\.offerCodes) {
            let name = offer.referenceName.map { "offer code `\($0)`" } ?? "this offer code"
            for batch in offer.oneTimeCodes ?? [] {
                if let count = batch.count, !Self.batchCodes.contains(count) {
                    context.report(
                        Self.self,
                        "\(name): a batch of \(count) one-time codes; App Store Connect makes "
                            + "\(Self.batchCodes.lowerBound) to \(Self.batchCodes.upperBound) a batch", at: batch.path / "count", product: product)
                }
                Self.checkDay(batch.expires, at: batch.path / "expires", name: name, product: product, in: context)
                if let text = batch.environmentText {
                    context.report(
                        Self.self,
                        "\(name): environment `\(text)` names no environment; App Store Connect makes a batch for "
                            + CodeEnvironment.allCases.map(\.rawValue).joined(separator: " or "), at: batch.path / "environment", product: product)
                }
            }
            for code in offer.customCodes ?? [] {
                if let count = code.count, !Self.customRedemptions.contains(count) {
                    context.report(
                        Self.self,
                        "\(name): a custom code for \(count) redemptions; App Store Connect takes "
                            + "\(Self.customRedemptions.lowerBound) to \(Self.customRedemptions.upperBound)", at: code.path / "count",
                        product: product)
                }
                Self.checkDay(code.expires, at: code.path / "expires", name: name, product: product, in: context)
                guard let text = code.code else { continue }
                if !Self.customCodeLength.contains(text.count)
                    || !text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
                {
                    context.report(
                        Self.self,
                        "\(name): custom code `\(text)` must be \(Self.customCodeLength.lowerBound) to "
                            + "\(Self.customCodeLength.upperBound) letters and digits (A-Z, 0-9)", at: code.path / "code", product: product)
                } else if seenCodes[text.uppercased()] != nil {
                    context.report(
                        Self.self, "\(name): custom code `\(text)` is used twice; App Store Connect takes each code once an app",
                        at: code.path / "code", product: product)
                }
                seenCodes[text.uppercased()] = seenCodes[text.uppercased()] ?? code.path
            }
        }
    }

    static func checkDay(_ text: String?, at path: CatalogPath, name: String, product: Product, in context: CatalogLintContext) {
        guard let text, CalendarDay.parse(text) == nil else { return }
        context.report(Self.self, "\(name): `\(text)` is not a day; write it as YYYY-MM-DD", at: path, product: product)
    }
}
