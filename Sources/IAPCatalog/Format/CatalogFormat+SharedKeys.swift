import IAPCore

/// Keys several objects of the catalog have, declared once.
extension CatalogKey {
    public static let productId = CatalogKey(
        "productId", .string(pattern: "^[A-Za-z0-9._-]{1,100}$"), required: true, "The ID StoreKit asks for; never changes, never reused.")
    public static let price = CatalogKey("price", .amount, "USD customer price on App Store Connect's grid, e.g. 0.99")
    public static let tier = CatalogKey("tier", .integer(minimum: 0, maximum: 87), "A legacy price tier (0-87), instead of price.")
    public static let territoryPrices = CatalogKey(
        "territoryPrices", .reference("territoryPrices"), "Prices in other territories' currencies, by ISO 3166-1 alpha-3 code.")
    public static let priceSheet = CatalogKey(
        "priceSheet", .string,
        "A CSV file beside the catalog with a header row territory,price[,startDate]; rows without a start date are territory prices, rows with one join the price change of that date."
    )
    public static let priceChanges = CatalogKey("priceChanges", .list(.reference("priceChange")), "Price changes scheduled for later dates.")
    public static let familySharable = CatalogKey(
        "familySharable", .boolean, "Family Sharing; once turned on in App Store Connect it cannot be turned off.")
    public static let localizations = CatalogKey(
        "localizations", .list(.reference("localization")), "The display name and description customers see, per locale.")
    public static let review = CatalogKey(
        "review", .reference("review"), "What App Review needs: a note and a screenshot of the purchase in the app.")
    public static let promotionalImage = CatalogKey(
        "promotionalImage", .string, "Promotional image beside the catalog: 1024×1024 PNG or JPEG, no transparency")
    public static let offerTerritoryPrices = CatalogKey("territoryPrices", .reference("territoryPrices"))
    public static let offerCodeActive = CatalogKey(
        "active", .boolean,
        "false deactivates the offer code and its codes (App Store Connect cannot turn it back on); one App Store Connect "
            + "keeps deactivated is history: pulled so, never created where it has none; true when absent")
    /// A batch's or a custom code's.
    public static let codeActive = CatalogKey(
        "active", .boolean,
        "false deactivates the codes (App Store Connect cannot turn them back on); ones App Store Connect keeps deactivated "
            + "are history: pulled so, never created where it has none; true when absent")
    public static let oneTimeCodes = CatalogKey("oneTimeCodes", .reference("oneTimeCodes"))
    public static let customCodes = CatalogKey("customCodes", .reference("customCodes"))
    public static let mode = CatalogKey("mode", .choice(of: OfferMode.self), required: true)
    public static let duration = CatalogKey("duration", .choice(["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"]))
    public static let periods = CatalogKey("periods", .integer(minimum: 1))
    public static let offerId = CatalogKey("offerId", .string, required: true)
    public static let offerReferenceName = CatalogKey("referenceName", .string)
    public static let offerTerritories = CatalogKey(
        "territories", .list(.string(pattern: "^[A-Z]{3}$"), unique: true),
        "The territories the offer is set in, when not every territory the product is sold or priced in; a territory whose `territoryPrices` entry is 0 has it for free"
    )
}
