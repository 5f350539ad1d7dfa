/// The App Store's storefront territories (ISO 3166-1 alpha-3) and the currency (ISO 4217) each one prices in,
/// with the number of decimals its App Store prices have. Written from the public ISO standards; the project's fake
/// App Store Connect serves the same table, and a test keeps the two equal.
public enum Storefronts {
    public static let currencies: [String: String] = [
        "AFG": "AFN", "AGO": "AOA", "AIA": "XCD", "ALB": "ALL", "ARE": "AED", "ARG": "ARS", "ARM": "AMD",
        "ATG": "XCD", "AUS": "AUD", "AUT": "EUR", "AZE": "AZN", "BEL": "EUR", "BEN": "XOF", "BFA": "XOF",
        "BGD": "BDT", "BGR": "BGN", "BHR": "BHD", "BHS": "BSD", "BIH": "BAM", "BLR": "BYN", "BLZ": "BZD",
        "BMU": "BMD", "BOL": "BOB", "BRA": "BRL", "BRB": "BBD", "BRN": "BND", "BTN": "BTN", "BWA": "BWP",
        "CAN": "CAD", "CHE": "CHF", "CHL": "CLP", "CHN": "CNY", "CIV": "XOF", "CMR": "XAF", "COD": "CDF",
        "COG": "XAF", "COL": "COP", "CPV": "CVE", "CRI": "CRC", "CYM": "KYD", "CYP": "EUR", "CZE": "CZK",
        "DEU": "EUR", "DMA": "XCD", "DNK": "DKK", "DOM": "DOP", "DZA": "DZD", "ECU": "USD", "EGY": "EGP",
        "ESP": "EUR", "EST": "EUR", "FIN": "EUR", "FJI": "FJD", "FRA": "EUR", "FSM": "USD", "GAB": "XAF",
        "GBR": "GBP", "GEO": "GEL", "GHA": "GHS", "GMB": "GMD", "GNB": "XOF", "GRC": "EUR", "GRD": "XCD",
        "GTM": "GTQ", "GUY": "GYD", "HKG": "HKD", "HND": "HNL", "HRV": "EUR", "HUN": "HUF", "IDN": "IDR",
        "IND": "INR", "IRL": "EUR", "IRQ": "IQD", "ISL": "ISK", "ISR": "ILS", "ITA": "EUR", "JAM": "JMD",
        "JOR": "JOD", "JPN": "JPY", "KAZ": "KZT", "KEN": "KES", "KGZ": "KGS", "KHM": "KHR", "KNA": "XCD",
        "KOR": "KRW", "KWT": "KWD", "LAO": "LAK", "LBN": "LBP", "LBR": "LRD", "LBY": "LYD", "LCA": "XCD",
        "LKA": "LKR", "LTU": "EUR", "LUX": "EUR", "LVA": "EUR", "MAC": "MOP", "MAR": "MAD", "MDA": "MDL",
        "MDG": "MGA", "MDV": "MVR", "MEX": "MXN", "MKD": "MKD", "MLI": "XOF", "MLT": "EUR", "MMR": "MMK",
        "MNE": "EUR", "MNG": "MNT", "MOZ": "MZN", "MRT": "MRU", "MSR": "XCD", "MUS": "MUR", "MWI": "MWK",
        "MYS": "MYR", "NAM": "NAD", "NER": "XOF", "NGA": "NGN", "NIC": "NIO", "NLD": "EUR", "NOR": "NOK",
        "NPL": "NPR", "NRU": "AUD", "NZL": "NZD", "OMN": "OMR", "PAK": "PKR", "PAN": "PAB", "PER": "PEN",
        "PHL": "PHP", "PLW": "USD", "PNG": "PGK", "POL": "PLN", "PRT": "EUR", "PRY": "PYG", "QAT": "QAR",
        "ROU": "RON", "RUS": "RUB", "RWA": "RWF", "SAU": "SAR", "SEN": "XOF", "SGP": "SGD", "SLB": "SBD",
        "SLE": "SLE", "SLV": "USD", "SRB": "RSD", "STP": "STN", "SUR": "SRD", "SVK": "EUR", "SVN": "EUR",
        "SWE": "SEK", "SWZ": "SZL", "SYC": "SCR", "TCA": "USD", "TCD": "XAF", "THA": "THB", "TJK": "TJS",
        "TKM": "TMT", "TON": "TOP", "TTO": "TTD", "TUN": "TND", "TUR": "TRY", "TWN": "TWD", "TZA": "TZS",
        "UGA": "UGX", "UKR": "UAH", "URY": "UYU", "USA": "USD", "UZB": "UZS", "VCT": "XCD", "VEN": "VES",
        "VGB": "USD", "VNM": "VND", "VUT": "VUV", "YEM": "YER", "ZAF": "ZAR", "ZMB": "ZMW", "ZWE": "USD"
    ]

    /// Currencies whose App Store prices are whole numbers (¥150, ₩1,500, Rp 15000).
    public static let wholeNumberCurrencies: Set<String> = [
        "CLP", "COP", "HUF", "IDR", "INR", "IQD", "ISK", "JPY", "KHR", "KRW", "KZT", "LAK", "LBP", "LKR", "MGA", "MMK",
        "MNT", "NGN", "PKR", "PYG", "RWF", "TWD", "TZS", "UGX", "UZS", "VND", "XAF", "XOF"
    ]

    /// Every territory code, sorted.
    public static let codes: [String] = currencies.keys.sorted()

    public static func isTerritory(_ code: String) -> Bool { currencies[code] != nil }

    /// Decimals a price in `territory` may have: 0 for whole-number currencies, 2 otherwise; nil for an unknown code.
    public static func decimals(of territory: String) -> Int? {
        guard let currency = currencies[territory] else { return nil }
        return wholeNumberCurrencies.contains(currency) ? 0 : 2
    }

    /// The base territory: catalog prices without a territory are USD prices there.
    public static let base = "USA"
}
