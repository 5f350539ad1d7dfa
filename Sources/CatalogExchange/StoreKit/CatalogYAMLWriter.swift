import IAPCatalog
import IAPCore
import Yams

/// Writes a catalog as the YAML a person would write: keys in the order of the starter catalog, values quoted
/// only where a YAML reader could take them for something else. Emitted through Yams.
public enum CatalogYAMLWriter {
    public static func write(_ catalog: Catalog, header: String? = nil) throws(IAPKitError) -> String {
        var root: [(String, Node)] = [("schemaVersion", number(1))]
        root.append(("app", mapping([("bundleId", text(catalog.app.bundleID)), ("primaryLocale", text(catalog.app.primaryLocale))])))
        if !catalog.retiredProductIDs.isEmpty {
            root.append(("retiredProductIds", Node.sequence(.init(catalog.retiredProductIDs.map { text($0.value) }))))
        }
        if !catalog.products.isEmpty { root.append(("products", Node.sequence(.init(catalog.products.map(product))))) }
        if !catalog.subscriptionGroups.isEmpty {
            root.append(("subscriptionGroups", Node.sequence(.init(catalog.subscriptionGroups.map(group)))))
        }
        if let policies = catalog.appPolicies {
            var fields: [(String, Node?)] = [("eula", policies.eula.map(text))]
            if !policies.policies.isEmpty {
                fields.append(("policies", Node.sequence(.init(policies.policies.map {
                    mapping([("locale", text($0.locale)), ("text", $0.text.map(text)), ("url", $0.url.map(text))])
                }))))
            }
            root.append(("appPolicies", mapping(fields)))
        }
        if let settings = catalog.storeKit, settings.storefront != nil || settings.locale != nil {
            root.append(("storeKit", mapping([("storefront", settings.storefront.map(text)), ("locale", settings.locale.map(text))])))
        }
        do {
            let body = try Yams.serialize(node: Node.mapping(.init(root.map { (text($0.0), $0.1) })), indent: 2, width: -1,
                                          allowUnicode: true, sortKeys: false)
            return (header ?? "") + body
        } catch {
            throw .io(path: "catalog", reason: "could not write YAML: \(error)")
        }
    }

    static func product(_ product: Product) -> Node {
        var fields: [(String, Node?)] = [("productId", text(product.productID)), ("referenceName", text(product.referenceName))]
        if product.isSubscription {
            fields += [("period", text(product.period)), ("groupLevel", product.groupLevel.map(number))]
        } else {
            fields.append(("type", text(product.type?.rawValue)))
        }
        fields.append(("price", product.price.map { priceNode($0) } ?? product.tier.map { _ in nil } ?? nil))
        if product.price == nil, let tier = product.tier { fields.append(("tier", number(tier))) }
        if product.familySharable == true { fields.append(("familySharable", boolean(true))) }
        fields += offers(introductory: product.introductoryOffer, promotional: product.promotionalOffers,
                         codes: product.offerCodes, winBack: product.winBackOffers)
        if !product.billingPlans.isEmpty { fields.append(("billingPlans", Node.sequence(.init(product.billingPlans.map(billingPlan))))) }
        fields.append(("localizations", Node.sequence(.init(product.localizations.map(localization)))))
        if let review = product.review {
            fields.append(("review", mapping([("note", review.note.map(text)), ("screenshot", review.screenshot.map(text))])))
        }
        if let folder = product.hostedContent { fields.append(("hostedContent", text(folder))) }
        if let availability = product.availability {
            fields.append(("availability", mapping([
                ("territories", availability.territories.map { Node.sequence(.init($0.map { text($0) })) }),
                ("availableInNewTerritories", availability.availableInNewTerritories.map(boolean)),
            ])))
        }
        return mapping(fields)
    }

    static func group(_ group: SubscriptionGroup) -> Node {
        mapping([
            ("referenceName", text(group.referenceName)),
            ("localizations", group.localizations.isEmpty ? nil : Node.sequence(.init(group.localizations.map {
                mapping([("locale", text($0.locale)), ("name", text($0.name)), ("customAppName", $0.customAppName.map(text))])
            }))),
            ("subscriptions", Node.sequence(.init(group.subscriptions.map(product)))),
        ])
    }

    static func localization(_ localization: Localization) -> Node {
        mapping([("locale", text(localization.locale)), ("name", text(localization.name)),
                 ("description", localization.description.map(text))])
    }

    /// The offer keys a subscription and a billing plan share, each only when present.
    static func offers(introductory: Offer?, promotional: [Offer], codes: [Offer], winBack: [Offer]) -> [(String, Node?)] {
        var fields: [(String, Node?)] = []
        if let introductory { fields.append(("introductoryOffer", offer(introductory))) }
        for (key, offers) in [("promotionalOffers", promotional), ("offerCodes", codes), ("winBackOffers", winBack)] where !offers.isEmpty {
            fields.append((key, Node.sequence(.init(offers.map(offer)))))
        }
        return fields
    }

    static func billingPlan(_ plan: BillingPlan) -> Node {
        var fields: [(String, Node?)] = [("planType", text(plan.type?.rawValue ?? plan.typeText)),
                                         ("price", plan.price.map(priceNode)),
                                         ("commitmentPrice", plan.commitmentPrice.map(priceNode)),
                                         ("enabled", plan.enabled.map(boolean))]
        fields += offers(introductory: plan.introductoryOffer, promotional: plan.promotionalOffers, codes: plan.offerCodes,
                         winBack: plan.winBackOffers)
        return mapping(fields)
    }

    static func offer(_ offer: Offer) -> Node {
        var fields: [(String, Node?)] = []
        if offer.kind == .promotional || offer.kind == .winBack { fields.append(("offerId", offer.offerID.map(text))) }
        if offer.kind != .introductory { fields.append(("referenceName", offer.referenceName.map(text))) }
        fields += [("mode", text(offer.mode?.rawValue)), ("duration", offer.duration.map(text)),
                   ("periods", offer.periods.map(number)), ("price", offer.price.map(priceNode))]
        if let eligibility = offer.eligibility { fields.append(("eligibility", Node.sequence(.init(eligibility.map { text($0.rawValue) })))) }
        if let stackable = offer.stackable { fields.append(("stackable", boolean(stackable))) }
        return mapping(fields)
    }

    // MARK: Scalars

    static func mapping(_ fields: [(String, Node?)]) -> Node {
        Node.mapping(.init(fields.compactMap { key, value in value.map { (text(key), $0) } }))
    }

    // Yams emits every scalar with implicit tags; an explicit tag only spares it resolving each one by regex.
    nonisolated(unsafe) static let plainTag = Tag(.str)
    static func number(_ value: Int) -> Node { Node.scalar(.init(String(value), plainTag, .plain)) }
    static func boolean(_ value: Bool) -> Node { Node.scalar(.init(value ? "true" : "false", plainTag, .plain)) }
    /// The text as written (`0.5`, `10`), so a price read from a StoreKit file is written back unchanged.
    static func priceNode(_ price: Price) -> Node { Node.scalar(.init(price.text, plainTag, .plain)) }

    /// Plain when unambiguous; double-quoted when a YAML 1.1 or 1.2 reader could take it for a number, a boolean,
    /// null, or structure.
    static func text(_ value: String?) -> Node {
        let string = value ?? ""
        return Node.scalar(.init(string, plainTag, needsQuotes(string) ? .doubleQuoted : .plain))
    }

    static let reservedWords: Set<String> = ["y", "yes", "n", "no", "true", "false", "on", "off", "null", "~"]

    /// One pass over the text: an import of 10,000 products asks this about 100,000 times.
    static func needsQuotes(_ string: String) -> Bool {
        let scalars = string.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return true }
        if first == " " || last == " " || first == "\t" || last == "\t" { return true }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return true }
        if scalars.count <= 5, reservedWords.contains(string.lowercased()) { return true }
        var numberLike = true
        var previous: Unicode.Scalar = " "
        for scalar in scalars {
            switch scalar {
            case "\n", "\t", "\r": return true
            case " " where previous == ":": return true
            case "#" where previous == " ": return true
            case "0"..."9", ".", "_", ":", "+", "-", "e", "E": break
            default: numberLike = false
            }
            previous = scalar
        }
        if previous == ":" { return true }
        return numberLike && (Double(string) != nil || scalars.allSatisfy { $0 == "." || $0 == "_" || $0 == ":" || ("0"..."9").contains($0) })
    }
}
