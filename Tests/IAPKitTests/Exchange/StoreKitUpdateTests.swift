@testable import CatalogExchange
import Foundation
import IAPCatalog
import IAPCore
import TestSupport
import Testing

/// `export storekit -o FILE` over a configuration that is already there: the file comes back as it was, except for
/// what the catalog changed.
@Suite struct StoreKitUpdateTests {
    /// Python's own reading of two files: equal as JSON, or the first difference.
    static let equalJSON = """
        import json, sys
        a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
        def diff(x, y, path):
            if type(x) != type(y): return path
            if isinstance(x, dict):
                for k in sorted(set(x) | set(y)):
                    if k not in x or k not in y: return path + '.' + k
                    d = diff(x[k], y[k], path + '.' + k)
                    if d: return d
            elif isinstance(x, list):
                if len(x) != len(y): return path + ' length'
                for i, (p, q) in enumerate(zip(x, y)):
                    d = diff(p, q, '%s[%d]' % (path, i))
                    if d: return d
            elif x != y: return path
            return None
        d = diff(a, b, '$')
        print('equal' if d is None else 'differs at ' + d)
        """

    /// Imports `source`, then exports the catalog over a copy of the file; returns the copy's path and both runs.
    static func importAndExportOver(
        _ source: String, in dir: TemporaryDirectory,
        edit: (String) -> String = { $0 }
    ) throws -> (copy: String, imported: ProcessResult, exported: ProcessResult) {
        let catalog = dir.file("catalog.yaml")
        let imported = try iapkit("import", "storekit", source, "-o", catalog)
        let text = try String(contentsOfFile: catalog, encoding: .utf8)
        try edit(text).write(toFile: catalog, atomically: true, encoding: .utf8)
        let copy = dir.write("Products.storekit", try Data(contentsOf: URL(fileURLWithPath: source)))
        let exported = try iapkit("export", "storekit", catalog, "-o", copy)
        return (copy, imported, exported)
    }

    static let fixtures = ExchangeTests.fixtures

    @Test(arguments: fixtures)
    func exportedOverItselfTheFileComesBackEqual(fixture: String) throws {
        let dir = TemporaryDirectory()
        let source = Paths.storeKitFixtures + "/" + fixture
        let (copy, imported, exported) = try Self.importAndExportOver(source, in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(exported.status == 0 && exported.stderr.contains("left unchanged"), "\(exported.stderr)")
        #expect(try python(Self.equalJSON, [source, copy]) == "equal\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: source)))
    }

    /// Two shapes Xcode writes and App Store Connect refuses (prices off the USD grid; empty display names): export
    /// takes them back over the file they came from and says App Store Connect's errors as warnings, which lint and
    /// `asc` keep as errors.
    @Test(arguments: [
        ("offgrid-prices-v4.0.storekit", "$1.23 is not a USD price point", 5),
        ("empty-names-v2.0.storekit", "display name of `com.example.quill.ink` is empty [display-name]", 3),
    ])
    func appStoreConnectsRulesAreWarningsForTheSimulator(fixture: String, said: String, errors: Int) throws {
        let dir = TemporaryDirectory()
        let source = Paths.storeKitFixtures + "/" + fixture
        let (copy, imported, exported) = try Self.importAndExportOver(source, in: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(exported.status == 0 && exported.stderr.contains("left unchanged"), "\(exported.stderr)")
        #expect(exported.stderr.contains(said), "\(exported.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: source)))
        let lint = try iapkit("lint", "catalog", dir.file("catalog.yaml"), "--format", "json")
        #expect(lint.status == 1, "\(lint.stdout)")
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])["findings"] as? [[String: Any]]
        let lintErrors = (findings ?? []).filter { $0["severity"] as? String == "error" }
        #expect(lintErrors.count == errors, "\(lintErrors)")
        // Each of them is a warning line of the export.
        let warned = exported.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") && $0.contains("catalog.yaml:") }
        #expect(warned.count == errors, "\(exported.stderr)")
    }

    /// A synced 6.3 file with bundle and suite groups, Xcode's IDs, `fr` and `zh_CN` locales and simulator settings:
    /// a price changed in the catalog changes that price, and nothing else.
    @Test func onlyWhatTheCatalogChangedChanges() throws {
        let dir = TemporaryDirectory()
        let source = Paths.storeKitFixtures + "/studio-v6.3.storekit"
        let (copy, imported, exported) = try Self.importAndExportOver(source, in: dir) {
            $0.replacingOccurrences(of: "price: 0.99\n", with: "price: 1.49\n")
        }
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(exported.status == 0 && exported.stderr.contains("updated"), "\(exported.stderr)")
        let changes = try python(
            """
            import json, sys
            a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
            out = []
            def walk(x, y, path):
                if isinstance(x, dict) and isinstance(y, dict):
                    for k in sorted(set(x) | set(y)): walk(x.get(k), y.get(k), path + '.' + k)
                elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
                    for i, (p, q) in enumerate(zip(x, y)): walk(p, q, '%s[%d]' % (path, i))
                elif x != y: out.append('%s %r -> %r' % (path, x, y))
            walk(a, b, '$')
            print('\\n'.join(out))
            """, [source, copy])
        #expect(changes == "$.products[0].displayPrice '0.99' -> '1.49'\n")
    }

    /// A product the catalog adds gets iapkit's stable IDs; one it removes goes; the file's other IDs stay.
    @Test func addedAndRemovedProducts() throws {
        let dir = TemporaryDirectory()
        let source = Paths.storeKitFixtures + "/studio-v6.3.storekit"
        let (copy, _, exported) = try Self.importAndExportOver(source, in: dir) { text in
            text.replacingOccurrences(of: "productId: com.example.garden.seeds\n", with: "productId: com.example.garden.beans\n")
        }
        #expect(exported.status == 0, "\(exported.stderr)")
        let out = try python(
            """
            import json, sys
            a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
            ids = lambda d: {p['productID']: p['internalID'] for p in d['products']}
            print(sorted(ids(b)), ids(a)['com.example.garden.greenhouse'] == ids(b)['com.example.garden.greenhouse'],
                  b['subscriptionBundleGroups'] == a['subscriptionBundleGroups'], b['settings'] == a['settings'],
                  b['version'] == a['version'], len(ids(b)['com.example.garden.beans']))
            """, [source, copy])
        #expect(out == "['com.example.garden.beans', 'com.example.garden.greenhouse'] True True True True 8\n")
    }

    /// The library on its own: the file's own bytes when nothing changed; told 5.0, whose layout is 6.3's, the
    /// version changes and the keys the catalog has no place for (6.x's lists, a win-back offer's `isEligible`) go.
    @Test func anUpdateChangesOnlyWhatDiffers() throws {
        let path = Paths.storeKitFixtures + "/studio-v6.3.storekit"
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let catalog = try StoreKitImporter().importData(data, file: path).catalog
        let update = try StoreKitUpdate(data: data, file: path)
        #expect(update.formatVersion == .v6_3)
        #expect(try update.bytes(catalog, version: .v6_3) == Array(data))
        let dir = TemporaryDirectory()
        let relabelled = dir.write("five.storekit", Data(try update.bytes(catalog, version: .v5_0)))
        let changes = try python(
            """
            import json, sys
            a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
            print(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k)), b['version'])
            """, [path, relabelled])
        #expect(changes == "['subscriptionBundleGroups', 'subscriptionGroups', 'subscriptionSuiteGroups', 'version'] {'major': 5, 'minor': 0}\n")
    }

    /// Written over a 6.3 file in an older major format, what the catalog has no place for is left out, and said.
    @Test func anOlderFormatLeavesOutWhatTheCatalogCannotHold() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/studio-v6.3.storekit", "-o", catalog).status == 0)
        let copy = dir.write("Products.storekit", try Data(contentsOf: URL(fileURLWithPath: Paths.storeKitFixtures + "/studio-v6.3.storekit")))
        let exported = try iapkit("export", "storekit", catalog, "-o", copy, "--format-version", "5.0")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stderr.contains(
                "not written in format 5.0, older than the file's 6.3: `subscriptionBundleGroups`, "
                    + "`isEligible`, `promotionalImageID`, `subscriptionSuiteGroups`"), "\(exported.stderr)")
        // Everything else the file holds stays: its IDs and settings.
        let kept = try python(
            """
            import json, sys
            a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
            ids = lambda d: [p['internalID'] for p in d['products']] + [s['internalID'] for g in d['subscriptionGroups'] for s in g['subscriptions']]
            print(a['settings'] == b['settings'], ids(a) == ids(b), a['identifier'] == b['identifier'])
            """, [Paths.storeKitFixtures + "/studio-v6.3.storekit", copy])
        #expect(kept == "True True True\n")
        #expect(try python(StoreKitRoundTrip.validate, [copy, Paths.storeKitSchema]) == "valid\n")
        #expect(try StoreKitRoundTrip.formatVersion(of: copy) == "5.0")
    }

    /// The one-pass merge writes what the merge of the whole file as values writes, byte for byte, with the same keys
    /// left out: for every fixture in every format, as written, with other IDs (as Xcode's are), with subscriptions
    /// naming another group id, and laid out compactly; with the catalog unchanged, products and subscriptions
    /// changed, added and removed, and a group renamed.
    @Test(arguments: fixtures)
    func theOnePassMergeIsTheWholeMerge(fixture: String) throws {
        let path = Paths.storeKitFixtures + "/" + fixture
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let catalog = try StoreKitImporter().importData(original, file: path).catalog
        let text = String(decoding: original, as: UTF8.self)
        let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: original))
        let files: [(String, Data)] = [
            ("as written", original),
            ("other IDs", Data(text.replacingOccurrences(of: "\"internalID\" : \"", with: "\"internalID\" : \"9").utf8)),
            ("other group ids", Data(text.replacingOccurrences(of: "\"subscriptionGroupID\" : \"", with: "\"subscriptionGroupID\" : \"F").utf8)),
            ("compact", compact),
            // The catalog's own export, byte for byte: left as it is without a merge.
            (
                "as exported",
                Data(StoreKitExporter(version: try StoreKitUpdate(data: original, file: path).formatVersion ?? .v4_0).exportBytes(catalog))
            ),
        ]
        func subscription(_ edit: @escaping (inout Product) -> Void) -> (inout Catalog) -> Void {
            { catalog in
                guard !catalog.subscriptionGroups.isEmpty, !catalog.subscriptionGroups[0].subscriptions.isEmpty else { return }
                edit(&catalog.subscriptionGroups[0].subscriptions[0])
            }
        }
        let edits: [(String, (inout Catalog) -> Void)] = [
            ("unchanged", { _ in }),
            ("price", { if !$0.products.isEmpty { $0.products[0].price = Price(text: "7.99") } }),
            ("name", { if !$0.products.isEmpty, !$0.products[0].localizations.isEmpty { $0.products[0].localizations[0].name = "Changed" } }),
            ("removed", { if !$0.products.isEmpty { $0.products.removeFirst() } }),
            (
                "added",
                { catalog in
                    guard var product = catalog.products.first else { return }
                    product.productID = (product.productID ?? "") + ".more"
                    catalog.products.append(product)
                }
            ),
            ("subscription price", subscription { $0.price = Price(text: "12.99") }),
            ("subscription name", subscription { $0.referenceName = "Renamed" }),
            (
                "subscription added",
                { catalog in
                    guard var product = catalog.subscriptionGroups.first?.subscriptions.first else { return }
                    product.productID = (product.productID ?? "") + ".more"
                    catalog.subscriptionGroups[0].subscriptions.append(product)
                }
            ),
            ("subscription removed", { if !$0.subscriptionGroups.isEmpty { $0.subscriptionGroups[0].subscriptions.removeAll() } }),
            ("group renamed", { if !$0.subscriptionGroups.isEmpty { $0.subscriptionGroups[0].referenceName = "Another group" } }),
        ]
        for (file, data) in files {
            let update = try StoreKitUpdate(data: data, file: path)
            for (name, edit) in edits {
                var edited = catalog
                edit(&edited)
                for version in Set([update.formatVersion ?? .v4_0, .v1_0, .v1_2, .v4_0, .v5_0, .v6_3]) {
                    let onePass = Swift.Result { try update.update(edited, version: version) }
                    let whole = Swift.Result { try update.fullMerge(edited, version: version) }
                    switch (onePass, whole) {
                    case let (.success(a), .success(b)):
                        #expect(a.bytes == b.bytes, "\(fixture), \(file), \(name), \(version)")
                        #expect(a.dropped == b.dropped, "\(fixture), \(file), \(name), \(version)")
                    case let (.failure(a), .failure(b)):
                        #expect("\(a)" == "\(b)", "\(fixture), \(file), \(name), \(version)")
                    default:
                        Issue.record("\(fixture), \(file), \(name), \(version): \(onePass) against \(whole)")
                    }
                }
            }
        }
    }

    @Test func importNamesEverythingItCannotCarry() throws {
        let imported = try iapkit("import", "storekit", Paths.storeKitFixtures + "/studio-v6.3.storekit")
        #expect(imported.status == 0, "\(imported.stderr)")
        for name in [
            "`subscriptionBundleGroups` of the file", "`subscriptionSuiteGroups` of the file",
            "`isEligible` of win-back offers (`com.example.garden.club.monthly`)",
            "`promotionalImageID` of win-back offers (`com.example.garden.club.monthly`)",
            "_developerTeamID, _failTransactionsEnabled, _lastSynchronizedDate",
        ] {
            #expect(imported.stderr.contains(name), "\(name) in \(imported.stderr)")
        }
    }

    /// Whatever minor version import reads, export writes; a major iapkit does not know is refused at import, saying
    /// which it reads.
    @Test func whatImportReadsExportWrites() throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: Paths.storeKitFixtures + "/garden-v1.2.storekit", encoding: .utf8)
        let relabelled = dir.write("in.storekit", text.replacingOccurrences(of: "\"minor\" : 2", with: "\"minor\" : 4"))
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", relabelled, "-o", catalog).status == 0)
        let exported = try iapkit("export", "storekit", catalog)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try StoreKitRoundTrip.formatVersion(of: dir.write("out.storekit", exported.stdout)) == "1.4")

        let future = dir.write("future.storekit", text.replacingOccurrences(of: "\"major\" : 1", with: "\"major\" : 7"))
        let refused = try iapkit("import", "storekit", future)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("format version 7.2 is not one iapkit reads (1.0 to 6.3)"), "\(refused.stderr)")

        // A catalog naming a format no Xcode wrote is refused at export with the option that overrides it.
        try String(contentsOfFile: catalog, encoding: .utf8).replacingOccurrences(of: "formatVersion: \"1.4\"", with: "formatVersion: \"9.0\"")
            .write(toFile: catalog, atomically: true, encoding: .utf8)
        let bad = try iapkit("export", "storekit", catalog)
        #expect(bad.status == 2 && bad.stderr.contains("pass --format-version 6.3"), "\(bad.stderr)")
    }

    @Test func aProductIDTwiceIsNamedAtImport() throws {
        let dir = TemporaryDirectory()
        let source = dir.write(
            "in.storekit",
            """
            {"version": {"major": 3, "minor": 0}, "identifier": "0000ABCD", "settings": {}, "nonRenewingSubscriptions": [],
             "products": [
               {"displayPrice": "0.99", "familyShareable": false, "internalID": "00000001", "localizations": [], "productID": "a.b.gems", "referenceName": "Gems", "type": "Consumable"},
               {"displayPrice": "1.99", "familyShareable": false, "internalID": "00000002", "localizations": [], "productID": "a.b.gems", "referenceName": "More gems", "type": "Consumable"}],
             "subscriptionGroups": []}
            """)
        let catalog = dir.file("catalog.yaml")
        let imported = try iapkit("import", "storekit", source, "-o", catalog)
        #expect(imported.status == 0)
        #expect(imported.stderr.contains("`a.b.gems` is in the file twice ($.products[0] and $.products[1])"), "\(imported.stderr)")
        // Export refuses it, as the warning said.
        #expect(try iapkit("export", "storekit", catalog).status == 1)
    }

    /// A file that is not JSON is not overwritten by an update; --fresh replaces it.
    @Test func aFileThatIsNotAConfigurationIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/garden-v4.0.storekit", "-o", catalog).status == 0)
        let target = dir.write("Products.storekit", "not json")
        let refused = try iapkit("export", "storekit", catalog, "-o", target)
        #expect(refused.status == 2 && refused.stderr.contains("pass --fresh"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not json")
        let fresh = try iapkit("export", "storekit", catalog, "-o", target, "--fresh")
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(try StoreKitRoundTrip.formatVersion(of: target) == "4.0")
    }
}
