@testable import CatalogSync
import Foundation
import IAPCatalog
import TestSupport
import Testing

/// The planner and each resource kind on their own, with no network: the example catalog against App Store Connect
/// states written as records. Golden plans (text and JSON) under Tests/Fixtures/golden/; re-record with
/// `IAPKIT_RECORD=1 swift test --filter PlanTests` and review the diff.
@Suite struct PlanTests {
    static let app = StoreApp(id: "6400000001", bundleID: "com.example.fruitstand")

    static func examples() throws -> (Catalog, CatalogRecords) {
        let folder = Paths.examples
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/catalog.yaml"))
        let catalog = try CatalogLoader.load(data: data, file: "catalog.yaml", findings: { _ in })
        return (catalog, try CatalogRecords(catalog: catalog, territories: Territories.all, baseDirectory: folder))
    }

    func golden(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try Golden.check(name, actual, sourceLocation: sourceLocation)
    }

    /// App Store Connect holding exactly what the catalog asks, with ids, then changed as `change` says.
    static func live(_ desired: CatalogRecords, change: (inout StoreSnapshot) -> Void = { _ in }) -> StoreSnapshot {
        var serial = 0
        func id() -> String { serial += 1; return "id-\(serial)" }
        func product(_ record: ProductRecord) -> StoreProduct {
            var ids = ProductIDs(resource: id(), version: id(), versionEditable: true)
            for localization in record.localizations { ids.localizations[localization.locale] = id() }
            ids.availability = id()
            if record.introductoryOffer != nil {
                ids.introductoryOffers = Dictionary(uniqueKeysWithValues: (record.introductoryOfferTerritories ?? []).map { ($0, id()) })
            }
            for offer in record.promotionalOffers { ids.promotionalOffers[offer.identifier ?? ""] = id() }
            var live = record
            live.path = nil
            return StoreProduct(record: live, ids: ids)
        }
        var snapshot = StoreSnapshot(
            app: app, territories: Territories.all,
            inAppPurchases: desired.inAppPurchases.map(product),
            groups: desired.groups.map { group in
                StoreGroup(
                    record: group, id: id(), version: id(), versionEditable: true,
                    localizations: Dictionary(uniqueKeysWithValues: group.localizations.map { ($0.locale, id()) }),
                    subscriptions: group.subscriptions.map(product))
            })
        change(&snapshot)
        return snapshot
    }

    /// What App Store Connect holds and the catalog cannot say makes the product not fully managed: a `?` line with
    /// what was left out, never "unchanged"; a note that only explains (the catalog still says it all) does not.
    @Test func aProductTheCatalogCannotFullyHoldIsShownAsNotFullyManaged() throws {
        let (catalog, desired) = try Self.examples()
        let live = Self.live(desired) { snapshot in
            snapshot.groups[0].subscriptions[0].notes = [
                StoreNote(resource: .winBackOffer, managed: false, text: "win-back offer back has an end date the catalog does not hold yet"),
                StoreNote(resource: .subscriptionAppStoreReviewScreenshot, managed: true, text: "its review screenshot was never finished"),
            ]
        }
        let plan = Planner(catalog: catalog, desired: desired).plan(against: live)
        let partial = plan.changes.filter { $0.detail == "not fully managed" }
        #expect(partial.count == 1)
        #expect(partial.first?.action == .unmanaged && partial.first?.resource == .winBackOffer)
        #expect(partial.first?.productID == desired.groups[0].subscriptions[0].productID)
        // A note is no change to review: plan names the product once, and lists the note with --show-unchanged.
        let productID = desired.groups[0].subscriptions[0].productID
        let text = PlanReport.text(plan)
        #expect(!text.contains("? winBackOffer") && text.contains("Not fully managed: \(productID) ("), "\(text)")
        let all = PlanReport.text(plan, showUnchanged: true)
        #expect(all.contains("? winBackOffer \(productID) [not fully managed]"), "\(all)")
        #expect(plan.count(.create) + plan.count(.update) + plan.count(.refused) == 0)
    }

    @Test func planLinesEscapeInnerQuotesAndBackslashes() {
        let change = Change(
            action: .update, resource: .inAppPurchaseLocalization, productID: "com.example.fruitstand.banana",
            detail: "en-US", fields: [Change.Field("name", from: #"The "Big" Pack"#, to: #"C:\Packs"#)])
        let text = PlanReport.text(Plan(app: Self.app, changes: [change]))
        #expect(text.contains(#"name "The \"Big\" Pack" -> "C:\\Packs""#), "\(text)")
        #expect(text.contains("; 0 operations (the writes push sends; a change takes one or more).\n"))
    }

    @Test func theExamplesPlannedAgainstAnEmptyApp() throws {
        let (catalog, desired) = try Self.examples()
        let plan = Planner(catalog: catalog, desired: desired).plan(against: StoreSnapshot(app: Self.app, territories: Territories.all))
        try golden("asc-plan-empty.text", PlanReport.text(plan))
        try golden("asc-plan-empty.json", PlanReport.json(plan, limit: 3600, remaining: 3600).serialized(.pretty))
        #expect(plan.count(.create) > 0 && plan.count(.update) == 0 && plan.count(.refused) == 0)
        // Every territory's prices and introductory offers in one request each (plus two price-point look-ups).
        #expect(plan.estimatedRequests <= 120)
    }

    @Test func theExamplesPlannedAgainstAnAppThatHoldsThemIsEmpty() throws {
        let (catalog, desired) = try Self.examples()
        let plan = Planner(catalog: catalog, desired: desired).plan(against: Self.live(desired))
        #expect(plan.isEmpty && plan.operations.isEmpty, "\(PlanReport.text(plan))")
        #expect(plan.estimatedRequests == 0)
    }

    @Test func updatesRefusalsAndUnmanagedResources() throws {
        let (catalog, desired) = try Self.examples()
        let store = Self.live(desired) { store in
            // A localization edited by hand, a price changed, a type App Store Connect cannot change, a product only
            // App Store Connect has, an introductory offer with other terms, and a promotional offer with other terms.
            let banana = store.inAppPurchases.firstIndex { $0.record.productID == "com.example.fruitstand.banana" }!
            store.inAppPurchases[banana].record.localizations[1].name = "Banane"
            store.inAppPurchases[banana].record.priceCents = 199
            let tokens = store.inAppPurchases.firstIndex { $0.record.productID == "com.example.fruitstand.tokens.10" }!
            store.inAppPurchases[tokens].record.type = .nonConsumable
            store.inAppPurchases.append(
                StoreProduct(
                    record: ProductRecord(
                        productID: "com.example.fruitstand.legacy",
                        referenceName: "Legacy", type: .consumable),
                    ids: ProductIDs(resource: "legacy")))
            store.groups[0].subscriptions[0].record.introductoryOffer?.duration = "TWO_WEEKS"
            store.groups[0].subscriptions[0].record.promotionalOffers[0].periods = 2
        }
        let plan = Planner(catalog: catalog, desired: desired).plan(against: store)
        try golden("asc-plan-update.text", PlanReport.text(plan))
        try golden("asc-plan-update.json", PlanReport.json(plan).serialized(.pretty))
        #expect(plan.count(.refused) == 2 && plan.count(.unmanaged) == 1 && plan.count(.update) == 3)
        // The replaced introductory offer: its 175 territories removed in one request, created again in one.
        let intro = plan.changes.first { $0.resource == .subscriptionIntroductoryOffer && $0.action == .update }
        let replace = intro?.operations.first as? IntroductoryOfferKind.Replace
        #expect(replace?.removing.count == 175 && replace?.territories.count == 175 && replace?.estimatedRequests == 2)
        // A localization of an editable version is updated in place.
        #expect(
            plan.changes.contains {
                $0.resource == .inAppPurchaseLocalization && $0.operations.first is VersionLocalizationsKind<InAppPurchaseLocalizationAPI>.Update
            })
    }

    // MARK: One kind at a time

    func builder(_ catalog: Catalog) -> PlanBuilder { PlanBuilder(catalog: catalog, app: Self.app, territories: Territories.all) }

    @Test func subscriptionPricesFillOnlyTheTerritoriesWithoutOne() throws {
        let (catalog, desired) = try Self.examples()
        let wanted = desired.groups[0].subscriptions[0]
        var live = Self.live(desired).groups[0].subscriptions[0]
        live.record.pricedTerritories = Array(Territories.all.prefix(100))
        var builder = builder(catalog)
        SubscriptionPriceKind.plan(wanted, live: live, product: .id("sub"), builder: &builder)
        let set = builder.changes.first?.operations.first as? SubscriptionPriceKind.Set
        #expect(builder.changes.count == 1 && set?.territories == Array(Territories.all.dropFirst(100)))

        // A new price goes to every territory, in one request after the price-point look-ups: the USA point and its
        // equalizations for the equalized territories, one more for India's and Brazil's own prices.
        live.record.priceCents = 299
        var changed = self.builder(catalog)
        SubscriptionPriceKind.plan(wanted, live: live, product: .id("sub"), builder: &changed)
        let all = changed.changes.first?.operations.first as? SubscriptionPriceKind.Set
        #expect(changed.changes.first?.action == .update && all?.territories.count == Territories.all.count - 2)
        #expect(all?.localPrices == ["IND": "349", "BRA": "24.9"] && all?.estimatedRequests == 4 && all?.keepsExistingSubscribers == true)
    }

    /// A scheduled price set by hand at what the new USD price equalizes to reads back as equalized: App Store
    /// Connect holds the same price either way, so the plan has nothing to send; a different price is still a change.
    @Test func aScheduledHandSetPriceEqualToTheEqualizationIsInPlace() throws {
        let (catalog, desired) = try Self.examples()
        var wanted = desired.groups[0].subscriptions[0]
        wanted.territoryPrices = [:]
        wanted.priceChanges = [
            PriceChangeRecord(day: 20300601, priceCents: 599, territoryPrices: ["FRA": "6.49"], keepsExistingSubscribers: true)
        ]
        var live = Self.live(desired).groups[0].subscriptions[0]
        let held =
            [DatedPrice(territory: "USA", day: nil, price: Price.format(cents: wanted.priceCents ?? 0))]
            + [
                DatedPrice(territory: "USA", day: 20300601, price: "5.99", keepsExistingSubscribers: true),
                DatedPrice(territory: "FRA", day: 20300601, price: "6.49", keepsExistingSubscribers: true),
            ]
        DatedPrice.apply(held, to: &live.record, today: 20261202) { cents, territory in cents == 599 && territory == "FRA" ? "6.49" : nil }
        #expect(live.record.priceChanges.first?.territoryPrices.isEmpty == true)
        live.record.pricedTerritories = wanted.pricedTerritories ?? Territories.all
        var builder = builder(catalog)
        builder.today = 20261202
        SubscriptionPriceKind.plan(wanted, live: live, product: .id("sub"), builder: &builder)
        #expect(builder.changes.allSatisfy { $0.fields.allSatisfy { $0.name != "FRA" } }, "\(builder.changes.map(\.fields))")

        wanted.priceChanges[0].territoryPrices["FRA"] = "6.99"
        var changed = self.builder(catalog)
        changed.today = 20261202
        SubscriptionPriceKind.plan(wanted, live: live, product: .id("sub"), builder: &changed)
        #expect(changed.changes.contains { $0.fields.contains { $0.name == "FRA" && $0.to == "6.99" } })
    }

    /// A promotional offer's prices change in place (its update request carries them); its other terms cannot.
    @Test func anOfferWithAnIdCannotChangeItsTermsButAPromotionalOfferItsPrices() throws {
        let (catalog, desired) = try Self.examples()
        let wanted = desired.groups[0].subscriptions[0]
        var live = Self.live(desired).groups[0].subscriptions[0]
        live.record.promotionalOffers[0].priceCents = (live.record.promotionalOffers[0].priceCents ?? 0) + 100
        var builder = builder(catalog)
        PromotionalOfferKind.plan(wanted, live: live, product: .id("sub"), builder: &builder)
        #expect(builder.changes.map(\.action) == [.update])
        #expect(builder.changes.first?.operations.first is PromotionalOfferKind.UpdatePrices && builder.changes.first?.fields.first?.name == "price")
        live.record.promotionalOffers[0].periods += 1
        var refused = self.builder(catalog)
        PromotionalOfferKind.plan(wanted, live: live, product: .id("sub"), builder: &refused)
        #expect(refused.changes.map(\.action) == [.refused])
        #expect(refused.changes.first?.operations.isEmpty == true && refused.changes.first?.fields.map(\.name).contains("periods") == true)
    }

    @Test func familySharingIsNeverTurnedOffAndAPeriodNeverChanges() throws {
        let (catalog, desired) = try Self.examples()
        var wanted = desired.groups[0].subscriptions[0]
        wanted.familySharable = false
        var live = Self.live(desired).groups[0].subscriptions[0]
        live.record.familySharable = true
        live.record.period = "P1Y"
        var builder = builder(catalog)
        SubscriptionKind.plan(wanted, live: live, product: .id("sub"), builder: &builder)
        #expect(builder.changes.filter { $0.action == .refused }.map { $0.fields.first?.name } == ["period", "familySharable"])
    }

    @Test func theSameScreenshotIsNotUploadedAgainAndANewOneReplacesTheOld() throws {
        let (catalog, desired) = try Self.examples()
        let wanted = desired.inAppPurchases[0]
        var live = Self.live(desired).inAppPurchases[0]
        live.ids.screenshot = "old"
        var same = builder(catalog)
        UploadedImageKind<InAppPurchaseScreenshotAPI>.plan(wanted, live: live, product: .id("iap"), builder: &same)
        #expect(same.changes.isEmpty)
        live.record.screenshot = ScreenshotRecord(fileName: "other.png", checksum: "0123")
        var replaced = builder(catalog)
        UploadedImageKind<InAppPurchaseScreenshotAPI>.plan(wanted, live: live, product: .id("iap"), builder: &replaced)
        let upload = replaced.changes.first?.operations.first as? UploadedImageKind<InAppPurchaseScreenshotAPI>.Upload
        #expect(replaced.changes.first?.action == .update && upload?.replacing == "old" && upload?.estimatedRequests == 5)
    }

    @Test func aSubmittedVersionGetsANewOneBeforeItsTextsChange() throws {
        let (catalog, desired) = try Self.examples()
        let wanted = desired.inAppPurchases[0]
        var live = Self.live(desired).inAppPurchases[0]
        live.ids.versionEditable = false
        live.record.localizations[0].description = "Old text"
        var builder = builder(catalog)
        VersionLocalizationsKind<InAppPurchaseLocalizationAPI>.plan(wanted, live: live, product: .id("iap"), builder: &builder)
        let operations = builder.changes.first?.operations ?? []
        #expect(operations.first is VersionLocalizationsKind<InAppPurchaseLocalizationAPI>.OpenVersion)
        #expect(operations.last is VersionLocalizationsKind<InAppPurchaseLocalizationAPI>.Create)
        #expect(operations.first?.estimatedRequests == 2, "a new version is read back once: App Store Connect copies the texts into it")
    }

    @Test func theBudgetLineSaysWhatAPushCostsAndWhenItWouldStop() throws {
        let (catalog, desired) = try Self.examples()
        let plan = Planner(catalog: catalog, desired: desired).plan(against: StoreSnapshot(app: Self.app, territories: Territories.all))
        let line = PlanReport.budgetLine(plan, limit: 3600, remaining: 10)
        #expect(line.hasPrefix("Push would send about \(plan.estimatedRequests) requests: "))
        #expect(line.contains("of App Store Connect's hourly budget of 3600; 10 left this hour") && line.contains("exit 75"))
    }
}
