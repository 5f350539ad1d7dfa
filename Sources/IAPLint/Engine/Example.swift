import IAPCore
/// Builds example catalogs for rule documentation and tests: a valid catalog with one part replaced.
public enum Example {
    public static let header = """
        schemaVersion: 1
        app:
          bundleId: com.example.app
          primaryLocale: en-US

        """

    /// A catalog whose only product is a clean non-consumable plus `fields` (two-space indented keys;
    /// a key given in `fields` replaces the default one).
    public static func product(_ fields: String, type: String = "non-consumable") -> String {
        header + "products:\n"
            + item(
                defaults: [
                    ("productId", "com.example.app.one"), ("referenceName", "One"), ("type", type), ("price", "0.99"),
                    ("localizations", "\n    - locale: en-US\n      name: One\n      description: The first thing."),
                    ("review", "\n    note: Tap One.\n    screenshot: shot.png"),
                ], fields: fields)
    }

    /// A catalog with one group holding one clean monthly subscription plus `fields`.
    public static func subscription(_ fields: String) -> String {
        header + """
            subscriptionGroups:
              - referenceName: Club
                localizations:
                  - locale: en-US
                    name: Club
                subscriptions:

            """
            + item(
                defaults: [
                    ("productId", "com.example.app.club.monthly"), ("referenceName", "Club Monthly"), ("period", "P1M"),
                    ("groupLevel", "1"), ("price", "4.99"),
                    ("localizations", "\n    - locale: en-US\n      name: Club Monthly\n      description: Every month."),
                    ("review", "\n    note: Tap Club.\n    screenshot: shot.png"),
                ], fields: fields, indent: "      ")
    }

    /// A whole catalog after the standard header.
    public static func catalog(_ body: String) -> String { header + body }

    private static func item(defaults: [(String, String)], fields: String, indent: String = "") -> String {
        let given = fields.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let givenKeys = Set(
            given.compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return String(line.dropFirst(2)).replacingAll("↓", with: "").split(separator: ":").first.map(String.init)
            })
        var lines: [String] = []
        for (key, value) in defaults where !givenKeys.contains(key) {
            lines.append("  \(key):" + (value.hasPrefix("\n") ? value : " " + value))
        }
        lines += given
        var text = ""
        for (index, line) in lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            text += indent + (index == 0 ? "- " + line.dropFirst(2) : String(line)) + "\n"
        }
        return text
    }
}
