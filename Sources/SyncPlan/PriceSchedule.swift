import IAPCatalog
import IAPCore

/// A price in a territory's currency as App Store Connect compares it: `14.90`, `14.9` and `14.900` are one price.
public enum LocalPrice {
    /// The canonical text: no trailing zeros after the point, no point without decimals (`14.9`, `99`).
    public static func canonical(_ text: String) -> String? {
        guard let price = Price(text: text) else { return nil }
        var value = price.text
        if value.contains(".") {
            while value.hasSuffix("0") { value.removeLast() }
            if value.hasSuffix(".") { value.removeLast() }
        }
        while value.count > 1 && value.hasPrefix("0") && !value.hasPrefix("0.") { value.removeFirst() }
        return value
    }

    /// For people: the territory's decimals (`14.90` in Brazil, `150` in Japan).
    public static func display(_ canonical: String, territory: String) -> String {
        guard let decimals = Storefronts.decimals(of: territory), decimals > 0 else { return canonical }
        var parts = canonical.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { parts.append("") }
        guard parts[1].count <= decimals else { return canonical }
        return parts[0] + "." + parts[1] + String(repeating: "0", count: decimals - parts[1].count)
    }

    static func value(_ canonical: String) -> Double { Price(text: canonical)?.approximateCents ?? 0 }

    /// The prices of a territory's grid just below and just above `wanted`.
    public static func neighbours(of wanted: String, in grid: [String]) -> (below: String?, above: String?) {
        let target = value(wanted)
        let sorted = grid.sorted { value($0) < value($1) }
        return (sorted.last { value($0) < target }, sorted.first { value($0) > target })
    }

    /// "IND offers no price of 100; the nearest are 99 and 109", or nil when the grid has the price.
    public static func refusal(_ wanted: String, territory: String, grid: [String]) -> String? {
        guard !grid.isEmpty, !grid.contains(wanted) else { return nil }
        let (below, above) = neighbours(of: wanted, in: grid)
        let nearest = [below, above].compactMap { $0 }.map { display($0, territory: territory) }
        let currency = Storefronts.currencies[territory].map { " \($0)" } ?? ""
        return "\(territory) has no price point of \(display(wanted, territory: territory))\(currency); the nearest are "
            + nearest.joined(separator: " and ")
    }
}

/// A scheduled change as App Store Connect holds it: from `day`, a new base price and/or territory prices.
public struct PriceChangeRecord: Sendable, Equatable {
    /// `20270115`.
    public var day: Int
    public var priceCents: Int?
    /// Territory → canonical local price.
    public var territoryPrices: [String: String]
    /// Subscriptions: App Store Connect's `preserveCurrentPrice`.
    public var keepsExistingSubscribers: Bool?
    public var path: CatalogPath?

    public init(day: Int, priceCents: Int? = nil, territoryPrices: [String: String] = [:], keepsExistingSubscribers: Bool? = nil,
                path: CatalogPath? = nil) {
        self.day = day
        self.priceCents = priceCents
        self.territoryPrices = territoryPrices
        self.keepsExistingSubscribers = keepsExistingSubscribers
        self.path = path
    }

    public var date: String { CalendarDay.format(day) }

    public static func == (lhs: PriceChangeRecord, rhs: PriceChangeRecord) -> Bool {
        lhs.day == rhs.day && lhs.priceCents == rhs.priceCents && lhs.territoryPrices == rhs.territoryPrices
            && lhs.keepsExistingSubscribers == rhs.keepsExistingSubscribers
    }
}

extension ProductRecord {
    /// The record as of `today`: changes that have started are folded into today's prices, later ones stay.
    public func asOf(_ today: Int) -> ProductRecord {
        var result = self
        (result.priceCents, result.territoryPrices, result.priceChanges) = Self.fold(priceCents, territoryPrices, priceChanges, today: today)
        if var monthly = monthlyPlan {
            (monthly.priceCents, monthly.territoryPrices, monthly.priceChanges)
                = Self.fold(monthly.priceCents, monthly.territoryPrices, monthly.priceChanges, today: today)
            result.monthlyPlan = monthly
        }
        return result
    }

    static func fold(_ cents: Int?, _ territoryPrices: [String: String], _ changes: [PriceChangeRecord], today: Int)
        -> (Int?, [String: String], [PriceChangeRecord]) {
        var cents = cents, territoryPrices = territoryPrices, later: [PriceChangeRecord] = []
        for change in changes.sorted(by: { $0.day < $1.day }) {
            guard change.day <= today else {
                later.append(change)
                continue
            }
            if let new = change.priceCents { cents = new }
            territoryPrices.merge(change.territoryPrices) { _, new in new }
        }
        return (cents, territoryPrices, later)
    }

    /// The catalog's territory prices and changes as records (local prices canonical, dates as days).
    mutating func setPricing(from product: Product) {
        territoryPrices = Self.territoryPrices(product.territoryPrices)
        priceChanges = Self.changes(product.priceChanges, subscription: product.isSubscription)
    }

    static func changes(_ changes: [PriceChange], subscription: Bool) -> [PriceChangeRecord] {
        changes.compactMap { change in
            guard let day = change.day else { return nil }
            return PriceChangeRecord(day: day, priceCents: change.price?.cents, territoryPrices: territoryPrices(change.territoryPrices),
                                     keepsExistingSubscribers: subscription ? change.existingSubscribers.map { $0 == .keep } : nil,
                                     path: change.path)
        }
    }

    static func territoryPrices(_ entries: [TerritoryPrice]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in entries {
            guard let text = entry.price?.text, let canonical = LocalPrice.canonical(text) else { continue }
            result[entry.territory] = canonical
        }
        return result
    }
}

/// One price App Store Connect holds for a territory: from `day` (nil: since the product was priced).
public struct DatedPrice: Sendable, Equatable {
    public var territory: String
    public var day: Int?
    /// Canonical local price.
    public var price: String
    public var keepsExistingSubscribers: Bool?
    public var id: String?

    public init(territory: String, day: Int?, price: String, keepsExistingSubscribers: Bool? = nil, id: String? = nil) {
        self.territory = territory
        self.day = day
        self.price = price
        self.keepsExistingSubscribers = keepsExistingSubscribers
        self.id = id
    }

    /// Sets a record's prices from what App Store Connect holds: each territory's latest price up to `today` is
    /// today's, later ones are scheduled changes. The base territory's prices are the USD price; another
    /// territory's price is a territory price unless it is what `equalized` says the base price gives there. What
    /// every territory pays today goes to `currentPrices`.
    public static func apply(_ prices: [DatedPrice], to record: inout ProductRecord, today: Int,
                             equalized: (_ usdCents: Int, _ territory: String) -> String? = { _, _ in nil }) {
        var current: [String: DatedPrice] = [:]
        var future: [Int: [DatedPrice]] = [:]
        for price in prices {
            if let day = price.day, day > today {
                future[day, default: []].append(price)
            } else if let known = current[price.territory], (known.day ?? 0) > (price.day ?? 0) {
                continue
            } else {
                current[price.territory] = price
            }
        }
        record.currentPrices = current.mapValues(\.price)
        let base = Vocabulary.baseTerritory
        if let usa = current[base], let cents = Price(text: usa.price)?.cents { record.priceCents = cents }
        record.territoryPrices = [:]
        for (territory, price) in current where territory != base {
            if let cents = record.priceCents, equalized(cents, territory) == price.price { continue }
            record.territoryPrices[territory] = price.price
        }
        var baseCents = record.priceCents
        record.priceChanges = future.keys.sorted().map { day in
            let prices = future[day] ?? []
            var change = PriceChangeRecord(day: day)
            if let usa = prices.first(where: { $0.territory == base }), let cents = Price(text: usa.price)?.cents {
                change.priceCents = cents
                baseCents = cents
            }
            change.keepsExistingSubscribers = prices.first?.keepsExistingSubscribers
            for price in prices where price.territory != base {
                if change.priceCents != nil, let cents = baseCents, equalized(cents, price.territory) == price.price { continue }
                change.territoryPrices[price.territory] = price.price
            }
            return change
        }
    }
}

/// A product's prices as one schedule to write: today's base and territory prices, and the changes after today.
public struct PriceScheduleRecord: Sendable, Equatable {
    public var cents: Int
    public var territoryPrices: [String: String]
    public var changes: [PriceChangeRecord]

    public init(cents: Int, record: ProductRecord) {
        self.cents = cents
        territoryPrices = record.territoryPrices
        changes = record.priceChanges
    }

    /// Every USD price the schedule uses, for price-point lookups.
    public var baseCents: [Int] {
        var seen: [Int] = [cents]
        for change in changes { if let cents = change.priceCents, !seen.contains(cents) { seen.append(cents) } }
        return seen
    }

    /// Every (territory, local price) pair the schedule uses.
    public var localPrices: [LocalPricePair] {
        var pairs = Swift.Set<LocalPricePair>()
        for (territory, price) in territoryPrices { pairs.insert(LocalPricePair(territory: territory, price: price)) }
        for change in changes {
            for (territory, price) in change.territoryPrices { pairs.insert(LocalPricePair(territory: territory, price: price)) }
        }
        return pairs.sorted { ($0.territory, $0.price) < ($1.territory, $1.price) }
    }
}

public struct LocalPricePair: Sendable, Hashable {
    public var territory: String
    public var price: String
    public init(territory: String, price: String) {
        self.territory = territory
        self.price = price
    }
}

/// What a plan says about prices: one line for today's prices, one per scheduled change that differs.
public enum PricingDiff {
    public struct Line: Sendable {
        /// nil for today's prices.
        public var day: Int?
        public var detail: String?
        public var fields: [Change.Field]
        public var path: CatalogPath?
        public init(day: Int?, detail: String?, fields: [Change.Field], path: CatalogPath? = nil) {
            self.day = day
            self.detail = detail
            self.fields = fields
            self.path = path
        }
    }

    public static func lines(wanted: ProductRecord, live: ProductRecord?, today: Int, equalizedCount: Int? = nil) -> [Line] {
        var lines: [Line] = []
        let oldOverrides = live?.territoryPrices ?? [:]
        var fields: [Change.Field] = []
        if wanted.priceCents != live?.priceCents {
            fields.append(Change.Field("price", from: live?.priceCents.map(Price.format(cents:)), to: wanted.priceCents.map(Price.format(cents:))))
        }
        fields += territoryFields(wanted: wanted.territoryPrices, live: oldOverrides)
        if !fields.isEmpty {
            var detail: [String] = []
            if let equalizedCount, wanted.priceCents != live?.priceCents { detail.append("\(equalizedCount) equalized territories") }
            if !wanted.territoryPrices.isEmpty { detail.append(Format.count(wanted.territoryPrices.count, "territory price")) }
            lines.append(Line(day: nil, detail: detail.isEmpty ? nil : detail.joined(separator: ", "), fields: fields, path: nil))
        }
        let liveChanges = Dictionary((live?.priceChanges ?? []).map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        let wantedChanges = Dictionary(wanted.priceChanges.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
        for day in Swift.Set(liveChanges.keys).union(wantedChanges.keys).sorted() where day > today {
            let old = liveChanges[day], new = wantedChanges[day]
            guard old != new else { continue }
            var fields: [Change.Field] = []
            if old?.priceCents != new?.priceCents {
                fields.append(Change.Field("price", from: old?.priceCents.map(Price.format(cents:)), to: new?.priceCents.map(Price.format(cents:))))
            }
            fields += territoryFields(wanted: new?.territoryPrices ?? [:], live: old?.territoryPrices ?? [:], removed: "(none)")
            var detail = ["from \(CalendarDay.format(day))"]
            if new == nil { detail.append("scheduled change withdrawn") }
            if let keep = (new ?? old)?.keepsExistingSubscribers, wanted.isSubscription {
                if fields.isEmpty { fields.append(Change.Field("existingSubscribers", from: old?.keepsExistingSubscribers.map(words), to: new?.keepsExistingSubscribers.map(words))) }
                detail.append(keep ? "existing subscribers keep their price" : "existing subscribers move to the new price")
            }
            lines.append(Line(day: day, detail: detail.joined(separator: ", "), fields: fields, path: new?.path))
        }
        return lines
    }

    static func words(_ keep: Bool) -> String { keep ? "keep" : "move" }

    /// `IND "99" -> "129"` for each territory price that differs; a dropped one goes back to the equalized price.
    public static func territoryFields(wanted: [String: String], live: [String: String], removed: String = "equalized") -> [Change.Field] {
        Swift.Set(wanted.keys).union(live.keys).sorted().compactMap { territory in
            let old = live[territory], new = wanted[territory]
            guard old != new else { return nil }
            return Change.Field(territory, from: old.map { LocalPrice.display($0, territory: territory) },
                                to: new.map { LocalPrice.display($0, territory: territory) } ?? (old == nil ? nil : removed))
        }
    }
}

extension PlanBuilder {
    /// Why App Store Connect would refuse a territory price of `record`: the territory offers no such price (from its
    /// grid, read when a product of `kind` exists), naming the nearest prices.
    public func priceRefusals(kind: String, _ record: ProductRecord) -> [String] {
        var messages: [String] = []
        var pairs = record.territoryPrices.map { ($0.key, $0.value) }
        for change in record.priceChanges { pairs += change.territoryPrices.map { ($0.key, $0.value) } }
        for (territory, price) in pairs.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            guard let grid = priceGrids["\(kind)|\(territory)"], let message = LocalPrice.refusal(price, territory: territory, grid: grid)
            else { continue }
            if !messages.contains(message) { messages.append(message) }
        }
        return messages
    }
}
