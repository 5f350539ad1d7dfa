import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import IAPLint
import Localizations

struct LocalizationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "localizations",
        abstract: "Send product texts to translators as XLIFF or CSV, and merge their translations back.",
        discussion: """
            Examples:
              iapkit localizations export --format xliff --locale fr-FR --locale ja -o translations
              iapkit localizations import translations/fr-FR.xliff translations/ja.xliff
              iapkit localizations export --format csv -o texts.csv
            """,
        subcommands: [Export.self, Import.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write the catalog's texts in its primary locale, with the translations it has.",
            discussion: """
                XLIFF: one file per target locale, LOCALE.xliff in the folder -o names (or the file -o names, for one \
                locale). CSV: one row per text and one column per locale, to -o or standard output. Without --locale, the \
                locales the catalog already has translations in.

                Example:
                  iapkit localizations export --format xliff --locale de-DE -o translations
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Option(help: "xliff (XLIFF 1.2, one file per locale) or csv (one sheet).")
        var format: TranslationFiles.Format

        @Option(name: .customLong("locale"), help: "A target locale (App Store Connect's code); repeat for more.")
        var locales: [String] = []

        @Option(name: .shortAndLong, help: "XLIFF: the folder to write LOCALE.xliff into (or one .xliff file). CSV: the file.")
        var output: String?

        func run() throws {
            let loaded = try LintGate.catalog(catalog, strictness: .shape, advice: "fix them before exporting", reportsProducts: false)
            let set = try TranslationSet(loaded)
            var targets: [String] = []
            for locale in locales.isEmpty ? set.translatedLocales : locales where !targets.contains(locale) {
                if let problem = AppStoreTexts.localeProblem(locale) { throw IAPKitError.invalidArgument(problem) }
                if locale == set.primaryLocale {
                    throw IAPKitError.invalidArgument("`\(locale)` is the catalog's primary locale, the language translators translate from")
                }
                targets.append(locale)
            }
            if targets.isEmpty {
                throw IAPKitError.invalidArgument("the catalog has no translations yet; name the target locales with --locale")
            }
            switch format {
            case .csv:
                let bytes = TranslationFiles.writeCSV(set, locales: targets)
                if let output {
                    try AtomicFile.write(bytes, to: output)
                    Terminal.writeError("wrote \(output): \(Format.count(set.units.count, "text")) in \(Format.count(targets.count, "locale"))\n")
                } else {
                    try Terminal.output(bytes)
                }
            case .xliff:
                guard let output else { throw ValidationError("name the folder for the XLIFF files with -o") }
                let singleFile = TranslationFiles.Format(path: output) == .xliff
                if singleFile, targets.count > 1 {
                    throw ValidationError("\(targets.count) locales make \(targets.count) files; name a folder with -o")
                }
                for locale in targets {
                    let bytes = try XLIFFWriter.write(
                        set, locale: locale, original: Path.lastComponent(catalog),
                        toolVersion: IAPKitCommand.version)
                    // The locale passed App Store Connect's list, so the name stays inside the folder.
                    let path = singleFile ? output : Path.join(output, locale + ".xliff")
                    try AtomicFile.write(bytes, to: path)
                    Terminal.writeError("wrote \(path): \(Format.count(set.units.count, "text"))\n")
                }
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Merge translated XLIFF or CSV files into the catalog, with App Store Connect's limits checked.",
            discussion: """
                Findings are located in the translation files. Any error (a text over its limit, an unknown unit or \
                product, a text translated twice, a locale App Store Connect does not have, a malformed file), or a \
                warning with --strict, leaves the catalog untouched and exits 1; untranslated units are warnings and \
                are left out. A baseline that cannot be read leaves it untouched too (exit 2). The primary locale's texts never change, and \
                an import that changes nothing leaves the catalog byte for byte as it was.

                Example:
                  iapkit localizations import translations/fr-FR.xliff translations/ja.xliff catalog.yaml
                """)

        @Argument(help: "Translation files (.xliff, .xlf, .csv), then optionally the catalog (.yaml, .yml, .json).")
        var files: [String]

        @Flag(help: "Check the files and report, without changing the catalog.")
        var dryRun = false

        @OptionGroup var options: LintCommand.OutputOptions

        func validate() throws {
            if translationFiles.isEmpty { throw ValidationError("name at least one translation file (.xliff, .xlf or .csv)") }
        }

        /// The last argument names the catalog when it is a YAML or JSON file.
        private var catalog: String {
            guard let last = files.last, ["yaml", "yml", "json"].contains(Path.pathExtension(last).lowercased()) else { return "catalog.yaml" }
            return last
        }

        private var translationFiles: [String] { catalog == files.last ? Array(files.dropLast()) : files }

        func run() throws {
            // Every input is read and checked before anything is written: the baseline, the catalog, the files.
            let accepted = try options.acceptedFindings()
            let importer = TranslationImporter(catalogPath: catalog)
            let checked = try importer.check(files: translationFiles)
            // Replaced once the changes are made; a run that stops before says why nothing changed.
            var summary = "\(catalog) was left unchanged"
            if checked.findings.errorCount > 0 {
                summary += ": fix the errors in the translation files and import them again"
            } else if options.strict && checked.findings.warningCount > 0 {
                summary += ": --strict fails on the warnings above"
            }
            defer { Terminal.writeError(summary + "\n") }
            var context = ReportContext(
                toolVersion: IAPKitCommand.version, products: 0, productIDs: [],
                subject: translationFiles.joined(separator: " "))
            context.extraRules = TranslationImporter.rules
            try options.finish(checked.findings, context: context, accepted: accepted) {
                let merged = try importer.merge(checked)
                if merged.updatedTexts + merged.addedLocalizations == 0 {
                    summary = "\(catalog) already holds these translations; nothing changed"
                    return
                }
                let change =
                    "\(Format.count(merged.updatedTexts, "text")) updated and \(Format.count(merged.addedLocalizations, "localization")) added"
                if dryRun {
                    summary = "\(catalog): \(change) (dry run, nothing written)"
                } else {
                    try importer.write(merged)
                    summary = "\(catalog): \(change); check it with `iapkit lint catalog \(catalog)`, then `iapkit asc plan`"
                }
            }
        }
    }
}

extension TranslationFiles.Format: ExpressibleByArgument {}
