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

    /// How `asc pull` treats a catalog already at its output.
    public struct PullOptions: Sendable {
        /// Write the catalog anew instead of editing the one there.
        public var fresh = false
        /// Write nothing; the outcome holds the diff.
        public var diffOnly = false
        /// Remove products App Store Connect does not have, and pull even when fewer than half of them are left.
        public var allowRemovals = false
        /// The side a value both changed since the base takes (`--take`); nil keeps the catalog's and names it.
        public var take: TakenSide?
        /// The catalog at this git revision is the base (`--base`), instead of the one recorded beside it.
        public var baseRevision: String?
        /// Pace the reads across hours when the hour's budget cannot pay for them (`--wait`), instead of exit 75.
        public var wait = false
        public init(
            fresh: Bool = false, diffOnly: Bool = false, allowRemovals: Bool = false, take: TakenSide? = nil, baseRevision: String? = nil,
            wait: Bool = false
        ) {
            self.wait = wait
            self.fresh = fresh
            self.diffOnly = diffOnly
            self.allowRemovals = allowRemovals
            self.take = take
            self.baseRevision = baseRevision
        }
    }

    /// What `asc pull` did or, with `diffOnly`, would do.
    public struct PullOutcome: Sendable {
        /// The unified diff of the catalog file (empty when nothing changes).
        public var diff: String
        /// The summary to print.
        public var line: String
        /// Values both the catalog and App Store Connect changed since the base, left as the catalog has them
        /// (exit 1), each with its three values.
        public var conflicts: [String] = []
    }

    /// `asc pull`: writes the app's products as catalog YAML at `output`, with the review images beside it, all or
    /// nothing. A catalog already there is edited: only what App Store Connect holds differently changes (see
    /// `PullEdit`). `catalogPath` names the app unless `bundleID` or the connection's app ID does; `header` stages
    /// what goes above a new file's YAML (the schema comment) in the same transaction.
    public func pull(
        to output: String, bundleID: String?, namedByCatalog: Bool, options: PullOptions = PullOptions(),
        header: (FileTransaction) throws -> String
    ) async throws -> PullOutcome {
        let naming = namedByCatalog ? try namingCatalog() : nil
        let folder = Path.parent(output)
        let existing = FileManager.default.fileExists(atPath: output) ? try Self.readKept(output) : nil
        var kept: (text: Data, catalog: Catalog)? = nil
        if let existing, !options.fresh {
            do { kept = (existing, try CatalogLoader.load(data: existing, file: output, findings: { _ in })) } catch {
                throw IAPKitError.malformed(
                    location: SourceLocation(file: output),
                    reason: "is not a catalog a pull can edit (\(error)); fix it, or pass --fresh to write it anew")
            }
        }
        let asc = try connection.client()
        // Its reads estimated and paid for within the hour's budget, as plan's are: refused before they start (exit
        // 75), or paced with --wait.
        let reader = self.reader(asc, budget: options.wait ? .wait : .stop)
        let app = try await namedApp(reader, bundleID: bundleID, naming: naming)
        // The images, the schema and the catalog are replaced as one set: a pull that fails leaves none of them,
        // nor a folder it made for them.
        try FileTransaction.recover(journalDirectory: folder)
        let files = FileTransaction(journalDirectory: folder)
        let baseFolder = Path.parent(SyncBase.recordedPath(for: output))
        let newFolders = [Path.join(folder, "review"), Path.join(folder, "images"), baseFolder, Path.parent(baseFolder), folder]
            .filter { !FileManager.default.fileExists(atPath: $0.isEmpty ? "." : $0) }
        var committed = false
        defer {
            if !committed {
                files.discard()
                for made in newFolders { rmdir(made) }
            }
        }
        let keptImages = kept.map { kept -> Puller.Kept in
            let paths = kept.catalog.imagePathsByProduct
            let records = try? CatalogRecords(
                catalog: kept.catalog, territories: Territories.all, baseDirectory: folder, unreadableScreenshots: .skip)
            return Puller.Kept(records: records ?? CatalogRecords(), screenshotPaths: paths.screenshots, imagePaths: paths.images)
        }
        var result = try await Puller(reader: reader).pull(app: app, catalogDirectory: folder, staging: files, kept: keptImages)
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
        let declaring = kept?.catalog ?? naming
        let declared = Set((declaring?.assetPacks ?? []).map(\.id))
        if let declaring, !declaring.assetPacks.isEmpty {
            result.catalog.assetPacks = declaring.assetPacks
            events(
                .warning(
                    "asset packs are not pulled (App Store Connect keeps no source folder for them): "
                        + "the \(declaring.assetPacks.count) declared in \(kept == nil ? catalogPath : output) are kept as they are"))
        }
        let undeclared = result.snapshot.assetPacks.map(\.id).filter { !declared.contains($0) }.sorted()
        if !undeclared.isEmpty {
            events(
                .warning(
                    "App Store Connect has \(Format.count(undeclared.count, "asset pack")) the catalog does not "
                        + "declare (\(undeclared.joined(separator: ", "))): not pulled, since App Store Connect keeps no source "
                        + "folder for them; declare each with its folder (`iapkit new-content --asset-pack ID`)"))
        }
        let pulledIDs = Set(result.catalog.allProducts.compactMap(\.productID))
        let text: [UInt8]
        var summary: String
        let edit = PullEdit(
            file: output, keptText: kept?.text ?? Data(), directory: folder, territories: result.snapshot.territories, bundleID: app.bundleID)
        let pulledForm = try edit.canonical(result.catalog)
        var newBase = pulledForm
        var conflicts: [String] = []
        if let kept {
            let keptIDs = kept.catalog.allProducts.compactMap(\.productID)
            try refuseRemovals(keptIDs, pulled: pulledIDs, app: app, file: output, options: options)
            let keptForm = try edit.canonical(kept.catalog)
            var target = pulledForm
            if let base = try pullBase(output, kept: kept.text, app: app, holding: pulledIDs, options: options) {
                var merge = ThreeWayMerge(take: options.take)
                (target, newBase) = merge.merge(base: try edit.canonical(base.catalog), catalog: keptForm, store: pulledForm)
                report(merge, base: base.source, app: app, file: output)
                conflicts = merge.conflicts.map(\.description)
            }
            let edited = try edit.apply(before: keptForm, after: target, allowsRemovals: options.allowRemovals)
            // Not in App Store Connect may mean not pushed yet (or waiting for App Review): kept unless asked.
            for entry in edited.summary.keptEntries {
                events(
                    .warning(
                        "\(entry): not in App Store Connect app \(app.named); "
                            + (options.allowRemovals ? "removed from \(output)" : "kept in \(output) (--allow-removals removes it)")))
            }
            for id in edited.summary.kept.sorted() {
                events(
                    .warning(
                        "\(id): not in App Store Connect app \(app.named); "
                            + (options.allowRemovals ? "removed from \(output)" : "kept in \(output) (push creates it; --allow-removals removes it)"))
                )
            }
            text = edited.text
            summary = edited.summary.description + " in \(output)"
            if edited.summary.isEmpty { summary = "\(output) already holds what App Store Connect has; nothing changed" }
        } else {
            if let existing, let old = try? CatalogLoader.load(data: existing, file: output, findings: { _ in }) {
                try refuseRemovals(old.allProducts.compactMap(\.productID), pulled: pulledIDs, app: app, file: output, options: options)
            }
            let head = try header(files) + "# Pulled from App Store Connect app \(app.id) by iapkit asc pull.\n"
            text = Array(try CatalogYAMLWriter.write(result.catalog, header: head, notes: result.notesByProduct).utf8)
            summary = "wrote \(output) (\(Format.count(result.catalog.allProducts.count, "product")))"
        }
        let old = existing.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let diff = UnifiedDiff.text(old: old, new: String(decoding: text, as: UTF8.self), oldName: "a/" + output, newName: "b/" + output)
        if !conflicts.isEmpty { summary += "; \(Format.count(conflicts.count, "conflict")) left as the catalog has it" }
        if options.diffOnly { return PullOutcome(diff: diff, line: summary + " (not written: --diff)\n", conflicts: conflicts) }
        if existing.map({ Array($0) != text }) ?? true { try files.stage(output).write(Data(text)) }
        try SyncBase.record(newBase, for: output, staging: files)
        try files.commit()
        committed = true
        return PullOutcome(diff: diff, line: summary + "; check it with `iapkit asc plan \(output)`\n", conflicts: conflicts)
    }

    /// The base of a pull over `output`: `--base`, else the one recorded beside it, else, for a catalog with
    /// uncommitted edits, its last commit (so the edits are kept as the catalog's changes), else none.
    func pullBase(_ output: String, kept: Data, app: StoreApp, holding productIDs: Set<String>, options: PullOptions) throws -> SyncBase? {
        if let base = try SyncBase.find(for: output, revision: options.baseRevision) {
            // A base is of one app: pulled from another (--bundle-id), the catalog is compared with it alone.
            guard base.isOf(app, holding: productIDs) else {
                events(.note(base.notOf(app)))
                return nil
            }
            return base
        }
        if let committed = SyncBase.lastCommit(of: output, differingFrom: kept) {
            events(.note("No base recorded for \(output): its uncommitted edits are kept, measured from its last commit (HEAD)."))
            return committed
        }
        events(.note(SyncBase.absent(for: output)))
        return nil
    }

    /// What the three-way merge kept and left, said as pull goes.
    func report(_ merge: ThreeWayMerge, base: String, app: StoreApp, file: String) {
        for pending in merge.pending {
            // A product only the catalog has is named as pull always named it.
            if pending.isNew, !pending.path.contains(":") {
                events(
                    .warning("\(pending.path): not in App Store Connect app \(app.named); kept in \(file) (pending push: push creates it)"))
                continue
            }
            events(.note("pending push (the catalog's change since the base): \(pending.description)"))
        }
        for conflict in merge.conflicts {
            events(
                .warning(
                    "conflict: \(conflict.description): both changed it since the base (\(base)); left as the catalog has it. "
                        + "`--take asc` or `--take catalog` chooses"))
        }
    }

    /// A pull that would leave fewer than half of the catalog's products, or none, is refused unless removals are
    /// allowed: the usual cause is the wrong app or API key, not a catalog emptied on purpose.
    func refuseRemovals(_ keptIDs: [String], pulled: Set<String>, app: StoreApp, file: String, options: PullOptions) throws {
        guard !keptIDs.isEmpty, !options.allowRemovals else { return }
        let left = keptIDs.filter(pulled.contains).count
        guard left == 0 || left * 2 < keptIDs.count else { return }
        throw SyncError.refused(
            "App Store Connect app \(app.named) has \(left) of the \(Format.count(keptIDs.count, "product")) in \(file): "
                + "a pull would leave \(left == 0 ? "none" : "fewer than half") of them. Check the app (--bundle-id, --app-id) "
                + "and the API key; pass --allow-removals if they really are gone. Nothing was written")
    }

    static func readKept(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw IAPKitError.io(path: path, reason: "cannot be read") }
        return data
    }

    /// `asc prices`: every product's price and proceeds in every territory, in `format` (text, csv or json); with
    /// `products` (IDs or glob patterns, as `asc plan --product` takes them), only the products they match are read.
    public func prices(bundleID: String?, format: PriceSheetFormat, products: [String] = []) async throws -> String {
        let naming = bundleID == nil && connection.appID == nil ? try namingCatalog() : nil
        let asc = try connection.client()
        let reader = StoreReader(asc: asc, concurrency: connection.concurrency)
        let named = naming?.app ?? App(bundleID: bundleID)
        let app = try await connection.app(reader, bundleID: named.bundleID, catalogAppID: named.appID, catalog: naming)
        let rows = try await PriceSheetReader(reader: reader).rows(app: app, scope: PlanScope(patterns: products))
        if !products.isEmpty, rows.isEmpty {
            events(.warning("no product of app \(app.named) with prices matches \(products.map { "`\($0)`" }.joined(separator: ", "))"))
        }
        // What the sheet marks "not answered" is said once per product, as pull says it.
        for (productID, unread) in Dictionary(grouping: rows.filter { $0.unanswered != nil }, by: \.productID).sorted(by: { $0.key < $1.key }) {
            let reasons = Swift.Set(unread.compactMap(\.unanswered)).sorted().joined(separator: "; ")
            events(.warning("\(productID): \(Format.count(unread.count, "price")) not answered (\(reasons)); marked `not answered` in the sheet"))
        }
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

extension StoreApp {
    /// `1234567890 (com.example.app)`, or the id alone where the app was named by it.
    var named: String { bundleID.isEmpty ? id : "\(id) (\(bundleID))" }
}
