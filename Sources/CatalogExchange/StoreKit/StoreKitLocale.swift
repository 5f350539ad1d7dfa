import IAPCatalog

/// StoreKit configurations write Foundation locale identifiers (`en_US`, `zh_Hans`, `ar`); App Store Connect and
/// the catalog use its own codes (`en-US`, `zh-Hans`, `ar-SA`).
public enum StoreKitLocale {
    /// `en-US` -> `en_US`.
    public static func storeKit(fromCatalog code: String) -> String { swapping("-", for: "_", in: code) }

    /// `en_US` -> `en-US`; a bare language -> its only App Store Connect code (`ar` -> `ar-SA`, `fr` -> `fr-FR`);
    /// nil when no single code fits (the caller keeps the original and reports it).
    public static func catalog(fromStoreKit code: String) -> String? {
        let hyphenated = swapping("_", for: "-", in: code)
        if LocaleCodes.isValid(hyphenated) { return hyphenated }
        let suggestions = LocaleCodes.suggestions(for: code)
        return suggestions.count == 1 ? suggestions[0] : nil
    }

    /// One ASCII separator for another, without Foundation's string search: every exported localization asks.
    static func swapping(_ old: Unicode.Scalar, for new: Unicode.Scalar, in code: String) -> String {
        guard code.unicodeScalars.contains(old) else { return code }
        var result = String.UnicodeScalarView()
        for scalar in code.unicodeScalars { result.append(scalar == old ? new : scalar) }
        return String(result)
    }
}

/// Stable identifiers derived from names, so exporting twice gives identical files (no diff noise in review).
public enum StableID {
    /// 8 uppercase hex digits, as Xcode writes `internalID`, `identifier` and group ids.
    public static func hex8(_ seed: String) -> String {
        // FNV-1a over UTF-8, folded to 32 bits: small, fast and the same on every platform.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let text = String(folded, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}
