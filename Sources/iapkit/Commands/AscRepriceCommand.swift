import ArgumentParser
import CatalogSync
import IAPCatalog
import IAPCore
import IAPLint

extension AscCommand {
    /// `asc reprice`: a bulk price change as an edit of the catalog.
    struct Reprice: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reprice",
            abstract: "Change the prices of the products a pattern names, each territory on its own grid, as an edit of the catalog.",
            discussion: """
                --by PERCENT multiplies each price (the USD base price and every territory priced by hand) and rounds it \
                to the nearest point of that territory's grid, ties upward for an increase and downward for a decrease; \
                a price rounding would keep moves one point, and is named. --steps N moves each price N points up (or \
                down) its territory's grid. --to PRICE sets the USD base price, and each hand-set territory moves by the \
                same ratio. Equalized territories are left to App Store Connect. Only a non-consumable is ever made free. \
                The grids of territories other than the USA are read from App Store Connect (through a product of each \
                kind, a request or two). With --from DATE the new prices go in a priceChanges entry starting that day, \
                made or updated, computed from the prices in force then; a subscription's dated change needs \
                --existing-subscribers. Only the changed values are edited, in the catalog's style. An edit lint would \
                refuse is not written (exit 1, each finding located). --diff prints the change; --dry-run writes nothing.

                Examples:
                  iapkit asc reprice --product 'com.example.gems.*' --by 10%
                  iapkit asc reprice --product 'com.example.gems.*' --by=-15% --from 2027-03-01 --diff
                  iapkit asc reprice --product com.example.club.monthly --steps 1 --from 2027-03-01 --existing-subscribers keep
                  iapkit asc reprice --product com.example.gems.500 --to 5.99 --dry-run --diff
                """)

        @Argument(help: "The catalog file to edit.")
        var catalog: String = "catalog.yaml"

        @Option(
            name: .customLong("product"),
            help: ArgumentHelp(
                "The products to reprice; repeatable, with glob patterns (com.example.gems.*), as asc plan takes them.", valueName: "id"))
        var products: [String] = []

        @Option(
            name: .customLong("by"), parsing: .unconditional,
            help: ArgumentHelp("Change each price by this percentage (10%, -15%), rounded onto each territory's grid.", valueName: "percent"))
        var percent: String?

        @Option(
            parsing: .unconditional, help: ArgumentHelp("Move each price this many points up (or down, -1) its territory's grid.", valueName: "n"))
        var steps: Int?

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp("Set the USD base price to this price point; hand-set territories follow by the same ratio.", valueName: "price"))
        var price: String?

        @Option(
            help: ArgumentHelp(
                "Put the new prices in a scheduled change starting this day (YYYY-MM-DD) instead of today's prices.", valueName: "date"))
        var from: String?

        @Option(
            help: ArgumentHelp(
                "For a subscription's dated change: its existing subscribers keep their price, or move to the new one.", valueName: "keep|move"))
        var existingSubscribers: String?

        @Flag(help: "Print the change to the catalog as a unified diff.")
        var diff = false

        @Flag(help: "Write nothing: show what would change.")
        var dryRun = false

        @OptionGroup var connection: AscCommand.Connection

        /// The change asked for, or a message saying what is wrong with the options.
        func move() throws -> RepriceMove {
            let given = [percent != nil, steps != nil, price != nil].filter { $0 }.count
            guard given == 1 else { throw ValidationError("give one of --by PERCENT, --steps N or --to PRICE") }
            if let percent {
                guard percent.hasSuffix("%"), let value = Double(percent.dropLast()), value.isFinite, value > -100, value != 0, value <= 1000 else {
                    throw ValidationError("--by takes a percentage such as 10% or -15% (above -100%, at most 1000%, not 0); `\(percent)` is not one")
                }
                return .percent(value)
            }
            if let steps {
                guard steps != 0 else { throw ValidationError("--steps takes a number of points other than 0 (2, or -1 for one down)") }
                return .steps(steps)
            }
            guard let text = price, let parsed = Price(text: text), let cents = parsed.cents else {
                throw ValidationError("--to takes a USD price such as 1.99; `\(price ?? "")` is not one")
            }
            return .to(cents: cents)
        }

        func validate() throws {
            if products.isEmpty { throw ValidationError("give the products to reprice with --product ID (repeatable, glob patterns)") }
            _ = try move()
            if let from, CalendarDay.parse(from) == nil { throw ValidationError("--from takes a day as YYYY-MM-DD; `\(from)` is not one") }
            if let existingSubscribers {
                guard ExistingSubscribers(rawValue: existingSubscribers) != nil else {
                    throw ValidationError("--existing-subscribers takes keep or move; `\(existingSubscribers)` is neither")
                }
                guard from != nil else {
                    throw ValidationError(
                        "--existing-subscribers is for a dated change (--from): a change of today's price keeps existing subscribers on their price")
                }
            }
        }

        func run() async throws {
            let request = CatalogSync.Reprice(
                patterns: products, move: try move(), from: from.flatMap(CalendarDay.parse),
                existingSubscribers: existingSubscribers.flatMap(ExistingSubscribers.init(rawValue:)))
            let outcome = try await connection.workflow(catalog).reprice(request, dryRun: dryRun)
            for note in outcome.notes { Terminal.writeError(note + "\n") }
            if !outcome.refusals.isEmpty {
                Terminal.writeError(
                    TextReporter().report(
                        outcome.refusals, context: ReportContext(toolVersion: IAPKitCommand.version, products: 0, productIDs: [], subject: catalog)))
                Terminal.error("\(catalog) was not changed: reprice refuses what is named above (fix it, or leave it out of --product)")
                throw ExitCode(1)
            }
            if diff { try Terminal.output(outcome.diff) }
            if diff { Terminal.writeError(outcome.line) } else { try Terminal.output(outcome.line) }
        }
    }
}
