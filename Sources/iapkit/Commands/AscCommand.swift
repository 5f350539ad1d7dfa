import AppStoreConnect
import ArgumentParser
import CatalogSync
import SyncPlan
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
              iapkit asc submit --yes
              iapkit asc pull -o catalog.yaml --trace pull.jsonl
              iapkit asc plan --replay plan.jsonl
            """,
        subcommands: [Pull.self, PlanCommand.self, Push.self, Show.self, Prices.self, Submit.self, OfferCodes.self]
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

        @Option(help: ArgumentHelp("Write every request and answer to this file, for a bug report: no token, key or upload bytes.",
                                   valueName: "file"))
        var trace: String?

        @Option(help: "The trace's format: jsonl (a JSON object per line) or har (opens in browsers' developer tools).")
        var traceFormat: TraceFormat = .jsonl

        @Option(help: ArgumentHelp("Answer from a trace written by --trace instead of App Store Connect (pull, plan, prices); "
                                   + "needs no credentials.", valueName: "file"))
        var replay: String?

        enum TraceFormat: String, ExpressibleByArgument, CaseIterable { case jsonl, har }

        /// Writes have nothing to replay: a trace can only answer what was read.
        func refuseReplay(_ command: String) throws {
            if replay != nil {
                throw IAPKitError.invalidArgument("\(command) writes to App Store Connect; --replay answers reads from a trace and cannot write")
            }
        }

        func credentials() throws -> ASCCredentials {
            let environment = ProcessInfo.processInfo.environment
            func value(_ option: String?, _ variable: String) -> String? {
                (option ?? environment[variable]).flatMap { $0.trimmingSpaces(andNewlines: true).isEmpty ? nil : $0 }
            }
            var missing: [String] = []
            let keyID = value(self.keyID, "ASC_KEY_ID")
            let issuerID = value(self.issuerID, "ASC_ISSUER_ID")
            if keyID == nil { missing.append("--key-id or ASC_KEY_ID") }
            if issuerID == nil { missing.append("--issuer-id or ASC_ISSUER_ID") }
            let path = value(privateKey, "ASC_PRIVATE_KEY_PATH")
            let pem = privateKey == nil ? value(nil, "ASC_PRIVATE_KEY") : nil
            if path == nil && pem == nil { missing.append("--private-key, ASC_PRIVATE_KEY_PATH or ASC_PRIVATE_KEY") }
            guard let keyID, let issuerID, missing.isEmpty else {
                throw IAPKitError.invalidArgument("App Store Connect credentials are missing: set \(missing.joined(separator: "; ")) "
                    + "(see docs/asc.md, Setting up an API key)")
            }
            if let path {
                do { return try ASCCredentials.load(keyID: keyID, issuerID: issuerID, privateKeyPath: path) } catch {
                    throw IAPKitError.invalidArgument(error.description)
                }
            }
            // A secret pasted on one line often carries its line breaks as the two characters `\n`.
            var text = pem ?? ""
            if !text.contains("\n") && text.contains("\\n") { text = text.replacingAll("\\n", with: "\n") }
            do {
                let credentials = ASCCredentials(keyID: keyID, issuerID: issuerID, privateKeyPEM: text)
                _ = try ASCTokenProvider(credentials: credentials)
                return credentials
            } catch {
                throw IAPKitError.invalidArgument("ASC_PRIVATE_KEY does not hold the API key's PEM text (-----BEGIN PRIVATE KEY----- ...): \(error.description)")
            }
        }

        /// The client for the command: App Store Connect, or the `--replay` trace; recording into `--trace`.
        func client() throws -> AppStoreConnectClient {
            do {
                if let replay {
                    if let trace, Path.standardized(trace) == Path.standardized(replay) {
                        throw IAPKitError.invalidArgument("--trace \(trace) would overwrite the trace --replay reads; give another file")
                    }
                    let answers = try ASCReplay(path: replay)
                    return try AppStoreConnectClient(replaying: answers, trace: openTrace())
                }
                // The credentials are checked before the trace file is created, so a refusal leaves no empty trace.
                let credentials = try credentials()
                let server = try serverURL()
                return try AppStoreConnectClient(credentials: credentials, serverURL: server, trace: openTrace())
            } catch let error as ASCError {
                throw IAPKitError.invalidArgument(error.description)
            }
        }

        private func openTrace() throws(ASCError) -> ASCTrace? {
            guard let trace else { return nil }
            return try ASCTrace(path: trace, format: traceFormat == .har ? .har : .jsonl, version: IAPKitCommand.version)
        }

        private func serverURL() throws -> URL {
            guard let text = apiURL ?? ProcessInfo.processInfo.environment["ASC_API_URL"] else {
                return AppStoreConnectClient.defaultServerURL
            }
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw IAPKitError.invalidArgument("--api-url \(text) is not an http(s) URL")
            }
            return url
        }

        /// The app by `--app-id`, the catalog's `app.appId`, or found from its bundle ID (`catalog`'s, when it names one).
        func app(_ reader: StoreReader, bundleID: String?, catalogAppID: String? = nil, catalog: Catalog? = nil) async throws -> StoreApp {
            if let id = appID ?? catalogAppID { return StoreApp(id: id, bundleID: bundleID ?? "") }
            guard let bundleID, !bundleID.trimmingSpaces().isEmpty else {
                if let catalog, catalog.app.bundleID != nil {
                    throw IAPKitError.malformed(location: catalog.location(of: CatalogPath.root / "app" / "bundleId"),
                                                reason: "`app.bundleId` is empty, so there is no bundle ID to find the app by; "
                                                    + "set it (`iapkit lint catalog` reports it as `bundle-id`), or pass --app-id")
                }
                throw IAPKitError.invalidArgument("no bundle ID to find the app by: set app.bundleId in the catalog, or pass --app-id")
            }
            return try await reader.app(bundleID: bundleID)
        }
    }

    /// Loads a catalog, refusing it (exit 1) when lint finds errors: every rule (`push`), or only those about the
    /// catalog's shape (`plan`, which is useful before every App Store Connect field is filled in).
    static func loadCatalog(_ path: String, fullLint: Bool) throws -> Catalog {
        try openCatalog(path, strictness: fullLint ? .full : .shape, advice: "fix them first (`iapkit lint catalog \(path)`)",
                        reportsProducts: true)
    }

    /// A catalog read for the app it names (`app.bundleId`, `app.appId`), by the commands that do not plan it.
    static func namingCatalog(_ path: String) throws -> Catalog {
        try openCatalog(path, strictness: .shape, advice: "fix them first (`iapkit lint catalog \(path)`)", reportsProducts: true)
    }

    /// Which products a plan reads and compares (`--product`, `--changed-since`), shared by plan and push.
    struct ScopeOptions: ParsableArguments {
        @Option(name: .customLong("product"), help: ArgumentHelp(
            "Plan (and push) only this product; repeatable, with glob patterns (com.example.gems.*).", valueName: "id"))
        var products: [String] = []

        @Option(help: ArgumentHelp("Read in detail only the products whose catalog entries differ from this git revision "
                                   + "(and those created or deleted on either side).", valueName: "ref"))
        var changedSince: String?

        @Flag(help: ArgumentHelp("Delete the products App Store Connect has and the catalog does not, where App Store Connect "
                                 + "allows it (never sent to review); the plan shows them as `-` first."))
        var prune = false
    }

    /// Reads App Store Connect and plans the catalog against it: the product lists first, then, within the hour's
    /// request budget (`budget`), the products in scope in detail.
    static func plan(_ catalogPath: String, catalog: Catalog, connection: Connection, scope options: ScopeOptions = ScopeOptions(),
                     budget: ReadBudget = .ignore, scopeOverride: PlanScope? = nil) async throws -> (SyncPlan.Plan, AppStoreConnectClient) {
        let asc = try connection.client()
        var reader = StoreReader(asc: asc, concurrency: connection.concurrency, gridTerritories: catalog.handPricedTerritories,
                                 budget: budget, progress: Self.reportReads)
        let app = try await connection.app(reader, bundleID: catalog.app.bundleID, catalogAppID: catalog.app.appID, catalog: catalog)
        let listings = try await reader.listings(app: app)
        let territories = listings.storefronts.keys.sorted()
        var desired = try CatalogRecords(catalog: catalog, territories: territories, baseDirectory: Path.parent(catalogPath))
        desired.assetPacks = try AssetPackRecord.desired(catalog: catalog, baseDirectory: Path.parent(catalogPath))
        var scope = PlanScope(patterns: options.products)
        if let revision = options.changedSince {
            scope.changed = try changedProducts(catalogPath, since: revision, now: desired, territories: territories)
        }
        // A saved plan is checked against what App Store Connect holds for the products it touches, and only those.
        if let scopeOverride { scope = scopeOverride }
        let selection = ReadSelection(listings: listings, desired: desired, scope: scope)
        // Price grids only for the territories the compared products price by hand.
        if let compared = selection.compared {
            reader.gridTerritories = loaded(catalog, products: compared).handPricedTerritories
        }
        let left = asc.rateLimit?.remaining.map { "; \($0) left this hour" } ?? ""
        Terminal.writeError("Read the lists of \(Format.count(listings.count, "product")); reading \(selection.products) in detail: "
            + "about \(Format.count(selection.estimatedRequests, "request"))\(left).\n")
        let snapshot = try await reader.snapshot(of: listings, selection: selection)
        let plan = Planner(catalog: catalog, desired: desired)
            .plan(against: snapshot, scope: selection.compared, appResources: scope.includesAppResources, prune: options.prune)
        return (plan, asc)
    }

    /// The catalog with only `products` (and the groups holding them).
    static func loaded(_ catalog: Catalog, products: Set<String>) -> Catalog {
        var scoped = catalog
        scoped.products = catalog.products.filter { $0.productID.map(products.contains) ?? false }
        scoped.subscriptionGroups = catalog.subscriptionGroups.map { group in
            var group = group
            group.subscriptions = group.subscriptions.filter { $0.productID.map(products.contains) ?? false }
            return group
        }
        return scoped
    }

    /// The products whose catalog entries differ between `revision` (read with git) and the catalog as it is now.
    static func changedProducts(_ catalogPath: String, since revision: String, now: CatalogRecords,
                                territories: [String]) throws -> Set<String> {
        let old = try GitRevision.file(catalogPath, at: revision)
        var findings: [Finding] = []
        guard let earlier = try? CatalogLoader.load(data: old, file: "\(revision):\(catalogPath)", findings: { findings.append($0) }),
              !findings.contains(where: { $0.severity == .error }),
              let records = try? CatalogRecords(catalog: earlier, territories: territories, baseDirectory: Path.parent(catalogPath)) else {
            Terminal.warning("the catalog at \(revision) does not load: every product is planned in detail")
            return Set(now.allProducts.map(\.productID))
        }
        return PlanScope.changedProducts(before: records, after: now)
    }

    /// Progress of reads paced across hours (--wait): each wait, with how far the reads are.
    static let reportReads: ReadProgress = { event in
        guard case let .waiting(wait, done, total) = event else { return }
        let minutes = max(1, Int((Double(wait.components.seconds) / 60).rounded(.up)))
        Terminal.writeError("waiting about \(minutes) min for App Store Connect's hourly budget: \(done) of about \(total) "
            + "requests read\n")
    }

    /// Where App Store Connect's storefronts or their currencies differ from the table lint uses offline.
    static func reportStorefronts(_ differences: [StorefrontDifference]) {
        StorefrontDifference.warnings(differences).forEach(Terminal.warning)
    }

    /// Values in App Store Connect's answers the client did not know and left out (a new enum value, say).
    static func reportTolerated(_ asc: AppStoreConnectClient) {
        for note in asc.toleratedAnswers { Terminal.warning("App Store Connect answered something this iapkit does not know: \(note)") }
    }

    enum PlanFormat: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    struct PlanCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Show what push would change in App Store Connect, resource by resource.",
            discussion: """
                `+` create, `~` update (each field old -> new), `-` delete (--prune), `!` refused (App Store Connect forbids \
                it), `?` unmanaged (in App Store Connect, not in the catalog; deleted only with --prune). --check exits 1 \
                when anything differs.

                --out FILE saves the plan for review; `asc push --plan FILE` then sends exactly its operations, or refuses \
                when App Store Connect, the catalog or a file to upload changed since. Inside GitHub Actions the plan is \
                also added to the job summary in Markdown.

                Examples:
                  iapkit asc plan
                  iapkit asc plan catalog.yaml --format json --check
                  iapkit asc plan --out release.plan.json
                  iapkit asc plan --format markdown > plan.md
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Option(help: "Output format: text, json or markdown (a summary table and a section per product).")
        var format: PlanFormat = .text

        @Option(help: ArgumentHelp("Also save the plan to this file, for `asc push --plan` (JSON; no key, token or upload bytes).",
                                   valueName: "file"))
        var out: String?

        @Flag(help: "Exit 1 when App Store Connect differs from the catalog (creates, updates or refused changes).")
        var check = false

        @Flag(help: "List unchanged resources too.")
        var showUnchanged = false

        @Flag(help: "When the hourly request budget cannot pay for the reads, pace them across hours instead of stopping (exit 75).")
        var wait = false

        @OptionGroup var scope: ScopeOptions

        @OptionGroup var connection: Connection

        func run() async throws {
            let loaded = try AscCommand.loadCatalog(catalog, fullLint: false)
            var (plan, asc) = try await AscCommand.plan(catalog, catalog: loaded, connection: connection, scope: scope,
                                                        budget: wait ? .wait : .stop)
            // A pack whose archive is missing or older than its files would stop push before it writes: say so here,
            // as a refused change, so a CI plan (and --check) catches it before the push job runs.
            for id in AssetPackPush.unbuilt(plan) {
                plan.changes.append(Change(action: .refused, resource: "backgroundAssetVersion", detail: id,
                                           reason: "no archive matches the pack's content (missing, or older than its files): "
                                               + "run `iapkit package --catalog \(catalog) --asset-packs` before `asc push`"))
            }
            AscCommand.reportTolerated(asc)
            AscCommand.reportStorefronts(plan.storefrontDifferences)
            try AscCommand.show(plan, format: format, showUnchanged: showUnchanged, limit: asc.rateLimit?.limit,
                                remaining: asc.rateLimit?.remaining)
            try AscCommand.appendJobSummary(plan)
            if let out { try await AscCommand.save(plan, catalog: catalog, to: out) }
            if check && (plan.count(.create) + plan.count(.update) + plan.count(.refused)) > 0 { throw ExitCode(1) }
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Lint the catalog, show the plan, and apply it to App Store Connect.",
            discussion: """
                Refuses a catalog with lint errors or refused changes (exit 1). On a terminal it asks before writing; \
                elsewhere it needs --yes. Running it again after a failure finishes the work without duplicates. \
                It never spends more of App Store Connect's hourly request budget than is left: when the budget is too \
                small for the rest, it stops between two operations with exit 75 (--wait waits for it instead).

                Example:
                  iapkit asc push --yes
                  iapkit asc push --yes --wait      # wait for the hourly request budget instead of stopping
                """)

        @Argument(help: "The catalog file.")
        var catalog: String = "catalog.yaml"

        @Flag(help: "Apply without asking (needed without a terminal).")
        var yes = false

        @Flag(help: "When App Store Connect's hourly request budget runs low, wait for it instead of stopping (exit 75).")
        var wait = false

        @Option(help: ArgumentHelp("Send exactly the operations of a plan saved with `asc plan --out`, refusing (exit 1, nothing "
                                   + "written) when App Store Connect, the catalog or a file to upload changed since.", valueName: "file"))
        var plan: String?

        @OptionGroup var scope: ScopeOptions

        @OptionGroup var connection: Connection

        func run() async throws {
            try connection.refuseReplay("push")
            if let plan {
                try await AscCommand.pushSaved(plan, catalog: catalog, yes: yes, wait: wait, connection: connection)
                return
            }
            let loaded = try AscCommand.loadCatalog(catalog, fullLint: true)
            let (plan, asc) = try await AscCommand.plan(catalog, catalog: loaded, connection: connection, scope: scope,
                                                        budget: wait ? .wait : .stop)
            try await AscCommand.apply(plan, asc: asc, catalog: catalog, yes: yes, wait: wait)
        }
    }
}

extension AscCommand {
    /// Shows a plan, asks (without --yes) and applies it, reporting progress; `journal` hears of each change done.
    static func apply(_ plan: SyncPlan.Plan, asc: AppStoreConnectClient, catalog: String, yes: Bool, wait: Bool,
                      journal: (@Sendable (Change) -> Void)? = nil) async throws {
        AscCommand.reportTolerated(asc)
        AscCommand.reportStorefronts(plan.storefrontDifferences)
        Terminal.writeError(PlanReport.text(plan))
        Terminal.writeError(PlanReport.budgetLine(plan, limit: asc.rateLimit?.limit, remaining: asc.rateLimit?.remaining) + "\n")
        if plan.count(.refused) > 0 {
            Terminal.error("the plan has \(plan.count(.refused)) change(s) App Store Connect forbids (marked !); fix the catalog first")
            throw ExitCode(1)
        }
        let unbuilt = AssetPackPush.unbuilt(plan)
        if !unbuilt.isEmpty {
            throw IAPKitError.invalidArgument("no archive matches the content of asset pack\(unbuilt.count == 1 ? "" : "s") "
                + unbuilt.joined(separator: ", ") + ": run `iapkit package --catalog \(catalog) --asset-packs` first; nothing was changed")
        }
        let waiting = plan.count(.waiting)
        let waitingNote = waiting == 0 ? "" : "\(Format.count(waiting, "change")) wait\(waiting == 1 ? "s" : "") for App Review (marked …): "
            + "push sends \(waiting == 1 ? "it" : "them") once the product is approved.\n"
        guard !plan.operations.isEmpty else {
            Terminal.writeError(waiting == 0 ? "App Store Connect already matches \(catalog); nothing to push.\n"
                                             : "App Store Connect matches \(catalog) but for what waits; nothing to push now. " + waitingNote)
            return
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw IAPKitError.invalidArgument("push writes to App Store Connect; pass --yes to apply without a terminal")
            }
            Terminal.writeError("Apply \(Format.count(plan.operations.count, "operation")) to App Store Connect app \(plan.app.id)? [y/N] ")
            // Declining is a decision, not a failure.
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                Terminal.writeError("Answered no: nothing written.\n")
                return
            }
        }
        let showProgress = Terminal.stderrIsTerminal
        let executor = PlanExecutor(asc: asc, budget: wait ? .wait : .stop)
        let ledger = PushLedger()
        SignalCleanup.setInterruptionNote { ledger.report() }
        defer { SignalCleanup.setInterruptionNote(nil) }
        do {
            let outcome = try await executor.apply(plan, ledger: ledger) { event in
                switch event {
                case let .operation(index, total, change, operation):
                    guard showProgress else { return }
                    Terminal.writeError("\r\u{1B}[K[\(index + 1)/\(total)] \(operation.summary)\(change.productID.map { " (\($0))" } ?? "")")
                case let .waiting(delay, reason):
                    let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                    let text = "waiting \(Format.fixed(seconds, decimals: 1)) s: \(reason)"
                    if showProgress { Terminal.writeError("\r\u{1B}[K\(text)") } else if seconds >= 10 { Terminal.writeError(text + "\n") }
                case let .changeDone(change):
                    journal?(change)
                }
            }
            if showProgress { Terminal.writeError("\r\u{1B}[K") }
            Terminal.writeError("Pushed: \(outcome.created) created, \(outcome.updated) updated, \(outcome.unchanged) unchanged, "
                + "0 failed (\(outcome.requests) requests).\n" + waitingNote)
        } catch {
            if showProgress { Terminal.writeError("\n") }
            // The error first, then what reached App Store Connect and what is left.
            Terminal.error(String(describing: error))
            // A refused price is the catalog's: the error names what was written; fixing the price comes first.
            if case SyncError.pricesRefused = error { throw ExitCode(1) }
            Terminal.writeError(ledger.report() + "\n")
            if case SyncError.budgetExhausted = error { throw ExitCode(75) }
            throw ExitCode(2)
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Write the app's in-app purchases and subscriptions in App Store Connect as catalog YAML.",
            discussion: """
                Review screenshots are downloaded to review/ beside the catalog. What the catalog cannot hold is reported. \
                The app is the one the catalog names (--catalog, else the catalog.yaml beside the output or in the folder \
                above it), as for every asc command, unless --bundle-id or --app-id names another.

                Examples:
                  iapkit asc pull -o catalog.yaml --force
                  iapkit asc pull --bundle-id com.example.myapp -o catalog.yaml
                """)

        @Option(name: .shortAndLong, help: "The catalog file to write.")
        var output: String = "catalog.yaml"

        @Option(help: "The catalog that names the app (default: catalog.yaml beside the output, else in the folder above it).")
        var catalog: String?

        @Option(help: "The app's bundle ID (instead of the catalog's).")
        var bundleID: String?

        @Flag(help: "Replace an existing catalog file.")
        var force = false

        @OptionGroup var connection: Connection

        func run() async throws {
            if FileManager.default.fileExists(atPath: output), !force {
                throw IAPKitError.alreadyExists(path: output, hint: "pass --force to replace it")
            }
            // The catalog beside the output, else the one in the folder pulled into (`-o pulled/catalog.yaml`).
            let candidates = [Path.join(Path.parent(output), "catalog.yaml"), Path.join(Path.parent(Path.parent(output)), "catalog.yaml")]
            let namingPath = catalog ?? candidates.first { FileManager.default.fileExists(atPath: $0) }
            if namingPath == nil, bundleID == nil, connection.appID == nil {
                let looked = candidates[0] == candidates[1] ? [candidates[0]] : candidates
                throw IAPKitError.invalidArgument("no catalog names the app to pull (none at "
                    + looked.joined(separator: " or ") + "): pass --catalog PATH, --bundle-id ID or --app-id ID")
            }
            let naming = try namingPath.map(AscCommand.namingCatalog)
            var named = App(bundleID: bundleID)
            if bundleID == nil, connection.appID == nil, let naming { named = naming.app }
            let asc = try connection.client()
            let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
            var app = try await connection.app(reader, bundleID: named.bundleID, catalogAppID: named.appID,
                                               catalog: bundleID == nil ? naming : nil)
            if app.bundleID.isEmpty { app.bundleID = named.bundleID ?? "" }
            // The images, the schema and the catalog are replaced as one set: a pull that fails leaves none of them,
            // nor a folder it made for them.
            let folder = Path.parent(output)
            try FileTransaction.recover(journalDirectory: folder)
            let files = FileTransaction(journalDirectory: folder)
            let newFolders = [Path.join(folder, "review"), Path.join(folder, "images"), folder]
                .filter { !FileManager.default.fileExists(atPath: $0.isEmpty ? "." : $0) }
            var committed = false
            defer {
                if !committed {
                    files.discard()
                    for made in newFolders { rmdir(made) }
                }
            }
            let puller = Puller(reader: reader)
            var result = try await puller.pull(app: app, catalogDirectory: folder, staging: files)
            AscCommand.reportTolerated(asc)
            result.notes.forEach(Terminal.warning)
            if let replayed = asc.replay, replayed.placeholderCount > 0 {
                Terminal.warning("\(Format.count(replayed.placeholderCount, "review screenshot")) written from the trace "
                    + "hold a placeholder: a trace keeps no image bytes")
            }
            AscCommand.reportStorefronts(result.snapshot.storefrontDifferences)
            // App Store Connect holds a pack's archives, not its source folder: the catalog's packs are kept as they are,
            // and packs only App Store Connect has are named so the user can declare them with their folders.
            let declared = Set((naming?.assetPacks ?? []).map(\.id))
            if let naming, let namingPath, !naming.assetPacks.isEmpty {
                result.catalog.assetPacks = naming.assetPacks
                Terminal.warning("asset packs are not pulled (App Store Connect keeps no source folder for them): "
                    + "the \(naming.assetPacks.count) declared in \(namingPath) are kept as they are")
            }
            let undeclared = result.snapshot.assetPacks.map(\.id).filter { !declared.contains($0) }.sorted()
            if !undeclared.isEmpty {
                Terminal.warning("App Store Connect has \(Format.count(undeclared.count, "asset pack")) the catalog does not "
                    + "declare (\(undeclared.joined(separator: ", "))): not pulled, since App Store Connect keeps no source "
                    + "folder for them; declare each with its folder (`iapkit new-content --asset-pack ID`)")
            }
            let header = try CatalogSchemaFile.comment(for: output, staging: files)
                + "# Pulled from App Store Connect app \(app.id) by iapkit asc pull.\n"
            try files.stage(output).write(Data(try CatalogYAMLWriter.write(result.catalog, header: header, notes: result.notesByProduct).utf8))
            try files.commit()
            committed = true
            Terminal.writeError("wrote \(output) (\(result.catalog.allProducts.count) products); check it with `iapkit asc plan \(output)`\n")
        }
    }

    enum PricesFormat: String, ExpressibleByArgument, CaseIterable { case text, csv, json }

    struct Prices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prices",
            abstract: "Print every product's price and proceeds in every territory, today and at each scheduled change.",
            discussion: """
                As App Store Connect reports them: the customer price in the territory's currency, the proceeds after \
                Apple's commission, and whether the price was set by hand or equalized from the USD base price.

                Examples:
                  iapkit asc prices
                  iapkit asc prices --format csv -o prices.csv
                """)

        @Argument(help: "The catalog file, for the app's bundle ID.")
        var catalog: String = "catalog.yaml"

        @Option(help: "Output format: text, csv or json.")
        var format: PricesFormat = .text

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
        var output: String?

        @Option(help: "The app's bundle ID (instead of the catalog's).")
        var bundleID: String?

        @OptionGroup var connection: Connection

        func run() async throws {
            var named = App(bundleID: bundleID)
            var naming: Catalog?
            if bundleID == nil, connection.appID == nil {
                naming = try AscCommand.namingCatalog(catalog)
                named = naming?.app ?? named
            }
            let asc = try connection.client()
            let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
            let app = try await connection.app(reader, bundleID: named.bundleID, catalogAppID: named.appID, catalog: naming)
            let rows = try await PriceSheetReader(reader: reader).rows(app: app)
            let text: String
            switch format {
            case .text: text = PriceSheetReport.text(rows)
            case .csv: text = PriceSheetReport.csv(rows)
            case .json: text = PriceSheetReport.json(rows)
            }
            if let output { try AtomicFile.write(text, to: output) } else { try Terminal.output(text) }
        }
    }
}
