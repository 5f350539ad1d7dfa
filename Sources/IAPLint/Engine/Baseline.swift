#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// Findings accepted as they stand (`lint --write-baseline FILE`), so a team turning on `--strict` for an existing
/// catalog fails only on new findings (`lint --baseline FILE`). A finding is matched by its rule, file, product and
/// message, never by its line, which moves as the catalog is edited; an entry accepts as many findings as it counted.
public struct Baseline: Sendable, Equatable {
    struct Key: Hashable, Comparable {
        var rule: String
        var file: String
        var productID: String?
        var message: String

        init(_ finding: Finding) {
            rule = finding.ruleID
            file = finding.location.file
            productID = finding.productID
            message = finding.message
        }

        init(rule: String, file: String, productID: String?, message: String) {
            self.rule = rule
            self.file = file
            self.productID = productID
            self.message = message
        }

        static func < (a: Key, b: Key) -> Bool {
            (a.file, a.productID ?? "", a.rule, a.message) < (b.file, b.productID ?? "", b.rule, b.message)
        }
    }

    var counts: [Key: Int]

    public init(findings: [Finding]) {
        counts = [:]
        for finding in findings { counts[Key(finding), default: 0] += 1 }
    }

    /// How many findings the baseline accepts.
    public var count: Int { counts.values.reduce(0, +) }

    /// `{"version": 1, "findings": [{"rule", "file", "productId", "message", "count"}]}`, sorted, one entry a line
    /// in a review.
    public func serialized() -> String {
        let entries: [JSONValue] = counts.keys.sorted().map { key in
            .object([
                ("rule", .string(key.rule)), ("file", .string(key.file)), ("productId", .optional(key.productID)),
                ("message", .string(key.message)), ("count", .int(counts[key]!)),
            ])
        }
        return JSONValue.object([("version", .int(1)), ("findings", .array(entries))]).serialized(.pretty)
    }

    /// More of one finding than any catalog holds; a larger count was not written by iapkit.
    static let countLimit = 1_000_000

    public static func read(_ path: String) throws(IAPKitError) -> Baseline {
        let data = try InputFile.read(path, limit: InputFile.Limit.json)
        func malformed(_ reason: String) -> IAPKitError { .malformed(location: SourceLocation(file: path), reason: reason) }
        let root: JSONValue
        do { root = try JSONValue.parse(data) } catch { throw malformed("is not a baseline: not valid JSON") }
        guard case .int(1)? = root["version"], case let .array(entries)? = root["findings"] else {
            throw malformed("is not a baseline: expected {\"version\": 1, \"findings\": [...]} as `iapkit lint --write-baseline` writes it")
        }
        var baseline = Baseline(findings: [])
        for (index, entry) in entries.enumerated() {
            guard case let .string(rule)? = entry["rule"], case let .string(file)? = entry["file"],
                case let .string(message)? = entry["message"]
            else {
                throw malformed("findings[\(index)] needs `rule`, `file` and `message`")
            }
            var productID: String?
            switch entry["productId"] {
            case nil, .null?: break
            case let .string(id)?: productID = id
            default: throw malformed("findings[\(index)].productId must be text or null")
            }
            var count = 1
            switch entry["count"] {
            case nil: break
            case let .int(number)? where (1...Self.countLimit).contains(number): count = number
            default: throw malformed("findings[\(index)].count must be a whole number from 1 to \(Self.countLimit)")
            }
            let key = Key(rule: rule, file: file, productID: productID, message: message)
            baseline.counts[key] = min(baseline.counts[key, default: 0] + count, Self.countLimit)
        }
        return baseline
    }

    /// The findings the baseline does not accept, and how many it accepted.
    public func newFindings(in findings: [Finding]) -> (findings: [Finding], accepted: Int) {
        var left = counts
        var kept: [Finding] = []
        for finding in findings {
            let key = Key(finding)
            if let remaining = left[key], remaining > 0 { left[key] = remaining - 1 } else { kept.append(finding) }
        }
        return (kept, findings.count - kept.count)
    }
}
