import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IAPCatalog
import IAPCore
import IAPLint

/// The `asc` commands that read App Store Connect without planning: pull, prices, offer-code values.
extension SyncWorkflow {
    /// A catalog read for the app it names (`app.bundleId`, `app.appId`), by the commands that do not plan it.
    func namingCatalog() throws -> Catalog { try load(.shape) }

    /// The app named by `bundleID`, else by the naming catalog at `catalogPath`.
    func namedApp(_ reader: StoreReader, bundleID: String?, naming: Catalog?) async throws -> StoreApp {
        var named = App(bundleID: bundleID)
        if bundleID == nil, connection.appID == nil, let naming { named = naming.app }
        var app = try await connection.app(
            reader, bundleID: named.bundleID, catalogAppID: named.appID,
            catalog: bundleID == nil ? naming : nil)
        if app.bundleID.isEmpty { app.bundleID = named.bundleID ?? "" }
        return app
    }

    /// `asc pull`: writes the app's products as catalog YAML at `output`, with the review images beside it, all or
    /// nothing. `catalogPath` names the app unless `bundleID` or the connection's app ID does; `header` stages what
    /// goes above the YAML (the schema comment) in the same transaction. Returns the line to print.
    public func pull(
        to output: String, bundleID: String?, namedByCatalog: Bool,
        header: (FileTransaction) throws -> String
    ) async throws -> String {
        let naming = namedByCatalog ? try namingCatalog() : nil
        let asc = try connection.client()
        let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
        let app = try await namedApp(reader, bundleID: bundleID, naming: naming)
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
        var result = try await Puller(reader: reader).pull(app: app, catalogDirectory: folder, staging: files)
        reportAnswers(asc)
        result.notes.forEach { events(.warning($0)) }
        if let replayed = asc.replay, replayed.placeholderCount > 0 {
            events(
                .warning(
                    "\(Format.count(replayed.placeholderCount, "review screenshot")) written from the trace "
                        + "hold a placeholder: a trace keeps no image bytes"))
        }
        StorefrontDifference.warnings(result.snapshot.storefrontDifferences).forEach { events(.warning($0)) }
        // App Store Connect holds a pack's archives, not its source folder: the catalog's packs are kept as they are,
        // and packs only App Store Connect has are named so the user can declare them with their folders.
        let declared = Set((naming?.assetPacks ?? []).map(\.id))
        if let naming, !naming.assetPacks.isEmpty {
            result.catalog.assetPacks = naming.assetPacks
            events(
                .warning(
                    "asset packs are not pulled (App Store Connect keeps no source folder for them): "
                        + "the \(naming.assetPacks.count) declared in \(catalogPath) are kept as they are"))
        }
        let undeclared = result.snapshot.assetPacks.map(\.id).filter { !declared.contains($0) }.sorted()
        if !undeclared.isEmpty {
            events(
                .warning(
                    "App Store Connect has \(Format.count(undeclared.count, "asset pack")) the catalog does not "
                        + "declare (\(undeclared.joined(separator: ", "))): not pulled, since App Store Connect keeps no source "
                        + "folder for them; declare each with its folder (`iapkit new-content --asset-pack ID`)"))
        }
        let text = try header(files) + "# Pulled from App Store Connect app \(app.id) by iapkit asc pull.\n"
        try files.stage(output).write(Data(try CatalogYAMLWriter.write(result.catalog, header: text, notes: result.notesByProduct).utf8))
        try files.commit()
        committed = true
        return "wrote \(output) (\(result.catalog.allProducts.count) products); check it with `iapkit asc plan \(output)`\n"
    }

    /// `asc prices`: every product's price and proceeds in every territory, in `format` (text, csv or json).
    public func prices(bundleID: String?, format: PriceSheetFormat) async throws -> String {
        let naming = bundleID == nil && connection.appID == nil ? try namingCatalog() : nil
        let asc = try connection.client()
        let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
        let named = naming?.app ?? App(bundleID: bundleID)
        let app = try await connection.app(reader, bundleID: named.bundleID, catalogAppID: named.appID, catalog: naming)
        let rows = try await PriceSheetReader(reader: reader).rows(app: app)
        switch format {
        case .text: return PriceSheetReport.text(rows)
        case .csv: return PriceSheetReport.csv(rows)
        case .json: return PriceSheetReport.json(rows)
        }
    }

    /// `asc offer-codes download`: writes the one-time-use codes of the catalog's offer codes (those named, or
    /// every active one) to `output`, readable by its owner only. Returns the line to print.
    public func downloadOfferCodes(to output: String, offerCodes: [String], includeInactive: Bool) async throws -> String {
        if connection.replay != nil {
            throw IAPKitError.invalidArgument("offer-codes download reads secrets that a trace never keeps; it cannot --replay")
        }
        let loaded = try namingCatalog()
        let owners = loaded.products + loaded.allSubscriptions
        let declared = Set(owners.flatMap { $0.offerCodes.compactMap(\.referenceName) })
        if let unknown = offerCodes.first(where: { !declared.contains($0) }) {
            throw IAPKitError.invalidArgument(
                "the catalog has no offer code named `\(unknown)` (its offer codes: "
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
        let desired = try desired(loaded, territories: listings.storefronts.keys.sorted(), screenshots: .skip)
        let selection = ReadSelection(listings: listings, desired: desired, scope: PlanScope(patterns: scoped))
        let snapshot = try await reader.snapshot(of: listings, selection: selection)
        let batches = OfferCodeValues.batches(in: snapshot, catalog: loaded, offerCodes: wanted, includeInactive: includeInactive)
        let rows = try await OfferCodeValues(asc: asc).rows(batches)
        try AtomicFile.write(Array(OfferCodeValues.csv(rows).utf8), to: output, permissions: 0o600)
        // A file that was there keeps its mode when replaced; codes are the owner's alone either way.
        chmod(output, 0o600)
        let counts = OfferCodeValues.countsByEnvironment(rows).map { "\($0.count) \($0.environment)" }
        return "Wrote \(Format.count(rows.count, "code")) (\(counts.isEmpty ? "none" : counts.joined(separator: ", "))) of "
            + "\(batches.count) batch\(batches.count == 1 ? "" : "es") to \(output).\n"
    }
}

/// How `asc prices` prints its sheet.
public enum PriceSheetFormat: String, Sendable, CaseIterable {
    case text, csv, json
}
