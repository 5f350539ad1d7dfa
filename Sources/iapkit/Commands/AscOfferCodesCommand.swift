import AppStoreConnect
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CatalogSync
import IAPCatalog
import IAPCore
import SyncPlan

extension AscCommand {
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

            @Option(name: .customLong("offer-code"), help: ArgumentHelp("Only this offer code (its reference name); repeatable.",
                                                                         valueName: "name"))
            var offerCodes: [String] = []

            @Flag(help: "Also the codes of deactivated batches and offer codes (they redeem nothing).")
            var includeInactive = false

            @OptionGroup var connection: Connection

            func validate() throws {
                if output == "-" || output.isEmpty {
                    throw ValidationError("offer codes are written only to a file: give -o FILE, not standard output")
                }
            }

            func run() async throws {
                if connection.replay != nil {
                    throw IAPKitError.invalidArgument("offer-codes download reads secrets that a trace never keeps; it cannot --replay")
                }
                let loaded = try AscCommand.namingCatalog(catalog)
                let owners = loaded.products + loaded.allSubscriptions
                let declared = Set(owners.flatMap { $0.offerCodes.compactMap(\.referenceName) })
                if let unknown = offerCodes.first(where: { !declared.contains($0) }) {
                    throw IAPKitError.invalidArgument("the catalog has no offer code named `\(unknown)` (its offer codes: "
                        + (declared.isEmpty ? "none" : declared.sorted().joined(separator: ", ")) + ")")
                }
                let asc = try connection.client()
                let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
                let app = try await connection.app(reader, bundleID: loaded.app.bundleID, catalogAppID: loaded.app.appID)
                // Only the products with the offer codes asked for are read in detail.
                let wanted = Set(offerCodes)
                let scoped = owners.filter { product in
                    product.offerCodes.contains { code in wanted.isEmpty || code.referenceName.map(wanted.contains) == true }
                }.compactMap(\.productID)
                guard !scoped.isEmpty else { throw IAPKitError.invalidArgument("the catalog has no offer codes to download codes of") }
                let listings = try await reader.listings(app: app)
                let desired = try CatalogRecords(catalog: loaded, territories: listings.storefronts.keys.sorted(), baseDirectory: Path.parent(catalog),
                                                 unreadableScreenshots: .skip)
                let selection = ReadSelection(listings: listings, desired: desired, scope: PlanScope(patterns: scoped))
                let snapshot = try await reader.snapshot(of: listings, selection: selection)
                let batches = OfferCodeValues.batches(in: snapshot, catalog: loaded, offerCodes: wanted, includeInactive: includeInactive)
                let rows = try await OfferCodeValues(asc: asc).rows(batches)
                try AtomicFile.write(Array(OfferCodeValues.csv(rows).utf8), to: output, permissions: 0o600)
                // A file that was there keeps its mode when replaced; codes are the owner's alone either way.
                chmod(output, 0o600)
                let counts = OfferCodeValues.countsByEnvironment(rows).map { "\($0.count) \($0.environment)" }
                Terminal.writeError("Wrote \(Format.count(rows.count, "code")) (\(counts.isEmpty ? "none" : counts.joined(separator: ", "))) of "
                                        + "\(batches.count) batch\(batches.count == 1 ? "" : "es") to \(output).\n")
            }
        }
    }
}
