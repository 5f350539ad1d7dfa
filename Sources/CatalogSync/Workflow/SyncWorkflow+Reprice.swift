#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import IAPLint

/// `asc reprice`: a bulk price change, as an edit of the catalog.
extension SyncWorkflow {
    /// What `asc reprice` did or, refused or with `dryRun`, would do.
    public struct RepriceOutcome: Sendable {
        /// The unified diff of the catalog file (empty when nothing changes).
        public var diff: String
        /// The summary to print.
        public var line: String
        /// What reprice refused and the lint errors the edit would bring, each located: nothing was written.
        public var refusals: [Finding]
        public var notes: [String]
        public var written: Bool
    }

    /// Reprices the products `reprice` matches on each territory's grid (the USA's offline; the others' read from
    /// App Store Connect, through a product of each kind, as plan reads them) and edits the catalog in place: only
    /// the changed values. An edit that lint would refuse (an error the catalog did not have) is not written.
    public func reprice(_ reprice: Reprice, dryRun: Bool) async throws -> RepriceOutcome {
        let catalog = try load(.shape)
        let data = try InputFile.read(catalogPath, limit: InputFile.Limit.catalog)
        let editor = try CatalogTextEditor(data: data, file: catalogPath)
        let products = try reprice.matched(editor.catalog, file: catalogPath)
        if case let .to(cents) = reprice.move, !IAPCatalog.PriceGrid.isPoint(cents: cents) || cents == 0 {
            let near = IAPCatalog.PriceGrid.neighbours(ofCents: Double(cents))
            let nearest = [near.below, near.above].compactMap { $0 }.filter { $0 > 0 }.map(Price.format(cents:))
            throw IAPKitError.invalidArgument(
                "--to \(Price.format(cents: cents)) is not a paid USD price point"
                    + (nearest.isEmpty ? "" : "; the nearest are " + nearest.joined(separator: " and ")))
        }
        let needed = reprice.territories(products)
        let asc = try connection.client()
        var reader = self.reader(asc, gridTerritories: Array(Set(needed.values.joined())).sorted())
        let app = try await connection.app(reader, bundleID: catalog.app.bundleID, catalogAppID: catalog.app.appID, catalog: catalog)
        let listings = try await reader.listings(app: app)
        var snapshot = StoreSnapshot(app: app, territories: listings.storefronts.keys.sorted())
        // The grids are read through the first product of each kind App Store Connect lists.
        if needed[.inAppPurchase] != nil, let first = listings.inAppPurchases.lazy.compactMap({ InAppPurchaseKind.record($0.resource) }).first {
            snapshot.inAppPurchases = [first]
        }
        if needed[.subscription] != nil,
            let first = listings.groups.lazy.flatMap({ $0.subscriptions }).compactMap({ SubscriptionKind.record($0.resource) }).first
        {
            snapshot.groups = [StoreGroup(record: GroupRecord(referenceName: ""), id: "", subscriptions: [first])]
        }
        reader.gridTerritories = Array(Set(needed.values.joined())).sorted()
        try await reader.readPriceGrids(into: &snapshot)
        let today = reader.today
        if let from = reprice.from, from <= today {
            throw IAPKitError.invalidArgument(
                "--from \(CalendarDay.format(from)) is not after App Store Connect's today (\(CalendarDay.format(today))); "
                    + "leave --from out to change today's prices")
        }
        reportAnswers(asc)
        let outcome = try reprice.apply(to: editor, grids: snapshot.priceGrids, today: today)
        let old = String(decoding: data, as: UTF8.self)
        var refusals = outcome.refusals
        if refusals.isEmpty, let text = outcome.text {
            refusals = try Self.lintErrorsAdded(by: text, to: data, file: catalogPath, baseDirectory: baseDirectory)
        }
        guard refusals.isEmpty else {
            return RepriceOutcome(
                diff: "", line: "\(catalogPath) was not changed: \(Format.count(refusals.count, "refusal"))\n", refusals: refusals,
                notes: outcome.notes, written: false)
        }
        guard let text = outcome.text else {
            return RepriceOutcome(
                diff: "", line: "\(catalogPath): nothing to change (\(Format.count(products.count, "product")) matched)\n", refusals: [],
                notes: outcome.notes, written: false)
        }
        let diff = UnifiedDiff.text(old: old, new: String(decoding: text, as: UTF8.self), oldName: "a/" + catalogPath, newName: "b/" + catalogPath)
        let what =
            "\(Format.count(outcome.products.count, "product")) repriced (\(reprice.move.description)"
            + (reprice.from.map { ", from \(CalendarDay.format($0))" } ?? "") + "), \(Format.count(outcome.values, "value")) changed"
        if dryRun {
            return RepriceOutcome(diff: diff, line: what + " (not written: --dry-run)\n", refusals: [], notes: outcome.notes, written: false)
        }
        try AtomicFile.write(text, to: catalogPath)
        return RepriceOutcome(
            diff: diff, line: what + " in \(catalogPath); check it with `iapkit asc plan \(catalogPath)`\n", refusals: [], notes: outcome.notes,
            written: true)
    }

    /// The lint errors of the edited text that the catalog did not have before (by rule, product and message).
    static func lintErrorsAdded(by text: [UInt8], to original: Data, file: String, baseDirectory: String) throws -> [Finding] {
        func errors(_ data: Data) throws -> [Finding] {
            let collector = FindingCollector()
            let catalog = try CatalogLoader.load(data: data, file: file, findings: collector.consumer)
            CatalogLinter().check(catalog, rules: RuleRegistry.catalogRules, baseDirectory: baseDirectory, consumer: collector.consumer)
            return collector.findings.filter { $0.severity == .error }
        }
        var before: [String: Int] = [:]
        for finding in try errors(original) { before["\(finding.ruleID)|\(finding.productID ?? "")|\(finding.message)", default: 0] += 1 }
        return try errors(Data(text)).filter { finding in
            let key = "\(finding.ruleID)|\(finding.productID ?? "")|\(finding.message)"
            guard let count = before[key], count > 0 else { return true }
            before[key] = count - 1
            return false
        }
    }
}
