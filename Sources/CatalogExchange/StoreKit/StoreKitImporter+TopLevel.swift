import IAPCatalog
import IAPCore

/// The file's top level: its format version, the simulator settings, the product lists, the app and its policies, and
/// the notes on what the catalog leaves out.
extension StoreKitImporter.Reader {
    mutating func read(_ root: JSONNode, bundleID: String?) throws(IAPKitError) -> StoreKitImporter.Result {
        _ = try object(root, "$")
        let versionObject = try object(root["version"], "$.version")
        let major = try int(versionObject["major"], "$.version.major") ?? 0
        let minor = try int(versionObject["minor"], "$.version.minor") ?? 0
        guard let format = StoreKitExporter.FormatVersion(major: major, minor: minor) else {
            throw fail(
                "$.version",
                "format version \(major).\(minor) is not one iapkit reads (\(StoreKitExporter.FormatVersion.range)); "
                    + "save the file from an Xcode that writes one of those, or use an iapkit that reads \(major).\(minor)")
        }
        unread(root, known: Self.rootKeys, at: "the file", owner: nil)
        var catalog = Catalog(file: "catalog.yaml")
        // Settings first: the storefront says which currency every price below is in.
        let settings = try root["settings"].map { settings throws(IAPKitError) in try object(settings, "$.settings") }
        let storefront = try string(settings?["_storefront"], "$.settings._storefront", optional: true)
        let settingsLocale = try string(settings?["_locale"], "$.settings._locale", optional: true)
        let appID = try string(settings?["_applicationInternalID"], "$.settings._applicationInternalID", optional: true)
        if let storefront, storefront != "USA" { foreignStorefront = storefront }
        var products: [Product] = []
        let lists = try [("products", ProductType?.none), ("nonRenewingSubscriptions", .nonRenewingSubscription)].map {
            (key, type) throws(IAPKitError) in (key, type, try array(root[key], "$.\(key)", optional: key != "products"))
        }
        products.reserveCapacity(lists.reduce(0) { $0 + $1.2.count })
        for (key, type, items) in lists {
            for (index, item) in items.enumerated() {
                products.append(try readProduct(item, path: "$.\(key)[\(index)]", forcedType: type, index: products.count))
            }
        }
        catalog.products = products
        var groups: [SubscriptionGroup] = []
        for (index, item) in try array(root["subscriptionGroups"], "$.subscriptionGroups", optional: true).enumerated() {
            groups.append(try readGroup(item, path: "$.subscriptionGroups[\(index)]", index: index))
        }
        catalog.subscriptionGroups = groups

        let carried: Set<String> = ["_storefront", "_locale", "_applicationInternalID"]
        let dropped = (settings?.keys ?? []).filter { !carried.contains($0) }
        if !dropped.isEmpty {
            notes.append(
                "simulator settings not carried into the catalog (`export storekit` over this file keeps them; "
                    + "otherwise set them in Xcode's StoreKit configuration editor): "
                    + dropped.sorted().joined(separator: ", "))
        }
        if let foreignStorefront, !territoryPricedProducts.isEmpty {
            let currency = Storefronts.currencies[foreignStorefront].map { "in \($0), " } ?? ""
            notes.append(
                "prices are \(currency)the currency of the simulator storefront \(foreignStorefront): they became "
                    + "\(foreignStorefront) territory prices (`territoryPrices`), not USD; set each product's USD `price` ("
                    + territoryPricedProducts.map { "`\($0)`" }.joined(separator: ", ") + ")")
        }
        if !unreadKeys.isEmpty {
            notes.append(
                "not carried into the catalog (`export storekit` over this file keeps them): "
                    + unreadKeys.map { entry in
                        entry.owners.isEmpty ? entry.key : entry.key + " (" + entry.owners.joined(separator: ", ") + ")"
                    }.joined(separator: "; "))
        }
        if root["subscriptionOffersKeyPair"] != nil {
            notes.append("subscriptionOffersKeyPair dropped: a signing key does not belong in a reviewed catalog")
        }

        // The most used locale; ties go to en-US, then alphabetical, so the guess is stable. Counted in place: a
        // list of every product (`allProducts`) would copy them all.
        var counts: [String: Int] = [:]
        func count(_ localizations: [Localization]) {
            for localization in localizations { if let locale = localization.locale { counts[locale, default: 0] += 1 } }
        }
        for product in catalog.products { count(product.localizations) }
        for group in groups {
            count(group.localizations)
            for subscription in group.subscriptions { count(subscription.localizations) }
        }
        let mostCommon = counts.keys.sorted { a, b in
            counts[a]! != counts[b]! ? counts[a]! > counts[b]! : (a == "en-US") != (b == "en-US") ? a == "en-US" : a < b
        }.first
        // The primary locale is the language the products are written in; the simulator's `_locale` is only the
        // language its store sheet shows, kept as `storeKit.locale` when it differs.
        let simulatorLocale = settingsLocale.flatMap { StoreKitLocale.catalog(fromStoreKit: $0) }
        let primary = mostCommon ?? simulatorLocale ?? "en-US"
        // Guessed only when it is needed: with thousands of products the guess is not free.
        let guessedBundleID =
            bundleID == nil
            ? inferBundleID(catalog.products.compactMap(\.productID) + groups.flatMap { $0.subscriptions.compactMap(\.productID) }) : nil
        catalog.app = App(bundleID: bundleID ?? guessedBundleID ?? App.placeholderBundleID, primaryLocale: primary)
        // A synced file names the app by App Store Connect's id for it; one edited by hand may hold any text, which the
        // catalog's `appId` does not take.
        if let appID, !appID.isEmpty {
            if Self.isAppleID(appID) {
                catalog.app.appID = appID
            } else {
                notes.append(
                    "the application ID `\(appID)` (settings._applicationInternalID) is not an App Store Connect app ID, "
                        + "which is digits: left out of the catalog (`export storekit` over this file keeps it); the asc "
                        + "commands find the app by its bundle ID, or set `appId` to the app's Apple ID")
            }
        }
        let storeKitLocale = simulatorLocale == primary ? nil : simulatorLocale
        // Export writes the file's own format again; 4.0, its default, needs no setting.
        let formatVersion = format == .v4_0 ? nil : format.rawValue
        if foreignStorefront != nil || storeKitLocale != nil || formatVersion != nil {
            catalog.storeKit = StoreKitSettings(path: .root, storefront: foreignStorefront, locale: storeKitLocale)
            catalog.storeKit?.formatVersion = formatVersion
        }
        if let policiesValue = root["appPolicies"] {
            let policiesObject = try object(policiesValue, "$.appPolicies")
            unread(policiesObject, known: Self.policyKeys, at: "appPolicies", owner: nil)
            let eula = try string(policiesObject["eula"], "$.appPolicies.eula", optional: true)
            var policies: [AppPolicies.Policy] = []
            for (index, item) in try array(policiesObject["policies"], "$.appPolicies.policies", optional: true).enumerated() {
                let path = "$.appPolicies.policies[\(index)]"
                unread(try object(item, path), known: Self.policyKeys, at: "appPolicies", owner: nil)
                let text = try string(item["policyText"], path + ".policyText", optional: true) ?? ""
                let url = try string(item["policyURL"], path + ".policyURL", optional: true) ?? ""
                guard !text.isEmpty || !url.isEmpty else { continue }
                policies.append(
                    AppPolicies.Policy(
                        path: .root, locale: locale(try string(item["locale"], path + ".locale"), "app policy"),
                        text: text.isEmpty ? nil : text, url: url.isEmpty ? nil : url))
            }
            if !(eula ?? "").isEmpty || !policies.isEmpty {
                catalog.appPolicies = AppPolicies(path: .root, eula: (eula ?? "").isEmpty ? nil : eula, policies: policies)
            }
        }
        if bundleID == nil, let guessedBundleID {
            notes.append("bundle ID guessed as `\(guessedBundleID)` from the product IDs; pass --bundle-id to set it")
        } else if bundleID == nil {
            notes.append(
                "bundle ID set to the placeholder `\(App.placeholderBundleID)`: the product IDs share no prefix; "
                    + "pass --bundle-id with the app's bundle ID")
        }
        return StoreKitImporter.Result(catalog: catalog, notes: notes)
    }

    /// The product IDs' common prefix of at least two components, nil when they share none.
    func inferBundleID(_ ids: [String]) -> String? {
        guard var prefix = ids.first.map({ Array($0.split(separator: ".").map(String.init).dropLast()) }) else { return nil }
        var joined = prefix.joined(separator: ".") + "."
        for id in ids.dropFirst() {
            if prefix.isEmpty { break }
            // The common case, told from the bytes (in ASCII a period is always a character of its own): the ID
            // starts with the prefix and a period, and names more after it.
            let utf8 = id.utf8
            if utf8.allSatisfy({ $0 < 0x80 }), utf8.starts(with: joined.utf8),
                utf8.dropFirst(joined.utf8.count).contains(where: { $0 != UInt8(ascii: ".") })
            {
                continue
            }
            let parts = id.split(separator: ".").map(String.init)
            while !prefix.isEmpty && !(parts.count > prefix.count && Array(parts.prefix(prefix.count)) == prefix) { prefix.removeLast() }
            joined = prefix.joined(separator: ".") + "."
        }
        return prefix.count >= 2 ? prefix.joined(separator: ".") : nil
    }

    /// Whether `id` is App Store Connect's id for an app, its Apple ID: ASCII digits, as the catalog's schema has
    /// `appId` (`^[0-9]+$`).
    static func isAppleID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
