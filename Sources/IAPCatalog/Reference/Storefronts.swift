/// The App Store's storefronts (App Store Connect's territory codes, ISO 3166-1 alpha-3) and the currency App Store
/// Connect prices each one in (`territories.currency`), with the number of decimals its prices have.
///
/// App Store Connect does not price every storefront in its country's own currency: 43 currencies serve 175
/// storefronts, and most storefronts without one of them price in US dollars (Iceland, Argentina, Kenya, …).
/// Written from Apple's table of report regions and currencies; `asc plan` compares it with App Store Connect's live
/// answer and warns when the two differ, and the project's fake serves the same table (a test keeps them equal).
public enum Storefronts {
    /// Every storefront, sorted.
    public static let codes: [String] = [
        "AFG", "AGO", "AIA", "ALB", "ARE", "ARG", "ARM", "ATG", "AUS", "AUT", "AZE", "BEL", "BEN", "BFA", "BGR", "BHR",
        "BHS", "BIH", "BLR", "BLZ", "BMU", "BOL", "BRA", "BRB", "BRN", "BTN", "BWA", "CAN", "CHE", "CHL", "CHN", "CIV",
        "CMR", "COD", "COG", "COL", "CPV", "CRI", "CYM", "CYP", "CZE", "DEU", "DMA", "DNK", "DOM", "DZA", "ECU", "EGY",
        "ESP", "EST", "FIN", "FJI", "FRA", "FSM", "GAB", "GBR", "GEO", "GHA", "GMB", "GNB", "GRC", "GRD", "GTM", "GUY",
        "HKG", "HND", "HRV", "HUN", "IDN", "IND", "IRL", "IRQ", "ISL", "ISR", "ITA", "JAM", "JOR", "JPN", "KAZ", "KEN",
        "KGZ", "KHM", "KNA", "KOR", "KWT", "LAO", "LBN", "LBR", "LBY", "LCA", "LKA", "LTU", "LUX", "LVA", "MAC", "MAR",
        "MDA", "MDG", "MDV", "MEX", "MKD", "MLI", "MLT", "MMR", "MNE", "MNG", "MOZ", "MRT", "MSR", "MUS", "MWI", "MYS",
        "NAM", "NER", "NGA", "NIC", "NLD", "NOR", "NPL", "NRU", "NZL", "OMN", "PAK", "PAN", "PER", "PHL", "PLW", "PNG",
        "POL", "PRT", "PRY", "QAT", "ROU", "RUS", "RWA", "SAU", "SEN", "SGP", "SLB", "SLE", "SLV", "SRB", "STP", "SUR",
        "SVK", "SVN", "SWE", "SWZ", "SYC", "TCA", "TCD", "THA", "TJK", "TKM", "TON", "TTO", "TUN", "TUR", "TWN", "TZA",
        "UGA", "UKR", "URY", "USA", "UZB", "VCT", "VEN", "VGB", "VNM", "VUT", "XKS", "YEM", "ZAF", "ZMB", "ZWE",
    ]

    /// Storefronts priced in their own currency, other than the euro and the US dollar.
    static let ownCurrency: [String: String] = [
        "ARE": "AED", "AUS": "AUD", "BRA": "BRL", "CAN": "CAD", "CHE": "CHF", "CHL": "CLP", "CHN": "CNY", "COL": "COP",
        "CZE": "CZK", "DNK": "DKK", "EGY": "EGP", "GBR": "GBP", "HKG": "HKD", "HUN": "HUF", "IDN": "IDR", "IND": "INR",
        "ISR": "ILS", "JPN": "JPY", "KAZ": "KZT", "KOR": "KRW", "MEX": "MXN", "MYS": "MYR", "NGA": "NGN", "NOR": "NOK",
        "NZL": "NZD", "PAK": "PKR", "PER": "PEN", "PHL": "PHP", "POL": "PLN", "QAT": "QAR", "ROU": "RON", "RUS": "RUB",
        "SAU": "SAR", "SGP": "SGD", "SWE": "SEK", "THA": "THB", "TUR": "TRY", "TWN": "TWD", "TZA": "TZS", "VNM": "VND",
        "ZAF": "ZAR",
    ]

    /// Storefronts priced in euros (the euro area and the storefronts App Store Connect prices with it).
    static let euro: Set<String> = [
        "AUT", "BEL", "BGR", "BIH", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA", "LTU", "LUX",
        "LVA", "MLT", "MNE", "NLD", "PRT", "SRB", "SVK", "SVN", "XKS",
    ]

    /// The currency (ISO 4217) each storefront's prices are in; every other storefront prices in US dollars.
    public static let currencies: [String: String] = Dictionary(
        uniqueKeysWithValues: codes.map { code in
            (code, ownCurrency[code] ?? (euro.contains(code) ? "EUR" : "USD"))
        })

    /// Currencies whose App Store prices are whole numbers (¥150, ₩1,500, Rp 15000).
    public static let wholeNumberCurrencies: Set<String> = [
        "CLP", "COP", "HUF", "IDR", "INR", "JPY", "KRW", "KZT", "NGN", "PKR", "TWD", "TZS", "VND",
    ]

    public static func isTerritory(_ code: String) -> Bool { currencies[code] != nil }

    /// Decimals a price in `territory` may have: 0 for whole-number currencies, 2 otherwise; nil for an unknown code.
    public static func decimals(of territory: String) -> Int? {
        guard let currency = currencies[territory] else { return nil }
        return wholeNumberCurrencies.contains(currency) ? 0 : 2
    }

    /// The base territory: catalog prices without a territory are USD prices there.
    public static let base = "USA"

    /// What a price in `territory` is, for messages: "an amount in GBP (GBR's currency on the App Store) such as
    /// 4.99"; a whole number for a whole-number currency.
    public static func amountDescription(in territory: String) -> String {
        guard let currency = currencies[territory] else { return "an amount in the territory's own currency, such as 4.99" }
        let example = wholeNumberCurrencies.contains(currency) ? "a whole number such as 150" : "such as 4.99"
        return "an amount in \(currency) (\(territory)'s currency on the App Store), \(example)"
    }
}

/// Where App Store Connect's storefronts, as it answers them, differ from the table lint checks prices with offline.
public struct StorefrontDifference: Sendable, Equatable {
    public enum Kind: String, Sendable { case currency, missingFromTable, notInAppStoreConnect }
    public let territory: String
    public let kind: Kind
    /// The currency in iapkit's table and in App Store Connect's answer (nil where one has no such storefront).
    public let tableCurrency: String?
    public let liveCurrency: String?

    public var message: String {
        switch kind {
        case .currency:
            "App Store Connect prices \(territory) in \(liveCurrency ?? "?"); iapkit's table says \(tableCurrency ?? "?"), "
                + "so lint's offline checks of \(territory) prices (currency, decimals) may be wrong"
        case .missingFromTable:
            "App Store Connect sells in \(territory) (\(liveCurrency ?? "no currency")), a storefront iapkit's table does not "
                + "know: lint refuses \(territory) prices until iapkit is updated"
        case .notInAppStoreConnect:
            "iapkit's table lists \(territory), which App Store Connect does not sell in"
        }
    }

    /// The differences as warnings: one line per currency or unknown storefront, and one for all the table's
    /// storefronts App Store Connect does not sell in.
    public static func warnings(_ differences: [StorefrontDifference]) -> [String] {
        var lines = differences.filter { $0.kind != .notInAppStoreConnect }.map(\.message)
        let absent = differences.filter { $0.kind == .notInAppStoreConnect }.map(\.territory)
        if !absent.isEmpty {
            let shown = absent.prefix(12).joined(separator: ", ") + (absent.count > 12 ? ", …" : "")
            lines.append(
                "iapkit's storefront table lists \(absent.count) storefront\(absent.count == 1 ? "" : "s") "
                    + "App Store Connect does not sell in for this app's account: \(shown)")
        }
        return lines
    }

    /// Compares App Store Connect's storefronts (territory → currency; nil where the answer leaves it out) with the
    /// offline table.
    public static func between(live: [String: String?], table: [String: String] = Storefronts.currencies) -> [StorefrontDifference] {
        var differences: [StorefrontDifference] = []
        for (territory, currency) in live.sorted(by: { $0.key < $1.key }) {
            guard let known = table[territory] else {
                differences.append(.init(territory: territory, kind: .missingFromTable, tableCurrency: nil, liveCurrency: currency))
                continue
            }
            if let currency, currency != known {
                differences.append(.init(territory: territory, kind: .currency, tableCurrency: known, liveCurrency: currency))
            }
        }
        for territory in table.keys.sorted() where live[territory] == nil {
            differences.append(.init(territory: territory, kind: .notInAppStoreConnect, tableCurrency: table[territory], liveCurrency: nil))
        }
        return differences
    }
}
