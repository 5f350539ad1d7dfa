import AppStoreConnect
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import IAPLint

/// What an `asc` command says while it works; the command line prints it on standard error.
public enum SyncEvent: Sendable {
    /// A line of progress (what is read, a wait for the hourly budget).
    case note(String)
    /// Something that does not stop the command: an answer the client did not know, a storefront that differs
    /// from lint's table, a revision that does not load.
    case warning(String)
    /// Push is about to send operation `index` (from 0) of `total`.
    case operation(index: Int, total: Int, summary: String)
    /// Push waits: for a retry App Store Connect asked for, or for the hourly budget.
    case waiting(seconds: Double, reason: String)
}

/// Which products a plan reads and compares (`--product`, `--changed-since`), and whether it deletes what the
/// catalog does not have (`--prune`).
public struct SyncScope: Sendable {
    /// Product IDs or glob patterns; empty for every product.
    public var products: [String] = []
    /// A git revision: only products whose catalog entries differ from it are read in detail.
    public var changedSince: String?
    public var prune = false
    /// Send changes to values App Store Connect did not answer (`? -> new`), replacing what iapkit never read.
    public var replaceUnanswered = false
    /// The base: the catalog at this git revision (`--base`), instead of the one recorded beside it.
    public var baseRevision: String?
    /// `--take catalog`: push the catalog's values over App Store Connect's changes since the base.
    public var take: TakenSide?

    public init(
        products: [String] = [], changedSince: String? = nil, prune: Bool = false, replaceUnanswered: Bool = false,
        baseRevision: String? = nil, take: TakenSide? = nil
    ) {
        self.products = products
        self.changedSince = changedSince
        self.prune = prune
        self.replaceUnanswered = replaceUnanswered
        self.baseRevision = baseRevision
        self.take = take
    }
}

/// The `asc` workflow from a catalog file to App Store Connect: load and gate the catalog, build what it wants,
/// read what App Store Connect has, plan, push. One value per command run; the command line parses arguments into
/// it and prints what it returns and reports.
public struct SyncWorkflow: Sendable {
    public var catalogPath: String
    public var connection: SyncConnection
    /// Hears what the workflow says as it goes.
    public var events: @Sendable (SyncEvent) -> Void
    /// How long `--wait` may wait for App Store Connect's hourly budget in all, reads and writes (`--wait-max`).
    public var waitAllowance = WaitAllowance()
    /// Start a push the hour's budget cannot pay for whole, writing what it pays for (`--allow-partial`).
    public var allowsPartialPush = false

    public init(catalogPath: String, connection: SyncConnection, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }) {
        self.catalogPath = catalogPath
        self.connection = connection
        self.events = events
    }

    var baseDirectory: String { Path.parent(catalogPath) }

    /// The catalog through the lint gate: `.shape` for a plan (useful before every App Store Connect field is
    /// filled in), `.full` for a push. A refused catalog is thrown as `LintGate.Refusal`.
    /// - Parameter reportsProducts: whether the refusal's summary line counts the catalog's products.
    func load(_ strictness: LintGate.Strictness, advice: String? = nil, reportsProducts: Bool = true) throws -> Catalog {
        try LintGate.catalog(
            catalogPath, strictness: strictness, advice: advice ?? "fix them first (`iapkit lint catalog \(catalogPath)`)",
            reportsProducts: reportsProducts)
    }

    func reader(_ asc: AppStoreConnectClient, gridTerritories: [String] = [], budget: ReadBudget = .ignore) -> StoreReader {
        let events = self.events
        var reader = StoreReader(asc: asc, concurrency: connection.concurrency, gridTerritories: gridTerritories, budget: budget) { event in
            guard case let .waiting(wait, done, total) = event else { return }
            events(.note("waiting \(Self.minutes(wait)) for App Store Connect's hourly budget: \(done) of about \(total) requests read"))
        }
        reader.waitAllowance = waitAllowance
        return reader
    }

    /// `about 52 min`
    static func minutes(_ wait: Duration) -> String { "about \(max(1, Int((Double(wait.components.seconds) / 60).rounded(.up)))) min" }

    /// Runs `read` (the app and its lists); when App Store Connect refuses it for the hour's budget (a 429 whose
    /// `Retry-After` is longer than the client waits), waits as it asks with `.wait`, within `--wait-max`, and reads
    /// again. Otherwise the refusal stands, exit 75 with when to run again.
    func waitingForBudget<Result>(_ budget: ReadBudget, _ what: String, _ read: () async throws -> Result) async throws -> Result {
        while true {
            do { return try await read() } catch let error as SyncError {
                guard budget == .wait, case let .read(_, refusal) = error, let wait = refusal.rateLimitWait else { throw error }
                guard waitAllowance.take(wait) else {
                    throw SyncError.budgetWait(context: what, resumeAfter: wait, waitMax: waitAllowance.limit)
                }
                events(
                    .note("waiting \(Self.minutes(wait)) for App Store Connect's hourly budget (\(refusal.refusal)): \(what)"))
                do { try await Task.sleep(for: wait) } catch { throw SyncError.read(context: what, error: .cancelled) }
            }
        }
    }

    /// Plans the catalog against App Store Connect: the product lists first, then, within the hour's request budget,
    /// the products in scope in detail. A pack whose archive is missing or older than its files is a refused change,
    /// so a plan in CI catches what would stop push.
    /// `present` shows the plan before it is saved to `file`, for `push --plan`.
    public func plan(
        _ scope: SyncScope = SyncScope(), budget: ReadBudget = .stop, saveTo file: String? = nil,
        present: (PlannedSync) throws -> Void
    ) async throws -> PlannedSync {
        let catalog = try load(.shape)
        let planned = try await plan(catalog, scope: scope, budget: budget)
        try present(planned)
        if let file { try await save(planned, to: file, take: scope.take) }
        return planned
    }

    /// `known` is the app a saved plan was made for: found by the same bundle ID, it is not looked up again.
    func plan(
        _ catalog: Catalog, scope options: SyncScope, budget: ReadBudget, override: PlanScope? = nil, known: StoreApp? = nil,
        writesToFollow: (requests: Int, operations: Int)? = nil
    ) async throws -> PlannedSync {
        let asc = try connection.client()
        var reader = reader(asc, gridTerritories: catalog.handPricedTerritories, budget: budget)
        reader.writesToFollow = writesToFollow
        let known = known.flatMap { app in
            connection.appID == nil && catalog.app.appID == nil && catalog.app.bundleID == app.bundleID ? app : nil
        }
        let listings = try await waitingForBudget(budget, "reading the app's product lists") { [reader] in
            if let known { return try await reader.listings(app: known) }
            let app = try await connection.app(reader, bundleID: catalog.app.bundleID, catalogAppID: catalog.app.appID, catalog: catalog)
            return try await reader.listings(app: app)
        }
        let territories = listings.storefronts.keys.sorted()
        let desired = try desired(catalog, territories: territories)
        var scope = PlanScope(patterns: options.products)
        if let revision = options.changedSince {
            scope.changed = try changedProducts(since: revision, now: desired, territories: territories)
        }
        // A saved plan is checked against what App Store Connect holds for the products it touches, and only those.
        if let override { scope = override }
        let selection = ReadSelection(listings: listings, desired: desired, scope: scope)
        // Price grids only for the territories the compared products price by hand.
        if let compared = selection.compared {
            reader.gridTerritories = catalog.only(products: compared).handPricedTerritories
        }
        let left = asc.rateLimit?.remaining.map { "; \($0) left this hour" } ?? ""
        events(
            .note(
                "Read the lists of \(Format.count(listings.count, "product")); reading \(selection.products) in detail: "
                    + "about \(Format.count(selection.estimatedRequests, "request"))\(left)."))
        let snapshot = try await reader.snapshot(of: listings, selection: selection)
        var plan = Planner(catalog: catalog, desired: desired)
            .plan(
                against: snapshot, scope: selection.compared, appResources: scope.includesAppResources, prune: options.prune,
                replaceUnanswered: options.replaceUnanswered)
        plan.changes += AssetPackPush.refusals(plan, catalogPath: catalogPath)
        PlanLint.refuseWhatLintRefuses(&plan, catalog: catalog, baseDirectory: baseDirectory)
        var base = try SyncBase.find(for: catalogPath, revision: options.baseRevision)
        if let other = base, !other.isOf(listings.app, holding: listings.productIDs) {
            events(.note(other.notOf(listings.app)))
            base = nil
        }
        if let base {
            let baseDesired = try CatalogRecords(
                catalog: base.catalog, territories: territories, baseDirectory: baseDirectory, unreadableScreenshots: .skip)
            let basePlan = Planner(catalog: base.catalog, desired: baseDesired).plan(
                against: snapshot, scope: selection.compared, appResources: scope.includesAppResources, prune: options.prune,
                replaceUnanswered: true)
            ChangeOrigins.mark(&plan, basePlan: basePlan, base: base.source)
        } else {
            events(.note(SyncBase.absent(for: catalogPath)))
        }
        reportAnswers(asc)
        StorefrontDifference.warnings(plan.storefrontDifferences).forEach { events(.warning($0)) }
        var planned = PlannedSync(plan: plan, client: asc, catalogPath: catalogPath)
        planned.recording = SyncBase.Recording(
            desired: desired, territories: territories, bundleID: listings.app.bundleID, images: catalog.imagePathsByProduct,
            products: override == nil ? selection.compared : nil, base: base?.catalog, baseDirectory: baseDirectory,
            unsent: Set(plan.changes.filter { $0.action == .waiting }.compactMap(\.productID)))
        return planned
    }

    /// What the catalog wants App Store Connect to hold, in `territories`: every command builds it here. Screenshots
    /// that cannot be read are an error where they would be uploaded, and left out (`.skip`) where they would not.
    func desired(_ catalog: Catalog, territories: [String], screenshots: CatalogRecords.UnreadableScreenshots = .fail) throws -> CatalogRecords {
        var desired = try CatalogRecords(
            catalog: catalog, territories: territories, baseDirectory: baseDirectory,
            unreadableScreenshots: screenshots)
        desired.assetPacks = try AssetPackRecord.desired(catalog: catalog, baseDirectory: baseDirectory)
        return desired
    }

    /// Values in App Store Connect's answers the client did not know and left out (a new enum value, say).
    func reportAnswers(_ asc: AppStoreConnectClient) {
        for note in asc.toleratedAnswers { events(.warning("App Store Connect answered something this iapkit does not know: \(note)")) }
        // Once per run: a newer API version's fields are no fault, and nothing stops for them.
        let newer = asc.fieldsNotInTheDocument
        if !newer.isEmpty {
            events(
                .warning(
                    "App Store Connect sent attributes this iapkit does not know: \(newer.joined(separator: ", ")); "
                        + "a newer iapkit may manage them"))
        }
    }

    /// The products whose catalog entries differ between `revision` (read with git) and the catalog as it is now.
    func changedProducts(since revision: String, now: CatalogRecords, territories: [String]) throws -> Set<String> {
        let old = try GitRevision.file(catalogPath, at: revision)
        var findings: [Finding] = []
        guard let earlier = try? CatalogLoader.load(data: old, file: "\(revision):\(catalogPath)", findings: { findings.append($0) }),
            !findings.contains(where: { $0.severity == .error }),
            let records = try? CatalogRecords(catalog: earlier, territories: territories, baseDirectory: baseDirectory)
        else {
            events(.warning("the catalog at \(revision) does not load: every product is planned in detail"))
            return Set(now.allProducts.map(\.productID))
        }
        return PlanScope.changedProducts(before: records, after: now)
    }

    /// The App Store Connect API requests `push` sends to app `appID` with no products, in order (`export asc`).
    public func requests(appID: String) async throws -> String {
        let catalog = try load(.shape, advice: "fix them before exporting", reportsProducts: false)
        let desired = try desired(catalog, territories: Territories.all, screenshots: .skip)
        let empty = StoreSnapshot(app: StoreApp(id: appID, bundleID: catalog.app.bundleID ?? ""), territories: Territories.all)
        let plan = Planner(catalog: catalog, desired: desired).plan(against: empty)
        return try await RequestExport.requests(for: plan).serialized(.pretty)
    }
}

extension Catalog {
    /// The catalog with only `products` (and the groups holding them).
    func only(products: Set<String>) -> Catalog {
        var scoped = self
        scoped.products = self.products.filter { $0.productID.map(products.contains) ?? false }
        scoped.subscriptionGroups = subscriptionGroups.map { group in
            var group = group
            group.subscriptions = group.subscriptions.filter { $0.productID.map(products.contains) ?? false }
            return group
        }
        return scoped
    }
}
