import IAPCore

/// A plan in GitHub-flavoured Markdown, for where pull requests are reviewed (a job summary, a comment): a summary
/// table, then one collapsible section per product with each field's old and new value and its catalog line.
/// Products with refused or unmanaged changes come first, since those need someone's decision.
extension PlanReport {
    /// What a plan posted as a pull-request comment may take: GitHub holds 65,536 characters in a comment (and 1 MiB in
    /// a job summary), less room for the Action's marker.
    public static let commentLimit = 60_000

    /// The plan in Markdown; with `limit`, cut at a product's section to stay within it (counted in UTF-8 bytes,
    /// never fewer than characters), the counts always whole, saying what was cut and where the whole plan is.
    public static func markdown(_ plan: Plan, title: String = "iapkit plan", limit: Int? = nil) -> String {
        var out = "### \(title): App Store Connect app \(plan.app.id) (\(cell(plan.app.bundleID)))\n\n"
        out += "| Create | Update | Delete | Refused | Unmanaged | Waiting for review | Unchanged | Operations | Requests |\n"
        out += "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        out +=
            "| \(plan.count(.create)) | \(plan.count(.update)) | \(plan.count(.delete)) | \(plan.count(.refused)) | "
            + "\(plan.count(.unmanaged)) | \(plan.count(.waiting)) | \(plan.count(.unchanged)) | \(plan.operations.count) | "
            + "\(plan.estimatedRequests) |\n\n"
        if let origins = ChangeOrigins.summaryLine(plan) { out += origins + "\n\n" }
        var sections: [(name: String, changes: [Change])] = []
        // Notes stand in every plan: the products holding them are named once, above the sections.
        for change in plan.changes where change.action != .unchanged && !change.isNote {
            let name = change.productID ?? (change.resource.isGroupResource ? "Subscription groups" : "App")
            if let index = sections.firstIndex(where: { $0.name == name }) {
                sections[index].changes.append(change)
            } else {
                sections.append((name, [change]))
            }
        }
        if sections.isEmpty { out += "App Store Connect matches the catalog.\n" }
        if let notes = notesLine(plan) { out += (sections.isEmpty ? "\n" : "") + cell(notes) + "\n\n" }
        let needsDecision = { (changes: [Change]) in changes.contains { $0.action == .refused || $0.action == .unmanaged } }
        let ordered = sections.filter { needsDecision($0.changes) } + sections.filter { !needsDecision($0.changes) }
        var texts: [String] = []
        for section in ordered {
            var out = ""
            let counts = Change.Action.allCases.compactMap { action -> String? in
                let count = section.changes.filter { $0.action == action }.count
                return count == 0 ? nil : "\(count) \(words[action] ?? action.rawValue)"
            }
            // Refused and unmanaged rows first inside a section too.
            let rows =
                section.changes.filter { $0.action == .refused || $0.action == .unmanaged }
                + section.changes.filter { $0.action != .refused && $0.action != .unmanaged }
            // `markdown="1"`: Markdown parsers that keep HTML blocks opaque read the table inside; GitHub drops it.
            out +=
                "<details markdown=\"1\"\(needsDecision(section.changes) ? " open" : "")><summary><code>\(html(section.name))</code>: "
                + counts.joined(separator: ", ") + "</summary>\n\n"
            out += "| | Resource | Field | Before | After | Catalog |\n|---|---|---|---|---|---|\n"
            for change in rows {
                let resource = cell(change.resource.rawValue + (change.detail.map { " [\($0)]" } ?? ""))
                let location = change.location.map { "`\(cell($0.description))`" } ?? ""
                if change.fields.isEmpty {
                    out += "| \(symbols[change.action] ?? "") | \(resource) | | | | \(location) |\n"
                } else {
                    for field in change.fields {
                        let before = field.fromUnanswered ? "? (not answered)" : value(field.from)
                        out +=
                            "| \(symbols[change.action] ?? "") | \(resource) | \(cell(field.name)) | \(before) | \(value(field.to)) | \(location) |\n"
                    }
                }
                if let reason = change.reason { out += "| | | | | _\(cell(reason))_ | |\n" }
                if change.origin != .catalog, let tag = change.originTag { out += "| | | | | **\(cell(tag))** | |\n" }
            }
            out += "\n</details>\n\n"
            texts.append(out)
        }
        guard let limit else { return out + texts.joined() }
        var size = out.utf8.count + 600
        var shown = 0
        for text in texts {
            guard size + text.utf8.count <= limit else { break }
            out += text
            size += text.utf8.count
            shown += 1
        }
        if shown < texts.count {
            out +=
                "**Cut to fit where it is posted: \(shown) of \(texts.count) sections shown** (those needing a decision first; "
                + "the counts above are the whole plan's). The whole plan is the `.md` file `iapkit asc plan --out FILE` writes "
                + "beside the saved plan: keep it as the job's artifact.\n"
        }
        return out
    }

    static let symbols: [Change.Action: String] = [
        .create: "+", .update: "~", .delete: "-", .refused: "!", .unmanaged: "?",
        .waiting: "…", .unchanged: "=",
    ]
    static let words: [Change.Action: String] = [
        .create: "to create", .update: "to update", .delete: "to delete",
        .refused: "refused", .unmanaged: "unmanaged", .waiting: "waiting for App Review",
        .unchanged: "unchanged",
    ]

    /// A value in a table cell: quoted as the text plan quotes it, `(none)` for no value.
    static func value(_ text: String?) -> String { cell(quote(text)) }

    /// Text safe in a table cell: pipes escaped, line breaks as spaces, HTML's angle brackets as entities.
    static func cell(_ text: String) -> String {
        html(text).replacingAll("|", with: "\\|").replacingAll("\n", with: " ")
    }

    static func html(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}
