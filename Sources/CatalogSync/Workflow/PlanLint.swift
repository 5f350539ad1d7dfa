import IAPCatalog
import IAPCore
import IAPLint

/// Plan refuses what push would refuse: a change whose value one of the catalog rules push applies finds an error in
/// is `!` with the rule's message, so `plan` exits 1 and `plan --out` saves it not appliable. Plan still opens a
/// catalog by its shape alone (so it is useful before every App Store Connect field is filled in); only the values
/// it would send are held to every rule.
enum PlanLint {
    static func refuseWhatLintRefuses(_ plan: inout Plan, catalog: Catalog, baseDirectory: String) {
        let sends = { (change: Change) in change.action == .create || change.action == .update }
        guard plan.changes.contains(where: sends) else { return }
        let collector = FindingCollector()
        CatalogLinter().check(catalog, rules: RuleRegistry.catalogRules, baseDirectory: baseDirectory, consumer: collector.consumer)
        let errors = collector.findings.filter { $0.severity == .error && $0.productID != nil && $0.path != nil }
        guard !errors.isEmpty else { return }
        for index in plan.changes.indices where sends(plan.changes[index]) {
            let change = plan.changes[index]
            guard let id = change.productID, let at = change.path,
                let finding = errors.first(where: { $0.productID == id && Self.within($0.path ?? "", at) })
            else { continue }
            plan.changes[index].action = .refused
            plan.changes[index].reason = "\(finding.ruleID): \(finding.message)"
            plan.changes[index].operations = []
        }
    }

    /// Whether catalog path `path` is `owner` or lies inside it (`products[1].price` in `products[1]`, not in `products[10]`).
    static func within(_ path: String, _ owner: String) -> Bool {
        path == owner || path.hasPrefix(owner + ".") || path.hasPrefix(owner + "[")
    }
}
