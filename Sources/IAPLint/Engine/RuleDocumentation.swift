import IAPCore

/// What the rules say about themselves, written out for `iapkit lint rules` and for docs/lint-rules.md: all from
/// each rule's own declaration (id, severity, summary, rationale, examples), so the page cannot drift from the code.
public enum RuleDocumentation {
    /// One line a rule: id, severity, summary.
    public static func list(_ rules: [any RuleDescribing.Type] = RuleRegistry.described) -> String {
        let width = rules.map { $0.id.count }.max() ?? 0
        let severityWidth = rules.map { $0.severity.usual.rawValue.count }.max() ?? 0
        return rules.map { rule in
            rule.id.padding(width) + "  " + rule.severity.usual.rawValue.padding(severityWidth) + "  " + rule.summary + "\n"
        }.joined() + "\(rules.count) rules; `iapkit lint rules RULE` explains one, with its examples.\n"
    }

    /// One rule in full, for a terminal.
    public static func explanation(_ rule: any RuleDescribing.Type) -> String {
        var out = "\(rule.id) (\(rule.severity))\n\n\(rule.summary)\n\nWhy: \(rule.rationale)\n"
        for (title, examples) in [("Fires on", rule.examples.triggering), ("Passes", rule.examples.nonTriggering)] {
            for example in examples {
                out += "\n\(title)" + (isContent(rule) ? " (a folder):\n" : ":\n")
                out += shown(example, of: rule).split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
                if !out.hasSuffix("\n") { out += "\n" }
            }
        }
        let legend = notation(in: rule.examples.triggering + rule.examples.nonTriggering, content: isContent(rule))
        return out + (legend.isEmpty ? "" : "\nHow to read the examples:\n" + legend.map { "  \($0)\n" }.joined())
            + "\nMore: \(RuleRegistry.documentationURL(rule.id))\n"
    }

    /// What each notation the examples use means, one line each, in the order they are explained; nothing for
    /// notations the examples do not use (a plain catalog needs no legend).
    static func notation(in examples: [String], content: Bool) -> [String] {
        let lines = examples.flatMap { $0.split(separator: "\n").map(String.init) }
        func uses(_ test: (String) -> Bool) -> Bool { lines.contains(where: test) }
        var legend: [String] = []
        if content {
            legend.append("each line is one entry of the folder the rule looks at:")
            let entries: [(String, (String) -> Bool, String)] = [
                (
                    "@expect ID", { $0.hasPrefix("@expect ") },
                    "the product ID the catalog names the folder for (without it, the folder is linted on its own)"
                ),
                ("@info VERSION ID", { $0.hasPrefix("@info ") }, "a ContentInfo.plist with that ContentVersion and IAPProductIdentifier"),
                ("path/", { $0.hasSuffix("/") }, "a folder"),
                ("path: text", { $0.contains(": ") && !$0.hasPrefix("@") }, "a file holding the text (\\n is a line break)"),
                ("path -> target", { $0.contains(" -> ") }, "a symbolic link"),
                ("@fifo path", { $0.hasPrefix("@fifo ") }, "a FIFO"),
                ("@badname path", { $0.hasPrefix("@badname ") }, "a file whose name is `path` and the byte 0xFF, which is not UTF-8"),
                ("@sparse path BYTES", { $0.hasPrefix("@sparse ") }, "a file of that size"),
                (
                    "@lock VERSION same|changed", { $0.hasPrefix("@lock ") },
                    "iapkit.lock records that version for the product, with the folder's digest (same) or another (changed)"
                ),
                ("@lock-other", { $0 == "@lock-other" }, "iapkit.lock lists another product's content only"),
            ]
            for (form, used, meaning) in entries where uses(used) { legend.append("  \(form): \(meaning)") }
        }
        if uses({ $0.hasPrefix("#@ ") }) {
            legend.append("#@ lines describe files beside the catalog, one a line, as content examples do (path: text, path -> target, @fifo path)")
        }
        if uses({ $0.contains("↓") }) { legend.append("↓ marks where the finding points") }
        return legend
    }

    /// The rules as JSON: an array of objects with the same fields the page shows.
    public static func json(_ rules: [any RuleDescribing.Type]) -> String {
        JSONValue.array(
            rules.map { rule in
                .object([
                    ("id", .string(rule.id)),
                    ("severity", .string(rule.severity.usual.rawValue)),
                    ("severityOtherwise", .optional(rule.severity.otherwise)),
                    ("summary", .string(rule.summary)),
                    ("rationale", .string(rule.rationale)),
                    ("appliesTo", .string(isContent(rule) ? "content" : "catalog")),
                    ("documentation", .string(RuleRegistry.documentationURL(rule.id))),
                    ("triggering", .array(rule.examples.triggering.map(JSONValue.string))),
                    ("nonTriggering", .array(rule.examples.nonTriggering.map(JSONValue.string))),
                ])
            }
        ).serialized()
    }

    /// docs/lint-rules.md.
    public static func markdown() -> String {
        let rules = RuleRegistry.described
        var out = """
            # Lint rules

            <!-- Generated by `make docs` (`iapkit lint rules --format markdown`) from the rules in Sources/IAPLint. \
            Edit the rules, not this page: a test fails when the two differ. -->

            `iapkit lint catalog` runs every rule below on the catalog and the folders it names; `iapkit lint content`
            runs the `content-*` rules on hosted-content folders. Errors fail the run (exit 1), warnings only with
            `--strict`; a file that cannot be read at all fails it with exit 2. `iapkit lint rules` lists the same rules
            in the terminal and `iapkit lint rules RULE` explains one. A finding you accept stays in the catalog beside
            its reason (`# iapkit:disable RULE reason`) or in a baseline (`--write-baseline`, `--baseline`); see
            [Commands](commands.md).

            Each catalog example below is a whole catalog after this header, which is left out:

            ```yaml
            \(Example.header.trimmingSuffixNewlines())
            ```

            Content examples describe a folder, one entry a line: `@info VERSION PRODUCT_ID` writes a
            ContentInfo.plist, `@expect PRODUCT_ID` is the catalog's product ID (without it the folder is linted on
            its own), `path/` is a folder, `path: text` a file, `path -> target` a symbolic link, `@fifo path` a FIFO,
            `@badname path` a file whose name is not UTF-8, `@sparse path BYTES` a file of that size,
            `@lock VERSION same|changed` what the last `iapkit package` recorded in iapkit.lock (the folder's digest,
            or another), `@lock-other` a lock that lists another product only. In asset-pack examples, `#@` lines
            describe the files beside the catalog in the same notation. `↓` marks where the finding points.

            | rule | severity | fires when |
            |---|---|---|

            """
        for rule in rules {
            out += "| [`\(rule.id)`](#\(rule.id)) | \(rule.severity) | \(rule.summary.replacingAll("|", with: "\\|")) |\n"
        }
        for rule in rules {
            out += "\n## \(rule.id)\n\n**\(rule.severity)**. \(rule.summary)\n\n\(rule.rationale)\n"
            let language = isContent(rule) ? "text" : "yaml"
            for (title, examples) in [("Fires on", rule.examples.triggering), ("Passes", rule.examples.nonTriggering)] {
                out += "\n\(title):\n"
                for example in examples {
                    out += "\n```\(language)\n" + shown(example, of: rule).trimmingSuffixNewlines() + "\n```\n"
                }
            }
        }
        return out
    }

    private static func isContent(_ rule: any RuleDescribing.Type) -> Bool {
        RuleRegistry.contentRules.contains { $0.id == rule.id }
    }

    /// An example as shown: a catalog without the common header.
    private static func shown(_ example: String, of rule: any RuleDescribing.Type) -> String {
        guard !isContent(rule), example.hasPrefix(Example.header) else { return example }
        let body = String(example.dropFirst(Example.header.count))
        return body.isEmpty ? "# (the header alone)" : body
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }

    fileprivate func trimmingSuffixNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
