import IAPCatalog
import IAPCore

/// What every rule declares about itself: its stable id, its severity, a one-line summary for SARIF and
/// `iapkit lint rules`, why App Store Connect or a customer cares, and examples that document it and drive its
/// tests. docs/lint-rules.md is written from these.
public protocol RuleDescribing: Sendable {
    static var id: String { get }
    static var severity: RuleSeverity { get }
    static var summary: String { get }
    static var rationale: String { get }
    static var examples: RuleExamples { get }
}

/// The severity of a rule's findings: the usual one, and in words when some findings have the other.
public struct RuleSeverity: Sendable, CustomStringConvertible {
    public var usual: Severity
    public var otherwise: String?
    public init(_ usual: Severity, _ otherwise: String? = nil) {
        self.usual = usual
        self.otherwise = otherwise
    }
    public static let error = RuleSeverity(.error)
    public static let warning = RuleSeverity(.warning)
    /// `error`, or `error (warning when missing)`.
    public var description: String { otherwise.map { "\(usual.rawValue) (\($0))" } ?? usual.rawValue }
}

/// Catalog YAML that must make a rule fire, and YAML that must not. `↓` marks where a finding must point.
public struct RuleExamples: Sendable {
    public var triggering: [String]
    public var nonTriggering: [String]
    public init(triggering: [String] = [], nonTriggering: [String] = []) {
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// A rule over the whole catalog.
public protocol CatalogRule: RuleDescribing {
    init()
    func check(_ context: CatalogLintContext)
    /// The rule as a product rule, or nil. Answered by the conformance itself: `as? any ProductRule` looks the
    /// conformance up at run time, a search of every conformance in the binary for each rule that is not one.
    var asProductRule: (any ProductRule)? { get }
}

extension CatalogRule {
    public var asProductRule: (any ProductRule)? { nil }
}

/// A rule that looks at products one at a time. The linter runs every product rule in one shared pass over the
/// products (in file order), so a catalog of 10,000 products is walked once, not once per rule; each rule still
/// keeps its checks, messages and examples in one place.
public protocol ProductRule: CatalogRule {
    /// Before the products: catalog-level values the rule checks first.
    mutating func start(_ context: CatalogLintContext)
    /// One product or subscription; products come first, then each group's subscriptions.
    mutating func check(_ product: Product, in context: CatalogLintContext)
    /// After the products: what is not a product (subscription groups).
    mutating func finish(_ context: CatalogLintContext)
}

extension ProductRule {
    public var asProductRule: (any ProductRule)? { self }
    public mutating func start(_ context: CatalogLintContext) {}
    public mutating func finish(_ context: CatalogLintContext) {}

    /// The rule on its own, in its own pass.
    public func check(_ context: CatalogLintContext) {
        var rule = self
        rule.start(context)
        context.allProducts.forEach(in: context.allProducts.indices) { rule.check($0, in: context) }
        rule.finish(context)
    }
}

/// A rule over one hosted-content folder.
public protocol ContentRule: RuleDescribing {
    init()
    func check(_ context: ContentLintContext)
}

/// Findings the catalog loader reports itself, because they concern the file's shape.
public struct SchemaRule: RuleDescribing {
    public static let id = "schema"
    public static let severity = RuleSeverity.error
    public static let rationale =
        "A misspelt key is silently ignored by most tools and shows up as a product without its setting in App Store Connect; iapkit reads only the keys it knows, so it names the one it does not."
    public static let summary = "A value has the wrong type, a required key is missing, or a key is unknown."
    public static let examples = RuleExamples(
        triggering: [Example.product("  ↓colour: red"), Example.product("  familySharable: ↓yes")],
        nonTriggering: [Example.product("")])
}

/// An input the run cannot read at all (missing, not a regular file, not UTF-8, empty, not YAML or JSON). The tool
/// fails with exit 2, and the report in the chosen format still says why, on the line libyaml stopped at, so a pull
/// request's syntax error gets its annotation like any finding.
public struct UnreadableInputRule: RuleDescribing {
    public static let id = "unreadable-input"
    public static let severity = RuleSeverity(.error, "exit 2")
    public static let rationale =
        "Nothing else can be checked in a file that cannot be read; the report still says why, on the line the parser stopped at, so a pull request's syntax error gets its annotation like any finding."
    public static let summary = "The catalog or a content folder cannot be read: missing, not a file, not UTF-8, empty, or not YAML or JSON (exit 2)."
    public static let examples = RuleExamples(
        triggering: [Example.header + "products:\n  - productId: com.example.app.one\n   ↓referenceName: One\n"],
        nonTriggering: [Example.product("")])

    /// The finding that stands for `error`, or nil for an error that is not about reading the input.
    public static func finding(for error: IAPKitError) -> Finding? {
        switch error {
        case let .malformed(location, reason):
            return Finding(ruleID: id, severity: .error, message: reason, location: location)
        case let .io(path, reason):
            return Finding(ruleID: id, severity: .error, message: reason, location: SourceLocation(file: path))
        default:
            return nil
        }
    }
}
