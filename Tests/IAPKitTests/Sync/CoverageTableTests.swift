import Foundation
import TestSupport
import Testing

/// The table of App Store Connect resource types ("What `asc` covers") against what iapkit's client knows,
/// and, with Apple's OpenAPI document beside the project, against every in-app-purchase type the document has.
struct CoverageTableTests {
    static let statuses = ["managed", "read-only", "not yet", "not applicable"]

    /// Type → status, from the table in docs/asc.md.
    static func table() throws -> [String: String] {
        let readme = try String(contentsOfFile: Paths.repository + "/docs/asc.md", encoding: .utf8)
        guard let start = readme.range(of: "## What `asc` covers") else { return [:] }
        var rows: [String: String] = [:]
        for line in readme[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("| `") }) {
            guard line.hasPrefix("| `") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        return rows
    }

    @Test func everyRowHasAStatusAndAReason() throws {
        let table = try Self.table()
        #expect(table.count >= 50, "the table has \(table.count) rows")
        for (type, status) in table { #expect(Self.statuses.contains(status), "\(type): `\(status)`") }
        let readme = try String(contentsOfFile: Paths.repository + "/docs/asc.md", encoding: .utf8)
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") && table.keys.contains(where: { line.hasPrefix("| `\($0)` |") }) {
            #expect(line.split(separator: "|").count == 3 && !line.hasSuffix("|  |"), "\(line)")
        }
    }

    /// A type marked managed or read-only is one the generated client sends or reads: a resource type of its
    /// schemas, or (the code values, which are CSV) a `/values` path of its parent type.
    @Test func managedTypesAreInTheClient() throws {
        let generated = Paths.repository + "/Sources/AppStoreConnectAPI/Generated/"
        let schemas = try String(contentsOfFile: generated + "Types+Components+Schemas.swift", encoding: .utf8)
        let client = try String(contentsOfFile: generated + "Client.swift", encoding: .utf8)
        for (type, status) in try Self.table() where status == "managed" || status == "read-only" {
            let parent = type.hasSuffix("Values") ? String(type.dropLast("Values".count)) + "s" : nil
            let known = schemas.contains("case \(type) = \"\(type)\"") || parent.map { client.contains("/\($0)/{}/values") } == true
            #expect(known, "\(type) is \(status) but the client has no such type")
        }
    }

    /// Every in-app-purchase type of the document is in the table, and the table names no type the document lacks.
    @Test(.enabled(if: Reference.available, Reference.skipReason))
    func theTableCoversTheDocument() throws {
        let script = """
            import json, re, sys
            spec = json.load(open(sys.argv[1]))
            found = set()
            for name, schema in spec['components']['schemas'].items():
                props = schema.get('properties', {})
                kind = props.get('type', {}).get('enum', [])
                if len(kind) == 1 and 'id' in props and 'Request' not in name and 'Linkage' not in name:
                    found.add(kind[0])
            pattern = re.compile(r'^(inAppPurchase|subscription|winBackOffer|promotedPurchase|backgroundAsset|reviewSubmission)')
            print('\\n'.join(sorted(t for t in found if pattern.match(t))))
            """
        let documented = Set(try python(script, [Reference.openAPI]).split(separator: "\n").map(String.init))
        let listed = Set(try Self.table().keys)
        #expect(documented.count >= 50)
        #expect(documented.subtracting(listed).sorted() == [], "types the table in docs/asc.md leaves out")
        #expect(listed.subtracting(documented).sorted() == [], "types the README lists that API 4.4.1 does not have")
    }
}
