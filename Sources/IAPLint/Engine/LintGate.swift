#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// The check every command that refuses a bad catalog makes first: load the catalog, lint it as strictly as the
/// command needs, and hand back the catalog, or the errors that refuse it. `iapkit lint` reports instead of refusing,
/// so it runs the linter itself.
public enum LintGate {
    /// How much of lint a catalog must pass.
    public enum Strictness: Sendable, CaseIterable {
        /// The catalog's shape: the loader's `schema` findings and the structural rules (`schema-version`, `type`,
        /// `product-id-format`, `product-id-duplicate`). Enough for output that is right as far as it goes
        /// (`export`, `asc plan`), long before every App Store Connect field is filled in.
        case shape
        /// What Xcode's StoreKit testing cannot take (`export storekit`): the loader's `schema` findings,
        /// `schema-version`, `type`, `product-id-duplicate` and an empty product ID. Every other catalog rule runs
        /// too, and its errors come back as warnings: App Store Connect refuses them (lint and `asc` say so), the
        /// simulator does not, so a file imported from Xcode exports back over itself.
        case simulator
        /// Every catalog rule, without the hosted-content folders (`package --catalog`, which lints each folder
        /// as it packages it).
        case catalog
        /// Every catalog rule and every hosted-content folder the catalog names, as `iapkit lint catalog` does
        /// (`asc push`).
        case full
    }

    /// A catalog the gate refused.
    public struct Refusal: Error, Sendable {
        /// The catalog file, as given.
        public var path: String
        /// The errors, in report order.
        public var errors: [Finding]
        /// The products the catalog holds, for a report's summary line.
        public var products: Int
        /// What the command asks of the user, after `PATH has errors; `.
        public var advice = ""

        /// `3 errors in catalog.yaml`
        public var summary: String {
            "\(errors.count) error\(errors.count == 1 ? "" : "s") in \(path)"
        }
    }

    /// Loads the catalog at `path` and lints it with `strictness`, then hands every finding (warnings too) to
    /// `findings`. Returns the catalog when lint found no errors, or the refusal when it did; throws only when the
    /// tool cannot do its job (an unreadable or malformed catalog, an unreadable content folder), and then hands on
    /// no finding.
    public static func open(
        _ path: String, strictness: Strictness,
        findings: FindingConsumer = { _ in }
    ) throws(IAPKitError) -> Result<Catalog, Refusal> {
        let collector = FindingCollector()
        let consumer = collector.consumer
        let catalog = try CatalogLoader.load(path: path, findings: consumer)
        let folder = Path.parent(path)
        let linter = CatalogLinter()
        switch strictness {
        case .shape: linter.check(catalog, rules: RuleRegistry.structuralRules, baseDirectory: folder, consumer: consumer)
        case .catalog, .simulator: linter.check(catalog, rules: RuleRegistry.catalogRules, baseDirectory: folder, consumer: consumer)
        case .full: try linter.lint(catalog, baseDirectory: folder, consumer: consumer)
        }
        var found = collector.findings
        if strictness == .simulator {
            // Lint's own warnings stay lint's; App Store Connect's errors are the simulator's warnings.
            found = found.compactMap { finding in
                guard finding.severity == .error else { return nil }
                if refusesSimulator(finding) { return finding }
                var warning = finding
                warning.severity = .warning
                return warning
            }
        }
        found.forEach(findings)
        let errors = found.filter { $0.severity == .error }
        guard errors.isEmpty else {
            return .failure(Refusal(path: path, errors: errors.sortedForReport(), products: catalog.allProducts.count))
        }
        return .success(catalog)
    }

    /// Whether a finding is one Xcode's StoreKit testing cannot take: a catalog it cannot read as written, a product
    /// ID twice or none, a type it lacks.
    static func refusesSimulator(_ finding: Finding) -> Bool {
        switch finding.ruleID {
        case SchemaRule.id, SchemaVersionRule.id, TypeRule.id, ProductIDDuplicateRule.id: return true
        case ProductIDFormatRule.id: return (finding.productID ?? "").isEmpty
        default: return false
        }
    }

    /// The catalog at `path` when lint finds no errors; else throws the `Refusal`, carrying `advice` for its message.
    /// - Parameter reportsProducts: whether the refusal's summary line counts the catalog's products.
    /// - Parameter findings: every finding, as `open` hands them on.
    public static func catalog(
        _ path: String, strictness: Strictness, advice: String, reportsProducts: Bool = true,
        findings: FindingConsumer = { _ in }
    ) throws -> Catalog {
        try open(path, strictness: strictness, findings: findings).mapError { refusal in
            var refusal = refusal
            refusal.advice = advice
            if !reportsProducts { refusal.products = 0 }
            return refusal
        }.get()
    }
}
