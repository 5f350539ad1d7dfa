import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCatalog
import IAPCore
import IAPLint

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a catalog, or hosted-content folders, the way App Store Connect would.",
        subcommands: [Catalog.self, Content.self, Rules.self, Schema.self],
        defaultSubcommand: Catalog.self
    )

    struct OutputOptions: ParsableArguments {
        @Option(name: .long, help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        var format: ReportFormat = .text

        @Flag(help: "Fail (exit 1) on warnings too.")
        var strict = false

        @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
        var output: String?

        @Option(help: "Accept the findings recorded in this baseline file: only new findings are reported.")
        var baseline: String?

        @Option(help: "Record every finding of this run in a baseline file, for --baseline.")
        var writeBaseline: String?

        /// Runs `lint`; an input it cannot read becomes the report's one finding, in the chosen format and written
        /// where `-o` says, and the run still fails with exit 2.
        func reportingUnreadableInput(_ context: ReportContext, _ lint: () throws -> Void) throws {
            do { try lint() } catch let error as IAPKitError {
                guard let finding = UnreadableInputRule.finding(for: error) else { throw error }
                // Standard error always says it, as for every input iapkit cannot read; the report says it in its
                // format, unless it is the same plain line on the same terminal.
                Terminal.error(error.description)
                if format != .text || output != nil { try write([finding], context: context) }
                throw ExitCode(2)
            }
        }

        /// The findings `--baseline` accepts, read before the run does anything else, so a baseline that cannot be
        /// read stops it (exit 2) before any work and any write.
        func acceptedFindings() throws -> IAPLint.Baseline? {
            try baseline.map { try IAPLint.Baseline.read($0) }
        }

        /// Prints or writes the report (without the findings `accepted` holds) and exits 1 when the findings fail the
        /// run. Only a run that passes calls `commit`, which makes the run's changes: a failing run changes no file.
        /// `--write-baseline` is written last, after the report and the commit: it records the run's findings, so it
        /// is written whenever every input was read, even when those findings fail the run.
        func finish(
            _ findings: [Finding], context: ReportContext, accepted: IAPLint.Baseline?,
            commit: () throws -> Void = {}
        ) throws {
            var reported = findings
            if let accepted, let baseline {
                let (new, count) = accepted.newFindings(in: findings)
                reported = new
                if count > 0 { Terminal.writeError("\(count) finding\(count == 1 ? "" : "s") accepted by \(baseline)\n") }
            }
            let sorted = reported.sortedForReport()
            try write(sorted, context: context)
            let failed = sorted.errorCount > 0 || (strict && sorted.warningCount > 0)
            if !failed { try commit() }
            if let writeBaseline {
                let recorded = IAPLint.Baseline(findings: findings)
                try AtomicFile.write(recorded.serialized(), to: writeBaseline)
                Terminal.writeError("wrote \(writeBaseline) (\(recorded.count) finding\(recorded.count == 1 ? "" : "s") accepted)\n")
            }
            if failed { throw ExitCode(1) }
        }

        private func write(_ sorted: [Finding], context: ReportContext) throws {
            let colour = output == nil && Terminal.colourAllowed(forTerminal: Terminal.stdoutIsTerminal)
            let text = format.makeReporter(colour: colour).report(sorted, context: context)
            if let output { try AtomicFile.write(text, to: output) } else { try Terminal.output(text) }
        }
    }

    struct Catalog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "catalog",
            abstract: "Check a catalog and every hosted-content folder it names.",
            discussion: """
                Exit codes: 0 no errors (warnings allowed unless --strict), 1 findings failed the run, 2 the catalog could \
                not be read.

                Examples:
                  iapkit lint catalog
                  iapkit lint catalog examples/catalog.yaml --format sarif -o lint.sarif
                  iapkit lint catalog --format github --strict
                  iapkit lint catalog --write-baseline lint-baseline.json     # accept today's findings
                  iapkit lint catalog --strict --baseline lint-baseline.json  # fail only on new ones

                A known finding can also be accepted where it is, with the reason beside it:
                  productId: legacy_coins  # iapkit:disable product-id-prefix live since 2015, never renamed
                """
        )

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @OptionGroup var options: OutputOptions

        /// For the benchmark: load the catalog and stop, to compare lint time with parse time.
        @Flag(help: .hidden)
        var loadOnly = false

        func run() throws {
            if loadOnly {
                KeptUntilExit.keep(try CatalogLoader.load(path: catalog, findings: { _ in }))
                return
            }
            let accepted = try options.acceptedFindings()
            let collector = FindingCollector()
            var summary: LintSummary?
            try options.reportingUnreadableInput(ReportContext(toolVersion: IAPKitCommand.version, products: 0, productIDs: [], subject: catalog)) {
                let loaded = try CatalogLoader.load(path: catalog, findings: collector.consumer)
                defer { KeptUntilExit.keep(loaded) }
                summary = try CatalogLinter().lint(loaded, baseDirectory: Path.parent(catalog), consumer: collector.consumer)
            }
            try options.finish(
                collector.findings,
                context: ReportContext(
                    toolVersion: IAPKitCommand.version, products: summary?.products ?? 0, productIDs: summary?.productIDs ?? [], subject: catalog),
                accepted: accepted)
        }
    }

    struct Content: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "content",
            abstract: "Check hosted-content folders on their own.",
            discussion: """
                Each folder is checked as its catalog would check it: against the nearest catalog.yaml above it (up to \
                the checkout's root), or the one --catalog names, and the iapkit.lock beside that catalog (or the one \
                --lock names), so a changed folder without a new version, a version lower than the lock's, or a folder \
                named for another product than its ContentInfo.plist is a finding here too.

                Example:
                  iapkit lint content content/com.example.app.levels.forest
                """
        )

        @Argument(help: "Hosted-content folders.")
        var folders: [String]

        @Option(help: "The catalog the folders belong to (default: the nearest catalog.yaml above each folder).")
        var catalog: String?

        @Option(help: "The lock to check versions against (default: iapkit.lock beside the catalog).")
        var lock: String?

        @OptionGroup var options: OutputOptions

        func validate() throws {
            if folders.isEmpty { throw ValidationError("name at least one hosted-content folder") }
        }

        func run() throws {
            let accepted = try options.acceptedFindings()
            let collector = FindingCollector()
            let context = ReportContext(toolVersion: IAPKitCommand.version, products: 0, productIDs: [], subject: folders.joined(separator: " "))
            try options.reportingUnreadableInput(context) {
                for folder in folders {
                    try ContentLinter().lint(ContentFolderScope.find(folder: folder, catalog: catalog, lock: lock), consumer: collector.consumer)
                }
            }
            try options.finish(collector.findings, context: context, accepted: accepted)
        }
    }

    struct Rules: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "List the lint rules, or explain one with its examples.",
            discussion: """
                Each rule says what it checks, why, and the catalog it fires on and the one it passes; docs/lint-rules.md \
                is this command's --format markdown.

                Examples:
                  iapkit lint rules
                  iapkit lint rules product-id-prefix
                  iapkit lint rules --format json
                """
        )

        enum Format: String, CaseIterable, ExpressibleByArgument { case text, json, markdown }

        @Argument(help: "A rule id: explain this rule.")
        var rule: String?

        @Option(help: "Output format: text, json, or markdown (the whole page docs/lint-rules.md).")
        var format: Format = .text

        func run() throws {
            var rules = RuleRegistry.described
            if let rule {
                guard let found = RuleRegistry.rule(rule) else {
                    let nearest = Suggestions.nearest(to: rule, in: rules.map { $0.id }).map { "; did you mean `\($0)`?" }
                    throw IAPKitError.invalidArgument("`\(rule)` is not a lint rule\(nearest ?? "; `iapkit lint rules` lists them")")
                }
                rules = [found]
            }
            switch format {
            case .text: try Terminal.output(rule == nil ? RuleDocumentation.list(rules) : RuleDocumentation.explanation(rules[0]))
            case .json: try Terminal.output(RuleDocumentation.json(rules))
            case .markdown:
                if rule != nil { throw IAPKitError.invalidArgument("--format markdown writes the page of every rule; leave out `\(rule!)`") }
                try Terminal.output(RuleDocumentation.markdown())
            }
        }
    }
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Print the catalog's JSON Schema, for editors and for checking a catalog with other tools.",
            discussion: """
                The schema comes from the same declarations of the catalog's keys that `lint catalog` reads the catalog \
                with. `iapkit init` writes it beside a new catalog as catalog.schema.json; schemas/catalog.schema.json \
                is this command's output.

                Examples:
                  iapkit lint schema > catalog.schema.json
                """
        )

        func run() throws {
            try Terminal.output(CatalogFormat.schema.serialized(.pretty))
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
