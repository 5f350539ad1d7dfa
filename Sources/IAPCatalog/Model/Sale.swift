/// A sale of an in-app purchase: from `startDate` until `endDate`, a price in the base territory and/or in
/// territories of their own, after which the product's regular prices (its `price`, `territoryPrices` and
/// `priceChanges`) apply again with nothing restated. App Store Connect holds it as manual prices with both a start
/// and an end date; a subscription's prices have no end there (its discounts are offers).
public struct Sale: Sendable, Hashable {
    public var path: CatalogPath
    /// `YYYY-MM-DD`, as written; absent for a sale already under way when it was pulled.
    public var startDate: String?
    /// `YYYY-MM-DD`: the first day back at the regular price (App Store Connect's `endDate`).
    public var endDate: String?
    /// The sale's USD price in the base territory, equalized in every territory without a price of its own.
    public var price: Price?
    public var territoryPrices: [TerritoryPrice]

    public init(path: CatalogPath, startDate: String? = nil, endDate: String? = nil, price: Price? = nil, territoryPrices: [TerritoryPrice] = []) {
        self.path = path
        self.startDate = startDate
        self.endDate = endDate
        self.price = price
        self.territoryPrices = territoryPrices
    }

    public var startDay: Int? { startDate.flatMap(CalendarDay.parse) }
    public var endDay: Int? { endDate.flatMap(CalendarDay.parse) }
}
