import CatalogExchange
import Foundation
import IAPCatalog
import IAPCore
import TestSupport
import Testing

/// What README.md and docs/ say that the code knows (the StoreKit formats, exit codes, the counts of Apple's
/// reference data, what lint reports of an import) is read against the code: a page that contradicts it fails here,
/// naming the page and line. The generated pages (lint rules, catalog reference) are read too.
@Suite struct DocStatementsTests {
    struct Line {
        var page: String
        var number: Int
        var text: String
        var place: String { "\(page):\(number)" }
    }

    /// README.md and every page in docs/, each with its text.
    static let pages: [(page: String, text: String)] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Paths.repository + "/docs")) ?? []
        return (["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }).map { page in
            (page, (try? String(contentsOfFile: Paths.repository + "/" + page, encoding: .utf8)) ?? "")
        }
    }()

    static let lines: [Line] = pages.flatMap { page, text in
        text.components(separatedBy: "\n").enumerated().map { Line(page: page, number: $0.offset + 1, text: $0.element) }
    }

    /// Every match of `pattern` in the pages, read with line breaks as spaces (a sentence may break anywhere), each
    /// at the line it starts on, with its capture groups.
    static func matches(_ pattern: String) -> [(line: Line, groups: [String])] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return pages.flatMap { page, text in
            let flat = text.replacingOccurrences(of: "\n", with: " ")
            return expression.matches(in: flat, range: NSRange(flat.startIndex..., in: flat)).map { match in
                let start = Range(match.range, in: flat)!.lowerBound
                let lineNumber =
                    text[..<text.index(text.startIndex, offsetBy: flat.distance(from: flat.startIndex, to: start))]
                    .filter { $0 == "\n" }.count + 1
                return (
                    Line(page: page, number: lineNumber, text: ""),
                    (1..<match.numberOfRanges).map { index in
                        Range(match.range(at: index), in: flat).map { String(flat[$0]) } ?? ""
                    }
                )
            }
        }
    }

    static func version(_ text: String) -> StoreKitExporter.FormatVersion? { StoreKitExporter.FormatVersion(rawValue: text) }

    @Test func theStoreKitFormatRangeIsTheOneImportReads() {
        let range = StoreKitExporter.FormatVersion.range
        let named = Self.matches(#"(?i)format[^|]{0,80}?\b(\d+\.\d+) to (\d+\.\d+)"#)
        #expect(named.count >= 5, "the pages name the format range \(named.count) times")
        for (line, groups) in named {
            #expect("\(groups[0]) to \(groups[1])" == range, "\(line.place) says format \(groups[0]) to \(groups[1]); iapkit reads \(range)")
        }
        let majors = StoreKitExporter.FormatVersion.majors
        let saidMajors = Self.matches(#"majors (\d+) to (\d+)"#)
        #expect(!saidMajors.isEmpty)
        for (line, groups) in saidMajors {
            #expect(groups == ["\(majors.lowerBound)", "\(majors.upperBound)"], "\(line.place) says majors \(groups[0]) to \(groups[1])")
        }
    }

    /// The table of formats in docs/commands.md names every version iapkit writes and none past the newest.
    @Test func theFormatTableCoversEveryVersion() {
        let rows = Self.lines.filter { $0.page == "docs/commands.md" }.compactMap { line -> (Line, String)? in
            guard let first = line.text.split(separator: "|").first, line.text.hasPrefix("| "),
                first.trimmingCharacters(in: .whitespaces).first?.isNumber == true
            else { return nil }
            return (line, first.trimmingCharacters(in: .whitespaces))
        }.filter { $0.1.allSatisfy { $0.isNumber || $0 == "." || $0 == " " || $0 == "x" || $0 == "t" || $0 == "o" } }
        #expect(rows.count >= 6, "the format table has \(rows.count) rows")
        func covers(_ cell: String, _ version: StoreKitExporter.FormatVersion) -> Bool {
            let ends = cell.components(separatedBy: " to ")
            guard let low = Self.version(ends[0]) else { return false }
            if ends.count == 1 { return low == version }
            let high = ends[1]
            if high.hasSuffix(".x") { return version.major == low.major && version.minor >= low.minor && "\(version.major).x" == high }
            guard let top = Self.version(high) else { return false }
            return version.major >= low.major && version.major <= top.major
                && (version.major != low.major || version.minor >= low.minor) && (version.major != top.major || version.minor <= top.minor)
        }
        for version in StoreKitExporter.FormatVersion.allCases {
            #expect(rows.contains { covers($0.1, version) }, "docs/commands.md's format table has no row for \(version)")
        }
        for (line, cell) in rows {
            for end in cell.components(separatedBy: " to ") {
                if let named = Self.version(end) {
                    #expect(named.major < StoreKitExporter.FormatVersion.newest.major || named.minor <= StoreKitExporter.FormatVersion.newest.minor)
                } else {
                    #expect(end.hasSuffix(".x"), "\(line.place): `\(end)` is not a format iapkit knows")
                }
            }
        }
    }

    /// Every exit status a page names is one iapkit exits with, and the command line exits with no other.
    @Test func exitCodesAreTheOnesIAPKitUses() throws {
        let known = Set(ExitStatus.all.map(Int.init))
        let named = Self.matches(#"(?i)\bexit(?:s| with| code| status)? \**(\d+)(?:/(\d+))?"#)
        #expect(named.count >= 20, "the pages name \(named.count) exit codes")
        for (line, groups) in named {
            for code in groups.compactMap(Int.init) {
                #expect(known.contains(code), "\(line.place) names exit \(code); iapkit exits with \(known.sorted())")
            }
        }
        // The code's own literals: `ExitCode(N)`, `Terminal.exit(N)`.
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Paths.repository + "/Sources/iapkit").filter { $0.hasSuffix(".swift") }
        let literal = try NSRegularExpression(pattern: #"(?:ExitCode|Terminal\.exit)\((\d+)\)"#)
        var used = Set<Int>()
        for file in sources {
            let text = try String(contentsOfFile: Paths.repository + "/Sources/iapkit/" + file, encoding: .utf8)
            for match in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text), let code = Int(text[range]) { used.insert(code) }
            }
        }
        #expect(!used.isEmpty && used.isSubset(of: known), "the command line exits with \(used.sorted())")
    }

    /// Counts of Apple's reference data the pages give are the tables iapkit carries.
    @Test func countsAreTheReferenceData() {
        let counts: [(pattern: String, count: Int)] = [
            (#"\b(\d+) (?:territories|storefronts)\b"#, Storefronts.codes.count),
            (#"\b(\d+) currencies\b"#, Set(Storefronts.currencies.values).count),
            (#"\b(\d+) App Store Connect locales\b"#, LocaleCodes.all.count),
            (#"\b(\d+) USD price points\b"#, ReferenceData.usdPricePointCents.count),
            (#"(?:tiers? \(?|tier outside )0(?:-|\.\.| to )(\d+)\b"#, ReferenceData.legacyTierCents.count - 1),
        ]
        for (pattern, count) in counts {
            let named = Self.matches(pattern)
            #expect(!named.isEmpty, "no page says `\(pattern)`")
            for (line, groups) in named {
                #expect(groups.first == "\(count)", "\(line.place) says \(groups.first ?? ""); the reference data holds \(count)")
            }
        }
    }

    /// What the pages say lint reports after importing a file of another storefront: each product without a USD
    /// price, subscriptions included (one sold only where it is priced says so with `pricedTerritories`).
    @Test func whatLintReportsOfAForeignStorefrontImportIsWhatThePagesSay() throws {
        let said = [
            ("docs/commands.md", "`lint` reports each product without a USD `price`"),
            ("docs/commands.md", "a subscription sold only in those territories says so with `pricedTerritories`"),
            ("docs/getting-started.md", "needs a USD `price` for each product"),
            ("docs/getting-started.md", "a subscription sold only in those territories says so with `pricedTerritories`"),
        ]
        for (page, words) in said {
            let text = Self.lines.filter { $0.page == page }.map(\.text).joined(separator: " ")
            #expect(text.contains(words), "\(page) no longer says \"\(words)\"; say what lint does")
        }
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/storefront-chn-v3.0.storekit", "-o", catalog).status == 0)
        let lint = try iapkit("lint", "catalog", catalog, "--format", "json")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])
        let price = ((report["findings"] as? [[String: Any]]) ?? []).filter { $0["rule"] as? String == "price" }
        let reported = Set(price.compactMap { $0["productId"] as? String })
        #expect(
            reported == [
                "com.example.garden.seeds", "com.example.garden.greenhouse", "com.example.garden.season", "com.example.garden.club.monthly",
                "com.example.garden.club.yearly",
            ], "\(lint.stdout)")
        #expect(price.allSatisfy { ($0["message"] as? String)?.contains("no USD price") == true }, "\(lint.stdout)")
    }
}
