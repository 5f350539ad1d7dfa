import CatalogSync
import Foundation
import IAPCatalog
import Testing

/// The pure parts of prices over time: days, local prices, what App Store Connect's prices say, folding changes
/// that have started, and the plan's per-territory lines.
@Suite
struct PriceScheduleTests {
    @Test func daysAreParsedOnlyWhenTheyExist() {
        #expect(CalendarDay.parse("2027-01-15") == 20270115)
        #expect(CalendarDay.parse("2028-02-29") == 20280229)
        #expect(CalendarDay.parse("2027-02-29") == nil && CalendarDay.parse("2027-13-01") == nil && CalendarDay.parse("27-01-15") == nil)
        #expect(CalendarDay.format(20270105) == "2027-01-05")
        #expect(CalendarDay.of(Date(timeIntervalSince1970: 0)) == 19700101)
        #expect(CalendarDay.of(Date(timeIntervalSince1970: 951_782_400)) == 20000229)  // 2000-02-29 00:00 UTC
    }

    @Test func localPricesCompareAsNumbersAndShowTheTerritorysDecimals() {
        #expect(LocalPrice.canonical("14.90") == "14.9" && LocalPrice.canonical("150.0") == "150" && LocalPrice.canonical("099") == "99")
        #expect(LocalPrice.display("14.9", territory: "BRA") == "14.90")
        #expect(LocalPrice.display("150", territory: "JPN") == "150")
        #expect(
            LocalPrice.refusal("100", territory: "IND", grid: ["89", "99", "109"], free: false)
                == "IND has no price point of 100 INR; the nearest are 99 and 109")
        #expect(LocalPrice.refusal("99", territory: "IND", grid: ["89", "99", "109"], free: false) == nil)
    }

    /// A price below a territory's lowest is called that, naming the lowest; the free point is never a nearest
    /// price, and is named beside the lowest only for a product that may be free.
    @Test func aPriceBelowTheLowestNamesTheLowestAndNeverOffersFreeAsNearest() {
        let grid = ["0", "29", "39", "49"]
        #expect(LocalPrice.refusal("5", territory: "IND", grid: grid, free: false) == "IND has no price point of 5 INR; the lowest there is 29 INR")
        #expect(
            LocalPrice.refusal("5", territory: "IND", grid: grid, free: true)
                == "IND has no price point of 5 INR; the lowest there is 29 INR (0 is free)")
        #expect(
            LocalPrice.refusal("0.5", territory: "BRA", grid: ["0", "4.9", "5.9"], free: false)
                == "BRA has no price point of 0.50 BRL; the lowest there is 4.90 BRL")
        #expect(
            LocalPrice.refusal("60", territory: "IND", grid: grid, free: false) == "IND has no price point of 60 INR; the highest there is 49 INR")
        let japan = LocalPrice.refusal("5", territory: "JPN", grid: ["0", "40", "50"], free: false) ?? ""
        #expect(!japan.contains(" 0") && japan.hasSuffix("the lowest there is 40 JPY"), "\(japan)")
    }

    @Test func appStoreConnectsPricesSplitIntoTodayAndLaterAndHandSetAndEqualized() {
        var record = ProductRecord(productID: "p", referenceName: "P", type: .autoRenewableSubscription)
        let prices = [
            DatedPrice(territory: "USA", day: nil, price: "4.99"), DatedPrice(territory: "FRA", day: nil, price: "5.49"),
            DatedPrice(territory: "BRA", day: nil, price: "14.9"),
            DatedPrice(territory: "USA", day: 20261001, price: "3.99"),  // started before today: still today's (latest)
            DatedPrice(territory: "USA", day: 20270115, price: "5.99", keepsExistingSubscribers: true),
            DatedPrice(territory: "FRA", day: 20270115, price: "6.49", keepsExistingSubscribers: true),
            DatedPrice(territory: "IND", day: 20270115, price: "499", keepsExistingSubscribers: true),
        ]
        let equalized: [Int: [String: String]] = [399: ["FRA": "5.49", "BRA": "21.9"], 599: ["FRA": "6.49", "IND": "509"]]
        DatedPrice.apply(prices, to: &record, today: 20261123) { cents, territory in equalized[cents]?[territory] }
        #expect(record.priceCents == 399)
        #expect(record.territoryPrices == ["BRA": "14.9"])
        #expect(
            record.priceChanges == [
                PriceChangeRecord(day: 20270115, priceCents: 599, territoryPrices: ["IND": "499"], keepsExistingSubscribers: true)
            ])
    }

    @Test func changesThatHaveStartedAreTodaysPrices() {
        var record = ProductRecord(productID: "p", referenceName: "P", type: .consumable, priceCents: 99)
        record.territoryPrices = ["IND": "99", "JPN": "160"]
        record.priceChanges = [
            PriceChangeRecord(day: 20270301, territoryPrices: ["JPN": "170"]),
            PriceChangeRecord(day: 20270115, priceCents: 129, territoryPrices: ["IND": "129"]),
        ]
        let before = record.asOf(20270114)
        #expect(before.priceCents == 99 && before.priceChanges.map(\.day) == [20270115, 20270301])
        let between = record.asOf(20270115)
        #expect(
            between.priceCents == 129 && between.territoryPrices == ["IND": "129", "JPN": "160"] && between.priceChanges.map(\.day) == [20270301])
        let after = record.asOf(20280101)
        #expect(after.territoryPrices == ["IND": "129", "JPN": "170"] && after.priceChanges.isEmpty)
    }

    @Test func thePlanHasALineForTodayAndOnePerChangedScheduledChange() {
        var live = ProductRecord(productID: "p", referenceName: "P", type: .autoRenewableSubscription, priceCents: 499)
        live.territoryPrices = ["BRA": "14.9"]
        live.priceChanges = [
            PriceChangeRecord(day: 20270115, priceCents: 599, keepsExistingSubscribers: true),
            PriceChangeRecord(day: 20270601, priceCents: 699, keepsExistingSubscribers: false),
        ]
        var wanted = live
        wanted.territoryPrices = ["BRA": "19.9", "IND": "399"]
        wanted.priceChanges = [PriceChangeRecord(day: 20270115, priceCents: 599, territoryPrices: ["IND": "499"], keepsExistingSubscribers: true)]
        let lines = PricingDiff.lines(wanted: wanted, live: live, today: 20261123, equalizedCount: 173)
        #expect(lines.count == 3)
        #expect(lines[0].day == nil && lines[0].fields.map(\.name) == ["BRA", "IND"] && lines[0].detail == "2 territory prices")
        #expect(lines[0].fields[0].from == "14.90" && lines[0].fields[0].to == "19.90" && lines[0].fields[1].from == nil)
        #expect(lines[1].day == 20270115 && lines[1].detail == "from 2027-01-15, existing subscribers keep their price")
        #expect(lines[1].fields.map(\.name) == ["IND"])
        #expect(lines[2].day == 20270601 && lines[2].detail?.contains("scheduled change withdrawn") == true)
        #expect(PricingDiff.lines(wanted: live, live: live, today: 20261123).isEmpty)
    }
}
