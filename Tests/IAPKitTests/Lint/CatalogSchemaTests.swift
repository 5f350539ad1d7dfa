import Foundation
import IAPCatalog
import TestSupport
import Testing

/// The JSON Schema that ships for editors must describe the same format the loader reads.
@Suite struct CatalogSchemaTests {
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

    @Test func schemaKeysMatchTheLoader() throws {
        let out = try python(
            """
            import json, sys
            s = json.load(open(sys.argv[1])); d = s['$defs']
            def keys(o): return sorted(o['properties'])
            print(json.dumps({'root': keys(s), 'app': keys(s['properties']['app']), 'product': keys(d['product']),
                'subscription': keys(d['subscription']), 'group': keys(d['group']), 'localization': keys(d['localization']),
                'groupLocalization': keys(d['groupLocalization']), 'review': keys(d['review']),
                'introductoryOffer': keys(d['subscription']['properties']['introductoryOffer']),
                'promotionalOffer': keys(d['subscription']['properties']['promotionalOffers']['items']),
                'offerCode': keys(d['subscription']['properties']['offerCodes']['items']),
                'winBackOffer': keys(d['subscription']['properties']['winBackOffers']['items']),
                'assetPack': keys(d['assetPack']),
                'fileSelector': keys(d['assetPack']['properties']['files']['items'])}, sort_keys=True))
            """, [Paths.repository + "/schemas/catalog.schema.json"])
        let schema = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: [String]]
        let loader: [String: [String]] = [
            "root": CatalogKeys.root, "app": CatalogKeys.app, "product": CatalogKeys.product,
            "subscription": CatalogKeys.subscription, "group": CatalogKeys.group, "localization": CatalogKeys.localization,
            "groupLocalization": CatalogKeys.groupLocalization, "review": CatalogKeys.review,
            "introductoryOffer": CatalogKeys.introductoryOffer, "promotionalOffer": CatalogKeys.promotionalOffer,
            "offerCode": CatalogKeys.offerCode, "winBackOffer": CatalogKeys.winBackOffer,
            "assetPack": CatalogKeys.assetPack, "fileSelector": CatalogKeys.fileSelector,
        ]
        for (name, keys) in loader { #expect(schema[name] == keys.sorted(), "\(name)") }
    }
}
