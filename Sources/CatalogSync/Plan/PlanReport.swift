import IAPCatalog
import IAPCore

/// A plan as text for people (one line per change, `+` create, `~` update, `-` delete, `!` refused, `?` unmanaged,
/// `…` waiting for App Review) and as
/// JSON for machines (docs/asc.md documents the shape).
public enum PlanReport {
    public static func text(_ plan: Plan, showUnchanged: Bool = false) -> String {
        var lines = ["App Store Connect app \(plan.app.id) (\(plan.app.bundleID))"]
        for change in plan.changes {
            let marker: String
            switch change.action {
            case .create: marker = "+"
            case .update: marker = "~"
            case .refused: marker = "!"
            case .unmanaged:
                // A note stands in every plan until the catalog or App Store Connect changes: no change to review.
                guard showUnchanged || !change.isNote else { continue }
                marker = "?"
            case .delete: marker = "-"
            case .waiting: marker = "…"
            case .unchanged:
                guard showUnchanged else { continue }
                marker = "="
            }
            lines.append(line(change, marker: marker))
        }
        if !showUnchanged, let notes = notesLine(plan) { lines.append(notes) }
        lines += uncheckedLines(plan)
        lines.append(summaryLine(plan))
        if let origins = ChangeOrigins.summaryLine(plan) { lines.append(origins) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The products App Store Connect holds more of than the catalog can say (their notes, `[not fully managed]`),
    /// named once after the changes: the notes are no change, and a reviewer sees exactly what push changes. They are
    /// the comments pull wrote at those products; `--show-unchanged` lists each as a `?` line.
    static func notesLine(_ plan: Plan) -> String? {
        let products = plan.changes.filter(\.isNote).reduce(into: [String]()) { products, note in
            let name = note.productID ?? note.resource.rawValue
            if !products.contains(name) { products.append(name) }
        }
        guard !products.isEmpty else { return nil }
        return "Not fully managed: \(products.joined(separator: ", ")) (App Store Connect holds what the catalog cannot say, "
            + "as pull noted at \(products.count == 1 ? "it" : "them"); `--show-unchanged` lists the notes)"
    }

    /// One change as plan prints it: `! inAppPurchase com.example.gems: type "consumable" -> ... (why)  at catalog.yaml:12:5`.
    public static func line(_ change: Change, marker: String) -> String {
        var line = "\(marker) \(change.resource.rawValue)"
        if let id = change.productID { line += " \(id)" }
        if let detail = change.detail { line += " [\(detail)]" }
        if !change.fields.isEmpty {
            line +=
                ": "
                + change.fields.map {
                    "\($0.name) \($0.fromUnanswered ? "?" : quote($0.from)) -> \(quote($0.to))" + ($0.currency.map { " " + $0 } ?? "")
                }.joined(separator: ", ")
        }
        if let reason = change.reason { line += " (\(reason))" }
        if let location = change.location { line += "  at \(location)" }
        if let tag = change.originTag { line += "  " + tag }
        return line
    }

    /// Prices no grid could be read for yet: per kind, how push checks them, then one line per price. Push checks
    /// them all before anything else is written.
    static func uncheckedLines(_ plan: Plan) -> [String] {
        let kinds = plan.uncheckedPrices.reduce(into: [PriceGrid]()) { if !$0.contains($1.kind) { $0.append($1.kind) } }
        return kinds.flatMap { kind in
            let prices = plan.uncheckedPrices.filter { $0.kind == kind }
            let noun = kind.noun
            return [
                "unchecked: \(Format.count(prices.count, "territory price")) of \(noun)s: the app has no \(noun) yet to read "
                    + "price points through; push creates the first one, checks each of these against its price points "
                    + "(with the other kinds' unchecked prices), and stops before any other write naming each one a territory does not offer:"
            ] + prices.map { "  \($0.description)" + ($0.location.map { "  at \($0)" } ?? "") }
        }
    }

    public static func summaryLine(_ plan: Plan) -> String {
        // Deletions are named only when a pruning plan has some, so plans without them read as they always have.
        let deletions = plan.count(.delete) > 0 ? "\(plan.count(.delete)) to delete, " : ""
        // So are writes waiting for App Review.
        let waiting = plan.count(.waiting) > 0 ? ", \(plan.count(.waiting)) waiting for App Review" : ""
        return "Plan: \(plan.count(.create)) to create, \(plan.count(.update)) to update, \(deletions)\(plan.count(.unchanged)) unchanged, "
            + "\(plan.count(.refused)) refused, \(plan.count(.unmanaged)) unmanaged\(waiting) (changes: a resource each, one line above)"
            + "\(productsPart(plan)); \(Format.count(plan.operations.count, "operation")) (the writes push sends; a change takes one or more)."
    }

    /// `, in 4 products`: the products whose changes push writes, counted the same way in plan's summary and push's.
    static func productsPart(_ plan: Plan) -> String {
        let products = Set(plan.changes.filter { !$0.operations.isEmpty }.compactMap(\.productID)).count
        return products == 0 ? "" : ", in \(Format.count(products, "product"))"
    }

    public static func json(_ plan: Plan, limit: Int? = nil, remaining: Int? = nil) -> JSONValue {
        var budget: [(String, JSONValue)] = [("requests", .int(plan.estimatedRequests))]
        if let limit { budget.append(("hourlyLimit", .int(limit))) }
        if let remaining { budget.append(("remaining", .int(remaining))) }
        return .object(
            [
                ("app", .object([("id", .string(plan.app.id)), ("bundleId", .string(plan.app.bundleID))])),
                ("changes", .array(plan.changes.map(change))),
                ("summary", .object(Change.Action.allCases.map { ($0.rawValue, .int(plan.count($0))) })),
                ("budget", .object(budget)),
                (
                    "storefrontDifferences",
                    .array(
                        plan.storefrontDifferences.map { difference in
                            .object([
                                ("territory", .string(difference.territory)), ("kind", .string(difference.kind.rawValue)),
                                ("table", difference.tableCurrency.map(JSONValue.string) ?? .null),
                                ("appStoreConnect", difference.liveCurrency.map(JSONValue.string) ?? .null),
                            ])
                        })
                ),
            ]
                + (plan.base.map { base in
                    [("base", .object([("source", .string(base))] + ChangeOrigin.allCases.map { ($0.rawValue, .int(plan.count(origin: $0))) }))]
                } ?? [])
                + (plan.uncheckedPrices.isEmpty
                    ? []
                    : [
                        ("uncheckedPrices", .array(plan.uncheckedPrices.map(\.json)))
                    ]))
    }

    /// What a push of this plan costs of App Store Connect's hourly request budget (the `X-Rate-Limit` header
    /// reports the limit and what is left; App Store Connect's usual limit is 3600 an hour).
    public static func budgetLine(_ plan: Plan, limit: Int?, remaining: Int?) -> String {
        let requests = plan.estimatedRequests
        guard requests > 0 else { return "Push would send no request." }
        let hourly = limit ?? 3600
        var line =
            "Push would send about \(requests) request\(requests == 1 ? "" : "s"): "
            + "\(Self.percent(requests, of: hourly)) of App Store Connect's hourly budget of \(hourly)"
        if let remaining {
            line += "; \(remaining) left this hour"
            if remaining < requests { line += " (push would stop with exit 75 at the budget, or wait for it with --wait)" }
        }
        return line + "."
    }

    static func percent(_ part: Int, of whole: Int) -> String {
        let value = 100 * Double(part) / Double(max(whole, 1))
        return value < 1 ? "<1%" : "\(Int(value.rounded()))%"
    }

    static func change(_ change: Change) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("action", .string(change.action.rawValue)), ("resource", .string(change.resource.rawValue)),
            ("productId", .optional(change.productID)), ("path", .optional(change.path)),
        ]
        if let location = change.location { fields.append(("location", .string(location.description))) }
        if let detail = change.detail { fields.append(("detail", .string(detail))) }
        fields.append(
            (
                "fields",
                .object(
                    change.fields.map { field in
                        // `unanswered` only where App Store Connect did not say the old value, so other plans read as before.
                        (
                            field.name,
                            .object(
                                [("from", .optional(field.from)), ("to", .optional(field.to))]
                                    + (field.currency.map { [("currency", JSONValue.string($0))] } ?? [])
                                    + (field.fromUnanswered ? [("unanswered", .bool(true))] : []))
                        )
                    })
            ))
        if let reason = change.reason { fields.append(("reason", .string(reason))) }
        if let origin = change.origin { fields.append(("origin", .string(origin.rawValue))) }
        if !change.baseFields.isEmpty { fields.append(("base", .object(change.baseFields.map { ($0.name, .optional($0.to)) }))) }
        return .object(fields)
    }

    static func quote(_ value: String?) -> String {
        guard let value else { return "(none)" }
        let short = value.count > 60 ? String(value.prefix(57)) + "..." : value
        // Backslashes and inner quotes escaped, so a value holding `"` still reads as one quoted value.
        return "\"\(short.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n"))\""
    }
}
