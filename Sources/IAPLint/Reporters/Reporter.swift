import IAPCore

/// The `--format` values of `iapkit lint`; one reporter each.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, sarif, github, junit

    public func makeReporter(colour: Bool = false) -> any Reporter {
        switch self {
        case .text: return TextReporter(colour: colour)
        case .json: return JSONReporter()
        case .sarif: return SARIFReporter()
        case .github: return GitHubReporter()
        case .junit: return JUnitReporter()
        }
    }
}

/// What a reporter needs besides the findings.
public struct ReportContext: Sendable {
    public var toolVersion: String
    /// Products the catalog holds (0 for `lint content`).
    public var products: Int
    /// Product IDs in catalog order, so JUnit lists every product, clean ones too.
    public var productIDs: [String]
    /// The file linted, for reports that need one even without findings.
    public var subject: String
    /// Rules of the command beyond lint's own (`localizations import`'s), for reports that list every rule.
    public var extraRules: [(id: String, summary: String)] = []

    public init(toolVersion: String, products: Int, productIDs: [String], subject: String) {
        self.toolVersion = toolVersion
        self.products = products
        self.productIDs = productIDs
        self.subject = subject
    }
}

/// Turns findings into one output format. Reporters return text; the CLI prints it.
public protocol Reporter: Sendable {
    func report(_ findings: [Finding], context: ReportContext) -> String
}
