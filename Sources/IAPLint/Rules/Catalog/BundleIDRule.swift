import IAPCatalog
import IAPCore

/// The app's bundle ID, which `asc` finds the app by: App Store Connect takes letters, digits, hyphens and periods.
struct BundleIDRule: CatalogRule {
    static let id = "bundle-id"
    static let severity = RuleSeverity.error
    static let rationale = "`asc` finds the app in App Store Connect by its bundle ID, and product IDs are checked against it."
    static let summary = "`app.bundleId` is empty or has a character outside A-Z a-z 0-9 - . (App Store Connect finds the app by it)."
    static let examples = RuleExamples(
        triggering: [
            Example.catalog("").replacingAll("bundleId: com.example.app", with: "bundleId: ↓\"\""),
            Example.catalog("").replacingAll("bundleId: com.example.app", with: "bundleId: ↓com.example/app"),
        ],
        nonTriggering: [Example.product("")])

    func check(_ context: CatalogLintContext) {
        guard let bundleID = context.catalog.app.bundleID else { return }
        let path = CatalogPath.root / "app" / "bundleId"
        if bundleID.trimmingWhitespace.isEmpty {
            context.report(Self.self, "`app.bundleId` is empty; give the app's bundle ID, which `asc` finds the app by", at: path)
        } else if let bad = bundleID.unicodeScalars.first(where: { !Self.allowed($0) }) {
            context.report(
                Self.self,
                "`app.bundleId` has the character `\(bad.escaped(asASCII: true))`; a bundle ID "
                    + "takes only A-Z, a-z, 0-9, hyphens and periods", at: path)
        }
    }

    static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }
}
