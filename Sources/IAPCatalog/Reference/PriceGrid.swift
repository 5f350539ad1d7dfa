import IAPCore
/// App Store Connect's USD price grid (2023+) and the legacy tiers.
public enum PriceGrid {
    /// Free plus the 800 standard points, in cents.
    public static let pointsCents: [Int] = [0] + ReferenceData.usdPricePointCents
    private static let pointSet = Set(pointsCents)

    public static func isPoint(cents: Int) -> Bool { pointSet.contains(cents) }

    /// The grid points just below and above an off-grid amount.
    public static func neighbours(ofCents amount: Double) -> (below: Int?, above: Int?) {
        var low = 0, high = pointsCents.count
        while low < high {
            let middle = (low + high) / 2
            if Double(pointsCents[middle]) < amount { low = middle + 1 } else { high = middle }
        }
        return (low > 0 ? pointsCents[low - 1] : nil, low < pointsCents.count ? pointsCents[low] : nil)
    }

    /// App Store Connect's price-point number for the USA storefront (10000 = free), when `cents` is on the grid.
    public static func pricePointNumber(cents: Int) -> Int? {
        if cents == 0 { return 10000 }
        guard let index = ReferenceData.usdPricePointCents.firstIndex(of: cents) else { return nil }
        return ReferenceData.usdPricePointNumbers[index]
    }

    public static let highestCents = ReferenceData.usdPricePointCents.last ?? 100_000
    /// The lowest paid point ($0.29): only a product that may be free goes lower, to free.
    public static let lowestCents = ReferenceData.usdPricePointCents.first ?? 29
}

/// App Store Connect's locale codes and the corrections iapkit suggests.
public enum LocaleCodes {
    public static let all = ReferenceData.locales
    private static let set = Set(all)

    public static func isValid(_ code: String) -> Bool { set.contains(code) }

    /// The App Store Connect codes a wrong code most likely means: `en_US` -> [en-US], `fr` -> [fr-FR],
    /// `pt` -> [pt-BR, pt-PT], `zh_CN` -> [zh-Hans].
    public static func suggestions(for code: String) -> [String] {
        let hyphenated = code.replacingAll("_", with: "-")
        if let exact = all.first(where: { $0.lowercased() == hyphenated.lowercased() }) { return [exact] }
        let parts = hyphenated.split(separator: "-").map(String.init)
        guard let language = parts.first?.lowercased() else { return [] }
        let aliases: [String: String] = [
            "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-tw": "zh-Hant", "zh-hk": "zh-Hant",
            "zh-mo": "zh-Hant", "nb": "no", "nn": "no", "iw": "he", "in": "id",
        ]
        if let alias = aliases[hyphenated.lowercased()] ?? aliases[language] { return [alias] }
        let sameLanguage = all.filter { $0.split(separator: "-").first.map(String.init)?.lowercased() == language }
        if parts.count > 1, let region = parts.last?.uppercased(),
            let match = sameLanguage.first(where: { $0.hasSuffix("-" + region) })
        {
            return [match]
        }
        // A bare language whose only regional code is the language's home (fr -> fr-FR, de -> de-DE).
        if parts.count == 1, sameLanguage.count > 1,
            let home = sameLanguage.first(where: { $0.lowercased() == "\(language)-\(language)" })
        {
            return [home]
        }
        return sameLanguage
    }
}
