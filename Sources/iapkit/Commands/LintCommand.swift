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
        subcommands: [Catalog.self, Content.self],
        defaultSubcommand: Catalog.self
    )

    struct OutputOptions: ParsableArguments {
        @Option(name: .long, help: "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        var format: ReportFormat = .text

        @Flag(help: "Fail (exit 1) on warnings too.")
        var strict = false

        @Option(name: [.customShort("o"), .long], help: "Write the report to this file instead of standard output.")
        var output: String?

        /// Prints or writes the report and exits 1 when the findings fail the run.
        func finish(_ findings: [Finding], context: ReportContext) throws {
            let sorted = findings.sortedForReport()
            let colour = output == nil && Terminal.colourAllowed(forTerminal: Terminal.stdoutIsTerminal)
            let text = format.makeReporter(colour: colour).report(sorted, context: context)
            if let output { try AtomicFile.write(text, to: output) } else { try Terminal.output(text) }
            if sorted.errorCount > 0 || (strict && sorted.warningCount > 0) { throw ExitCode(1) }
        }
    }

    struct Catalog: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a catalog and every hosted-content folder it names.",
            discussion: """
                Exit codes: 0 no errors (warnings allowed unless --strict), 1 findings failed the run, 2 the catalog could
                not be read.

                Examples:
                  iapkit lint catalog
                  iapkit lint catalog examples/catalog.yaml --format sarif -o lint.sarif
                  iapkit lint catalog --format github --strict
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
                _ = try CatalogLoader.load(path: catalog, findings: { _ in })
                return
            }
            let collector = FindingCollector()
            let summary = try CatalogLinter().lint(catalogAt: catalog, consumer: collector.consumer)
            try options.finish(collector.findings, context: ReportContext(
                toolVersion: IAPKitCommand.version, products: summary.products, productIDs: summary.productIDs, subject: catalog))
        }
    }

    struct Content: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check hosted-content folders on their own.",
            discussion: """
                Example:
                  iapkit lint content content/com.example.app.levels.forest
                """
        )

        @Argument(help: "Hosted-content folders.")
        var folders: [String]

        @OptionGroup var options: OutputOptions

        func validate() throws {
            if folders.isEmpty { throw ValidationError("name at least one hosted-content folder") }
        }

        func run() throws {
            let collector = FindingCollector()
            for folder in folders { try ContentLinter().lint(folder: folder, consumer: collector.consumer) }
            try options.finish(collector.findings, context: ReportContext(
                toolVersion: IAPKitCommand.version, products: 0, productIDs: [], subject: folders.joined(separator: " ")))
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
