import IAPCatalog
import IAPCore

/// What every rule declares about itself: its stable id, a one-line summary for `--help`, SARIF and the README,
/// and examples that document it and drive its tests.
public protocol RuleDescribing: Sendable {
    static var id: String { get }
    static var summary: String { get }
    static var examples: RuleExamples { get }
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
}

/// A rule over one hosted-content folder.
public protocol ContentRule: RuleDescribing {
    init()
    func check(_ context: ContentLintContext)
}

/// Findings the catalog loader reports itself, because they concern the file's shape.
public struct SchemaRule: RuleDescribing {
    public static let id = "schema"
    public static let summary = "A value has the wrong type, a required key is missing, or a key is unknown."
    public static let examples = RuleExamples(
        triggering: [Example.product("  ↓colour: red"), Example.product("  familySharable: ↓yes")],
        nonTriggering: [Example.product("")])
}
