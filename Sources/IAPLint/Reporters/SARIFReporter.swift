import IAPCore

/// SARIF 2.1.0 for code-scanning dashboards; every rule is listed in `tool.driver.rules`.
public struct SARIFReporter: Reporter {
    public static let informationURI = "https://github.com/iapkit/iapkit"
    public init() {}

    public func report(_ findings: [Finding], context: ReportContext) -> String {
        let rules = RuleRegistry.all + context.extraRules
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let descriptors: [JSONValue] = rules.map { rule in
            .object([
                ("id", .string(rule.id)),
                ("name", .string(rule.id)),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("helpUri", .string(RuleRegistry.documentationURL(rule.id))),
            ])
        }
        let results: [JSONValue] = findings.map { finding in
            var region: [(String, JSONValue)] = []
            if let line = finding.location.line, line > 0 { region.append(("startLine", .int(line))) }
            if let column = finding.location.column, column > 0, !region.isEmpty { region.append(("startColumn", .int(column))) }
            var physical: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(uri(finding.location.file)))]))]
            if !region.isEmpty { physical.append(("region", .object(region))) }
            var result: [(String, JSONValue)] = [
                ("ruleId", .string(finding.ruleID)),
                ("level", .string(finding.severity == .error ? "error" : "warning")),
                ("message", .object([("text", .string(finding.message))])),
                ("locations", .array([.object([("physicalLocation", .object(physical))])])),
            ]
            if let index = ruleIndex[finding.ruleID] { result.insert(("ruleIndex", .int(index)), at: 1) }
            var properties: [(String, JSONValue)] = []
            if let path = finding.path { properties.append(("path", .string(path))) }
            if let productID = finding.productID { properties.append(("productId", .string(productID))) }
            if !properties.isEmpty { result.append(("properties", .object(properties))) }
            return .object(result)
        }
        return JSONValue.object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("iapkit")),
                                        ("version", .string(context.toolVersion)),
                                        ("informationUri", .string(Self.informationURI)),
                                        ("rules", .array(descriptors)),
                                    ])
                                )
                            ])
                        ),
                        ("results", .array(results)),
                    ])
                ])
            ),
        ]).serialized(.pretty)
    }

    /// A relative URI reference: SARIF wants `/` separators and percent-escaped spaces.
    private func uri(_ path: String) -> String {
        var text = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        text = text.replacingAll("%", with: "%25").replacingAll(" ", with: "%20")
        return text
    }
}
