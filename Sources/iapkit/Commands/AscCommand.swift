import ArgumentParser
import CatalogSync
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

struct AscCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asc",
        abstract: "Take the catalog to App Store Connect: pull the live catalog, plan the change, push it, submit asset packs.",
        discussion: """
            Credentials (every asc command): --key-id, --issuer-id, --private-key PATH, or the environment \
            ASC_KEY_ID, ASC_ISSUER_ID, and ASC_PRIVATE_KEY_PATH or ASC_PRIVATE_KEY (the PEM text). \
            --trace FILE records every request and answer for a bug report (no token, key or upload bytes); \
            --replay FILE runs pull, plan or prices against such a trace, without credentials or network.

            Examples:
              iapkit asc plan
              iapkit asc plan --check --format json
              iapkit asc push --yes
              iapkit asc pull -o catalog.yaml
              iapkit asc prices --format csv -o prices.csv
              iapkit asc reprice --product 'com.example.gems.*' --by 10% --diff
              iapkit asc submit --yes
              iapkit asc pull -o catalog.yaml --trace pull.jsonl
              iapkit asc plan --replay plan.jsonl
            """,
        subcommands: [Pull.self, PlanCommand.self, Push.self, Show.self, Prices.self, Reprice.self, Submit.self, OfferCodes.self]
    )

    /// The API key, the server and the app, the same for every `asc` command.
    struct Connection: ParsableArguments {
        @Option(help: "The API key's ID (or ASC_KEY_ID).")
        var keyID: String?

        @Option(help: "The issuer ID of the key's team (or ASC_ISSUER_ID).")
        var issuerID: String?

        @Option(help: "The API key's .p8 file (or ASC_PRIVATE_KEY_PATH, or the PEM text in ASC_PRIVATE_KEY).")
        var privateKey: String?

        @Option(help: "App Store Connect's API server (or ASC_API_URL).")
        var apiURL: String?

        @Option(help: "The app's App Store Connect id; found from the bundle ID when absent.")
        var appID: String?

        @Option(help: "How many products are read from App Store Connect at once.")
        var concurrency: Int = 4

        @Option(
            help: ArgumentHelp(
                "Write every request and answer to this file, for a bug report: no token, key or upload bytes.",
                valueName: "file"))
        var trace: String?

        @Option(help: "The trace's format: jsonl (a JSON object per line) or har (opens in browsers' developer tools).")
        var traceFormat: TraceFormat = SyncConnection.defaultTraceFormat

        @Option(
            help: ArgumentHelp(
                "Answer from a trace written by --trace instead of App Store Connect (pull, plan, prices); "
                    + "needs no credentials.", valueName: "file"))
        var replay: String?

        /// The workflow on `catalog` through this connection, its progress printed on standard error.
        func workflow(_ catalog: String) -> SyncWorkflow {
            var connection = SyncConnection()
            connection.keyID = keyID
            connection.issuerID = issuerID
            connection.privateKeyPath = privateKey
            connection.apiURL = apiURL
            connection.appID = appID
            connection.concurrency = concurrency
            connection.trace = trace
            connection.traceFormat = traceFormat
            connection.replay = replay
            connection.environment = ProcessInfo.processInfo.environment
            connection.toolVersion = IAPKitCommand.version
            return SyncWorkflow(catalogPath: catalog, connection: connection, events: AscCommand.print)
        }
    }

    /// Which products a plan reads and compares (`--product`, `--changed-since`), shared by plan and push.
    struct ScopeOptions: ParsableArguments {
        @Option(
            name: .customLong("product"),
            help: ArgumentHelp(
                "Plan (and push) only this product; repeatable, with glob patterns (com.example.gems.*).", valueName: "id"))
        var products: [String] = []

        @Option(
            help: ArgumentHelp(
                "Read in detail only the products whose catalog entries differ from this git revision "
                    + "(and those created or deleted on either side).", valueName: "ref"))
        var changedSince: String?

        @Flag(
            help: ArgumentHelp(
                "Delete the products App Store Connect has and the catalog does not, where App Store Connect "
                    + "allows it (never sent to review); the plan shows them as `-` first."))
        var prune = false

        @Flag(
            help: ArgumentHelp(
                "Send changes to values App Store Connect did not answer (planned `? -> new`), replacing what iapkit "
                    + "never read; without it they are refused."))
        var replaceUnanswered = false

        @OptionGroup var sides: BaseOptions

        var scope: SyncScope {
            SyncScope(
                products: products, changedSince: changedSince, prune: prune, replaceUnanswered: replaceUnanswered,
                baseRevision: sides.base, take: sides.take)
        }

        func validate() throws {
            if sides.take == .asc {
                throw ValidationError(
                    "plan and push take only the catalog's side (`--take catalog`); `asc pull --take asc` takes App Store Connect's")
            }
        }
    }

    /// The base pull, plan and push measure changes from, and the side a value both authors changed takes.
    struct BaseOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "Measure changes from the catalog at this git revision instead of the base recorded beside it "
                    + "(.iapkit/base/), telling the catalog's changes from App Store Connect's.", valueName: "ref"))
        var base: String?

        @Option(
            help: ArgumentHelp(
                "The side a value both the catalog and App Store Connect changed since the base takes: `asc` or `catalog` "
                    + "(pull); plan and push take `catalog` only, pushing its values over App Store Connect's changes.",
                valueName: "side"))
        var take: TakenSide?
    }

    /// Prints what the workflow says: notes and warnings, and on a terminal one line of push progress rewritten.
    @Sendable static func print(_ event: SyncEvent) {
        let rewrite = Terminal.stderrIsTerminal
        switch event {
        case let .note(text): Terminal.writeError(text + "\n")
        case let .warning(text): Terminal.warning(text)
        case let .operation(index, total, summary):
            if rewrite { Terminal.writeError("\r\u{1B}[K[\(index + 1)/\(total)] \(summary)") }
        case let .waiting(seconds, reason):
            let text = "waiting \(Format.fixed(seconds, decimals: 1)) s: \(reason)"
            if rewrite { Terminal.writeError("\r\u{1B}[K\(text)") } else if seconds >= 10 { Terminal.writeError(text + "\n") }
        }
    }

    static let waitMaxHelp = ArgumentHelp(
        "With --wait, the longest it waits for the hourly budget in all (90m, 2h, 45s; a bare number is minutes); past it, "
            + "exit 75 with when to run again.", valueName: "time")
}

/// `--wait-max`: `90m`, `2h`, `45s`, or a number of minutes.
struct WaitLimit: ExpressibleByArgument {
    var duration: Duration

    init(duration: Duration = WaitAllowance.standardLimit) { self.duration = duration }

    init?(argument: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600]
        let unit = argument.last.flatMap { units[$0] }
        guard let value = Int64(unit == nil ? argument : String(argument.dropLast())), value >= 0, value <= 1_000_000 else { return nil }
        duration = .seconds(value * (unit ?? 60))
    }

    var defaultValueDescription: String { "3h" }
}

extension PlanFormat: ExpressibleByArgument {}
extension TakenSide: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}
