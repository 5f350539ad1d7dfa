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

    /// An amount App Store Connect computes (proceeds) in the territory's decimals, rounded half up: `104.3` yen is
    /// `104`, `0.7` dollars `0.70`.
    public static func rounded(_ canonical: String, territory: String) -> String {
        guard let decimals = Storefronts.decimals(of: territory), let price = Price(text: canonical) else { return canonical }
        let parts = canonical.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count > decimals else { return display(canonical, territory: territory) }
        let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
        let units = (price.approximateCents / 100 * scale).rounded(.toNearestOrAwayFromZero)
        let whole = Int(units) / Int(scale), fraction = Int(units) % Int(scale)
        guard decimals > 0 else { return String(whole) }
        let digits = String(fraction)
        return "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    static func value(_ canonical: String) -> Double { Price(text: canonical)?.approximateCents ?? 0 }

    /// The prices of a territory's grid just below and just above `wanted`.
    public static func neighbours(of wanted: String, in grid: [String]) -> (below: String?, above: String?) {
        let target = value(wanted)
        let sorted = grid.sorted { value($0) < value($1) }
        return (sorted.last { value($0) < target }, sorted.first { value($0) > target })
    }

    /// "IND has no price point of 100 INR; the nearest are 99 and 109", or, below the territory's lowest paid price,
    /// "IND has no price point of 5 INR; the lowest there is 29 INR"; nil when the grid has the price. The free point
    /// is never a nearest price: `free` (a non-consumable) only names it beside the lowest.
    public static func refusal(_ wanted: String, territory: String, grid: [String], free: Bool) -> String? {
        guard !grid.isEmpty, !grid.contains(wanted) else { return nil }
        let currency = Storefronts.currencies[territory].map { " \($0)" } ?? ""
        let head = "\(territory) has no price point of \(display(wanted, territory: territory))\(currency)"
        let paid = grid.filter { value($0) > 0 }
        let (below, above) = neighbours(of: wanted, in: paid)
        if below == nil, let lowest = above {
            let zero = free && grid.contains { value($0) == 0 } ? " (0 is free)" : ""
            return head + "; the lowest there is \(display(lowest, territory: territory))\(currency)\(zero)"
        }
        if above == nil, let highest = below {
            return head + "; the highest there is \(display(highest, territory: territory))\(currency)"
        }
        let nearest = [below, above].compactMap { $0 }.map { display($0, territory: territory) }
        return head + "; the nearest are " + nearest.joined(separator: " and ")
    }
}

/// A scheduled change as App Store Connect holds it: from `day`, a new base price and/or territory prices.
public struct PriceChangeRecord: Sendable, Equatable {
    /// `20270115`.
    public var day: Int
    public var priceCents: Int?
    /// Territory → canonical local price.
    public var territoryPrices: [String: String]
    /// Subscriptions: App Store Connect's `preserveCurrentPrice`, for every territory of the change but those in
    /// `territoryChoices`.
    public var keepsExistingSubscribers: Bool?
    /// Subscriptions: the territories whose choice differs from `keepsExistingSubscribers`.
    public var territoryChoices: [String: Bool] = [:]
    public var path: CatalogPath?
    /// Read from App Store Connect: what the territories left out of `territoryPrices` as equalized pay from `day`
    /// (not compared: a catalog never states it). A price set by hand that equals the equalization reads back as
    /// equalized; the plan takes it from here as already in place.
    public var equalizedPrices: [String: String] = [:]

    public init(
        day: Int, priceCents: Int? = nil, territoryPrices: [String: String] = [:], keepsExistingSubscribers: Bool? = nil,
        path: CatalogPath? = nil
    ) {
        self.day = day
        self.priceCents = priceCents
        self.territoryPrices = territoryPrices
        self.keepsExistingSubscribers = keepsExistingSubscribers
        self.path = path
    }

    public var date: String { CalendarDay.format(day) }

    /// Whether `territory`'s existing subscribers keep their price (true when the change does not say).
    public func keeps(_ territory: String) -> Bool { territoryChoices[territory] ?? keepsExistingSubscribers ?? true }

    /// Sets the choices from each territory's own, in canonical form: the choice most territories take (keep on a
    /// tie) as the change's, and the territories that differ.
    public mutating func setChoices(_ choices: [String: Bool]) {
        guard !choices.isEmpty else { return }
        let keeping = choices.values.filter { $0 }.count
        let common = keeping * 2 >= choices.count
        keepsExistingSubscribers = common
        territoryChoices = choices.filter { $0.value != common }
    }

    public static func == (lhs: PriceChangeRecord, rhs: PriceChangeRecord) -> Bool {
        lhs.day == rhs.day && lhs.priceCents == rhs.priceCents && lhs.territoryPrices == rhs.territoryPrices
            && lhs.keepsExistingSubscribers == rhs.keepsExistingSubscribers && lhs.territoryChoices == rhs.territoryChoices
    }
}

extension ProductRecord {
    /// A subscription's price set by hand at what its USD price equalizes to reads back as equalized: App Store
    /// Connect holds the same price either way. Where `wanted` sets one, today or in a scheduled change, this record
    /// (as read) takes it as set, so neither plan nor pull sees a change.
    public mutating func takeHandSetPrices(from wanted: ProductRecord) {
        for (territory, price) in wanted.territoryPrices where currentPrices[territory] == price { territoryPrices[territory] = price }
        for change in wanted.priceChanges {
            guard let index = priceChanges.firstIndex(where: { $0.day == change.day }) else { continue }
            let held = priceChanges[index].equalizedPrices
            for (territory, price) in change.territoryPrices where held[territory] == price { priceChanges[index].territoryPrices[territory] = price }
        }
    }

    /// The record as of `today`: changes that have started are folded into today's prices, later ones stay.
    public func asOf(_ today: Int) -> ProductRecord {
        var result = self
        (result.priceCents, result.territoryPrices, result.priceChanges) = Self.fold(priceCents, territoryPrices, priceChanges, today: today)
        result.sales = SaleRecord.asOf(sales, today: today)
        if var monthly = monthlyPlan {
            (monthly.priceCents, monthly.territoryPrices, monthly.priceChanges) = Self.fold(
                monthly.priceCents, monthly.territoryPrices, monthly.priceChanges, today: today)
            result.monthlyPlan = monthly
        }
        return result
    }

    static func fold(
        _ cents: Int?, _ territoryPrices: [String: String], _ changes: [PriceChangeRecord], today: Int
    )
        -> (Int?, [String: String], [PriceChangeRecord])
    {
        var cents = cents, territoryPrices = territoryPrices, later: [PriceChangeRecord] = []
        for change in changes.sorted(by: { $0.day < $1.day }) {
            guard change.day <= today else {
                later.append(change)
                continue
            }
            if let new = change.priceCents { cents = new }
            var prices = change.territoryPrices
            // A change that names the USA among its territories sets the USD price itself.
            if let usa = prices.removeValue(forKey: Vocabulary.baseTerritory), let new = Price(text: usa)?.cents { cents = new }
            territoryPrices.merge(prices) { _, new in new }
        }
        return (cents, territoryPrices, later)
    }

    /// The catalog's territory prices and changes as records (local prices canonical, dates as days).
    mutating func setPricing(from product: Product) {
        territoryPrices = Self.territoryPrices(product.territoryPrices)
        priceChanges = Self.changes(product.priceChanges, subscription: product.isSubscription)
        sales = SaleRecord.records(product.sales)
    }

    static func changes(_ changes: [PriceChange], subscription: Bool) -> [PriceChangeRecord] {
        changes.compactMap { change in
            guard let day = change.day else { return nil }
            var record = PriceChangeRecord(
                day: day, priceCents: change.price?.cents, territoryPrices: territoryPrices(change.territoryPrices),
                keepsExistingSubscribers: subscription ? change.existingSubscribers.map { $0 == .keep } : nil,
                path: change.path)
            if subscription, !change.existingSubscribersByTerritory.isEmpty {
                let named = Dictionary(
                    change.existingSubscribersByTerritory.compactMap { entry in entry.choice.map { (entry.territory, $0 == .keep) } },
                    uniquingKeysWith: { a, _ in a })
                if let others = record.keepsExistingSubscribers {
                    record.territoryChoices = named.filter { $0.value != others }
                } else {
                    record.setChoices(named)
                }
            }
            return record
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
    /// In-app purchases: the first day after a sale, for a price with an end.
    public var endDay: Int?

    public init(
        territory: String, day: Int?, price: String, keepsExistingSubscribers: Bool? = nil, id: String? = nil, endDay: Int? = nil
    ) {
        self.territory = territory
        self.day = day
        self.endDay = endDay
        self.price = price
        self.keepsExistingSubscribers = keepsExistingSubscribers
        self.id = id
    }

    /// Sets a record's prices from what App Store Connect holds: each territory's latest price up to `today` is
    /// today's, later ones are scheduled changes.
    ///
    /// With `base` the USA, its price is the USD price, and another territory's price is a territory price unless it
    /// is what `equalized` says the base price gives there. A scheduled change is a new USD price only when it moves
    /// every territory that follows the USD price (App Store Connect does that itself for in-app purchases, whose
    /// other territories `follow` the base; subscriptions price each territory, so the change must list them all);
    /// otherwise it is the territory prices it lists, the USA's among them. With another base (an in-app purchase
    /// priced from France, say) every price is a territory price. What every territory pays today goes to
    /// `currentPrices`; each territory's choice for existing subscribers to the change's choices.
    public static func apply(
        _ prices: [DatedPrice], to record: inout ProductRecord, today: Int, base: String = Vocabulary.baseTerritory,
        follow: Bool = false, equalized: (_ usdCents: Int, _ territory: String) -> String? = { _, _ in nil }
    ) {
        var current: [String: DatedPrice] = [:]
        var future: [Int: [DatedPrice]] = [:]
        let (sales, prices) = SaleRecord.split(prices, today: today, base: base)
        record.sales = sales
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
        let usa = Vocabulary.baseTerritory
        record.priceCents = nil
        if base == usa, let price = current[usa], let cents = Price(text: price.price)?.cents { record.priceCents = cents }
        record.territoryPrices = [:]
        for (territory, price) in current {
            if record.priceCents != nil, territory == usa { continue }
            if let cents = record.priceCents, equalized(cents, territory) == price.price { continue }
            record.territoryPrices[territory] = price.price
        }
        // Territories that take the USD price's equalization: every priced one but the hand-set ones.
        let followers = Swift.Set(current.keys).subtracting(record.territoryPrices.keys).subtracting([usa])
        let handSet = Swift.Set(record.territoryPrices.keys)
        record.priceChanges = future.keys.sorted().map { day in
            let prices = future[day] ?? []
            let byTerritory = Dictionary(prices.map { ($0.territory, $0) }, uniquingKeysWith: { a, _ in a })
            var change = PriceChangeRecord(day: day)
            if record.priceCents != nil, let price = byTerritory[usa], let cents = Price(text: price.price)?.cents,
                follow || followers.allSatisfy({ byTerritory[$0] != nil })
            {
                change.priceCents = cents
                for price in prices where price.territory != usa {
                    if !handSet.contains(price.territory), equalized(cents, price.territory) == price.price {
                        change.equalizedPrices[price.territory] = price.price
                        continue
                    }
                    change.territoryPrices[price.territory] = price.price
                }
            } else {
                for price in prices { change.territoryPrices[price.territory] = price.price }
            }
            change.setChoices(
                Dictionary(
                    prices.compactMap { price in price.keepsExistingSubscribers.map { (price.territory, $0) } },
                    uniquingKeysWith: { a, _ in a }))
            return change
        }
    }
}

/// A product's prices as one schedule to write: today's base and territory prices, and the changes after today.
public struct PriceScheduleRecord: Sendable, Equatable {
    /// The USD price; nil when the base territory is not the USA (its price is then among `territoryPrices`).
    public var cents: Int?
    public var territoryPrices: [String: String]
    public var changes: [PriceChangeRecord]
    /// The territory App Store Connect equalizes the others from.
    public var base: String
    public var sales: [SaleRecord]

    public init(cents: Int?, record: ProductRecord, base: String = Vocabulary.baseTerritory) {
        self.cents = cents
        territoryPrices = record.territoryPrices
        changes = record.priceChanges
        sales = record.sales
        self.base = base
    }

    /// Every USD price the schedule uses, for price-point lookups.
    public var baseCents: [Int] {
        var seen: [Int] = cents.map { [$0] } ?? []
        for change in changes { if let cents = change.priceCents, !seen.contains(cents) { seen.append(cents) } }
        for sale in sales { if let cents = sale.priceCents, !seen.contains(cents) { seen.append(cents) } }
        return seen
    }

    /// Every (territory, local price) pair the schedule uses.
    public var localPrices: [LocalPricePair] {
        var pairs = Swift.Set<LocalPricePair>()
        for (territory, price) in territoryPrices { pairs.insert(LocalPricePair(territory: territory, price: price)) }
        for prices in changes.map(\.territoryPrices) + sales.map(\.territoryPrices) {
            for (territory, price) in prices { pairs.insert(LocalPricePair(territory: territory, price: price)) }
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
            if let change = new ?? old, let keep = change.keepsExistingSubscribers, wanted.isSubscription {
                if fields.isEmpty { fields.append(Change.Field("existingSubscribers", from: old.map(choices), to: new.map(choices))) }
                detail.append(keep ? "existing subscribers keep their price" : "existing subscribers move to the new price")
                let others = change.territoryChoices.sorted { $0.key < $1.key }.map { "\($0.key) \(words($0.value))" }
                if !others.isEmpty { detail.append("but " + others.joined(separator: ", ")) }
            }
            lines.append(Line(day: day, detail: detail.joined(separator: ", "), fields: fields, path: new?.path))
        }
        return lines + saleLines(wanted: wanted.sales, live: live?.sales ?? [], today: today)
    }

    static func words(_ keep: Bool) -> String { keep ? "keep" : "move" }

    /// `keep`, or `keep, GBR move` when territories choose otherwise.
    static func choices(_ change: PriceChangeRecord) -> String {
        ([change.keepsExistingSubscribers.map(words) ?? "keep"]
            + change.territoryChoices.sorted { $0.key < $1.key }.map { "\($0.key) \(words($0.value))" }).joined(separator: ", ")
    }

    /// `IND "99" -> "129"` for each territory price that differs; a dropped one goes back to the equalized price.
    public static func territoryFields(wanted: [String: String], live: [String: String], removed: String = "equalized") -> [Change.Field] {
        Swift.Set(wanted.keys).union(live.keys).sorted().compactMap { territory in
            let old = live[territory], new = wanted[territory]
            guard old != new else { return nil }
            return Change.Field(
                territory, from: old.map { LocalPrice.display($0, territory: territory) },
                to: new.map { LocalPrice.display($0, territory: territory) } ?? (old == nil ? nil : removed),
                currency: Storefronts.currencies[territory])
        }
    }
}

extension PlanBuilder {
    /// Why App Store Connect would refuse a territory price of `record`: the territory offers no such price (from its
    /// grid, read when a product of `kind` exists), naming the nearest prices. With no product of `kind` yet there
    /// is no grid: the price is kept as unchecked, for push to check before its other writes.
    public mutating func priceRefusals(kind: PriceGrid, _ record: ProductRecord) -> [String] {
        var messages: [String] = []
        var pairs = record.territoryPrices.map { ($0.key, $0.value) }
        for prices in record.priceChanges.map(\.territoryPrices) + record.sales.map(\.territoryPrices) {
            pairs += prices.map { ($0.key, $0.value) }
        }
        let gridRead = gridKinds.contains(kind)
        for (territory, price) in pairs.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            guard gridRead else {
                let unchecked = UncheckedPrice(
                    kind: kind, productID: record.productID, territory: territory, price: price,
                    location: location(record.path.map { $0 / "territoryPrices" / territory }))
                if !uncheckedPrices.contains(unchecked) { uncheckedPrices.append(unchecked) }
                continue
            }
            guard let grid = priceGrids["\(kind.rawValue)|\(territory)"],
                let message = LocalPrice.refusal(price, territory: territory, grid: grid, free: record.type == .nonConsumable)
            else { continue }
            if !messages.contains(message) { messages.append(message) }
        }
        return messages
    }
}
