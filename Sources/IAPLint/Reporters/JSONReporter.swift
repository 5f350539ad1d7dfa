import IAPCore

/// The documented JSON report: `{"tool": …, "findings": […], "summary": {"errors", "warnings", "products"}}`.
/// Other tools read it, so the field names and order are part of iapkit's interface.
public struct JSONReporter: Reporter {
    public init() {}

    public func report(_ findings: [Finding], context: ReportContext) -> String {
        let items: [JSONValue] = findings.map { finding in
            .object([
                ("rule", .string(finding.ruleID)),
                ("severity", .string(finding.severity.rawValue)),
                ("message", .string(finding.message)),
                ("file", .string(finding.location.file)),
                ("line", .optional(finding.location.line)),
                ("column", .optional(finding.location.column)),
                ("path", .optional(finding.path)),
                ("productId", .optional(finding.productID)),
            ])
        }
        return JSONValue.object([
            ("tool", .object([("name", .string("iapkit")), ("version", .string(context.toolVersion))])),
            ("findings", .array(items)),
            (
                "summary",
                .object([
                    ("errors", .int(findings.errorCount)), ("warnings", .int(findings.warningCount)),
                    ("products", .int(context.products)),
                ])
            ),
        ]).serialized(.pretty)
    }
}
