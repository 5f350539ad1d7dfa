import IAPCore

/// JUnit XML: one test case per product (failing when it has errors), plus one for the catalog as a whole.
public struct JUnitReporter: Reporter {
    public init() {}

    public func report(_ findings: [Finding], context: ReportContext) -> String {
        var byProduct: [String: [Finding]] = [:]
        var general: [Finding] = []
        for finding in findings {
            if let id = finding.productID { byProduct[id, default: []].append(finding) } else { general.append(finding) }
        }
        var cases: [(name: String, findings: [Finding])] = [("catalog", general)]
        var listed = Set<String>()
        for id in context.productIDs where listed.insert(id).inserted { cases.append((id, byProduct[id] ?? [])) }
        for id in byProduct.keys.sorted() where !listed.contains(id) { cases.append((id, byProduct[id]!)) }

        let failures = cases.filter { $0.findings.contains { $0.severity == .error } }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"iapkit lint\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        out += "  <testsuite name=\"\(escape(context.subject))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for testCase in cases {
            out += "    <testcase classname=\"\(escape(context.subject))\" name=\"\(escape(testCase.name))\""
            let errors = testCase.findings.filter { $0.severity == .error }
            let warnings = testCase.findings.filter { $0.severity == .warning }
            if errors.isEmpty && warnings.isEmpty { out += "/>\n"; continue }
            out += ">\n"
            if let first = errors.first {
                let body = errors.map { "\($0.location): \($0.message) [\($0.ruleID)]" }.joined(separator: "\n")
                out += "      <failure type=\"\(escape(first.ruleID))\" message=\"\(escape(first.message))\">\(escape(body))</failure>\n"
            }
            if !warnings.isEmpty {
                let body = warnings.map { "warning: \($0.location): \($0.message) [\($0.ruleID)]" }.joined(separator: "\n")
                out += "      <system-out>\(escape(body))</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
