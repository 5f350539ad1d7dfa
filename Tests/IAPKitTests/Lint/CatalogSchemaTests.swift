import CatalogExchange
import Foundation
import IAPCatalog
@testable import IAPLint
import TestSupport
import Testing

/// The JSON Schema that ships for editors must describe the same format the loader reads.
@Suite struct CatalogSchemaTests {
    /// Validates catalogs (YAML or JSON, every argument but the last) against a schema (the last): prints `valid`, or
    /// each invalid file's errors with where they are, as Python's `jsonschema` finds them. The YAML is read as
    /// editors' YAML language server and iapkit read it (YAML 1.2: `2031-06-06` is a string, not a date).
    static let validateCatalogs = """
        import json, sys, yaml, jsonschema
        class Loader(yaml.SafeLoader): pass
        Loader.yaml_implicit_resolvers = {first: [(tag, regexp) for tag, regexp in resolvers if tag != 'tag:yaml.org,2002:timestamp']
                                          for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
        validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[-1])))
        problems = []
        for path in sys.argv[1:-1]:
            for error in validator.iter_errors(yaml.load(open(path), Loader=Loader)):
                problems.append('%s: %s: %s' % (path, '/'.join(map(str, error.absolute_path)), error.message))
        print('\\n'.join(problems) if problems else 'valid')
        """

    @Test func examplesAndTemplateSatisfyTheSchema() throws {
        let out = try python(
            """
            import json, sys, yaml, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            for path in sys.argv[2:]:
                jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(open(path)))
            print('ok')
            """,
            [
                Paths.repository + "/schemas/catalog.schema.json", Paths.examples + "/catalog.yaml",
                Paths.repository + "/templates/catalog.yaml", Paths.fixtures + "/catalogs/asset-packs/catalog.yaml",
            ])
        #expect(out == "ok\n")
    }

    @Test func schemaRejectsWhatTheLoaderRejects() throws {
        let out = try python(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            bad = {'schemaVersion': 1, 'app': {'bundleId': 'a', 'primaryLocale': 'en-US'},
                   'products': [{'productId': 'a', 'type': 'consumable', 'colour': 'red'}]}
            print(jsonschema.Draft202012Validator(schema).is_valid(bad))
            app = {'bundleId': 'a', 'primaryLocale': 'en-US'}
            for pack in [{'id': 'level_1', 'source': 'p', 'downloadPolicy': 'onDemand'},
                         {'id': 'level1', 'source': 'p', 'downloadPolicy': 'always'},
                         {'id': 'level1', 'source': 'p', 'downloadPolicy': 'onDemand', 'files': [{'file': 'a', 'directory': 'b'}]}]:
                print(jsonschema.Draft202012Validator(schema).is_valid({'schemaVersion': 1, 'app': app, 'assetPacks': [pack]}))
            """, [Paths.repository + "/schemas/catalog.schema.json"])
        #expect(out == "False\nFalse\nFalse\nFalse\n")
    }

    /// The loader allows exactly the keys the schema describes: both come from `CatalogFormat`, and a catalog with every
    /// key of every object is read without an unknown-key finding while one more key in any object is refused.
    @Test func theLoaderAllowsWhatTheSchemaDescribes() throws {
        let out = try python(
            """
            import json, sys
            s = json.load(open(sys.argv[1])); d = s['$defs']
            def keys(o): return sorted(o['properties'])
            print(json.dumps({'root': keys(s), 'product': keys(d['product']), 'subscription': keys(d['subscription']),
                'winBackOffer': keys(d['subscription']['properties']['winBackOffers']['items']),
                'inAppPurchaseOfferCode': keys(d['product']['properties']['offerCodes']['items']),
                'assetPack': keys(d['assetPack'])}, sort_keys=True))
            """, [Paths.catalogSchema])
        let schema = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: [String]]
        #expect(schema["product"] == CatalogFormat.product.names.sorted())
        #expect(schema["subscription"] == CatalogFormat.subscription.names.sorted())
        #expect(schema["inAppPurchaseOfferCode"] == CatalogFormat.offer(.offerCode, inAppPurchase: true).names.sorted())
        // The loader refuses a key the declarations do not have, and names the allowed ones in the writer's order.
        let folder = TemporaryDirectory()
        let catalog = folder.write(
            "catalog.yaml",
            """
            schemaVersion: 1
            app: {bundleId: com.example.app, primaryLocale: en-US}
            products:
              - productId: com.example.app.coins
                referenceName: Coins
                type: consumable
                colour: red
            """)
        let lint = try iapkit(["lint", "catalog", catalog])
        #expect(lint.status != 0 && lint.stdout.contains("colour"), "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains(CatalogFormat.product.names.joined(separator: ", ")), "\(lint.stdout)")
    }

    /// `storeKit.formatVersion` takes exactly the versions `export storekit` writes (what `import storekit` sets it to).
    @Test func storeKitFormatVersionsAreTheOnesExportWrites() throws {
        let candidates = (0...8).flatMap { major in (0...100).map { "\(major).\($0)" } } + ["6.03", "06.0", "6", "6.3.1", ""]
        let out = try python(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))['properties']['storeKit']['properties']['formatVersion']
            print(' '.join(v for v in sys.argv[2:] if jsonschema.Draft202012Validator(schema).is_valid(v)))
            """, [Paths.catalogSchema] + candidates)
        let accepted = Set(out.split(whereSeparator: \.isWhitespace).map(String.init))
        let written = Set(candidates.filter { StoreKitExporter.FormatVersion(rawValue: $0)?.rawValue == $0 })
        #expect(accepted == written, "the schema takes \(accepted.subtracting(written).sorted()), refuses \(written.subtracting(accepted).sorted())")
        for version in StoreKitExporter.FormatVersion.allCases { #expect(accepted.contains(version.rawValue)) }
    }

    /// Every list of choices the schema gives is the one the loader and lint take.
    @Test func everyChoiceIsTheCodes() throws {
        let out = try python(
            """
            import json, sys
            s = json.load(open(sys.argv[1])); d = s['$defs']; sub = d['subscription']['properties']
            print(json.dumps({
                'platforms': s['properties']['app']['properties']['platforms']['items']['enum'],
                'graceDuration': s['properties']['billingGracePeriod']['properties']['duration']['enum'],
                'graceRenewals': s['properties']['billingGracePeriod']['properties']['renewals']['enum'],
                'productType': d['product']['properties']['type']['enum'],
                'inAppPurchaseEligibility': d['product']['properties']['offerCodes']['items']['properties']['eligibility']['items']['enum'],
                'period': sub['period']['enum'],
                'mode': sub['introductoryOffer']['properties']['mode']['enum'],
                'offerDuration': sub['introductoryOffer']['properties']['duration']['enum'],
                'subscriptionEligibility': sub['offerCodes']['items']['properties']['eligibility']['items']['enum'],
                'paidMonths': sub['winBackOffers']['items']['properties']['eligibility']['properties']['paidMonths']['enum'],
                'priority': sub['winBackOffers']['items']['properties']['priority']['enum'],
                'promotion': sub['winBackOffers']['items']['properties']['promotion']['enum'],
                'planType': d['billingPlan']['properties']['planType']['enum'],
                'downloadPolicy': d['assetPack']['properties']['downloadPolicy']['enum'],
                'installationEvents': d['assetPack']['properties']['installationEvents']['items']['enum'],
                'packPlatforms': d['assetPack']['properties']['platforms']['items']['enum'],
                'release': d['assetPack']['properties']['release']['enum'],
                'existingSubscribers': d['priceChange']['properties']['existingSubscribers']['oneOf'][0]['enum'],
                'environment': d['oneTimeCodes']['items']['properties']['environment']['enum'],
                'markets': sub['markets']['items']['enum'],
            }, sort_keys=True))
            """, [Paths.catalogSchema])
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: [Any]])
        let code: [String: [String]] = [
            "platforms": AssetPack.platformNames, "graceDuration": BillingGracePeriod.durations,
            "graceRenewals": BillingGracePeriod.renewalChoices, "productType": ProductType.productTypes.map(\.rawValue),
            "inAppPurchaseEligibility": OfferEligibility.inAppPurchaseCustomers.map(\.rawValue), "period": SubscriptionPeriods.all,
            "mode": OfferMode.allCases.map(\.rawValue),
            "offerDuration": OfferChecks.freeTrialDurations + OfferChecks.payUpFrontDurations.filter { !OfferChecks.freeTrialDurations.contains($0) },
            "subscriptionEligibility": OfferEligibility.subscriptionCustomers.map(\.rawValue),
            "paidMonths": WinBackSettings.paidMonths.map(String.init), "priority": WinBackSettings.priorities,
            "promotion": WinBackSettings.promotions, "planType": BillingPlanType.allCases.map(\.rawValue),
            "downloadPolicy": AssetPack.DownloadPolicy.allCases.map(\.rawValue), "installationEvents": AssetPack.installationEventTypes,
            "packPlatforms": AssetPack.platformNames, "release": AssetPack.releases,
            "existingSubscribers": ExistingSubscribers.allCases.map(\.rawValue), "environment": CodeEnvironment.allCases.map(\.rawValue),
            "markets": SubscriptionMarket.allCases.map(\.rawValue),
        ]
        #expect(Set(schema.keys) == Set(code.keys))
        for (name, values) in code {
            let listed = (schema[name] ?? []).map { "\($0)" }
            #expect(Set(listed) == Set(values), "\(name): the schema lists \(listed), the code takes \(values)")
        }
    }
}
