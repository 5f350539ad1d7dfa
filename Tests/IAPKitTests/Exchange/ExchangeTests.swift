import CatalogExchange
import Foundation
import IAPCatalog
import IAPCore
import IAPLint
import TestSupport
import Testing

/// Import, export and compare a StoreKit configuration: shared by the synthetic fixtures here and the real Xcode
/// files of the conformance suite.
enum StoreKitRoundTrip {
    /// Normalises a .storekit file to what a catalog carries, so two files can be compared field by field:
    /// locales by language, null reference names as the product ID, offers by plan, mode and effective length.
    /// Price strings are compared exactly as written; a free offer has no price whatever its text.
    static let normalize = """
        import json, sys
        def lang(code): return code.replace('-', '_').split('_')[0]
        def mul(period, n):
            if n <= 1: return period
            unit, amount = period[-1], int(period[1:-1]) * n
            return {('W', 2): 'P2W', ('D', 7): 'P1W', ('D', 14): 'P2W', ('M', 12): 'P1Y'}.get((unit, amount), 'P%d%s' % (amount, unit))
        def plan(o): return o.get('billingPlanType', 'BILLED_UPFRONT')
        def offer(o, sub_period):
            mode, n = o['paymentMode'], o.get('numberOfPeriods', 1)
            renewal = o['subscriptionPeriod'] if plan(o) == 'MONTHLY' else sub_period
            span = (renewal, n) if mode == 'payAsYouGo' else (mul(o['subscriptionPeriod'], n), 1)
            price = None if mode == 'free' or o.get('displayPrice', '') == '' else o['displayPrice']
            extra = (o.get('offerID'), o.get('referenceName'), tuple(sorted(o.get('eligibility', []))), o.get('isStackable'))
            return (plan(o), mode, span, price, extra)
        def offers(s, key): return sorted(offer(o, s['recurringSubscriptionPeriod']) for o in s.get(key) or [])
        def intros(s):
            listed = s.get('introductoryOffers') or ([s['introductoryOffer']] if s.get('introductoryOffer') else [])
            return sorted(offer(o, s['recurringSubscriptionPeriod']) for o in listed)
        def plans(s):
            return sorted((p['billingPlanType'], p['displayPrice'], p['commitmentDisplayPrice'], p['isEnabled']) for p in s.get('billingPlans', []))
        def loc(ls): return sorted((lang(l['locale']), l['displayName'], l.get('description', '')) for l in ls)
        def product(p):
            return (p['productID'], p['type'], p['displayPrice'], p['familyShareable'], p['referenceName'] or p['productID'], loc(p['localizations']))
        def normalized(d):
            groups = [(g['name'], sorted((lang(l['locale']), l['displayName']) for l in g['localizations']),
                       [(product(s), s['groupNumber'], s['recurringSubscriptionPeriod'], intros(s), offers(s, 'adHocOffers'),
                         offers(s, 'codeOffers'), offers(s, 'winbackOffers'), plans(s))
                        for s in g['subscriptions']]) for g in d['subscriptionGroups']]
            return {'products': sorted(product(p) for p in d['products'] + d.get('nonRenewingSubscriptions', [])), 'groups': groups}
        a, b = normalized(json.load(open(sys.argv[1]))), normalized(json.load(open(sys.argv[2])))
        for key in a:
            if a[key] != b[key]:
                print('DIFF', key); print(json.dumps(a[key], ensure_ascii=False)); print(json.dumps(b[key], ensure_ascii=False)); sys.exit(1)
        subs = [s for g in a['groups'] for s in g[2]]
        print('same', len(a['products']), len(subs), sum(len(s[7]) for s in subs), sum(len(s[3]) + len(s[4]) + len(s[5]) + len(s[6]) for s in subs))
        """

    static let validate = """
        import json, sys, jsonschema
        jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
        print('valid')
        """

    /// The file's format version, e.g. `5.0`.
    static func formatVersion(of path: String) throws -> String {
        try python("import json, sys; v = json.load(open(sys.argv[1]))['version']; print('%d.%d' % (v['major'], v['minor']))", [path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Imports `source`, checks the catalog loads clean, exports it as a new file in the same format version and
    /// returns the comparison line and the exported file's path.
    static func check(
        _ source: String, in dir: TemporaryDirectory, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (summary: String, exported: String) {
        let catalog = dir.file("catalog.yaml")
        let imported = try iapkit("import", "storekit", source, "-o", catalog)
        #expect(imported.status == 0, "\(imported.stderr)", sourceLocation: sourceLocation)
        #expect(
            !imported.stderr.contains("introductory offer for one billing plan dropped"), "\(imported.stderr)",
            sourceLocation: sourceLocation)
        // The catalog iapkit wrote reads back without a single shape problem, and the schema editors use takes it.
        let schema = try python(CatalogSchemaTests.validateCatalogs, [catalog, Paths.catalogSchema], sourceLocation: sourceLocation)
        #expect(schema == "valid\n", "\(schema)", sourceLocation: sourceLocation)
        let collector = FindingCollector()
        _ = try CatalogLoader.load(path: catalog, findings: collector.consumer)
        #expect(collector.findings.isEmpty, "\(collector.findings.map(\.message))", sourceLocation: sourceLocation)

        let target = try formatVersion(of: source)
        let exported = dir.file("Products.storekit")
        let export = try iapkit("export", "storekit", catalog, "--format-version", target, "-o", exported)
        #expect(export.status == 0, "\(export.stderr)", sourceLocation: sourceLocation)
        let same = try python(normalize, [source, exported], sourceLocation: sourceLocation)
        #expect(same.hasPrefix("same"), "\(same)", sourceLocation: sourceLocation)
        return (same, exported)
    }
}

@Suite struct ExchangeTests {
    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.storeKitFixtures)) ?? [])
        .filter { $0.hasSuffix(".storekit") }.sorted()

    @Test func everyFormatVersionHasAFixture() throws {
        let versions = try Self.fixtures.map { try StoreKitRoundTrip.formatVersion(of: Paths.storeKitFixtures + "/" + $0) }
        #expect(Set(versions) == Set(StoreKitExporter.FormatVersion.allCases.map(\.rawValue)))
    }

    @Test(arguments: fixtures)
    func fixtureSatisfiesTheStoreKitSchema(fixture: String) throws {
        #expect(try python(StoreKitRoundTrip.validate, [Paths.storeKitFixtures + "/" + fixture, Paths.storeKitSchema]) == "valid\n")
    }

    @Test(arguments: fixtures)
    func importThenExportKeepsTheCatalog(fixture: String) throws {
        let dir = TemporaryDirectory()
        let (_, exported) = try StoreKitRoundTrip.check(Paths.storeKitFixtures + "/" + fixture, in: dir)
        #expect(try python(StoreKitRoundTrip.validate, [exported, Paths.storeKitSchema]) == "valid\n")
    }

    @Test func billingPlansAndTheirOffersSurviveTheRoundTrip() throws {
        let dir = TemporaryDirectory()
        let (summary, exported) = try StoreKitRoundTrip.check(Paths.storeKitFixtures + "/garden-v5.0.storekit", in: dir)
        // 3 products; 2 subscriptions; 3 billing plans; 10 offers, 3 of them on the monthly plan.
        #expect(summary == "same 3 2 3 10\n")
        let catalog = try String(contentsOfFile: dir.file("catalog.yaml"), encoding: .utf8)
        #expect(
            catalog.contains("planType: monthly") && catalog.contains("commitmentPrice") == false,
            "a commitment of twelve payments is the default and is not written:\n\(catalog)")
        #expect(catalog.contains("price: 10\n") && catalog.contains("price: 0.5\n"), "prices keep their text:\n\(catalog)")
        let plans = try python(
            """
            import json, sys
            d = json.load(open(sys.argv[1]))
            yearly = d['subscriptionGroups'][0]['subscriptions'][1]
            print(json.dumps([[p['billingPlanType'], p['displayPrice'], p['commitmentDisplayPrice']] for p in yearly['billingPlans']]))
            print(json.dumps(sorted([o['billingPlanType'], o['paymentMode']] for o in yearly['introductoryOffers'])))
            print(json.dumps(sorted([o['billingPlanType'], o['subscriptionPeriod']] for o in yearly['adHocOffers'])))
            """, [exported])
        // The monthly plan's pay-as-you-go offer renews monthly on this yearly subscription.
        #expect(
            plans == """
                [["BILLED_UPFRONT", "49.99", "49.99"], ["MONTHLY", "4.99", "59.88"]]
                [["BILLED_UPFRONT", "payUpFront"], ["MONTHLY", "free"]]
                [["BILLED_UPFRONT", "P1Y"], ["MONTHLY", "P1M"]]

                """)
    }

    @Test func olderFormatsReportWhatTheyCannotHold() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/garden-v5.0.storekit", "-o", catalog).status == 0)
        let old = try iapkit("export", "storekit", catalog, "--format-version", "3.0")
        #expect(old.status == 0)
        #expect(old.stderr.contains("`com.example.garden.club.yearly`: billing plans and their 3 offers need StoreKit format 5.0"), "\(old.stderr)")
        #expect(old.stderr.contains("`com.example.garden.club.monthly`: win-back offers need StoreKit format 4.0"), "\(old.stderr)")
        #expect(!old.stdout.contains("MONTHLY") && !old.stdout.contains("billingPlans"))
        let current = try iapkit("export", "storekit", catalog, "--format-version", "5.0")
        // 5.0 holds everything; the one warning left is App Store Connect's, about the fixture's $0.5 offer.
        let warnings = current.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(current.status == 0 && warnings.count == 1 && warnings[0].hasSuffix("[intro-offer]"), "\(current.stderr)")
    }

    @Test func displayPricesAreExportedAsTheyWereImported() throws {
        let dir = TemporaryDirectory()
        let source = dir.write(
            "in.storekit",
            """
            {"version": {"major": 3, "minor": 0}, "identifier": "0000ABCD", "settings": {}, "nonRenewingSubscriptions": [],
             "products": [
               {"displayPrice": "10", "familyShareable": false, "internalID": "00000001", "localizations": [], "productID": "a.b.ten", "referenceName": "Ten", "type": "Consumable"},
               {"displayPrice": "0.5", "familyShareable": false, "internalID": "00000002", "localizations": [], "productID": "a.b.half", "referenceName": "Half", "type": "Consumable"},
               {"displayPrice": "4.00", "familyShareable": false, "internalID": "00000003", "localizations": [], "productID": "a.b.four", "referenceName": "Four", "type": "Consumable"},
               {"displayPrice": "", "familyShareable": false, "internalID": "00000004", "localizations": [], "productID": "a.b.none", "referenceName": "None", "type": "Consumable"}],
             "subscriptionGroups": []}
            """)
        let catalog = dir.file("catalog.yaml")
        let imported = try iapkit("import", "storekit", source, "-o", catalog)
        #expect(imported.status == 0 && imported.stderr.contains("`a.b.none`: displayPrice was empty"), "\(imported.stderr)")
        let exported = try iapkit("export", "storekit", catalog, "--format-version", "3.0")
        let written = try python(
            "import json, sys; print(' '.join(repr(p['displayPrice']) for p in json.load(open(sys.argv[1]))['products']))",
            [dir.write("out.storekit", exported.stdout)])
        #expect(written == "'10' '0.5' '4.00' ''\n")
    }

    /// Xcode writes prices in the simulator storefront's currency: a file set to China holds yuan, which must never
    /// become a USD `price` that a push would charge in dollars.
    @Test func pricesOfAnotherStorefrontBecomeItsTerritoryPrices() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("Store/catalog.yaml")
        try FileManager.default.createDirectory(atPath: dir.file("Store"), withIntermediateDirectories: true)
        let imported = try iapkit("import", "storekit", Paths.storeKitFixtures + "/storefront-chn-v3.0.storekit", "-o", path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("prices are in CNY, the currency of the simulator storefront CHN"), "\(imported.stderr)")
        // Every simulator setting the catalog cannot carry is named, `_timeRate` too.
        #expect(imported.stderr.contains("_developerTeamID, _lastSynchronizedDate, _storeKitErrors, _timeRate"), "\(imported.stderr)")

        let catalog = try CatalogLoader.load(path: path, findings: { _ in })
        let everything = catalog.allProducts
        #expect(everything.allSatisfy { $0.price == nil }, "no USD price: \(everything.map { $0.price?.text ?? "-" })")
        let seeds = try #require(everything.first { $0.productID == "com.example.garden.seeds" })
        #expect(seeds.territoryPrices.map { "\($0.territory) \($0.price?.text ?? "")" } == ["CHN 6"])
        let offers = everything.flatMap { [$0.introductoryOffer].compactMap { $0 } + $0.promotionalOffers }
        #expect(offers.allSatisfy { $0.price == nil }, "offers carry no USD price either")
        #expect(offers.contains { $0.territoryPrices.first?.territory == "CHN" })
        // The products' texts are English; the simulator's German store sheet stays a simulator setting.
        #expect(catalog.app.primaryLocale == "en-US" && catalog.storeKit?.locale == "de-DE" && catalog.storeKit?.storefront == "CHN")
        #expect(catalog.app.appID == "1234567890", "the synced file's App Store Connect app ID is kept")

        // The `$schema` comment names a file that exists beside the catalog, and the catalog passes it.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# yaml-language-server: $schema=catalog.schema.json\n"))
        #expect(FileManager.default.fileExists(atPath: dir.file("Store/catalog.schema.json")))
        #expect(try python(Self.validateYAML, [path, dir.file("Store/catalog.schema.json")]) == "valid\n")

        // The missing USD prices are lint errors on each product's line, never a silent default.
        let lint = try iapkit("lint", "catalog", path, "--format", "json")
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("\"rule\" : \"price\"") || lint.stdout.contains("\"rule\": \"price\""), "\(lint.stdout)")

        // Exported again for the same storefront, the simulator shows the same yuan.
        let exported = try iapkit("export", "storekit", path, "--format-version", "3.0")
        let shown = try python(
            "import json, sys; print(' '.join(p['displayPrice'] for p in json.load(open(sys.argv[1]))['products']))",
            [dir.write("out.storekit", exported.stdout)])
        #expect(shown == "6 68\n")
    }

    @Test func exportKeepsTheImportedFormatVersionUnlessTold() throws {
        let dir = TemporaryDirectory()
        let catalog = dir.file("catalog.yaml")
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/garden-v3.0.storekit", "-o", catalog).status == 0)
        #expect(try String(contentsOfFile: catalog, encoding: .utf8).contains("formatVersion: \"3.0\""))
        let kept = try iapkit("export", "storekit", catalog)
        #expect(try StoreKitRoundTrip.formatVersion(of: dir.write("kept.storekit", kept.stdout)) == "3.0")
        let told = try iapkit("export", "storekit", catalog, "--format-version", "5.0")
        #expect(try StoreKitRoundTrip.formatVersion(of: dir.write("told.storekit", told.stdout)) == "5.0")
        // A 1.1 file is written as 1.1 again, without the offer codes 1.1 has no place for.
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/garden-v1.1.storekit", "-o", catalog, "--force").status == 0)
        #expect(try String(contentsOfFile: catalog, encoding: .utf8).contains("formatVersion: \"1.1\""))
        let old = try iapkit("export", "storekit", catalog)
        #expect(old.status == 0, "\(old.stderr)")
        #expect(try StoreKitRoundTrip.formatVersion(of: dir.write("old.storekit", old.stdout)) == "1.1")
        #expect(!old.stdout.contains("codeOffers") && old.stdout.contains("\"identifier\""))
        // The default, 4.0, needs no setting.
        #expect(try iapkit("import", "storekit", Paths.storeKitFixtures + "/garden-v4.0.storekit", "-o", catalog, "--force").status == 0)
        #expect(!(try String(contentsOfFile: catalog, encoding: .utf8)).contains("formatVersion"))
    }

    static let validateYAML = CatalogSchemaTests.validateCatalogs

    @Test func productIDsWithoutACommonPrefixGetAPlaceholderBundleIDThatSaysSo() throws {
        let dir = TemporaryDirectory()
        let source = dir.write(
            "in.storekit",
            """
            {"version": {"major": 3, "minor": 0}, "identifier": "0000ABCD", "settings": {}, "nonRenewingSubscriptions": [],
             "products": [
               {"displayPrice": "0.99", "familyShareable": false, "internalID": "00000001", "localizations": [], "productID": "gems", "referenceName": "Gems", "type": "Consumable"},
               {"displayPrice": "1.99", "familyShareable": false, "internalID": "00000002", "localizations": [], "productID": "coins", "referenceName": "Coins", "type": "Consumable"}],
             "subscriptionGroups": []}
            """)
        let imported = try iapkit("import", "storekit", source)
        #expect(imported.status == 0)
        #expect(imported.stderr.contains("bundle ID set to the placeholder `com.example.placeholder`"), "\(imported.stderr)")
        #expect(imported.stdout.contains("price: 0.99"), "a file without settings is the USA storefront")
        // Written to standard output there is no schema file beside it, so no comment points at one.
        #expect(!imported.stdout.contains("$schema"))
        // Lint says once that the bundle ID is the placeholder, at the bundle ID, instead of once per product.
        let catalog = dir.write("catalog.yaml", imported.stdout)
        let lint = try iapkit("lint", "catalog", catalog, "--format", "json")
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(lint.stdout.utf8)) as? [String: Any])["findings"] as? [[String: Any]]
        let prefix = (findings ?? []).filter { $0["rule"] as? String == "product-id-prefix" }
        #expect(prefix.count == 1, "\(lint.stdout)")
        #expect(
            (prefix.first?["message"] as? String)?.contains("the bundle ID is the placeholder `com.example.placeholder`") == true, "\(lint.stdout)")
        #expect(prefix.first?["path"] as? String == "app.bundleId", "\(lint.stdout)")
    }

    @Test(arguments: StoreKitExporter.FormatVersion.allCases)
    func examplesExportValidatesInEveryFormat(version: StoreKitExporter.FormatVersion) throws {
        let dir = TemporaryDirectory()
        let first = try iapkit("export", "storekit", Paths.examplesCatalog, "--format-version", version.rawValue, in: Paths.fixtures)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try iapkit("export", "storekit", Paths.examplesCatalog, "--format-version", version.rawValue, in: Paths.fixtures)
        #expect(first.stdout == second.stdout, "exporting twice must give identical bytes")
        let path = dir.write("x.storekit", first.stdout)
        let out = try python(
            """
            import json, sys, jsonschema
            d = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
            assert '%d.%d' % (d['version']['major'], d['version']['minor']) == sys.argv[3]
            ids = [p['internalID'] for p in d['products']] + [s['internalID'] for g in d['subscriptionGroups'] for s in g['subscriptions']]
            assert all(len(i) == 8 and i == i.upper() for i in ids) and len(set(ids)) == len(ids)
            print('ok')
            """, [path, Paths.storeKitSchema, version.rawValue])
        #expect(out == "ok\n")
    }

    @Test func examplesStoreKitMatchesTheGoldenFile() throws {
        let result = try iapkit("export", "storekit", Paths.examplesCatalog, in: Paths.fixtures)
        let golden = Paths.fixtures + "/golden/examples.storekit"
        if ProcessInfo.processInfo.environment["IAPKIT_RECORD"] == "1" { try result.stdout.write(toFile: golden, atomically: true, encoding: .utf8) }
        #expect(result.stdout == (try String(contentsOfFile: golden, encoding: .utf8)))
        // Xcode's layout: two-space indent, " : ", empty arrays split over three lines, final newline.
        #expect(result.stdout.contains("\"identifier\" : \"") && result.stdout.hasSuffix("}\n"))
    }

    /// Mutated StoreKit files: every case ends in a catalog or a typed error, never a crash.
    @Test(.timeLimit(.minutes(2)))
    func importerSurvivesMutations() throws {
        var generator = SystemRandomNumberGenerator()
        var outcomes = (ok: 0, failed: 0)
        for fixture in Self.fixtures {
            let seed = Array(try Data(contentsOf: URL(fileURLWithPath: Paths.storeKitFixtures + "/" + fixture)))
            for _ in 0..<120 {
                var bytes = seed
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = Array("{}[]\",:0n-".utf8).randomElement(using: &generator)!
                    case 1: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...30, using: &generator)))
                    default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                    }
                    if bytes.isEmpty { bytes = [0x7B] }
                }
                do {
                    let result = try StoreKitImporter().importData(Data(bytes), file: fixture)
                    _ = try CatalogYAMLWriter.write(result.catalog)
                    outcomes.ok += 1
                } catch {
                    #expect(error.description.contains(fixture))
                    outcomes.failed += 1
                }
            }
        }
        #expect(outcomes.ok > 0 && outcomes.failed > 0)
    }
}
