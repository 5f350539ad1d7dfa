import IAPCatalog

struct SchemaVersionRule: CatalogRule {
    static let id = "schema-version"
    static let severity = RuleSeverity.error
    static let rationale =
        "The version says which keys and meanings the file uses; an iapkit that guessed could write the wrong thing to App Store Connect."
    static let summary = "`schemaVersion` is missing or not a version this iapkit reads."
    static let examples = RuleExamples(
        triggering: ["↓app:\n  bundleId: com.example.app\n  primaryLocale: en-US\n", "schemaVersion: ↓7\n"],
        nonTriggering: [Example.product("")])

    func check(_ context: CatalogLintContext) {
        let supported = Catalog.supportedSchemaVersions.map(String.init).joined(separator: ", ")
        guard let version = context.catalog.schemaVersion else {
            context.report(Self.self, "the catalog has no `schemaVersion`; add `schemaVersion: 1` at the top", at: .root)
            return
        }
        if !Catalog.supportedSchemaVersions.contains(version) {
            context.report(
                Self.self, "schemaVersion \(version) is not supported; this iapkit reads version \(supported)",
                at: CatalogPath.root / "schemaVersion")
        }
    }
}
