import ArgumentParser
import CatalogSync
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// `asc plan` and `asc push`: their arguments, and what each prints.
extension AscCommand {
    struct PlanCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Show what push would change in App Store Connect, resource by resource.",
            discussion: """
                `+` create, `~` update (each field old -> new), `-` delete (--prune), `!` refused (App Store Connect forbids \
                it), `?` unmanaged (in App Store Connect, not in the catalog; deleted only with --prune). --check exits 1 \
                when anything differs; with a base, when App Store Connect changed something since it (drift, a conflict) \
                or a change is refused, and not for the catalog's own changes, which the next push sends.

                With a base (.iapkit/base/, recorded by each push and pull), each change ends with whose it is since the \
                base: [pending: the catalog's change], [drift: App Store Connect's change], or [conflict] with the base's value.

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

        @Option(
            help: ArgumentHelp(
                "Also save the plan to this file, for `asc push --plan` (JSON; no key, token or upload bytes).",
                valueName: "file"))
        var out: String?

        @Flag(help: "Exit 1 when App Store Connect differs from the catalog (creates, updates or refused changes).")
        var check = false

        @Flag(help: "List unchanged resources too.")
        var showUnchanged = false

        @Flag(help: "When the hourly request budget cannot pay for the reads, pace them across hours instead of stopping (exit 75).")
        var wait = false

        @Option(help: waitMaxHelp)
        var waitMax: WaitLimit = WaitLimit()

        @OptionGroup var scope: ScopeOptions

        @OptionGroup var connection: Connection

        func run() async throws {
            var workflow = connection.workflow(catalog)
            workflow.waitAllowance = WaitAllowance(limit: waitMax.duration)
            let planned = try await workflow.plan(scope.scope, budget: wait ? .wait : .stop, saveTo: out) {
                try Terminal.output($0.report(format, showUnchanged: showUnchanged))
                try JobSummary.append($0.report(.markdown))
            }
            // A plan App Store Connect would refuse is exit 1 with or without --check: it can never be pushed.
            if let refusal = planned.refusal { throw refusal }
            if check && planned.differs { throw ExitCode(1) }
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Lint the catalog, show the plan, and apply it to App Store Connect.",
            discussion: """
                Refuses a catalog with lint errors or refused changes (exit 1). On a terminal it asks before writing; \
                elsewhere it needs --yes. Running it again after a failure finishes the work without duplicates. \
                A change is whole or not started: when the hour's request budget (a rolling 60 minutes) cannot pay for the \
                whole push and a tenth, it writes nothing and exits 75 with when it can (--wait waits for it instead; \
                --allow-partial starts anyway); it never spends more than is left, stopping between two operations. \
                It never overwrites what App Store Connect changed since the base (a colleague's web edit) unless told \
                --take catalog; once every operation is done it records the base, .iapkit/base/CATALOG, to commit.

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

        @Option(help: waitMaxHelp)
        var waitMax: WaitLimit = WaitLimit()

        @Flag(
            help: ArgumentHelp(
                "Start even when the hour's request budget cannot pay for the whole push, and stop where it ends (exit 75); "
                    + "without it such a push writes nothing."))
        var allowPartial = false

        @Option(
            help: ArgumentHelp(
                "Send exactly the operations of a plan saved with `asc plan --out`, refusing (exit 1, nothing "
                    + "written) when App Store Connect, the catalog or a file to upload changed since.", valueName: "file"))
        var plan: String?

        @OptionGroup var scope: ScopeOptions

        @OptionGroup var connection: Connection

        func run() async throws {
            var workflow = connection.workflow(catalog)
            workflow.waitAllowance = WaitAllowance(limit: waitMax.duration)
            workflow.allowsPartialPush = allowPartial
            let ledger = PushLedger()
            SignalCleanup.setInterruptionNote { ledger.report() }
            defer { SignalCleanup.setInterruptionNote(nil) }
            // The plan and the summary are push's report, on standard output (`push > push.log`); progress, waits and
            // warnings go to standard error.
            let present: @Sendable (PlannedSync) throws -> Void = { try Terminal.output($0.report(.text)) }
            let confirm: PushConfirmation = { [yes] planned in
                // Declining is a decision, not a failure.
                try yes
                    || Terminal.confirm(
                        "Apply \(Format.count(planned.operationCount, "operation")) to App Store Connect app \(planned.appID)?",
                        withoutTerminal: "push writes to App Store Connect; pass --yes to apply without a terminal")
            }
            let result: PushResult
            do {
                if let plan {
                    result = try await workflow.push(
                        savedPlan: plan, baseRevision: scope.sides.base, wait: wait, ledger: ledger, present: present, confirm: confirm)
                } else {
                    result = try await workflow.push(scope.scope, wait: wait, ledger: ledger, present: present, confirm: confirm)
                }
            } catch {
                // A progress line rewritten in place ends before the error.
                if Terminal.stderrIsTerminal, ledger.progress.done > 0 { Terminal.writeError("\n") }
                throw error
            }
            if Terminal.stderrIsTerminal, ledger.progress.done > 0 { Terminal.writeError("\r\u{1B}[K") }
            switch result {
            case let .nothingToPush(text), let .pushed(text): try Terminal.output(text)
            case .declined: try Terminal.output("Answered no: nothing written.\n")
            }
        }
    }
}
