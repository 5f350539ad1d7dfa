import IAPCatalog
import IAPCore

/// A sale as App Store Connect holds it: manual prices with a start and an end date, the base territory's and those
/// of territories priced by hand, after which the schedule's other prices apply again.
public struct SaleRecord: Sendable, Equatable {
    /// nil for a sale under way: App Store Connect takes a sale written after its start without one, and a start
    /// that has passed is not compared.
    public var startDay: Int?
    /// The first day back at the regular prices.
    public var endDay: Int
    public var priceCents: Int?
    /// Territory → canonical local price.
    public var territoryPrices: [String: String]
    public var path: CatalogPath?

    public init(startDay: Int?, endDay: Int, priceCents: Int? = nil, territoryPrices: [String: String] = [:], path: CatalogPath? = nil) {
        self.startDay = startDay
        self.endDay = endDay
        self.priceCents = priceCents
        self.territoryPrices = territoryPrices
        self.path = path
    }

    /// `from 2027-01-15 until 2027-01-17`, or `under way until 2027-01-17`.
    public var period: String {
        (startDay.map { "from \(CalendarDay.format($0))" } ?? "under way") + " until \(CalendarDay.format(endDay))"
    }

    public static func == (lhs: SaleRecord, rhs: SaleRecord) -> Bool {
        lhs.startDay == rhs.startDay && lhs.endDay == rhs.endDay && lhs.priceCents == rhs.priceCents
            && lhs.territoryPrices == rhs.territoryPrices
    }

    /// The sales as of `today`: those that have ended are history, and one that has started is under way.
    static func asOf(_ sales: [SaleRecord], today: Int) -> [SaleRecord] {
        sales.compactMap { sale in
            guard sale.endDay > today else { return nil }
            var result = sale
            if let start = sale.startDay, start <= today { result.startDay = nil }
            return result
        }
        .sorted { ($0.startDay ?? 0, $0.endDay) < ($1.startDay ?? 0, $1.endDay) }
    }

    /// The catalog's sales as records (local prices canonical, dates as days); one without a valid end is lint's.
    static func records(_ sales: [Sale]) -> [SaleRecord] {
        sales.compactMap { sale in
            guard let end = sale.endDay else { return nil }
            return SaleRecord(
                startDay: sale.startDay, endDay: end, priceCents: sale.price?.cents,
                territoryPrices: ProductRecord.territoryPrices(sale.territoryPrices), path: sale.path)
        }
    }

    /// The records as the catalog writes them (pull).
    static func catalogList(_ sales: [SaleRecord]) -> [Sale] {
        sales.map { sale in
            Sale(
                path: .root, startDate: sale.startDay.map(CalendarDay.format), endDate: CalendarDay.format(sale.endDay),
                price: sale.priceCents.map { Price(cents: $0) },
                territoryPrices: sale.territoryPrices.sorted { $0.key < $1.key }.map {
                    TerritoryPrice(path: .root, territory: $0.key, price: Price(text: $0.value))
                })
        }
    }

    /// Splits what App Store Connect holds into sales (prices with an end date that has not passed, grouped by their
    /// dates) and the other prices; ended sales are dropped. With `base` the USA its price is the sale's USD price.
    static func split(_ prices: [DatedPrice], today: Int, base: String) -> (sales: [SaleRecord], others: [DatedPrice]) {
        var others: [DatedPrice] = []
        var groups: [String: SaleRecord] = [:]
        for price in prices {
            guard let end = price.endDay else {
                others.append(price)
                continue
            }
            guard end > today else { continue }
            let start = price.day.flatMap { $0 > today ? $0 : nil }
            let key = "\(start ?? 0)-\(end)"
            var sale = groups[key] ?? SaleRecord(startDay: start, endDay: end)
            if price.territory == base, base == Vocabulary.baseTerritory, let cents = Price(text: price.price)?.cents {
                sale.priceCents = cents
            } else {
                sale.territoryPrices[price.territory] = price.price
            }
            groups[key] = sale
        }
        return (asOf(Array(groups.values), today: today), others)
    }
}

extension PricingDiff {
    /// One line per sale that differs, keyed by its start (`under way` for one that has started).
    static func saleLines(wanted: [SaleRecord], live: [SaleRecord], today: Int) -> [Line] {
        let old = Dictionary(live.map { ($0.startDay ?? 0, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(wanted.map { ($0.startDay ?? 0, $0) }, uniquingKeysWith: { a, _ in a })
        return Swift.Set(old.keys).union(new.keys).sorted().compactMap { start -> Line? in
            let before = old[start], after = new[start]
            guard before != after, let sale = after ?? before else { return nil }
            var fields: [Change.Field] = []
            // A new or withdrawn sale's days are in its detail; a field only when the end moves.
            if let before, let after, before.endDay != after.endDay {
                fields.append(Change.Field("endDate", from: CalendarDay.format(before.endDay), to: CalendarDay.format(after.endDay)))
            }
            if before?.priceCents != after?.priceCents {
                fields.append(
                    Change.Field("price", from: before?.priceCents.map(Price.format(cents:)), to: after?.priceCents.map(Price.format(cents:))))
            }
            fields += territoryFields(wanted: after?.territoryPrices ?? [:], live: before?.territoryPrices ?? [:], removed: "(none)")
            let detail = "sale \(sale.period)" + (after == nil ? ", withdrawn" : "")
            return Line(day: start == 0 ? today : start, detail: detail, fields: fields, path: after?.path)
        }
    }
}
