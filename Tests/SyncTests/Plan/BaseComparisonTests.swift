@testable import AppStoreConnect
@testable import CatalogSync
import IAPCatalog
import Testing

/// The base's comparisons on their own: pull's three-way merge of canonical trees, plan's origins of changes, and
/// what a plan in Markdown and the hour's budget come to for a change of hundreds of products.
@Suite struct BaseComparisonTests {
    static func tree(_ yaml: String) throws -> YAMLTree { try #require(try YAMLTree(yaml: Array(yaml.utf8), file: "t.yaml")) }

    static let base = """
        products:
          - productId: a
            price: "1.49"
            localizations: [{locale: en-US, name: A}]
          - productId: b
            price: "0.99"
        """

    @Test func eachValueGoesToItsAuthor() throws {
        // The catalog changed a's price and added c; App Store Connect renamed a's localization and b's price; both
        // changed nothing else.
        let catalog = try Self.tree(
            Self.base.replacingOccurrences(of: "\"1.49\"", with: "\"1.99\"") + "\n  - productId: c\n    price: \"2.99\"\n")
        let store = try Self.tree(
            Self.base.replacingOccurrences(of: "name: A", with: "name: Ay").replacingOccurrences(of: "\"0.99\"", with: "\"1.29\""))
        var merge = ThreeWayMerge()
        let (merged, newBase) = merge.merge(base: try Self.tree(Self.base), catalog: catalog, store: store)
        let expected = try Self.tree(
            Self.base.replacingOccurrences(of: "\"1.49\"", with: "\"1.99\"").replacingOccurrences(of: "name: A", with: "name: Ay")
                .replacingOccurrences(of: "\"0.99\"", with: "\"1.29\"") + "\n  - productId: c\n    price: \"2.99\"\n")
        #expect(PullEdit.equivalent(merged, expected), "\(merged)")
        #expect(PullEdit.equivalent(newBase, store), "the new base is what App Store Connect holds")
        #expect(merge.conflicts.isEmpty)
        #expect(
            merge.pending.map(\.description) == [
                "a: price: \"1.99\" (App Store Connect: \"1.49\")", "c: not in App Store Connect yet (push creates it)",
            ])
    }

    @Test func aValueBothChangedIsAConflictTheBaseKeepsUntilSomeoneChooses() throws {
        let catalog = try Self.tree(Self.base.replacingOccurrences(of: "\"1.49\"", with: "\"1.99\""))
        let store = try Self.tree(Self.base.replacingOccurrences(of: "\"1.49\"", with: "\"2.99\""))
        var merge = ThreeWayMerge()
        let (merged, newBase) = merge.merge(base: try Self.tree(Self.base), catalog: catalog, store: store)
        #expect(merge.conflicts.map(\.description) == ["a: price: base \"1.49\", catalog \"1.99\", App Store Connect \"2.99\""])
        #expect(PullEdit.equivalent(merged, catalog), "the catalog's value stays")
        #expect(PullEdit.equivalent(newBase, try Self.tree(Self.base)), "and the base keeps its own, so it stays a conflict")
        for (side, value) in [(TakenSide.asc, "\"2.99\""), (.catalog, "\"1.99\"")] {
            var taking = ThreeWayMerge(take: side)
            let (chosen, based) = taking.merge(base: try Self.tree(Self.base), catalog: catalog, store: store)
            #expect(taking.conflicts.isEmpty)
            #expect(PullEdit.equivalent(chosen, try Self.tree(Self.base.replacingOccurrences(of: "\"1.49\"", with: value))))
            #expect(PullEdit.equivalent(based, store), "the choice made, App Store Connect's value is the base")
        }
    }

    struct Write: PlannedOperation { var summary: String { "write" } }

    static func change(_ id: String, _ field: String, from: String, to: String) -> Change {
        Change(action: .update, resource: .inAppPurchase, productID: id, fields: [Change.Field(field, from: from, to: to)], operations: [Write()])
    }

    @Test func aChangeIsTheCatalogsAppStoreConnectsOrBoth() {
        let app = StoreApp(id: "1", bundleID: "com.example")
        // App Store Connect holds x 2, y 5, z 7; the base x 1, y 5, z 6; the catalog x 1, y 6, z 8.
        var plan = Plan(
            app: app,
            changes: [
                Self.change("x", "name", from: "2", to: "1"), Self.change("y", "name", from: "5", to: "6"),
                Self.change("z", "name", from: "7", to: "8"),
            ])
        let basePlan = Plan(app: app, changes: [Self.change("x", "name", from: "2", to: "1"), Self.change("z", "name", from: "7", to: "6")])
        ChangeOrigins.mark(&plan, basePlan: basePlan, base: "base.yaml")
        #expect(plan.changes.map(\.origin) == [.appStoreConnect, .catalog, .conflict])
        #expect(plan.changes[2].baseFields.map(\.to) == ["6"])
        #expect(ChangeOrigins.overwrites(plan).map(\.productID) == ["x", "z"])
        #expect(PlanReport.line(plan.changes[2], marker: "~").hasSuffix("[conflict: the base has name \"6\"]"))
    }

    @Test func theMarkdownOfA250ProductPlanFitsInAComment() {
        let changes = (1...250).flatMap { n in
            (1...6).map { field in Self.change("com.example.gems.pack\(n)", "field\(field)", from: String(repeating: "a", count: 40), to: "b\(n)") }
        }
        let plan = Plan(app: StoreApp(id: "1", bundleID: "com.example"), changes: changes)
        let whole = PlanReport.markdown(plan)
        #expect(whole.utf8.count > 65_536, "the whole plan is larger than a comment: \(whole.utf8.count)")
        let posted = PlannedSync(plan: plan, client: nil, catalogPath: "catalog.yaml").report(.markdown)
        #expect(posted.utf8.count <= 65_536 - 1_000, "\(posted.utf8.count)")
        #expect(posted.contains("| 0 | 1500 | 0 | 0 | 0 | 0 | 0 | 1500 | 1500 |"), "the counts are the whole plan's")
        #expect(posted.contains("Cut to fit where it is posted:") && posted.contains("of 250 sections shown"))
        #expect(posted.hasSuffix("keep it as the job's artifact.\n"))
    }

    @Test func theHourIsARollingWindow() {
        let window = ASCRequestWindow()
        for _ in 0..<10 { window.record() }
        #expect(window.wait(for: 5, remaining: 5) == .zero)
        // Five must age out: the fifth oldest of this client's requests turns an hour old in just under an hour.
        let wait = window.wait(for: 10, remaining: 5)
        #expect(wait > .seconds(3590) && wait <= .seconds(3600), "\(wait)")
        // Requests of others' are of unknown age: a whole hour.
        #expect(window.wait(for: 30, remaining: 5) == ASCRequestWindow.length)
    }
}
