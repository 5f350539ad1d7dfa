import Foundation
import HostedContent
import IAPCatalog
import IAPCore
@testable import IAPLint
import TestSupport
import Testing

/// Runs every rule's documented examples: triggering ones must fire (at the `↓` mark when there is one),
/// non-triggering ones must not.
@Suite struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var yaml: String
        var triggers: Bool
        var testDescription: String { "\(rule) \(triggers ? "fires" : "quiet") #\(yaml.hashValue & 0xFFF)" }
    }

    static let catalogCases: [Case] = ([SchemaRule.self] + RuleRegistry.catalogRules.map { $0 as any RuleDescribing.Type })
        .flatMap { rule in
            rule.examples.triggering.map { Case(rule: rule.id, yaml: $0, triggers: true) }
                + rule.examples.nonTriggering.map { Case(rule: rule.id, yaml: $0, triggers: false) }
        }

    /// Removes the `↓` mark and returns where it stood (1-based line and column in Unicode scalars).
    static func mark(in text: String) -> (String, line: Int, column: Int)? {
        let lines = text.components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
            let scalars = Array(line.unicodeScalars)
            if let column = scalars.firstIndex(of: "↓") {
                var cleaned = lines
                cleaned[index] = line.replacingOccurrences(of: "↓", with: "")
                return (cleaned.joined(separator: "\n"), index + 1, column + 1)
            }
        }
        return nil
    }

    @Test func everyRuleHasBothKindsOfExample() {
        for rule in [SchemaRule.self] + RuleRegistry.catalogRules.map({ $0 as any RuleDescribing.Type })
            + RuleRegistry.contentRules.map({ $0 as any RuleDescribing.Type })
        {
            #expect(!rule.examples.triggering.isEmpty, "\(rule.id) has no triggering example")
            #expect(!rule.examples.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
        }
        let ids = RuleRegistry.all.map(\.id)
        #expect(Set(ids).count == ids.count, "rule ids must be unique")
    }

    /// A rule whose severity names no exception reports only its declared severity (docs/lint-rules.md and
    /// `iapkit lint rules` show the declaration).
    static func expectDeclaredSeverity(_ fired: [Finding], of id: String) {
        guard let rule = RuleRegistry.rule(id) else {
            Issue.record("\(id) is not in RuleRegistry.described")
            return
        }
        if rule.severity.otherwise == nil {
            #expect(
                fired.allSatisfy { $0.severity == rule.severity.usual },
                "\(id) declares \(rule.severity) but reported \(fired.map { "\($0.severity): \($0.message)" })")
        }
    }

    /// A PNG signature and IHDR chunk (CRC left zero: lint reads the header, not the pixels).
    static func pngHeader(width: Int, height: Int, colourType: UInt8) -> Data {
        func be(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
                + [8, colourType, 0, 0, 0] + [0, 0, 0, 0] + be(0) + Array("IEND".utf8) + [0, 0, 0, 0])
    }

    @Test(arguments: catalogCases)
    func catalogRuleExample(_ example: Case) throws {
        let dir = TemporaryDirectory()
        let marked = Self.mark(in: example.yaml)
        let yaml = marked?.0 ?? example.yaml
        dir.write("shot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]))
        dir.write("fake.png", "not an image")
        mkfifo(dir.file("pipe.png"), 0o644)
        // Promotional images: PNG headers of the size and colour type each example needs.
        dir.write("promo.png", Self.pngHeader(width: 1024, height: 1024, colourType: 2))
        dir.write("small.png", Self.pngHeader(width: 512, height: 512, colourType: 2))
        dir.write("alpha.png", Self.pngHeader(width: 1024, height: 1024, colourType: 6))
        // `#@ SPEC` comment lines describe files beside the catalog (asset packs), in ContentExample's notation.
        let files = yaml.split(separator: "\n").filter { $0.hasPrefix("#@ ") }.map { $0.dropFirst(3) }.joined(separator: "\n")
        if !files.isEmpty { _ = try Self.materialize(files + "\n", in: dir.path) }
        let path = dir.write("catalog.yaml", yaml)
        let collector = FindingCollector()
        try CatalogLinter().lint(catalogAt: path, consumer: collector.consumer)
        let fired = collector.findings.filter { $0.ruleID == example.rule }
        if example.triggers {
            #expect(!fired.isEmpty, "expected \(example.rule) in:\n\(yaml)\ngot: \(collector.findings.map { "\($0.ruleID): \($0.message)" })")
            Self.expectDeclaredSeverity(fired, of: example.rule)
            if let marked {
                #expect(
                    fired.contains { $0.location.line == marked.line && $0.location.column == marked.column },
                    "expected \(example.rule) at \(marked.line):\(marked.column), got \(fired.map { "\($0.location): \($0.message)" })")
            }
        } else {
            #expect(fired.isEmpty, "unexpected \(fired.map(\.message)) in:\n\(yaml)")
        }
    }

    // MARK: Content rules

    static let contentCases: [Case] = RuleRegistry.contentRules.flatMap { rule in
        rule.examples.triggering.map { Case(rule: rule.id, yaml: $0, triggers: true) }
            + rule.examples.nonTriggering.map { Case(rule: rule.id, yaml: $0, triggers: false) }
    }

    /// Builds a folder from the notation documented in `ContentExample`.
    static func materialize(_ spec: String, in folder: String) throws -> (expected: String?, lock: ContentLock.Entry?, lockListsProducts: Bool) {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var expected: String?
        var lockSpec: (String, String)?
        var lockListsProducts = false
        for line in spec.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ").map(String.init)
            if line.hasPrefix("@expect ") { expected = words[1]; continue }
            if line.hasPrefix("@info ") {
                try ContentInfo(dictionary: PropertyListDictionaryFactory.make(version: words[1], id: words[2])).data()
                    .write(to: URL(fileURLWithPath: folder + "/ContentInfo.plist"))
                continue
            }
            if line.hasPrefix("@lock ") { lockSpec = (words[1], words[2]); continue }
            if line == "@lock-other" { lockListsProducts = true; continue }
            if line.hasPrefix("@fifo ") { mkfifo(folder + "/" + words[1], 0o644); continue }
            if line.hasPrefix("@badname ") {
                // The name's bytes with 0xFF appended: never valid UTF-8.
                let name = (Array((folder + "/" + words[1]).utf8) + [0xFF, 0]).map { CChar(bitPattern: $0) }
                close(open(name, O_CREAT | O_WRONLY, 0o644))
                continue
            }
            if line.hasPrefix("@sparse ") {
                let path = folder + "/" + words[1]
                fileManager.createFile(atPath: path, contents: nil)
                truncate(path, off_t(words[2])!)
                continue
            }
            if line.hasSuffix("/") {
                try fileManager.createDirectory(atPath: folder + "/" + line, withIntermediateDirectories: true)
            } else if let range = line.range(of: " -> ") {
                try fileManager.createSymbolicLink(
                    atPath: folder + "/" + line[..<range.lowerBound],
                    withDestinationPath: String(line[range.upperBound...]))
            } else if let range = line.range(of: ": ") {
                let path = folder + "/" + line[..<range.lowerBound]
                try fileManager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let text = String(line[range.upperBound...]).replacingOccurrences(of: "\\n", with: "\n")
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            }
        }
        var lock: ContentLock.Entry?
        if let (version, state) = lockSpec {
            let digest = try ContentDigest.compute(tree: ContentTree.scan(folder))
            lock = ContentLock.Entry(contentVersion: version, digest: state == "same" ? digest : "sha256:0000")
        }
        return (expected, lock, lockListsProducts)
    }

    @Test(arguments: contentCases)
    func contentRuleExample(_ example: Case) throws {
        let dir = TemporaryDirectory()
        let folder = dir.file("com.example.app.one")
        let setup = try Self.materialize(example.yaml, in: folder)
        let collector = FindingCollector()
        try ContentLinter().lint(
            folder: folder, expectedProductID: setup.expected, lockEntry: setup.lock, lockListsProducts: setup.lockListsProducts,
            consumer: collector.consumer)
        let fired = collector.findings.filter { $0.ruleID == example.rule }
        if example.triggers {
            #expect(
                !fired.isEmpty, "expected \(example.rule) for:\n\(example.yaml)\ngot: \(collector.findings.map { "\($0.ruleID): \($0.message)" })")
            Self.expectDeclaredSeverity(fired, of: example.rule)
        } else {
            #expect(fired.isEmpty, "unexpected \(fired.map(\.message)) for:\n\(example.yaml)")
        }
    }
}

import PropertyList

enum PropertyListDictionaryFactory {
    static func make(version: String, id: String) -> PropertyListDictionary {
        PropertyListDictionary([("ContentVersion", .string(version)), ("IAPProductIdentifier", .string(id))])
    }
}
