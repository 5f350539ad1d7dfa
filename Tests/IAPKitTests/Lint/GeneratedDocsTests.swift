import Foundation
import IAPCatalog
import IAPCore
@testable import IAPLint
import TestSupport
import Testing

/// The files `make docs` writes: docs/lint-rules.md from the rules (and `iapkit lint rules` shows the same
/// declarations), schemas/catalog.schema.json from the declarations of the catalog's keys (`iapkit lint schema`), and
/// docs/catalog-reference.md from that schema.
@Suite struct GeneratedDocsTests {
    @Test func thePageIsWhatTheRulesWrite() throws {
        let page = try String(contentsOfFile: Paths.repository + "/docs/lint-rules.md", encoding: .utf8)
        let written = RuleDocumentation.markdown()
        let pageLines = page.components(separatedBy: "\n"), writtenLines = written.components(separatedBy: "\n")
        let first = zip(pageLines, writtenLines).enumerated().first { $1.0 != $1.1 }?.offset ?? min(pageLines.count, writtenLines.count)
        let same = page == written
        #expect(
            same,
            """
            docs/lint-rules.md differs from the rules at line \(first + 1) (run `make docs`):
            page:  \(first < pageLines.count ? pageLines[first] : "(end)")
            rules: \(first < writtenLines.count ? writtenLines[first] : "(end)")
            """)
        // Every rule has its section, which SARIF's helpUri points at.
        for rule in RuleRegistry.described {
            #expect(page.contains("\n## \(rule.id)\n"), "no section for \(rule.id)")
            #expect(!rule.rationale.isEmpty && !rule.summary.isEmpty, "\(rule.id) says nothing")
        }
    }

    @Test func theSchemaIsWhatTheKeyDeclarationsWrite() throws {
        let file = try String(contentsOfFile: Paths.catalogSchema, encoding: .utf8)
        let written = CatalogFormat.schema.serialized(.pretty)
        let fileLines = file.components(separatedBy: "\n"), writtenLines = written.components(separatedBy: "\n")
        let first = zip(fileLines, writtenLines).enumerated().first { $1.0 != $1.1 }?.offset ?? min(fileLines.count, writtenLines.count)
        #expect(file == written, "schemas/catalog.schema.json differs from the declarations at line \(first + 1) (run `make docs`)")
        let printed = try iapkit(["lint", "schema"])
        #expect(printed.status == 0 && printed.stdout == written)
        // A schema Python's jsonschema takes as draft 2020-12, whose every object refuses keys it does not declare.
        let check = try python(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            def objects(node):
                if isinstance(node, dict):
                    if node.get('type') == 'object' and 'properties' in node: yield node
                    for value in node.values(): yield from objects(value)
                elif isinstance(node, list):
                    for value in node: yield from objects(value)
            print(all(o.get('additionalProperties') is False for o in objects(schema)), sum(1 for _ in objects(schema)))
            """, [Paths.catalogSchema])
        #expect(check == "True 28\n", "\(check)")
    }

    @Test func theCatalogReferenceIsWhatTheSchemaWrites() throws {
        let script = Paths.repository + "/scripts/docs/catalog-reference.py"
        let check = try run("/usr/bin/env", ["python3", script, "--check"])
        #expect(check.status == 0, "\(check.stderr)")
        // Every key of the schema has its row, so the check compares a page that covers the schema.
        let page = try String(contentsOfFile: Paths.repository + "/docs/catalog-reference.md", encoding: .utf8)
        let keys = try python(
            """
            import json, sys
            def walk(node):
                if isinstance(node, dict):
                    for key, child in node.get("properties", {}).items():
                        print(key)
                        walk(child)
                    for child in node.values():
                        walk(child)
                elif isinstance(node, list):
                    for child in node:
                        walk(child)
            walk(json.load(open(sys.argv[1])))
            """, [Paths.repository + "/schemas/catalog.schema.json"])
        let missing = Set(keys.split(separator: "\n").map(String.init)).filter { !page.contains("| `\($0)` |") }
        #expect(missing.isEmpty, "keys without a row: \(missing.sorted())")
        // The limits column reads as sentences: each a capital or a digit first and a period last, every pattern in
        // words, and a list's limit said of each item (never of each character of a phrase).
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count >= Set(keys.split(separator: "\n")).count, "\(rows.count) rows")
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 5, !cells[5].isEmpty else { continue }
            let limits = cells[5]
            let sentence = (limits.first?.isUppercase == true || limits.first?.isNumber == true) && limits.hasSuffix(".")
            #expect(sentence && !limits.contains("matches `"), "\(cells[1]): the limits read `\(limits)`")
            let eachOfOneCharacter = limits.components(separatedBy: "each ").dropFirst().contains { $0.count < 2 || $0.dropFirst().first == ";" }
            #expect(!eachOfOneCharacter, "\(cells[1]): the limits read `\(limits)`")
        }
    }

    /// Every shell example marked runnable in docs/ runs against the example catalog and the fake App Store
    /// Connect, and every `iapkit` command and option the docs name exists (Tests/Install/test_docs.py).
    @Test func docsExamplesRunAndNameRealCommands() throws {
        let result = try run("/usr/bin/env", ["python3", Paths.repository + "/Tests/Install/test_docs.py", "--iapkit", Paths.binary])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
    }

    @Test func listsEveryRule() throws {
        let result = try iapkit("lint", "rules")
        #expect(result.status == 0, "\(result.stderr)")
        let ids = result.stdout.split(separator: "\n").dropLast().map { String($0.split(separator: " ")[0]) }
        #expect(ids == RuleRegistry.described.map { $0.id })
    }

    @Test func explainsOneRuleWithItsExamples() throws {
        let result = try iapkit("lint", "rules", "product-id-prefix")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("product-id-prefix (warning)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("Why: Reverse-DNS IDs"))
        #expect(result.stdout.contains("Fires on:\n") && result.stdout.contains("productId: ↓coins.small"))
        #expect(result.stdout.contains("Passes:\n"))
        #expect(result.stdout.contains("docs/lint-rules.md#product-id-prefix"))
        #expect(result.stdout.contains("How to read the examples:\n  ↓ marks where the finding points\n"), "\(result.stdout)")
    }

    /// docs/catalog.md lists the `asset-pack-*` rules it speaks of, each linked to its section of the rules page.
    @Test func theCatalogPageListsEveryAssetPackRule() throws {
        let page = try String(contentsOfFile: Paths.repository + "/docs/catalog.md", encoding: .utf8)
        let rules = RuleRegistry.described.map { $0.id }.filter { $0.hasPrefix("asset-pack-") }
        #expect(rules.count >= 10)
        for id in rules { #expect(page.contains("[`\(id)`](lint-rules.md#\(id))"), "docs/catalog.md does not list \(id)") }
    }

    /// The legend explains each notation a rule's examples use, and only those: `↓` only where an example shows it.
    @Test func explainsTheNotationItsExamplesUse() throws {
        let content = try iapkit("lint", "rules", "hosted-content-new")
        #expect(content.status == 0, "\(content.stderr)")
        for line in [
            "@expect ID: the product ID the catalog names the folder for", "@info VERSION ID: a ContentInfo.plist",
            "@lock VERSION same|changed: iapkit.lock records that version", "@lock-other: iapkit.lock lists another product's content only",
        ] {
            #expect(content.stdout.contains(line), "\(line)\n\(content.stdout)")
        }
        #expect(!content.stdout.contains("↓"), "no example of this rule marks a place")
        #expect(!content.stdout.contains("@fifo"), "no example of this rule makes a FIFO")
        let pack = try iapkit("lint", "rules", "asset-pack-content")
        #expect(pack.stdout.contains("#@ lines describe files beside the catalog"), "\(pack.stdout)")
        for rule in RuleRegistry.described {
            let explained = try iapkit("lint", "rules", rule.id).stdout
            let examples = (rule.examples.triggering + rule.examples.nonTriggering).joined(separator: "\n")
            #expect(explained.contains("↓ marks where the finding points") == examples.contains("↓"), "\(rule.id)")
            #expect(explained.contains("@expect ID:") == examples.contains("@expect "), "\(rule.id)")
        }
    }

    @Test func jsonCarriesTheDeclarations() throws {
        let result = try iapkit("lint", "rules", "price", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        let rules = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rules.count == 1)
        #expect(rules.first?["id"] as? String == "price")
        #expect(rules.first?["severity"] as? String == "error")
        #expect(rules.first?["severityOtherwise"] as? String == "warning when missing")
        #expect((rules.first?["triggering"] as? [String])?.isEmpty == false)
        let all = try iapkit("lint", "rules", "--format", "json")
        let everything = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(everything.compactMap { $0["id"] as? String } == RuleRegistry.described.map { $0.id })
    }

    @Test func anUnknownRuleNamesTheNearest() throws {
        let result = try iapkit("lint", "rules", "prce")
        #expect(result.status == 2)
        #expect(result.stderr.contains("`prce` is not a lint rule; did you mean `price`?"), "\(result.stderr)")
        #expect(try iapkit("lint", "rules", "price", "--format", "markdown").status == 2)
    }
}
