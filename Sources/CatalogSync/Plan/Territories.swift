import IAPCatalog

/// The App Store's territories (ISO 3166-1 alpha-3), for `export asc`, which plans against an app with no products
/// without asking App Store Connect. `push` and `plan` use the live list from `GET /v1/territories`; a test keeps
/// `Storefronts` equal to the table the project's fake App Store Connect serves.
public enum Territories {
    public static let all: [String] = Storefronts.codes

    /// A set of territories as a plan shows it: the codes when there are a few, else how many with a short digest,
    /// so that two sets of the same size still read differently.
    public static func summary(_ territories: [String]) -> String {
        let sorted = territories.sorted()
        guard sorted.count > 8 else { return sorted.joined(separator: ", ") }
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in sorted.joined(separator: ",").utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let digest = String(hash, radix: 16)
        return
            "\(sorted.count) territories (\(sorted.prefix(3).joined(separator: ", ")), …; #\(String(repeating: "0", count: 8 - digest.count) + digest))"
    }
}
