/// How bad a finding is. `--strict` treats warnings as errors.
public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
}

/// Where a value came from: a file, and where known the 1-based line and column.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `catalog.yaml:12:7`, or as much of it as is known.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        if let line = line, line > 0, let column { text += ":\(column)" }
        return text
    }
}

/// One problem in the user's data (a catalog, a content folder). Findings are data, not errors:
/// a lint run that reports findings has done its job.
public struct Finding: Sendable, Hashable {
    public var ruleID: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    /// The YAML path of the offending value, e.g. `products[2].localizations[0].name`.
    public var path: String?
    public var productID: String?

    public init(
        ruleID: String, severity: Severity, message: String, location: SourceLocation,
        path: String? = nil, productID: String? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.path = path
        self.productID = productID
    }
}

/// Receives findings as they are produced (swift-format's consumer closure): the library never prints.
public typealias FindingConsumer = (Finding) -> Void

/// Collects findings in order; the usual consumer when a caller wants them all.
public final class FindingCollector: Sendable {
    // Rules may report from several threads at once (the linter's shared passes).
    private let collected = Locked<[Finding]>([])
    public init() {}
    public var findings: [Finding] { collected.current }
    public func consume(_ finding: Finding) { collected.withLock { $0.append(finding) } }
    public var consumer: FindingConsumer { { [self] in self.consume($0) } }
}

extension Array where Element == Finding {
    public var errorCount: Int { lazy.filter { $0.severity == .error }.count }
    public var warningCount: Int { lazy.filter { $0.severity == .warning }.count }

    /// Stable order for reports: by file, line, column, then rule.
    public func sortedForReport() -> [Finding] {
        enumerated().sorted { a, b in
            let l = a.element.location, r = b.element.location
            if l.file != r.file { return l.file < r.file }
            if (l.line ?? 0) != (r.line ?? 0) { return (l.line ?? 0) < (r.line ?? 0) }
            if (l.column ?? 0) != (r.column ?? 0) { return (l.column ?? 0) < (r.column ?? 0) }
            return a.offset < b.offset
        }.map(\.element)
    }
}
