#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A price in one territory's own currency (`IND: 99`, `BRA: 14.90`), overriding the price App Store Connect
/// equalizes from the USD base price. From the catalog's `territoryPrices` or a row of the product's price sheet.
public struct TerritoryPrice: Sendable, Hashable {
    public var path: CatalogPath
    /// ISO 3166-1 alpha-3, as App Store Connect names territories.
    public var territory: String
    public var price: Price?
    /// Only on a price-sheet row: the day the row's price starts; nil for today's price.
    public var startDate: String?

    public init(path: CatalogPath, territory: String, price: Price?, startDate: String? = nil) {
        self.path = path
        self.territory = territory
        self.price = price
        self.startDate = startDate
    }
}

/// What a subscription's existing subscribers pay after a price change: App Store Connect's `preserveCurrentPrice`,
/// said in words.
public enum ExistingSubscribers: String, Sendable, Hashable, CaseIterable {
    /// They keep paying their current price; only new subscribers pay the new one.
    case keep
    /// They move to the new price (an increase asks them for consent in many territories).
    case move
}

/// Where a subscription has prices, when that is not where it is sold.
public enum PricedTerritories: Sendable, Hashable {
    /// Every territory App Store Connect sells in.
    case all
    case only([String])
}

/// A scheduled price change: from `startDate`, a new base price and/or new territory prices.
public struct PriceChange: Sendable, Hashable {
    public var path: CatalogPath
    /// `YYYY-MM-DD`, as written.
    public var startDate: String?
    /// The new USD base price, equalized everywhere without an override.
    public var price: Price?
    public var territoryPrices: [TerritoryPrice]
    /// Auto-renewable subscriptions only.
    public var existingSubscribers: ExistingSubscribers?
    /// The `existingSubscribers` text as written, kept when it names neither choice.
    public var existingSubscribersText: String?
    /// `existingSubscribers: {GBR: move, others: keep}`: the choice of each territory named, where it differs by
    /// territory (`existingSubscribers` then holds the `others` choice, if given).
    public var existingSubscribersByTerritory: [TerritoryChoice] = []

    public init(
        path: CatalogPath, startDate: String? = nil, price: Price? = nil, territoryPrices: [TerritoryPrice] = [],
        existingSubscribers: ExistingSubscribers? = nil
    ) {
        self.path = path
        self.startDate = startDate
        self.price = price
        self.territoryPrices = territoryPrices
        self.existingSubscribers = existingSubscribers
    }

    /// The date as a comparable day (`20270115`), nil when it is not a valid `YYYY-MM-DD`.
    public var day: Int? { startDate.flatMap(CalendarDay.parse) }
}

/// One territory's choice for its existing subscribers in a scheduled change.
public struct TerritoryChoice: Sendable, Hashable {
    public var path: CatalogPath
    public var territory: String
    /// nil when the text names neither choice (`text` keeps it for the message).
    public var choice: ExistingSubscribers?
    public var text: String

    public init(path: CatalogPath, territory: String, choice: ExistingSubscribers?, text: String) {
        self.path = path
        self.territory = territory
        self.choice = choice
        self.text = text
    }
}

/// Days written as `YYYY-MM-DD`, compared as numbers.
public enum CalendarDay {
    /// `2027-01-15` → 20270115; nil unless a real date in the Gregorian calendar.
    public static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), day >= 1
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        return year * 10_000 + month * 100 + day
    }

    /// The UTC day of `date` (days-from-civil inverted, so no calendar object is needed).
    public static func of(_ date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 10_000 + month * 100 + day
    }

    /// Today in UTC.
    public static var today: Int { of(Date()) }

    /// Days since 1970-01-01 (days-from-civil), so two days can be subtracted.
    public static func ordinal(_ day: Int) -> Int {
        var year = day / 10_000
        let month = day / 100 % 100, date = day % 100
        year -= month <= 2 ? 1 : 0
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + date - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 20270115 → `2027-01-15`.
    public static func format(_ day: Int) -> String {
        let year = day / 10_000, month = day / 100 % 100, date = day % 100
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(date < 10 ? "0" : "")\(date)"
    }
}

/// One price schedule of a product: the product's own, or a billing plan's. Rules over prices walk these.
public struct PriceSchedule: Sendable {
    public var price: Price?
    public var territoryPrices: [TerritoryPrice]
    public var changes: [PriceChange]
    /// `monthly plan` for a billing plan's schedule; nil for the product's.
    public var name: String?
}

extension Product {
    /// The product's price schedule, then each billing plan's that has a price of its own.
    public var priceSchedules: [PriceSchedule] {
        var schedules = [
            PriceSchedule(
                price: price ?? resolvedPriceCents.map(Price.init(cents:)), territoryPrices: territoryPrices,
                changes: priceChanges, name: nil)
        ]
        for plan in billingPlans where plan.type == .monthly {
            schedules.append(
                PriceSchedule(
                    price: plan.price, territoryPrices: plan.territoryPrices, changes: plan.priceChanges,
                    name: "monthly plan"))
        }
        return schedules
    }
}
