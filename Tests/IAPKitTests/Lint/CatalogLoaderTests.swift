import Foundation
import IAPCatalog
import IAPCore
import TestSupport
import Testing
import IAPLint

@Suite struct CatalogLoaderTests {
    func load(_ yaml: String) throws(IAPKitError) -> (Catalog, [Finding]) {
        let collector = FindingCollector()
        let catalog = try CatalogLoader.load(data: Data(yaml.utf8), file: "catalog.yaml", findings: collector.consumer)
        return (catalog, collector.findings)
    }

    @Test func readsScalarsAsTheTypeEachKeyNeeds() throws {
        let (catalog, findings) = try load(
            """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            products:
              - productId: 1234
                referenceName: 0.99
                type: consumable
                price: 1.99
                localizations:
                  - {locale: no, name: yes, description: null thing}
            """)
        #expect(findings.isEmpty, "\(findings)")
        let product = try #require(catalog.products.first)
        #expect(product.productID == "1234")
        #expect(product.referenceName == "0.99")
        #expect(product.price?.cents == 199)
        #expect(product.localizations.first?.locale == "no")
        #expect(product.localizations.first?.name == "yes")
    }

    @Test func keepsPathsAndLocations() throws {
        let (catalog, _) = try load(
            """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            subscriptionGroups:
              - referenceName: Club
                subscriptions:
                  - productId: a
                    period: P1M
                    price: 4.99
            """)
        let subscription = try #require(catalog.allSubscriptions.first)
        #expect((subscription.path / "price").description == "subscriptionGroups[0].subscriptions[0].price")
        let location = catalog.location(of: subscription.path / "price")
        #expect(location.line == 8 && location.column == 16)
    }

    @Test func schemaFindingsInsideAProductNameIt() throws {
        let (catalog, findings) = try load(
            Example.catalog(
                """
                products:
                  - productId: com.example.app.one
                    type: consumable
                    colour: red
                    localizations:
                      - {locale: en-US, name: [One]}
                subscriptionGroups:
                  - referenceName: Club
                    subscriptions:
                      - productId: com.example.app.club
                        period: P1Y
                        billingPlans:
                          - {planType: monthly, price: 4.99, enabled: sometimes}
                retiredProductIds: [{old: one}]
                """))
        #expect(catalog.allSubscriptions.first?.billingPlans.first?.type == .monthly)
        let named = Dictionary(grouping: findings, by: { $0.path ?? "" }).mapValues { $0.map(\.productID) }
        #expect(named["products[0].colour"] == ["com.example.app.one"])
        #expect(named["products[0].localizations[0].name"] == ["com.example.app.one"])
        #expect(named["subscriptionGroups[0].subscriptions[0].billingPlans[0].enabled"] == ["com.example.app.club"])
        #expect(named["retiredProductIds[0]"] == [nil], "a finding outside any product names none")
    }

    @Test func productListReadsProductsThenEachGroupsSubscriptionsInPlace() throws {
        let (catalog, _) = try load(
            """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            products:
              - {productId: p1, type: consumable}
              - {productId: p2, type: consumable}
            subscriptionGroups:
              - {referenceName: Empty, subscriptions: []}
              - {referenceName: A, subscriptions: [{productId: a1, period: P1M}, {productId: a2, period: P1M}]}
              - {referenceName: AlsoEmpty, subscriptions: []}
              - {referenceName: B, subscriptions: [{productId: b1, period: P1M}]}
              - {referenceName: LastEmpty, subscriptions: []}
            """)
        let expected = ["p1", "p2", "a1", "a2", "b1"]
        #expect(ProductList(catalog).map(\.productID) == expected)
        #expect(ProductList(catalog, subscriptionsOnly: true).map(\.productID) == ["a1", "a2", "b1"])
        #expect(catalog.allProducts.map(\.productID) == expected)
        // Every stretch handed over in place is the same stretch the subscript reads.
        for list in [ProductList(catalog), ProductList(catalog, subscriptionsOnly: true)] {
            for lower in 0...list.count {
                for upper in lower...list.count + 1 {
                    var visited: [String?] = []
                    list.forEach(in: lower..<upper) { visited.append($0.productID) }
                    #expect(visited == list[lower..<min(upper, list.count)].map(\.productID), "\(lower)..<\(upper)")
                }
            }
        }
    }

    @Test func pathsCompareByTheirComponents() {
        let built = (CatalogPath.root / "products").index(2)
        let listed = CatalogPath([.key("products"), .index(2)])
        #expect(built == listed && built.hashValue == listed.hashValue)
        #expect((built / "price").description == "products[2].price" && (built / "price").lastKey == "price")
        #expect(built != (CatalogPath.root / "products").index(3) && built != CatalogPath.root / "products")
    }

    /// Xcode's and other tools' names for a key, and catalog keys in the wrong object: the message names the catalog's
    /// key and where it goes, from the object the key was written in.
    @Test(arguments: [
        (
            "subscriptions:\n  - {productId: com.example.app.monthly, period: P1M}\n", "subscriptions",
            "did you mean `subscriptionGroups[].subscriptions`? (every auto-renewable subscription belongs to a group)"
        ),
        (
            "products:\n  - productId: com.example.app.a\n    type: consumable\n    localizations:\n      - {locale: en-US, displayName: A}\n",
            "displayName", "did you mean `name`? (`displayName` is Xcode's name for it)"
        ),
        (
            "products:\n  - {productId: com.example.app.a, type: consumable, displayName: A}\n", "displayName",
            "did you mean `localizations[].name`? (`displayName` is Xcode's name for it)"
        ),
        (
            "products:\n  - {productID: com.example.app.a, type: consumable}\n", "productID",
            "did you mean `productId`? (`productID` is Xcode's name for it)"
        ),
        (
            "products:\n  - {productId: com.example.app.a, type: consumable, familyShareable: true}\n", "familyShareable",
            "did you mean `familySharable`? (`familyShareable` is Xcode's name for it)"
        ),
        (
            "subscriptionGroups:\n  - referenceName: Club\n    subscriptions:\n      - productId: com.example.app.monthly\n"
                + "        introOffer: {mode: free-trial, duration: P1W}\n", "introOffer", "did you mean `introductoryOffer`?"
        ),
        (
            "products:\n  - {productId: com.example.app.a, type: consumable, name: A}\n", "name",
            "did you mean `localizations[].name`? (names are per locale)"
        ),
    ])
    func unknownKeysFromOtherToolsSayWhereTheKeyGoes(yaml: String, key: String, hint: String) throws {
        let (_, findings) = try load("schemaVersion: 1\napp: {bundleId: com.example.app, primaryLocale: en-US}\n" + yaml)
        let unknown = try #require(findings.first { $0.message.contains("unknown key `\(key)`") }, "\(findings.map(\.message))")
        #expect(unknown.message.hasSuffix("; " + hint), "\(unknown.message)")
        #expect(unknown.ruleID == "schema" && !unknown.message.contains("allowed keys"))
    }

    @Test func reportsUnknownKeysWithASuggestion() throws {
        let (_, findings) = try load(
            """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            products:
              - productID: com.example.app.a
                type: consumable
            """)
        let unknown = try #require(findings.first { $0.message.contains("unknown key `productID`") })
        #expect(unknown.message.contains("did you mean `productId`?"))
        #expect(unknown.ruleID == "schema")
        #expect(unknown.location.line == 4 && unknown.location.column == 5)
        #expect(unknown.path == "products[0].productID")
        #expect(findings.contains { $0.message.contains("missing the required key `productId`") })
    }

    @Test(arguments: [
        ("a: [\n", "not valid YAML", 2),
        ("schemaVersion: 1\napp: {bundleId: x\n", "not valid YAML", 3),
        ("   \n\n", "is empty", 1),
        ("- just\n- a list\n", "top level must be a mapping", 1),
        ("a: 1\na: 2\n", "repeats the key a", 1),
    ])
    func malformedInputIsAnErrorWithTheLine(yaml: String, reason: String, line: Int) {
        do {
            _ = try load(yaml)
            Issue.record("accepted \(yaml)")
        } catch {
            guard case let .malformed(location, text) = error else { Issue.record("\(error)"); return }
            #expect(text.contains(reason), "\(text)")
            #expect(location.line == line, "\(location)")
        }
    }

    @Test func refusesBinaryGarbageAndHugeAliasExpansions() {
        #expect(throws: IAPKitError.self) {
            try CatalogLoader.load(data: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }), file: "x", findings: { _ in })
        }
        // 1,500 products that are all one product with 1,500 localizations: a small file, 2.25 million values.
        let localizations = "[" + Array(repeating: "*l", count: 1500).joined(separator: ", ") + "]"
        let bomb =
            "x: &l {locale: en-US, name: A, description: B}\n"
            + "y: &p {productId: a, type: consumable, price: 0.99, localizations: \(localizations)}\n"
            + "products: [" + Array(repeating: "*p", count: 1500).joined(separator: ", ") + "]\n"
        do {
            _ = try load(bomb)
            Issue.record("an alias bomb was accepted")
        } catch {
            #expect(error.description.contains("refusing to read it"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: IAPKitError.self) { try load("products: " + deep) }
        let deepMaps = (0..<3000).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")
        #expect(throws: IAPKitError.self) { try load(deepMaps) }
    }

    /// Mutates a valid catalog thousands of times: each run ends in findings or a typed error, never a crash or hang.
    @Test(.timeLimit(.minutes(2)))
    func survivesMutatedCatalogs() throws {
        let seed = Array(try Data(contentsOf: URL(fileURLWithPath: Paths.examples + "/catalog.yaml")))
        var generator = SystemRandomNumberGenerator()
        let tokens: [[UInt8]] = [
            Array(": ".utf8), Array("- ".utf8), Array("\n".utf8), Array("[".utf8), Array("{".utf8),
            Array("&a ".utf8), Array("*a".utf8), Array("\t".utf8), Array("\"".utf8), [0], [0xFF],
        ]
        var outcomes = (findings: 0, errors: 0, clean: 0)
        for _ in 0..<1500 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...40, using: &generator)))
                case 2: bytes.insert(contentsOf: tokens.randomElement(using: &generator)!, at: index)
                default:
                    let start = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes.insert(contentsOf: bytes[start..<min(bytes.count, start + 60)], at: index)
                }
                if bytes.isEmpty { bytes = Array("x".utf8) }
            }
            do {
                let collector = FindingCollector()
                let catalog = try CatalogLoader.load(data: Data(bytes), file: "fuzz.yaml", findings: collector.consumer)
                _ = catalog.allProducts.map { catalog.location(of: $0.path / "price") }
                if collector.findings.isEmpty { outcomes.clean += 1 } else { outcomes.findings += 1 }
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.errors += 1
            }
        }
        #expect(outcomes.findings > 0 && outcomes.errors > 0)
    }
}

@Suite struct LargeInputTests {
    /// A 50 MB catalog (one enormous description) is read and reported, not a crash or a hang.
    @Test(.timeLimit(.minutes(2)))
    func fiftyMegabyteCatalogIsReportedWithItsLine() throws {
        let dir = TemporaryDirectory()
        var text = Example.product("  localizations:\n    - locale: en-US\n      name: One\n      description: ")
        text.removeLast()
        text += String(repeating: "fruit ", count: 50_000_000 / 6) + "\n"
        let path = dir.write("catalog.yaml", text)
        dir.write("shot.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let result = try iapkit("lint", path)
        #expect(result.status == 1)
        // Where the value starts, counted from the text written; YAML drops the final space of a plain scalar.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("description: fruit") }) + 1
        let column = try #require(lines[line - 1].range(of: "fruit")).lowerBound.utf16Offset(in: lines[line - 1]) + 1
        let count = 50_000_000 / 6 * 6 - 1
        #expect(
            result.stdout.contains("catalog.yaml:\(line):\(column): error: description has \(count) characters"),
            "\(result.stdout.prefix(300))")
    }
}
