import Foundation
import Testing

/// `export asc` request bodies against Apple's App Store Connect OpenAPI document.
@Suite(.enabled(if: Reference.available, Reference.skipReason))
struct AppStoreConnectConformanceTests {
    static let validate = """
        import json, sys
        from jsonschema import Draft7Validator
        from referencing import Registry, Resource
        spec = json.load(open(sys.argv[2]))
        registry = Registry().with_resource('openapi', Resource.opaque(spec))
        paths = set()
        for r in json.load(open(sys.argv[1])):
            ref = spec['paths'][r['path']]['post']['requestBody']['content']['application/json']['schema']['$ref']
            Draft7Validator({'$ref': 'openapi' + ref}, registry=registry).validate(r['body'])
            paths.add(r['path'])
        print(len(paths))
        """

    @Test func examplesRequestsValidate() throws {
        let result = try iapkit("export", "asc", "examples/catalog.yaml", "--app-id", "1234567890", in: Paths.repository)
        #expect(result.status == 0, "\(result.stderr)")
        let dir = TemporaryDirectory()
        #expect(try python(Self.validate, [dir.write("asc.json", result.stdout), Reference.openAPI]) == "10\n")
    }

    @Test func billingPlanRequestsValidate() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("export", "asc", dir.write("catalog.yaml", ExchangeTests.billingPlanCatalog), "--app-id", "1234567890")
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(Self.validate, [dir.write("asc.json", result.stdout), Reference.openAPI])
        // Group, its localization, subscription, its localization, prices, both offer kinds, plan availabilities.
        #expect(out == "8\n", "\(out)")
    }
}
