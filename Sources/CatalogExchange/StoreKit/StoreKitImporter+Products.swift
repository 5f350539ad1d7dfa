import IAPCatalog
import IAPCore

/// Products and subscription groups: their names, localizations and prices, in the storefront's currency.
extension StoreKitImporter.Reader {
    /// Places a price Xcode wrote in the storefront's currency: the USD `price` in the USA, else the storefront
    /// territory's own price. Free is free in every currency.
    mutating func place(_ read: Price?, owner: String, price: inout Price?, territoryPrices: inout [TerritoryPrice]) {
        guard let read else { return }
        guard let territory = foreignStorefront, read.cents != 0 else { price = read; return }
        territoryPrices.append(TerritoryPrice(path: .root, territory: territory, price: read))
        if territoryPricedProducts.last != owner { territoryPricedProducts.append(owner) }
    }

    /// The product's own price as the file wrote it, in the storefront's currency.
    func storefrontPrice(of product: Product) -> String? {
        guard let territory = foreignStorefront else { return product.price?.text }
        return product.territoryPrices.first { $0.territory == territory }?.price?.text ?? product.price?.text
    }

    /// Runs for every localization of every product: paths and the owner's name are built only for a message.
    mutating func readLocalizations(
        _ value: JSONNode?, path: @autoclosure () -> String, owner: @autoclosure () -> String,
        group: Bool
    ) throws(IAPKitError) -> [Localization] {
        var result: [Localization] = []
        for (index, item) in try array(value, path(), optional: true).enumerated() {
            func itemPath() -> String { "\(path())[\(index)]" }
            unread(try object(item, itemPath()), known: Self.localizationKeys, at: "localizations", owner: owner())
            let description = try string(item["description"], itemPath() + ".description", optional: true)
            let name = try string(item["displayName"], itemPath() + ".displayName", optional: true)
            let code = locale(try string(item["locale"], itemPath() + ".locale"), owner())
            if group {
                if let description, !description.isEmpty {
                    notes.append(
                        "\(owner()): the \(code ?? "") group description \"\(description)\" is not part of App Store Connect's group localizations; dropped"
                    )
                }
                result.append(Localization(path: .root, locale: code, name: name))
            } else {
                result.append(Localization(path: .root, locale: code, name: name, description: description))
            }
        }
        return result
    }

    /// Xcode writes `0.99`, `0.5`, `10` and, on some offers, an empty string; the text is kept as written so
    /// export gives it back unchanged. An empty price is no price.
    func price(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> Price? {
        guard let text = try string(value, path(), optional: true), !text.isEmpty else { return nil }
        guard let price = Price(text: text) else { throw fail(path(), "`\(text)` is not a price") }
        return price
    }

    static func isEmptyPrice(_ value: JSONNode?) -> Bool { value?.string?.isEmpty == true }

    mutating func readProduct(_ item: JSONNode, path: String, forcedType: ProductType?, index: Int) throws(IAPKitError) -> Product {
        _ = try object(item, path)
        let id = try string(item["productID"], path + ".productID") ?? ""
        unread(item, known: Self.productKeys, at: "products", owner: "`\(id)`")
        placed(id, at: path)
        var product = Product(path: productsPath.index(index), productID: id)
        let type = try string(item["type"], path + ".type")
        switch forcedType
            ?? (type == "Consumable"
                ? .consumable
                : type == "NonConsumable"
                    ? .nonConsumable
                    : type == "NonRenewingSubscription" ? .nonRenewingSubscription : nil)
        {
        case let known?: product.type = known
        case nil: throw fail(path + ".type", "`\(type ?? "")` is not a StoreKit product type")
        }
        try fillCommon(&product, item, path: path)
        return product
    }

    mutating func fillCommon(_ product: inout Product, _ item: JSONNode, path: String) throws(IAPKitError) {
        let id = product.productID ?? ""
        if let name = try string(item["referenceName"], path + ".referenceName", optional: true), !name.isEmpty {
            product.referenceName = name
        } else {
            product.referenceName = id
            notes.append("`\(id)`: referenceName was empty; set to the product ID")
        }
        place(
            try price(item["displayPrice"], path + ".displayPrice"), owner: id, price: &product.price,
            territoryPrices: &product.territoryPrices)
        if Self.isEmptyPrice(item["displayPrice"]) { notes.append("`\(id)`: displayPrice was empty; set its `price`") }
        if try bool(item["familyShareable"], path + ".familyShareable") == true { product.familySharable = true }
        product.localizations = try readLocalizations(item["localizations"], path: path + ".localizations", owner: "`\(id)`", group: false)
    }

    mutating func readGroup(_ item: JSONNode, path: String, index: Int) throws(IAPKitError) -> SubscriptionGroup {
        var group = try readGroupShell(item, path: path, index: index)
        let subscriptionsPath = group.path.key("subscriptions")
        for (subIndex, sub) in try array(item["subscriptions"], path + ".subscriptions").enumerated() {
            group.subscriptions.append(
                try readSubscription(sub, path: "\(path).subscriptions[\(subIndex)]", in: subscriptionsPath, index: subIndex))
        }
        return group
    }

    /// A group without its subscriptions.
    mutating func readGroupShell(_ item: JSONNode, path: String, index: Int) throws(IAPKitError) -> SubscriptionGroup {
        _ = try object(item, path)
        let name = try string(item["name"], path + ".name") ?? ""
        unread(item, known: Self.groupKeys, at: "subscription groups", owner: "group `\(name)`")
        var group = SubscriptionGroup(path: CatalogPath.root.key("subscriptionGroups").index(index), referenceName: name)
        group.localizations = try readLocalizations(item["localizations"], path: path + ".localizations", owner: "group `\(name)`", group: true)
        return group
    }
}
