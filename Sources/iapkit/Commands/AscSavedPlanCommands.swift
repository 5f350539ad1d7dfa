import AppStoreConnect
import ArgumentParser
import CatalogSync
import SyncPlan
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore

/// Saved plans: `asc plan --out`, `asc show`, `asc push --plan`, and plans in Markdown for where changes are reviewed.
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
            let saved = try AscCommand.loadSaved(file).plan
            if format == .json {
                try Terminal.output(saved.json.serialized(.pretty))
                return
            }
            try AscCommand.show(saved.plan, format: format, showUnchanged: showUnchanged, limit: nil, remaining: nil)
        }
    }

    /// Prints a plan in `format` on standard output.
    static func show(_ plan: SyncPlan.Plan, format: PlanFormat, showUnchanged: Bool, limit: Int?, remaining: Int?) throws {
        switch format {
        case .text:
            try Terminal.output(PlanReport.text(plan, showUnchanged: showUnchanged))
            try Terminal.output(PlanReport.budgetLine(plan, limit: limit, remaining: remaining) + "\n")
        case .json:
            try Terminal.output(PlanReport.json(plan, limit: limit, remaining: remaining).serialized(.pretty))
        case .markdown:
            try Terminal.output(PlanReport.markdown(plan))
        }
    }

    /// Inside GitHub Actions, the plan in Markdown goes to the job's summary page as well.
    static func appendJobSummary(_ plan: SyncPlan.Plan) throws {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        // Appended: other steps of the job write their own parts of the summary.
        do {
            let summary = try OutputHandle.appending(to: path)
            try summary.write(contentsOf: Array(PlanReport.markdown(plan).utf8))
            try summary.close()
        } catch {
            Terminal.warning("GITHUB_STEP_SUMMARY names \(path), which cannot be written (\(error)); the job summary has no plan")
        }
    }

    /// Writes the plan for `push --plan`, atomically.
    static func save(_ plan: SyncPlan.Plan, catalog: String, to file: String) async throws {
        let saved = try await PlanFile.make(plan, catalogPath: catalog, createdAt: Date().formatted(.iso8601))
        try AtomicFile.write(saved.json.serialized(.pretty), to: file)
        Terminal.writeError("Saved the plan to \(file): `iapkit asc push --plan \(file)` sends exactly its "
            + "\(Format.count(plan.operations.count, "operation")), or refuses if App Store Connect or the catalog changed.\n")
    }

    /// The saved plan, and the SHA-256 of its file (which names it in the journal).
    static func loadSaved(_ file: String) throws -> (plan: SavedPlan, sha256: String) {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw IAPKitError.invalidArgument("the saved plan \(file) cannot be read; make it with `iapkit asc plan --out \(file)`")
        }
        do {
            return (try SavedPlan.parse(data, file: file), SavedPlan.sha256(data))
        } catch {
            throw IAPKitError.invalidArgument(error.description)
        }
    }

    /// `push --plan FILE`: checks the catalog, the uploads and, for the products the plan touches, App Store
    /// Connect against what the plan was made from; sends its operations only when nothing changed.
    static func pushSaved(_ file: String, catalog given: String, yes: Bool, wait: Bool, connection: Connection) async throws {
        let (saved, fileDigest) = try loadSaved(file)
        // The catalog the plan names, unless another is given.
        let catalog = given == "catalog.yaml" ? saved.catalogPath : given
        let journalPath = file + ".applied"
        let earlier = FileManager.default.contents(atPath: journalPath).flatMap(SavedPlan.Journal.parse)
        let journal = earlier.flatMap { $0.plan == fileDigest ? $0 : nil } ?? SavedPlan.Journal(plan: fileDigest)
        let inputs = PlanFile.changedInputs(saved, catalogPath: catalog)
        guard inputs.isEmpty else {
            Terminal.error("the plan in \(file) is stale: " + inputs.joined(separator: "; ")
                + ". Nothing was written; plan again (`iapkit asc plan \(catalog) --out \(file)`) and review it")
            throw ExitCode(1)
        }
        if saved.changes.contains(where: { $0.change.action == .refused }) {
            Terminal.error("the plan in \(file) has changes App Store Connect forbids (marked !); nothing was written. Fix the catalog "
                + "and plan again")
            throw ExitCode(1)
        }
        let loaded = try loadCatalog(catalog, fullLint: true)
        let touched = saved.touchedProducts(groups: loaded.subscriptionGroups.map {
            (name: $0.referenceName ?? "", subscriptions: $0.subscriptions.compactMap(\.productID))
        })
        // A plan that deletes was made with --prune, and is planned again so.
        let options = try ScopeOptions.parse(saved.changes.contains { $0.change.action == .delete } ? ["--prune"] : [])
        let (fresh, asc) = try await plan(catalog, catalog: loaded, connection: connection, scope: options,
                                          budget: wait ? .wait : .stop, scopeOverride: saved.scope(touched: touched))
        guard fresh.app == saved.app || fresh.app.id == saved.app.id else {
            Terminal.error("the plan in \(file) is for app \(saved.app.id) (\(saved.app.bundleID)), not \(fresh.app.id); nothing was written")
            throw ExitCode(1)
        }
        let stale = saved.staleness(against: fresh, done: journal.done)
        guard stale.isEmpty else {
            Terminal.error("the plan in \(file) is stale: App Store Connect (or a file the catalog reads) changed since it was made. "
                + "Nothing was written; plan again and review it.\n  " + stale.joined(separator: "\n  "))
            throw ExitCode(1)
        }
        // A journal of this plan is added to; any other is replaced, atomically, by this plan's first line.
        if earlier?.plan != fileDigest { try AtomicFile.write(journal.header, to: journalPath) }
        let recorder = try JournalWriter(path: journalPath)
        try await apply(fresh, asc: asc, catalog: catalog, yes: yes, wait: wait) { change in recorder.done(change) }
    }

    /// Adds a line to `FILE.applied` beside a saved plan as each change is done, so an interrupted push is finished
    /// by the same command.
    final class JournalWriter: Sendable {
        private let handle: Locked<OutputHandle>
        let path: String

        init(path: String) throws {
            handle = Locked(try OutputHandle.appending(to: path))
            self.path = path
        }

        func done(_ change: Change) {
            let line = SavedPlan.Journal.line(digest: SavedPlan.signatureDigest(of: change), operations: change.operations.count)
            handle.withLock { handle in
                do { try handle.write(contentsOf: Array(line.utf8)) } catch {
                    Terminal.warning("\(path) could not be written (\(error)); if this push is interrupted, plan again")
                }
            }
        }
    }
}
