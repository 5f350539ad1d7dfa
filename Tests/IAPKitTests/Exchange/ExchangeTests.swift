import CatalogExchange
import Foundation
import IAPCatalog
import IAPCore
import Testing

@Suite struct ExchangeTests {
    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.storeKitFixtures)) ?? [])
        .filter { $0.hasSuffix(".storekit") }.sorted()

    /// Normalises a .storekit file to what a catalog carries, so two files can be compared field by field:
    /// locales by language, null reference names as the product ID, offers by mode, price and effective length.
    static let normalize = """
        import json, sys
        def lang(code): return code.replace('-', '_').split('_')[0]
        def mul(period, n):
            if n <= 1: return period
            unit, amount = period[-1], int(period[1:-1]) * n
            return {('W', 2): 'P2W', ('D', 7): 'P1W', ('D', 14): 'P2W', ('M', 12): 'P1Y'}.get((unit, amount), 'P%d%s' % (amount, unit))
        def offer(o, sub_period):
            if o is None or o.get('billingPlanType') == 'MONTHLY': return None
            mode, n = o['paymentMode'], o.get('numberOfPeriods', 1)
            span = (o['subscriptionPeriod'], n) if mode == 'payAsYouGo' else (mul(o['subscriptionPeriod'], n), 1)
            if mode == 'payAsYouGo': span = (sub_period, n)
            price = None if mode == 'free' else '%.2f' % float(o.get('displayPrice', '0'))
            extra = (o.get('offerID'), o.get('referenceName'), tuple(sorted(o.get('eligibility', []))), o.get('isStackable'))
            return (mode, span, price, extra)
        def loc(ls): return sorted((lang(l['locale']), l['displayName'], l.get('description', '')) for l in ls)
        def product(p):
            return (p['productID'], p['type'], '%.2f' % float(p['displayPrice']), p['familyShareable'],
                    p['referenceName'] or p['productID'], loc(p['localizations']))
        def normalized(d):
            intro = lambda s: s.get('introductoryOffer') or (s.get('introductoryOffers') or [None])[0]
            groups = [(g['name'], sorted(loc_g for loc_g in ((lang(l['locale']), l['displayName']) for l in g['localizations'])),
                       [(product(s), s['groupNumber'], s['recurringSubscriptionPeriod'],
                         offer(intro(s), s['recurringSubscriptionPeriod']),
                         [x for x in (offer(o, s['recurringSubscriptionPeriod']) for o in s.get('adHocOffers', [])) if x],
                         [x for x in (offer(o, s['recurringSubscriptionPeriod']) for o in s.get('codeOffers', [])) if x],
                         [x for x in (offer(o, s['recurringSubscriptionPeriod']) for o in s.get('winbackOffers', [])) if x])
                        for s in g['subscriptions']]) for g in d['subscriptionGroups']]
            return {'products': sorted(product(p) for p in d['products'] + d.get('nonRenewingSubscriptions', [])), 'groups': groups}
        a, b = normalized(json.load(open(sys.argv[1]))), normalized(json.load(open(sys.argv[2])))
        for key in a:
            if a[key] != b[key]:
                print('DIFF', key); print(json.dumps(a[key], ensure_ascii=False)); print(json.dumps(b[key], ensure_ascii=False)); sys.exit(1)
        print('same', len(a['products']), sum(len(g[2]) for g in a['groups']))
        """

    @Test func everyFixtureIsPresent() {
        #expect(Self.fixtures.count == 17, "expected the 17 real .storekit fixtures beside the repository")
    }

    @Test(arguments: fixtures)
    func importThenExportKeepsTheCatalog(fixture: String) throws {
        let dir = TemporaryDirectory()
        let source = Paths.storeKitFixtures + "/" + fixture
        let catalog = dir.file("catalog.yaml")
        let imported = try iapkit("import", "storekit", source, "-o", catalog)
        #expect(imported.status == 0, "\(imported.stderr)")
        // The catalog iapkit wrote reads back without a single shape problem.
        let collector = FindingCollector()
        _ = try CatalogLoader.load(path: catalog, findings: collector.consumer)
        #expect(collector.findings.isEmpty, "\(collector.findings.map(\.message))")

        let version = try python("import json, sys; v = json.load(open(sys.argv[1]))['version']; print('%d.%d' % (v['major'], v['minor']))", [source])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let target = ["1.0", "1.1"].contains(version) ? "4.0" : version
        let exported = dir.file("Products.storekit")
        let export = try iapkit("export", "storekit", catalog, "--format-version", target, "-o", exported)
        #expect(export.status == 0, "\(export.stderr)")
        let same = try python(Self.normalize, [source, exported])
        #expect(same.hasPrefix("same"), "\(same)")
        _ = try python("""
            import json, sys, jsonschema
            jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
            """, [exported, Paths.sharedReference + "/storekit.schema.json"])
    }

    @Test(arguments: StoreKitExporter.FormatVersion.allCases)
    func examplesExportValidatesInEveryFormat(version: StoreKitExporter.FormatVersion) throws {
        let dir = TemporaryDirectory()
        let first = try iapkit("export", "storekit", "examples/catalog.yaml", "--format-version", version.rawValue, in: Paths.repository)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try iapkit("export", "storekit", "examples/catalog.yaml", "--format-version", version.rawValue, in: Paths.repository)
        #expect(first.stdout == second.stdout, "exporting twice must give identical bytes")
        let path = dir.write("x.storekit", first.stdout)
        let out = try python("""
            import json, sys, jsonschema
            d = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
            assert '%d.%d' % (d['version']['major'], d['version']['minor']) == sys.argv[3]
            ids = [p['internalID'] for p in d['products']] + [s['internalID'] for g in d['subscriptionGroups'] for s in g['subscriptions']]
            assert all(len(i) == 8 and i == i.upper() for i in ids) and len(set(ids)) == len(ids)
            print('ok')
            """, [path, Paths.sharedReference + "/storekit.schema.json", version.rawValue])
        #expect(out == "ok\n")
    }

    @Test func examplesStoreKitMatchesTheGoldenFile() throws {
        let result = try iapkit("export", "storekit", "examples/catalog.yaml", in: Paths.repository)
        let golden = Paths.fixtures + "/golden/examples.storekit"
        if ProcessInfo.processInfo.environment["IAPKIT_RECORD"] == "1" { try result.stdout.write(toFile: golden, atomically: true, encoding: .utf8) }
        #expect(result.stdout == (try String(contentsOfFile: golden, encoding: .utf8)))
        // Xcode's layout: two-space indent, " : ", empty arrays split over three lines, final newline.
        #expect(result.stdout.contains("\"identifier\" : \"") && result.stdout.hasSuffix("}\n"))
    }

    @Test func ascRequestsValidateAgainstTheOpenAPISchemas() throws {
        let result = try iapkit("export", "asc", "examples/catalog.yaml", "--app-id", "1234567890", in: Paths.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let dir = TemporaryDirectory()
        let path = dir.write("asc.json", result.stdout)
        let out = try python("""
            import json, re, sys
            from jsonschema import Draft7Validator
            from referencing import Registry, Resource
            spec = json.load(open(sys.argv[2]))
            registry = Registry().with_resource('openapi', Resource.opaque(spec))
            requests = json.load(open(sys.argv[1]))
            refs, counts = set(), {}
            for r in requests:
                assert r['method'] == 'POST'
                ref = spec['paths'][r['path']]['post']['requestBody']['content']['application/json']['schema']['$ref']
                Draft7Validator({'$ref': 'openapi' + ref}, registry=registry).validate(r['body'])
                for used in re.findall(r'\\$\\{(?:pricePoint:)?([a-z]+:[^}:]+)', json.dumps(r['body'])):
                    assert used in refs, (used, 'used before it was created')
                if 'ref' in r: refs.add(r['ref'])
                counts[r['path']] = counts.get(r['path'], 0) + 1
            print(json.dumps(counts, sort_keys=True))
            """, [path, Paths.sharedReference + "/app-store-connect-openapi.json"])
        let counts = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Int] ?? [:]
        #expect(counts["/v2/inAppPurchases"] == 4)
        #expect(counts["/v1/inAppPurchaseLocalizations"] == 5)
        #expect(counts["/v1/inAppPurchasePriceSchedules"] == 4)
        #expect(counts["/v1/subscriptionGroups"] == 1 && counts["/v1/subscriptionGroupLocalizations"] == 1)
        #expect(counts["/v1/subscriptions"] == 2 && counts["/v1/subscriptionLocalizations"] == 2 && counts["/v1/subscriptionPrices"] == 2)
        #expect(counts["/v1/subscriptionIntroductoryOffers"] == 2 && counts["/v1/subscriptionPromotionalOffers"] == 1)
        // $0.99 is App Store Connect's price point 10010 in the USA storefront.
        #expect(result.stdout.contains("${pricePoint:iap:com.example.fruitstand.banana:USA:10010}"))
    }

    @Test func serverJSONAndBundlePlist() throws {
        let json = try iapkit("export", "json", "examples/catalog.yaml", in: Paths.repository)
        let plist = try iapkit("export", "plist", "examples/catalog.yaml", in: Paths.repository)
        let dir = TemporaryDirectory()
        let out = try python("""
            import json, plistlib, sys
            d = json.load(open(sys.argv[1]))
            kiwi = next(p for p in d['products'] if p['productId'].endswith('kiwi'))
            assert kiwi['price'] == '1.99' and kiwi['currency'] == 'USD' and kiwi['familySharable'] is False
            ids = plistlib.load(open(sys.argv[2], 'rb'))
            print(len(ids), ids[0])
            """, [dir.write("c.json", json.stdout), dir.write("ids.plist", plist.stdout)])
        #expect(out == "6 com.example.fruitstand.banana\n")
    }

    @Test(arguments: [
        ("{\"products\": [", "not valid JSON"),
        ("{\"version\": {\"major\": 9, \"minor\": 0}, \"products\": [], \"subscriptionGroups\": []}", "$.version"),
        ("{\"version\": {\"major\": 3, \"minor\": 0}, \"products\": [{\"productID\": \"a\", \"type\": \"Gadget\", \"displayPrice\": \"0.99\"}]}", "$.products[0].type"),
        ("{\"version\": {\"major\": 3, \"minor\": 0}, \"products\": {}}", "$.products"),
        ("[1, 2]", "$"),
    ])
    func malformedStoreKitFilesAreExitTwoWithThePath(content: String, expected: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.write("bad.storekit", content)
        let result = try iapkit("import", "storekit", path)
        #expect(result.status == 2)
        #expect(result.stderr.contains(path) && result.stderr.contains(expected), "\(result.stderr)")
    }

    /// Mutated real files: every case ends in a catalog or a typed error, never a crash.
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
