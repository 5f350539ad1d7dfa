/// The App Store's territories (ISO 3166-1 alpha-3), for `export asc`, which plans against an app with no products
/// without asking App Store Connect. `push` and `plan` use the live list from `GET /v1/territories`; a test keeps
/// this list equal to the one the project's fake App Store Connect serves.
public enum Territories {
    public static let all: [String] = [
        "AFG", "AGO", "AIA", "ALB", "ARE", "ARG", "ARM", "ATG", "AUS", "AUT", "AZE", "BEL", "BEN", "BFA", "BGD", "BGR",
        "BHR", "BHS", "BIH", "BLR", "BLZ", "BMU", "BOL", "BRA", "BRB", "BRN", "BTN", "BWA", "CAN", "CHE", "CHL", "CHN",
        "CIV", "CMR", "COD", "COG", "COL", "CPV", "CRI", "CYM", "CYP", "CZE", "DEU", "DMA", "DNK", "DOM", "DZA", "ECU",
        "EGY", "ESP", "EST", "FIN", "FJI", "FRA", "FSM", "GAB", "GBR", "GEO", "GHA", "GMB", "GNB", "GRC", "GRD", "GTM",
        "GUY", "HKG", "HND", "HRV", "HUN", "IDN", "IND", "IRL", "IRQ", "ISL", "ISR", "ITA", "JAM", "JOR", "JPN", "KAZ",
        "KEN", "KGZ", "KHM", "KNA", "KOR", "KWT", "LAO", "LBN", "LBR", "LBY", "LCA", "LKA", "LTU", "LUX", "LVA", "MAC",
        "MAR", "MDA", "MDG", "MDV", "MEX", "MKD", "MLI", "MLT", "MMR", "MNE", "MNG", "MOZ", "MRT", "MSR", "MUS", "MWI",
        "MYS", "NAM", "NER", "NGA", "NIC", "NLD", "NOR", "NPL", "NRU", "NZL", "OMN", "PAK", "PAN", "PER", "PHL", "PLW",
        "PNG", "POL", "PRT", "PRY", "QAT", "ROU", "RUS", "RWA", "SAU", "SEN", "SGP", "SLB", "SLE", "SLV", "SRB", "STP",
        "SUR", "SVK", "SVN", "SWE", "SWZ", "SYC", "TCA", "TCD", "THA", "TJK", "TKM", "TON", "TTO", "TUN", "TUR", "TWN",
        "TZA", "UGA", "UKR", "URY", "USA", "UZB", "VCT", "VEN", "VGB", "VNM", "VUT", "YEM", "ZAF", "ZMB", "ZWE",
    ]
}
