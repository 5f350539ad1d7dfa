import Foundation
import TestSupport
import Testing

/// Answers of a newer App Store Connect than the document iapkit was generated from: a value it does not know spoils
/// only that product's field (a note and `?`, never an empty value, a default or a change), every other product is
/// read in full, and attributes the document lacks are named once per run.
@Suite(.showsFakeLog)
struct NewerAnswerTests {
    static let bundleID = "com.example.newer"

    /// Two subscriptions of one group, the second with a period the document does not list; every resource carries an
    /// attribute the document does not list. The fake answers beyond the 4.4.1 document here, so it does not check its
    /// answers against it.
    static func seeded() throws -> FakeAppStoreConnect {
        let fake = try FakeAppStoreConnect(openAPI: nil)
        let app = try fake.addApp(bundleID: bundleID)
        func subscription(_ id: String, _ name: String, period: String, level: Int) -> [String: Any] {
            [
                "productId": "\(bundleID).\(id)", "name": name, "subscriptionPeriod": period, "groupLevel": level,
                "familySharable": true,
                "localizations": [["locale": "en-US", "name": name, "description": "Fresh fruit, \(name.lowercased())."]],
                "prices": [["territory": "USA", "usd": "4.99"]],
            ]
        }
        try fake.control(
            "POST", "seed",
            [
                "appId": app,
                "subscriptionGroups": [
                    [
                        "referenceName": "Club", "localizations": [["locale": "en-US", "name": "Club"]],
                        "subscriptions": [
                            subscription("monthly", "Monthly", period: "ONE_MONTH", level: 1),
                            subscription("fortnightly", "Fortnightly", period: "TWO_WEEKS", level: 2),
                        ],
                    ]
                ],
            ])
        try fake.control("POST", "settings", ["unknownAttributes": true])
        return fake
    }

    static func subscriptionBlock(_ text: String, _ id: String) -> String {
        let start = text.range(of: "productId: \(bundleID).\(id)")!.lowerBound
        let rest = text[start...].dropFirst()
        let end = rest.range(of: "productId: ")?.lowerBound ?? text.endIndex
        return String(text[start..<end])
    }

    /// `text` with `line` added after the line ending in `anchor`, at its indentation.
    static func inserting(_ line: String, after anchor: String, in text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasSuffix(anchor) }) else { return text }
        let indent = lines[index].prefix { $0 == " " || $0 == "-" }.replacingOccurrences(of: "-", with: " ")
        lines.insert(indent + line, at: index + 1)
        return lines.joined(separator: "\n")
    }

    @Test func anUnknownValueSpoilsOnlyItsOwnProductsFieldAndANewerAttributeIsNamedOnce() throws {
        let fake = try Self.seeded()
        let folder = TemporaryDirectory()
        let catalog = folder.file("catalog.yaml")
        let pull = try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", catalog], environment: fake.environment)
        #expect(pull.status == 0, "\(pull.stderr)")
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        let monthly = Self.subscriptionBlock(text, "monthly")
        let fortnightly = Self.subscriptionBlock(text, "fortnightly")
        // The known one is read in full, its period included; the other keeps everything but the period.
        #expect(monthly.contains("period: P1M") && monthly.contains("familySharable: true") && monthly.contains("groupLevel: 1"), "\(text)")
        #expect(fortnightly.contains("referenceName: Fortnightly") && fortnightly.contains("familySharable: true"), "\(text)")
        #expect(fortnightly.contains("groupLevel: 2"), "\(text)")
        #expect(!fortnightly.contains("period:"), "an unknown period is never written as a value: \(fortnightly)")
        #expect(!text.contains("period: \"\""), "\(text)")
        let above = text[..<text.range(of: "productId: \(Self.bundleID).fortnightly")!.lowerBound].split(separator: "\n").suffix(3)
        #expect(above.contains { $0.contains("#") && $0.contains("\"TWO_WEEKS\"") }, "the pulled catalog notes the value above its product: \(text)")
        let noted = pull.stderr.split(separator: "\n").filter { $0.contains("TWO_WEEKS") }
        #expect(noted.contains { $0.contains("\(Self.bundleID).fortnightly") && $0.contains("period") }, "\(pull.stderr)")
        #expect(!pull.stderr.contains("\(Self.bundleID).monthly: App Store Connect answered its"), "\(pull.stderr)")
        // The attribute the document lacks: named once for the whole run, with where it was.
        let newer = pull.stderr.split(separator: "\n").filter { $0.contains("sent attributes this iapkit does not know") }
        #expect(newer.count == 1, "\(pull.stderr)")
        #expect(newer.first?.contains("subscriptions.attributeNewerThanTheDocument") == true, "\(pull.stderr)")
        // Only what the document lacks: every attribute the fake sends besides the one it adds is Apple's.
        let named = newer.first.map { $0.split(separator: ": ", maxSplits: 1).last!.split(separator: ";").first! } ?? ""
        #expect(named.split(separator: ", ").allSatisfy { $0.hasSuffix(".attributeNewerThanTheDocument") }, "\(named)")
        #expect(newer.first?.contains("a newer iapkit may manage them") == true)

        // The team knows the period: pull over the catalog keeps it, and plan shows App Store Connect's as `?`.
        let known = Self.inserting("period: P1W", after: "referenceName: Fortnightly", in: text)
        #expect(known != text)
        try known.write(toFile: catalog, atomically: true, encoding: .utf8)
        let again = try iapkit(["asc", "pull", "--bundle-id", Self.bundleID, "-o", catalog], environment: fake.environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: catalog, encoding: .utf8) == known, "what was not read is never overwritten")
        // A standing note: named once after the changes, and listed with its field by --show-unchanged.
        let plan = try iapkit(["asc", "plan", catalog], environment: fake.environment)
        #expect(plan.status == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("Not fully managed: \(Self.bundleID).fortnightly"), "\(plan.stdout)")
        let notes = try iapkit(["asc", "plan", catalog, "--show-unchanged"], environment: fake.environment)
        let line = notes.stdout.split(separator: "\n").first { $0.contains("\(Self.bundleID).fortnightly") && $0.contains("period") } ?? ""
        #expect(line.contains("period ? -> \"P1W\""), "\(notes.stdout)")
        #expect(!plan.stdout.contains("\(Self.bundleID).monthly: "), "the known subscription plans unchanged: \(plan.stdout)")
        let check = try iapkit(["asc", "plan", catalog, "--check"], environment: fake.environment)
        #expect(check.status == 0, "a value iapkit cannot read is no drift: \(check.stdout)")
    }
}
