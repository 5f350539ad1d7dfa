import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import IAPLint

/// What a push came to, in the words the command line prints.
public enum PushResult: Sendable {
    /// App Store Connect already matches: nothing was sent.
    case nothingToPush(String)
    /// The person asked declined: nothing was sent.
    case declined
    /// Every operation was sent; the summary counts them.
    case pushed(String)
}

/// Asked, with the plan, whether to write it; false declines.
public typealias PushConfirmation = @Sendable (PlannedSync) async throws -> Bool

extension SyncWorkflow {
    /// Plans with every lint rule, shows the plan (`present`), refuses refused changes (exit 1), asks (`confirm`)
    /// and pushes, reporting each operation; `ledger` keeps what reached App Store Connect for an interruption to say.
    public func push(
        _ scope: SyncScope = SyncScope(), wait: Bool, ledger: PushLedger,
        present: @Sendable (PlannedSync) throws -> Void, confirm: PushConfirmation
    ) async throws -> PushResult {
        try connection.refuseReplay("push")
        let catalog = try load(.full)
        let planned = try await plan(catalog, scope: scope, budget: wait ? .wait : .stop)
        try present(planned)
        return try await apply(planned, wait: wait, ledger: ledger, take: scope.take, confirm: confirm)
    }

    /// Sends a plan's operations once it passes: no refused change, nothing of App Store Connect's own since the
    /// base overwritten unless `take` is the catalog, and a yes. Once every operation is done, the catalog as pushed
    /// is the new base.
    func apply(
        _ planned: PlannedSync, wait: Bool, ledger: PushLedger, take: TakenSide?, confirm: PushConfirmation,
        journal: (@Sendable (Change) -> Void)? = nil
    ) async throws -> PushResult {
        if let refusal = planned.refusal { throw refusal }
        if take != .catalog, let refusal = ChangeOrigins.refusal(planned.plan, file: catalogPath) { throw refusal }
        let result = try await send(planned, wait: wait, ledger: ledger, confirm: confirm, journal: journal)
        if case .declined = result { return result }
        do {
            if let recorded = try planned.recording?.record(for: catalogPath) {
                events(.note("Recorded what App Store Connect now holds as the base, \(recorded): commit it with the catalog."))
            }
        } catch {
            events(.warning("the base could not be recorded (\(error)); the next pull or plan compares with the one before"))
        }
        return result
    }

    private func send(
        _ planned: PlannedSync, wait: Bool, ledger: PushLedger, confirm: PushConfirmation, journal: (@Sendable (Change) -> Void)?
    ) async throws -> PushResult {
        let plan = planned.plan
        let waiting = plan.count(.waiting)
        let waitingNote =
            waiting == 0
            ? ""
            : "\(Format.count(waiting, "change")) wait\(waiting == 1 ? "s" : "") for App Review (marked …): "
                + "push sends \(waiting == 1 ? "it" : "them") once the product is approved.\n"
        guard !plan.operations.isEmpty, let asc = planned.client else {
            return .nothingToPush(
                waiting == 0
                    ? "App Store Connect already matches \(catalogPath); nothing to push.\n"
                    : "App Store Connect matches \(catalogPath) but for what waits; nothing to push now. " + waitingNote)
        }
        guard try await confirm(planned) else { return .declined }
        let events = self.events
        let executor = PlanExecutor(asc: asc, budget: wait ? .wait : .stop, allowance: waitAllowance, allowsPartial: allowsPartialPush)
        do {
            let outcome = try await executor.apply(plan, ledger: ledger) { event in
                switch event {
                case let .operation(index, total, change, operation):
                    events(.operation(index: index, total: total, summary: operation.summary + (change.productID.map { " (\($0))" } ?? "")))
                case let .waiting(delay, reason):
                    events(.waiting(seconds: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18, reason: reason))
                case let .changeDone(change):
                    journal?(change)
                }
            }
            // The same changes, products and operations the plan's summary counted, in the same words.
            let deleted = plan.changes.filter { $0.action == .delete && !$0.operations.isEmpty }.count
            return .pushed(
                "Pushed: \(outcome.created) created, \(outcome.updated) updated, \(deleted > 0 ? "\(deleted) deleted, " : "")"
                    + "\(outcome.unchanged) unchanged, 0 failed (changes)\(PlanReport.productsPart(plan)); "
                    + "\(Format.count(outcome.operations, "operation")), \(Format.count(outcome.requests, "request")).\n" + waitingNote)
        } catch {
            // A refused price is the catalog's: the error names what was written; fixing the price comes first.
            if case .pricesRefused = error { throw error }
            // The error first, then what reached App Store Connect and what is left.
            let refused = if case let .write(_, _, _, answer, _, _) = error { answer.refusesTheRequest } else { false }
            throw SyncError.pushStopped(error, written: ledger.report(advisesRerun: !refused))
        }
    }

    /// Writes the plan for `push --plan`, atomically; `take` is the side it was planned to take.
    func save(_ planned: PlannedSync, to file: String, take: TakenSide? = nil) async throws {
        var saved = try await PlanFile.make(planned.plan, catalogPath: catalogPath, createdAt: Date().formatted(.iso8601))
        saved.take = take
        try AtomicFile.write(saved.json.serialized(.pretty), to: file)
        // The whole plan in Markdown beside it, for where a comment must be cut.
        try AtomicFile.write(PlanReport.markdown(planned.plan), to: Self.markdownPath(of: file))
        guard saved.isAppliable else {
            events(
                .note(
                    "Saved the plan to \(file), marked not appliable: App Store Connect would refuse "
                        + "\(Format.count(planned.plan.count(.refused), "change")) (marked !), and `iapkit asc push --plan \(file)` "
                        + "names them and sends nothing. Fix the catalog and plan again."))
            return
        }
        events(
            .note(
                "Saved the plan to \(file): `iapkit asc push --plan \(file)` sends exactly its "
                    + "\(Format.count(planned.operationCount, "operation")), or refuses if App Store Connect or the catalog changed."))
    }

    /// `release.plan.md` beside `release.plan.json` (any other name: `NAME.md`).
    static func markdownPath(of file: String) -> String { (file.hasSuffix(".json") ? String(file.dropLast(5)) : file) + ".md" }

    /// A plan saved with `plan --out`, read from the file alone (`asc show`).
    public static func savedPlan(_ file: String) throws -> SavedPlanView {
        SavedPlanView(saved: try SavedPlanFile(file).plan)
    }

    /// `push --plan FILE`: checks the catalog, the uploads and, for the products the plan touches, App Store
    /// Connect against what the plan was made from; sends its operations only when nothing changed, recording each
    /// change done in `FILE.applied` so an interrupted push is finished by the same command.
    public func push(
        savedPlan file: String, baseRevision: String? = nil, wait: Bool, ledger: PushLedger,
        present: @Sendable (PlannedSync) throws -> Void, confirm: PushConfirmation
    ) async throws -> PushResult {
        try connection.refuseReplay("push")
        ledger.pushing(savedPlan: file)
        let planFile = try SavedPlanFile(file)
        let saved = planFile.plan
        var workflow = self
        // The catalog the plan names, unless another is given.
        if catalogPath == "catalog.yaml" { workflow.catalogPath = saved.catalogPath }
        let catalog = workflow.catalogPath
        let journalPath = file + ".applied"
        let earlier = FileManager.default.contents(atPath: journalPath).flatMap(SavedPlan.Journal.parse)
        let journal = earlier.flatMap { $0.plan == planFile.sha256 ? $0 : nil } ?? SavedPlan.Journal(plan: planFile.sha256)
        let inputs = PlanFile.changedInputs(saved, catalogPath: catalog)
        guard inputs.isEmpty else {
            throw SyncError.refused(
                "the plan in \(file) is stale: " + inputs.joined(separator: "; ")
                    + ". Nothing was written; plan again (`iapkit asc plan \(catalog) --out \(file)`) and review it")
        }
        if let refusal = PlannedSync.refusal(saved.plan, what: "the plan in \(file) (marked not appliable)") { throw refusal }
        let loaded = try workflow.load(.full)
        let touched = saved.touchedProducts(
            groups: loaded.subscriptionGroups.map {
                (name: $0.referenceName ?? "", subscriptions: $0.subscriptions.compactMap(\.productID))
            })
        // A plan that deletes was made with --prune, and is planned again so.
        // A plan that deletes was made with --prune, and one that replaces unanswered values with
        // --replace-unanswered: it is planned again so, as it was approved.
        let scope = SyncScope(
            prune: saved.changes.contains { $0.change.action == .delete },
            replaceUnanswered: saved.changes.contains { $0.change.action != .refused && $0.change.fields.contains(where: \.fromUnanswered) },
            baseRevision: baseRevision, take: saved.take)
        // Whole or not started: the re-read is paid for only when the hour also pays for the writes that follow it.
        // The plan names its app: found by the catalog's bundle ID then, it is not looked up again.
        let writes = allowsPartialPush ? nil : saved.remainingWrites(done: journal.done)
        let fresh = try await workflow.plan(
            loaded, scope: scope, budget: wait ? .wait : .stop, override: saved.scope(touched: touched), known: saved.app,
            writesToFollow: writes)
        guard fresh.plan.app == saved.app || fresh.plan.app.id == saved.app.id else {
            throw SyncError.refused(
                "the plan in \(file) is for app \(saved.app.id) (\(saved.app.bundleID)), not \(fresh.plan.app.id); "
                    + "nothing was written")
        }
        let stale = saved.staleness(against: fresh.plan, done: journal.done)
        guard stale.isEmpty else {
            throw SyncError.refused(
                "the plan in \(file) is stale: App Store Connect (or a file the catalog reads) changed since it "
                    + "was made. Nothing was written; plan again and review it.\n  " + stale.joined(separator: "\n  "))
        }
        try present(fresh)
        // A journal of this plan is added to; any other is replaced, atomically, by this plan's first line.
        if earlier?.plan != planFile.sha256 { try AtomicFile.write(journal.header, to: journalPath) }
        let recorder = try JournalWriter(path: journalPath, events: events)
        return try await workflow.apply(fresh, wait: wait, ledger: ledger, take: saved.take, confirm: confirm) { recorder.done($0) }
    }
}

/// A saved plan's file: the plan, and the SHA-256 of the file (which names it in the journal).
struct SavedPlanFile {
    let plan: SavedPlan
    let sha256: String

    init(_ file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw IAPKitError.invalidArgument("the saved plan \(file) cannot be read; make it with `iapkit asc plan --out \(file)`")
        }
        do {
            plan = try SavedPlan.parse(data, file: file)
        } catch {
            throw IAPKitError.invalidArgument(error.description)
        }
        sha256 = SavedPlan.sha256(data)
    }
}

/// A saved plan as `asc show` prints it.
public struct SavedPlanView: Sendable {
    let saved: SavedPlan

    public func report(_ format: PlanFormat, showUnchanged: Bool = false) -> String {
        format == .json
            ? saved.json.serialized(.pretty)
            : PlannedSync(plan: saved.plan, client: nil, catalogPath: saved.catalogPath).report(format, showUnchanged: showUnchanged)
    }
}

/// Adds a line to `FILE.applied` beside a saved plan as each change is done, so an interrupted push is finished by
/// the same command.
final class JournalWriter: Sendable {
    private let handle: Locked<OutputHandle>
    private let events: @Sendable (SyncEvent) -> Void
    let path: String

    init(path: String, events: @escaping @Sendable (SyncEvent) -> Void) throws {
        handle = Locked(try OutputHandle.appending(to: path))
        self.events = events
        self.path = path
    }

    func done(_ change: Change) {
        let line = SavedPlan.Journal.line(digest: SavedPlan.signatureDigest(of: change), operations: change.operations.count)
        handle.withLock { handle in
            do { try handle.write(contentsOf: Array(line.utf8)) } catch {
                events(.warning("\(path) could not be written (\(error)); if this push is interrupted, plan again"))
            }
        }
    }
}
