import CatalogSync
import Foundation

/// One edit of a managed field in a pulled catalog's text: the line it changes (1-based), the line plan must locate
/// the change at, and the resources that change may name.
struct CatalogEdit: CustomStringConvertible {
    var what: String
    /// The 0-based index of the line replaced, and its new text.
    var index: Int
    var replacement: String
    /// Where plan must locate the change (1-based).
    var line: Int
    var resources: Set<ResourceName>

    var description: String { "\(what) (line \(index + 1): `\(replacement.trimmingCharacters(in: .whitespaces))`)" }

    func apply(to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        lines[index] = replacement
        return lines.joined(separator: "\n")
    }

    /// Edits a user would make, each of one managed field: a product's name, an in-app purchase's USD price, a
    /// win-back offer's priority, a base territory. Products waiting for review are left alone (App Store Connect
    /// opens no version for their texts until review ends).
    static func candidates(in text: String, classes: [String: [String]]) -> [CatalogEdit] {
        let lines = text.components(separatedBy: "\n")
        var edits: [CatalogEdit] = []
        var product: String?
        var familyShared = false
        for (index, line) in lines.enumerated() {
            if let id = line.firstMatch(of: #/^\s*- productId: (\S+)$/#)?.1 {
                product = String(id)
                familyShared = false
            }
            if line.hasSuffix(" familySharable: true") { familyShared = true }
            guard let product, !(classes[product] ?? []).contains("state:in-review") else { continue }
            let previous = index > 0 ? lines[index - 1] : ""
            if previous.contains("- locale: "), let match = line.firstMatch(of: #/^(\s+)name: ([A-Za-z0-9 .]{1,20})$/#) {
                edits.append(
                    CatalogEdit(
                        what: "the name of \(product)", index: index, replacement: "\(match.1)name: \(match.2) Plus",
                        line: index + 1, resources: [.inAppPurchaseLocalization, .subscriptionLocalization, .subscriptionGroupLocalization]))
            }
            if let match = line.firstMatch(of: #/^  price: ([0-9]{1,2})\.99$/#), let dollars = Int(match.1) {
                edits.append(
                    CatalogEdit(
                        what: "the USD price of \(product)", index: index, replacement: "  price: \(dollars + 1).99",
                        line: index + 1, resources: [.inAppPurchasePriceSchedule]))
            }
            if let match = line.firstMatch(of: #/^(\s+)priority: (high|normal)$/#) {
                edits.append(
                    CatalogEdit(
                        what: "a win-back offer's priority of \(product)", index: index,
                        replacement: "\(match.1)priority: \(match.2 == "high" ? "normal" : "high")", line: index + 1,
                        resources: [.winBackOffer]))
            }
            if line == "  availability:", lines.count > index + 2, lines[index + 1] == "    territories:",
                !block(of: index, in: lines).contains("  offerCodes:")
            {
                // One more storefront for an in-app purchase (its offer codes, priced where it is sold, would follow).
                let listed = lines[(index + 2)...].prefix { $0.hasPrefix("    - ") }.map { String($0.dropFirst(6)) }
                if let added = RoundTripTests.storefronts.first(where: { !listed.contains($0) }), let last = listed.last {
                    edits.append(
                        CatalogEdit(
                            what: "the territories of \(product)", index: index + 1 + listed.count,
                            replacement: "    - \(last)\n    - \(added)", line: index + 2,
                            resources: [.inAppPurchaseAvailability]))
                }
            }
            if let match = line.firstMatch(of: #/^(\s+)multiSeat: (true|false)$/#), !familyShared {
                // Organizations' seats on or off (a family-shared subscription's stay off).
                edits.append(
                    CatalogEdit(
                        what: "the multiseat setting of \(product)", index: index,
                        replacement: "\(match.1)multiSeat: \(match.2 == "true" ? "false" : "true")", line: index + 1,
                        resources: [.subscription]))
            }
            if let match = line.firstMatch(of: #/^  baseTerritory: ([A-Z]{3})$/#) {
                // Another territory the product prices by hand becomes the base.
                let priced = lines[(index + 1)...].prefix { $0.hasPrefix("    ") || $0 == "  territoryPrices:" }
                    .compactMap { $0.firstMatch(of: #/^    ([A-Z]{3}): /#).map { String($0.1) } }
                if let other = priced.first(where: { $0 != String(match.1) }) {
                    edits.append(
                        CatalogEdit(
                            what: "the base territory of \(product)", index: index, replacement: "  baseTerritory: \(other)",
                            line: index + 1, resources: [.inAppPurchasePriceSchedule]))
                }
            }
        }
        return edits
    }

    /// The lines of the product around line `index`.
    static func block(of index: Int, in lines: [String]) -> ArraySlice<String> {
        let start = lines[...index].lastIndex { $0.hasPrefix("- productId: ") } ?? index
        let end =
            lines[(index + 1)...].firstIndex {
                $0.hasPrefix("- ") || $0.hasPrefix("subscriptionGroups:") || !$0.hasPrefix(" ") && !$0.isEmpty && !$0.hasPrefix("#")
            } ?? lines.count
        return lines[start..<end]
    }
}
