import IAPCore

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=rule::message`.
public struct GitHubReporter: Reporter {
    public init() {}

    public func report(_ findings: [Finding], context: ReportContext) -> String {
        var out = ""
        for finding in findings {
            var properties = ["file=\(escapeProperty(finding.location.file))"]
            if let line = finding.location.line { properties.append("line=\(line)") }
            if let column = finding.location.column { properties.append("col=\(column)") }
            properties.append("title=\(escapeProperty(finding.ruleID))")
            out += "::\(finding.severity == .error ? "error" : "warning") \(properties.joined(separator: ","))::\(escapeData(finding.message))\n"
        }
        return out
    }

    // The escapes GitHub's runner documents for workflow command data and properties.
    private func escapeData(_ text: String) -> String {
        text.replacingAll("%", with: "%25").replacingAll("\r", with: "%0D")
            .replacingAll("\n", with: "%0A")
    }

    private func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingAll(":", with: "%3A").replacingAll(",", with: "%2C")
    }
}
