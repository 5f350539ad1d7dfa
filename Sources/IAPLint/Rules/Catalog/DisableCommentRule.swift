import IAPCatalog
import IAPCore

/// A `# iapkit:disable` comment that cannot do its job: no rule, a rule iapkit does not have, no reason, nothing
/// after it to apply to, or (reported by the linter after every rule ran) no finding it accepts.
struct DisableCommentRule: CatalogRule {
    static let id = "disable-comment"
    static let severity = RuleSeverity.warning
    static let rationale = "A finding accepted without a reason, or a comment that accepts nothing, hides the next real finding on that line."
    static let summary =
        "A `# iapkit:disable RULE reason` comment without a reason, naming no rule or an unknown one, or accepting no finding (a warning)."
    static let examples = RuleExamples(
        triggering: [
            Example.product("  productId: coins.small  ↓# iapkit:disable product-id-prefix"),
            Example.product("  productId: coins.small  ↓# iapkit:disable product-id-prefx live before we prefixed IDs"),
            Example.product("  price: 0.99  ↓# iapkit:disable price-free no longer needed"),
        ],
        nonTriggering: [
            Example.product("  productId: coins.small  # iapkit:disable product-id-prefix live before we prefixed IDs")
        ])

    static var ruleIDs: [String] { RuleRegistry.all.map(\.id) }

    func check(_ context: CatalogLintContext) {
        let known = Self.ruleIDs
        for comment in context.catalog.disableComments {
            let problem: String?
            if comment.rules.isEmpty {
                problem = "names no rule; write `# iapkit:disable RULE reason`"
            } else if let unknown = comment.rules.first(where: { !known.contains($0) }) {
                problem =
                    "`\(unknown)` is not an iapkit rule"
                    + (Suggestions.nearest(to: unknown, in: known).map { "; did you mean `\($0)`?" } ?? "")
            } else if comment.reason.isEmpty {
                problem = "gives no reason; write why the finding is accepted after the rule"
            } else if comment.targetLine == 0 {
                problem = "has nothing after it to apply to"
            } else {
                problem = nil
            }
            if let problem { context.emit(Self.finding(comment, in: context.catalog, problem)) }
        }
    }

    static func finding(_ comment: DisableComment, in catalog: Catalog, _ problem: String) -> Finding {
        Finding(
            ruleID: id, severity: .warning, message: "`# \(DisableComment.marker)` \(problem)",
            location: SourceLocation(file: catalog.file, line: comment.line, column: comment.column))
    }
}

/// Drops the findings a `# iapkit:disable` comment accepts, and remembers which comments accepted one.
final class DisableCommentFilter: @unchecked Sendable {
    private let catalog: Catalog
    /// Comment indices by the line they apply to, and by the product whose first line that is.
    private var byLine: [Int: [Int]] = [:]
    private var byProduct: [String: [Int]] = [:]
    private(set) var used: Set<Int> = []

    init(catalog: Catalog) {
        self.catalog = catalog
        guard !catalog.disableComments.isEmpty else { return }
        // A comment must say why: one without a reason accepts nothing (the rule above reports it).
        for (index, comment) in catalog.disableComments.enumerated() where comment.targetLine > 0 && !comment.reason.isEmpty {
            byLine[comment.targetLine, default: []].append(index)
        }
        for product in catalog.allProducts {
            guard let id = product.productID, let line = catalog.location(of: product.path).line,
                let indices = byLine[line]
            else { continue }
            byProduct[id, default: []] += indices
        }
    }

    var isEmpty: Bool { catalog.disableComments.isEmpty }

    /// Whether a comment accepts `finding` (a comment's own findings are never accepted).
    func accepts(_ finding: Finding) -> Bool {
        guard !isEmpty, finding.ruleID != DisableCommentRule.id else { return false }
        var candidates: [Int] = []
        if finding.location.file == catalog.file, let line = finding.location.line { candidates += byLine[line] ?? [] }
        if let id = finding.productID { candidates += byProduct[id] ?? [] }
        guard let match = candidates.first(where: { catalog.disableComments[$0].rules.contains(finding.ruleID) }) else { return false }
        used.insert(match)
        return true
    }

    /// A consumer that hands on only the findings no comment accepts.
    func wrap(_ consumer: @escaping FindingConsumer) -> FindingConsumer {
        guard !isEmpty else { return consumer }
        return { [self] finding in if !accepts(finding) { consumer(finding) } }
    }

    /// The well-formed comments that accepted nothing: stale once the finding they named went away.
    func reportUnused(to consumer: FindingConsumer) {
        let known = DisableCommentRule.ruleIDs
        for (index, comment) in catalog.disableComments.enumerated()
        where !used.contains(index) && comment.targetLine > 0
            && !comment.rules.isEmpty && comment.rules.allSatisfy(known.contains) && !comment.reason.isEmpty
        {
            consumer(
                DisableCommentRule.finding(
                    comment, in: catalog,
                    "accepts no \(comment.rules.map { "`\($0)`" }.joined(separator: " or ")) finding on line \(comment.targetLine); remove it"))
        }
    }
}
