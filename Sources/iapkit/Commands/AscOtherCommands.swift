import ArgumentParser
import CatalogSync
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// The `asc` commands besides plan and push: a saved plan shown, pull, prices, submit, offer-code values.
extension AscCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a plan saved with `asc plan --out`, as plan printed it.",
            discussion: """
                Reads only the file: no credentials, no App Store Connect.

                Examples:
                  iapkit asc show release.plan.json
                  iapkit asc show release.plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"
                """)

        @Argument(help: "The saved plan.")
        var file: String

        @Option(help: "Output format: text, json or markdown.")
        var format: PlanFormat = .text

        @Flag(help: "List unchanged resources too.")
        var showUnchanged = false

        func run() async throws {
            try Terminal.output(try SyncWorkflow.savedPlan(file).report(format, showUnchanged: showUnchanged))
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Take the app's in-app purchases and subscriptions from App Store Connect into the catalog.",
            discussion: """
                Over an existing catalog, pull is an edit: only the values App Store Connect holds differently change, \
                each at its own line and in the catalog's style; products and localizations it lacks are added in the same \
                style; comments, retiredProductIds, hostedContent, asset packs and every value written another way that \
                means the same stay. A product App Store Connect does not have is kept and named; a pull that would leave \
                fewer than half of the catalog's products, or none, is refused (exit 1) unless --allow-removals is given. \
                --diff prints the change as a unified diff and writes nothing (exit 0 when there is none, 1 otherwise). \
                --fresh writes the catalog anew. \
                With a base (.iapkit/base/CATALOG, recorded by each push and pull; else the last commit of a catalog with \
                uncommitted edits), pull is a three-way merge: a value App Store Connect changed since the base is taken, \
                one only the catalog changed is kept (pending push), and one both changed is a conflict: left as the \
                catalog has it, named with its three values, exit 1; --take asc or --take catalog chooses. Review screenshots and promotional images go to review/ and images/ \
                beside the catalog, one file per distinct image. What the catalog cannot hold is reported. \
                The app is the one the catalog names (--catalog, else the catalog.yaml beside the output or in the folder \
                above it), as for every asc command, unless --bundle-id or --app-id names another.

                Examples:
                  iapkit asc pull --diff
                  iapkit asc pull -o catalog.yaml
                  iapkit asc pull --bundle-id com.example.myapp -o catalog.yaml --fresh
                """)

        @Option(name: .shortAndLong, help: "The catalog file to edit, or to write when there is none.")
        var output: String = "catalog.yaml"

        @Option(help: "The catalog that names the app (default: catalog.yaml beside the output, else in the folder above it).")
        var catalog: String?

        @Option(help: "The app's bundle ID (instead of the catalog's).")
        var bundleID: String?

        @Flag(help: "Print the change to the catalog as a unified diff and write nothing; exit 1 when there is one.")
        var diff = false

        @Flag(help: "Write the catalog anew instead of editing the one at the output.")
        var fresh = false

        @Flag(help: "Remove products App Store Connect does not have, even when fewer than half of the catalog's are left.")
        var allowRemovals = false

        @OptionGroup var sides: AscCommand.BaseOptions

        @Flag(help: "When the hourly request budget cannot pay for the reads, pace them across hours instead of stopping (exit 75).")
        var wait = false

        @Option(help: AscCommand.waitMaxHelp)
        var waitMax: WaitLimit = WaitLimit()

        /// Pull used to need it to write over a catalog; editing one needs nothing.
        @Flag(help: .hidden)
        var force = false

        @OptionGroup var connection: AscCommand.Connection

        func run() async throws {
            // The catalog beside the output, else the one in the folder pulled into (`-o pulled/catalog.yaml`).
            let candidates = [Path.join(Path.parent(output), "catalog.yaml"), Path.join(Path.parent(Path.parent(output)), "catalog.yaml")]
            let namingPath = catalog ?? candidates.first { FileManager.default.fileExists(atPath: $0) }
            if namingPath == nil, bundleID == nil, connection.appID == nil {
                let looked = candidates[0] == candidates[1] ? [candidates[0]] : candidates
                throw IAPKitError.invalidArgument(
                    "no catalog names the app to pull (none at "
                        + looked.joined(separator: " or ") + "): pass --catalog PATH, --bundle-id ID or --app-id ID")
            }
            let output = self.output
            let options = SyncWorkflow.PullOptions(
                fresh: fresh, diffOnly: diff, allowRemovals: allowRemovals, take: sides.take, baseRevision: sides.base, wait: wait)
            var workflow = connection.workflow(namingPath ?? output)
            workflow.waitAllowance = WaitAllowance(limit: waitMax.duration)
            let outcome = try await workflow.pull(
                to: output, bundleID: bundleID, namedByCatalog: namingPath != nil, options: options
            ) {
                try CatalogSchemaFile.comment(for: output, staging: $0)
            }
            if diff {
                try Terminal.output(outcome.diff)
                // A nightly job shows what changed in App Store Connect on its page, as it shows plans.
                if !outcome.diff.isEmpty { try JobSummary.append("### Changed in App Store Connect\n\n```diff\n" + outcome.diff + "```\n") }
                Terminal.writeError(outcome.line)
                if !outcome.diff.isEmpty { Terminal.exit(1) }
            } else {
                try Terminal.output(outcome.line)
            }
            // A conflict is left for someone to choose: the rest was taken, and the job says so.
            if !outcome.conflicts.isEmpty { Terminal.exit(1) }
        }
    }

    struct Prices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prices",
            abstract: "Print every product's price and proceeds in every territory, today and at each scheduled change.",
            discussion: """
                As App Store Connect reports them: the customer price in the territory's currency, the proceeds after \
                Apple's commission, and whether the price was set by hand or equalized from the USD base price. Each \
                row's `from` is the day its price applies from: today (App Store Connect's calendar day) for today's \
                price, else the scheduled change's start date. --product narrows the sheet to the products it \
                matches, and reads only their prices.

                Examples:
                  iapkit asc prices
                  iapkit asc prices --format csv -o prices.csv
                  iapkit asc prices --product 'com.example.club.*'
                """)

        @Argument(help: "The catalog file, for the app's bundle ID.")
        var catalog: String = "catalog.yaml"

        @Option(help: "Output format: text, csv or json.")
        var format: PriceSheetFormat = .text

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        @Option(help: "The app's bundle ID (instead of the catalog's).")
        var bundleID: String?

        @Option(
            name: .customLong("product"),
            help: ArgumentHelp("Only this product; repeatable, with glob patterns (com.example.gems.*), as asc plan takes them.", valueName: "id"))
        var products: [String] = []

        @OptionGroup var connection: AscCommand.Connection

        func run() async throws {
            let text = try await connection.workflow(catalog).prices(bundleID: bundleID, format: format, products: products)
            if let output { try AtomicFile.write(text, to: output) } else { try Terminal.output(text) }
        }
    }

    struct Submit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "submit",
            abstract: "Submit the processed asset pack versions (and, with --with-iaps, products ready to submit) for App Store review.",
            discussion: """
                One review submission holds every asset pack whose latest version App Store Connect has processed \
                (COMPLETE) with the catalog's content (packs declared `release: testflight` stay out); with --with-iaps \
                also the in-app purchases and subscriptions App Store Connect shows as ready to submit, and for every \
                other catalog product what holds it back, with its catalog line. An app's first in-app purchase or \
                subscription goes to review with a new app version: --app-version names it. If adding an item fails, \
                the submission is cancelled. When everything is already in review, it says so and exits 0. On a \
                terminal it asks first; elsewhere it needs --yes.

                Examples:
                  iapkit asc submit --yes
                  iapkit asc submit catalog.yaml --with-iaps --app-version 2.4 --yes
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Flag(help: "Add the in-app purchases and subscriptions that are ready to submit.")
        var withIaps = false

        @Option(
            help: ArgumentHelp(
                "Add this App Store version of the app (its version string, such as 2.4) to the submission, "
                    + "as App Store Connect requires for an app's first in-app purchase or subscription.",
                valueName: "version"))
        var appVersion: String?

        @Option(help: "IOS, MAC_OS, TV_OS or VISION_OS (default: the app's first platform).")
        var platform: String?

        @Flag(help: "Submit without asking (needed without a terminal).")
        var yes = false

        @OptionGroup var connection: AscCommand.Connection

        func run() async throws {
            let result = try await connection.workflow(catalog).submitForReview(
                withProducts: withIaps, appVersion: appVersion,
                platform: platform
            ) { [yes] (items: Int, app: String, platform: String) in
                try yes
                    || Terminal.confirm(
                        "Submit \(items) item(s) of app \(app) for review on \(platform)?",
                        withoutTerminal: "submit sends items for App Review; pass --yes to submit without a terminal")
            }
            switch result {
            case .settled:
                try Terminal.output("Nothing to submit: everything of the catalog is already in review, reviewed, or for TestFlight only.\n")
            case .declined:
                Terminal.writeError("Nothing was submitted.\n")
                throw ExitCode(1)
            case let .submitted(id, items):
                try Terminal.output("submitted review submission \(id) with \(items) item(s)\n")
            }
        }
    }

    /// `asc offer-codes`: what an offer code has beyond the catalog: its one-time-use code values.
    struct OfferCodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "offer-codes",
            abstract: "Work with the codes of the catalog's offer codes.",
            subcommands: [Download.self])

        struct Download: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "download",
                abstract: "Write the one-time-use codes of the catalog's offer codes to a CSV file (mode 0600).",
                discussion: """
                    Reads every active batch of one-time-use codes of the catalog's active offer codes (or of those \
                    named with --offer-code; --include-inactive adds deactivated ones) and writes them, one code a row \
                    (product, offerCode, environment, expires, active, code), to the file given with -o, readable by its \
                    owner only. Sandbox codes redeem only with sandbox accounts: the environment column tells them \
                    apart. The codes are secrets: they are never printed, planned, traced or written to the catalog.

                    Examples:
                      iapkit asc offer-codes download -o spring-codes.csv --offer-code "Spring 2027"
                    """)

            @Argument(help: "The catalog file.")
            var catalog: String = "catalog.yaml"

            @Option(name: .shortAndLong, help: ArgumentHelp("The CSV file to write (never standard output).", valueName: "file"))
            var output: String

            @Option(
                name: .customLong("offer-code"),
                help: ArgumentHelp(
                    "Only this offer code (its reference name); repeatable.",
                    valueName: "name"))
            var offerCodes: [String] = []

            @Flag(help: "Also the codes of deactivated batches and offer codes (they redeem nothing).")
            var includeInactive = false

            @OptionGroup var connection: AscCommand.Connection

            func validate() throws {
                if output == "-" || output.isEmpty {
                    throw ValidationError("offer codes are written only to a file: give -o FILE, not standard output")
                }
            }

            func run() async throws {
                Terminal.writeError(
                    try await connection.workflow(catalog).downloadOfferCodes(
                        to: output, offerCodes: offerCodes, includeInactive: includeInactive))
            }
        }
    }
}

extension PriceSheetFormat: ExpressibleByArgument {}
