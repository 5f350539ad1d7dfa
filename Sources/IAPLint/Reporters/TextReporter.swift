import IAPCore

/// `catalog.yaml:12:7: error: message [rule-id]`, where a rule is explained, then a summary line; colour only when
/// asked (a terminal).
public struct TextReporter: Reporter {
    public var colour: Bool
    public init(colour: Bool = false) { self.colour = colour }

    public func report(_ findings: [Finding], context: ReportContext) -> String {
        var out = ""
        for finding in findings {
            let label: String
            switch (finding.severity, colour) {
            case (.error, true): label = "\u{1B}[1;31merror\u{1B}[0m"
            case (.warning, true): label = "\u{1B}[1;33mwarning\u{1B}[0m"
            case (let severity, false): label = severity.rawValue
            }
            out += "\(finding.location): \(label): \(finding.message) [\(finding.ruleID)]\n"
        }
        // Each finding names its rule in brackets; one line says where a rule is explained.
        if let rule = findings.first?.ruleID, RuleRegistry.rule(rule) != nil {
            out +=
                "`iapkit lint rules \(rule)` explains a rule, with examples; every rule: \(RuleRegistry.documentationURL(rule).split(separator: "#")[0])\n"
        }
        let errors = findings.errorCount, warnings = findings.warningCount
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var summary = "\(plural(errors, "error")), \(plural(warnings, "warning"))"
        if context.products > 0 { summary += " in \(plural(context.products, "product"))" }
        out += summary + "\n"
        return out
    }
}
