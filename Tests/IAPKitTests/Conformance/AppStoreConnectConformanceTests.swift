import Foundation
import TestSupport
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
        import re
        paths = set()
        for r in json.load(open(sys.argv[1])):
            if 'body' not in r or r['method'] == 'PUT':
                continue  # DELETE, and the upload of a screenshot's bytes to its upload operations
            template = r['path'] if r['method'] == 'POST' else re.sub(r'/[^/]+$', '/{id}', r['path'])
            ref = spec['paths'][template][r['method'].lower()]['requestBody']['content']['application/json']['schema']['$ref']
            Draft7Validator({'$ref': 'openapi' + ref}, registry=registry).validate(r['body'])
            paths.add(template)
        print(len(paths))
        """

    @Test func examplesRequestsValidate() throws {
        let result = try iapkit("export", "asc", Paths.examplesCatalog, "--app-id", "1234567890", in: Paths.fixtures)
        #expect(result.status == 0, "\(result.stderr)")
        let dir = TemporaryDirectory()
        // In-app purchases, versions, localizations, availabilities, price schedules, screenshots and their commits;
        // groups, subscriptions (created, then given their group level), their versions and localizations, plan
        // availabilities, prices and introductory offers (inline in PATCH /v1/subscriptions/{id}), promotional offers,
        // screenshots and their commits.
        #expect(try python(Self.validate, [dir.write("asc.json", result.stdout), Reference.openAPI]) == "18\n")
    }

    @Test func billingPlanRequestsValidate() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("export", "asc", dir.write("catalog.yaml", ExchangeTests.billingPlanCatalog), "--app-id", "1234567890")
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(Self.validate, [dir.write("asc.json", result.stdout), Reference.openAPI])
        // Group, its version and localization, subscription, its version and localization, plan availabilities,
        // prices and introductory offers (inline in PATCH /v1/subscriptions/{id}), promotional offers.
        #expect(out == "9\n", "\(out)")
    }

    /// The declared kinds beyond products (grace period, promoted purchases, images, offer-code batches and custom
    /// codes, win-back settings): every body `export asc` writes for them is one Apple's document accepts.
    @Test func declaredKindsRequestsValidate() throws {
        let dir = TemporaryDirectory()
        let result = try iapkit("export", "asc", try DeclaredStateSyncTests.everything(in: dir), "--app-id", "1234567890")
        #expect(result.status == 0, "\(result.stderr)")
        let out = try python(Self.validate, [dir.write("asc.json", result.stdout), Reference.openAPI])
        #expect((Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 20, "\(out)")
    }
}
