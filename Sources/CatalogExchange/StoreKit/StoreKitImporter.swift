#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCatalog
import IAPCore

/// Reads a StoreKit configuration of any format version (1.0-6.3, local or synced) into a catalog, and reports
/// what the catalog cannot hold as warnings naming the product.
public struct StoreKitImporter: Sendable {
    public struct Result: Sendable {
        public var catalog: Catalog
        /// What was dropped or guessed, each a sentence; shown as warnings.
        public var notes: [String]
    }

    public var bundleID: String?
    public init(bundleID: String? = nil) { self.bundleID = bundleID }

    public func importFile(_ path: String) throws(IAPKitError) -> Result {
        try importData(InputFile.read(path, limit: InputFile.Limit.json), file: path)
    }

    public func importData(_ data: Data, file: String) throws(IAPKitError) -> Result {
        // yajl reads the JSON into a compact arena; the reader takes from it only the values it needs.
        let parsed = data.withUnsafeBytes { bytes -> Swift.Result<StoreKitJSON, StoreKitJSON.Failure> in
            do throws(StoreKitJSON.Failure) { return .success(try StoreKitJSON(bytes)) } catch { return .failure(error) }
        }
        switch parsed {
        case let .success(json):
            // The nodes read below do not hold the document: `json` keeps it until the reading is done.
            defer { withExtendedLifetime(json) {} }
            var reader = Reader(file: file)
            return try reader.read(json.node, bundleID: bundleID)
        case let .failure(failure):
            throw .malformed(
                location: SourceLocation(file: file, line: failure.line, column: failure.column),
                reason: "is not valid JSON: \(failure.reason)")
        }
    }

    /// The import of a file yajl has already read.
    func importDocument(_ document: YAMLDocument, file: String) throws(IAPKitError) -> Result {
        var reader = Reader(file: file)
        return try reader.read(JSONNode(document: document, id: document.root), bundleID: bundleID)
    }

    struct Reader {
        let file: String
        var notes: [String] = []
        /// The simulator storefront when it is not the USA: Xcode writes prices in its currency, so they become that
        /// territory's prices, never the catalog's USD `price`.
        var foreignStorefront: String?
        var territoryPricedProducts: [String] = []
        /// Keys the catalog has no place for (`isEligible` of win-back offers), each with the products it was met on,
        /// in the order first met.
        var unreadKeys: [(key: String, owners: [String])] = []
        /// Each product ID's first place in the file, to name a second one.
        var firstPlace: [String: String] = [:]
        /// Each StoreKit locale met so far and its catalog code: a file names a few locales, each on thousands of
        /// localizations.
        var catalogLocales: [String: String?] = [:]
        /// The first sixteen of them, looked for before the dictionary: comparing a short code with a few others costs
        /// less than hashing it, once per localization.
        var recentLocales: [(code: String, catalog: String?)] = []

        /// `products`, the parent of every product's path: made once, not once per product.
        let productsPath = CatalogPath.root.key("products")

        init(file: String) { self.file = file }

        // Each kind's keys as a list: every object's keys are checked against its kind's in place, and a short list
        // is scanned faster than a set's buckets.
        static let rootKeys = [
            "appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings",
            "subscriptionGroups", "subscriptionOffersKeyPair", "version",
        ]
        static let productKeys = [
            "displayPrice", "familyShareable", "internalID", "localizations", "productID",
            "referenceName", "type",
        ]
        static let subscriptionKeys =
            productKeys + [
                "adHocOffers", "billingPlans", "codeOffers", "groupNumber",
                "introductoryOffer", "introductoryOffers", "recurringSubscriptionPeriod", "subscriptionGroupID", "winbackOffers",
            ]
        static let groupKeys = ["id", "localizations", "name", "subscriptions"]
        static let localizationKeys = ["description", "displayName", "locale"]
        static let offerKeys = [
            "billingPlanType", "displayPrice", "eligibility", "internalID", "isStackable",
            "numberOfPeriods", "offerID", "paymentMode", "referenceName", "subscriptionPeriod",
        ]
        static let planKeys = ["billingPlanType", "commitmentDisplayPrice", "displayPrice", "internalID", "isEnabled"]
        static let policyKeys = ["eula", "policies", "locale", "policyText", "policyURL"]
        /// Every key the reader knows, at any level.
        static let knownKeys = Set(rootKeys + subscriptionKeys + groupKeys + localizationKeys + offerKeys + planKeys + policyKeys)

        /// Records the keys of `object` the catalog has no place for, as `KEY of PLACE`, with the owner when there is one.
        /// Runs once per product, offer and localization, so the owner is built only when a key is unread.
        mutating func unread(_ object: JSONNode, known: [String], at place: String, owner: @autoclosure () -> String?) {
            guard object.isObject else { return }
            let items = object.nodes.items(object.id)
            for index in stride(from: items.startIndex, to: items.endIndex, by: 2) {
                // Nearly every key is known, and comparing its bytes in place makes no String and hashes nothing.
                if object.nodes.scalar(items[index], isOneOf: known) { continue }
                let key = object.nodes.string(items[index])
                guard !known.contains(key) else { continue }
                let name = "`\(key)` of \(place)"
                let owner = owner()
                if let index = unreadKeys.firstIndex(where: { $0.key == name }) {
                    if let owner, !unreadKeys[index].owners.contains(owner) { unreadKeys[index].owners.append(owner) }
                } else {
                    unreadKeys.append((name, owner.map { [$0] } ?? []))
                }
            }
        }

        /// `StoreKitLocale.catalog(fromStoreKit:)`, worked out once per locale.
        mutating func catalogLocale(_ code: String) -> String? {
            if let recent = recentLocales.first(where: { $0.code == code }) { return recent.catalog }
            let mapped: String?
            if let known = catalogLocales[code] {
                mapped = known
            } else {
                mapped = StoreKitLocale.catalog(fromStoreKit: code)
                catalogLocales[code] = mapped
            }
            if recentLocales.count < 16 { recentLocales.append((code, mapped)) }
            return mapped
        }

        /// A product ID met a second time: the catalog keeps both, which lint and export refuse.
        mutating func placed(_ id: String, at path: String) {
            if let first = firstPlace[id] {
                notes.append(
                    "`\(id)` is in the file twice (\(first) and \(path)); lint and export refuse a product ID twice: "
                        + "rename or remove one in the catalog")
            } else {
                firstPlace[id] = path
            }
        }

        func fail(_ path: String, _ reason: String) -> IAPKitError {
            .malformed(location: SourceLocation(file: file), reason: "at \(path): \(reason)")
        }

        func object(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> JSONNode {
            guard let value, value.isObject else { throw fail(path(), "expected an object") }
            return value
        }

        func array(_ value: JSONNode?, _ path: @autoclosure () -> String, optional: Bool = false) throws(IAPKitError) -> [JSONNode] {
            guard let value, !value.isNull else {
                if optional { return [] }
                throw fail(path(), "expected a list")
            }
            guard value.isArray else { throw fail(path(), "expected a list") }
            return value.items
        }

        func string(_ value: JSONNode?, _ path: @autoclosure () -> String, optional: Bool = false) throws(IAPKitError) -> String? {
            guard let value, !value.isNull else {
                if optional { return nil }
                throw fail(path(), "expected text")
            }
            guard let text = value.string else { throw fail(path(), "expected text") }
            return text
        }

        func int(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> Int? {
            guard let value, !value.isNull else { return nil }
            guard let number = value.int else { throw fail(path(), "expected a whole number") }
            return number
        }

        func bool(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> Bool? {
            guard let value, !value.isNull else { return nil }
            guard let flag = value.bool else { throw fail(path(), "expected true or false") }
            return flag
        }

        mutating func locale(_ code: String?, _ owner: @autoclosure () -> String) -> String? {
            guard let code else { return nil }
            if let mapped = catalogLocale(code) { return mapped }
            notes.append("\(owner()): locale `\(code)` has no single App Store Connect code; kept as written, choose one")
            return code
        }

        mutating func read(_ root: JSONNode, bundleID: String?) throws(IAPKitError) -> Result {
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
            catalog.app.appID = appID.flatMap { $0.isEmpty ? nil : $0 }
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
            return Result(catalog: catalog, notes: notes)
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

        mutating func readSubscription(_ item: JSONNode, path: String, in subscriptionsPath: CatalogPath, index: Int) throws(IAPKitError) -> Product {
            _ = try object(item, path)
            let id = try string(item["productID"], path + ".productID") ?? ""
            unread(item, known: Self.subscriptionKeys, at: "subscriptions", owner: "`\(id)`")
            placed(id, at: path)
            var product = Product(path: subscriptionsPath.index(index), productID: id, type: .autoRenewableSubscription)
            try fillCommon(&product, item, path: path)
            product.period = try string(item["recurringSubscriptionPeriod"], path + ".recurringSubscriptionPeriod")
            product.groupLevel = try int(item["groupNumber"], path + ".groupNumber")
            for (planIndex, plan) in try array(item["billingPlans"], path + ".billingPlans", optional: true).enumerated() {
                product.billingPlans.append(try readBillingPlan(plan, path: "\(path).billingPlans[\(planIndex)]", of: product))
            }
            // 5.0 lists one introductory offer per billing plan and repeats the first as `introductoryOffer`.
            var intros = try array(item["introductoryOffers"], path + ".introductoryOffers", optional: true)
                .enumerated().map { ($0.element, "\(path).introductoryOffers[\($0.offset)]") }
            if intros.isEmpty, let intro = item["introductoryOffer"], !intro.isNull { intros = [(intro, path + ".introductoryOffer")] }
            var offers: [(JSONNode, String, OfferKind)] = intros.map { ($0.0, $0.1, .introductory) }
            for (key, kind) in [("adHocOffers", OfferKind.promotional), ("codeOffers", .offerCode), ("winbackOffers", .winBack)] {
                for (offerIndex, offer) in try array(item[key], "\(path).\(key)", optional: true).enumerated() {
                    offers.append((offer, "\(path).\(key)[\(offerIndex)]", kind))
                }
            }
            for (offer, offerPath, kind) in offers {
                let planType = try billingPlanType(offer["billingPlanType"], offerPath + ".billingPlanType")
                let renewal = planType == .monthly ? "P1M" : product.period
                guard let read = try readOffer(offer, path: offerPath, kind: kind, of: product, renewal: renewal) else { continue }
                if planType == .upfront {
                    add(
                        read, to: &product.introductoryOffer, &product.promotionalOffers, &product.offerCodes,
                        &product.winBackOffers, owner: id)
                    continue
                }
                var index = product.billingPlans.firstIndex { $0.type == planType }
                if index == nil {
                    notes.append(
                        "`\(id)`: a \(kind.rawValue) names the \(planType.rawValue) billing plan, which the file does not list; the plan was added")
                    product.billingPlans.append(BillingPlan(path: .root, type: planType))
                    index = product.billingPlans.count - 1
                }
                var plan = product.billingPlans[index!]
                add(read, to: &plan.introductoryOffer, &plan.promotionalOffers, &plan.offerCodes, &plan.winBackOffers, owner: id)
                product.billingPlans[index!] = plan
            }
            return product
        }

        /// Files one offer under its kind; a second introductory offer for the same plan has nowhere to go.
        mutating func add(
            _ offer: Offer, to introductory: inout Offer?, _ promotional: inout [Offer], _ codes: inout [Offer],
            _ winBack: inout [Offer], owner: String
        ) {
            switch offer.kind {
            case .introductory:
                if introductory == nil {
                    introductory = offer
                } else {
                    notes.append("`\(owner)`: a second introductory offer for one billing plan dropped; a plan has one")
                }
            case .promotional: promotional.append(offer)
            case .offerCode: codes.append(offer)
            case .winBack: winBack.append(offer)
            }
        }

        /// StoreKit's `BILLED_UPFRONT` and `MONTHLY`; files before 5.0 have no plans, so absent means upfront.
        func billingPlanType(_ value: JSONNode?, _ path: @autoclosure () -> String) throws(IAPKitError) -> BillingPlanType {
            switch try string(value, path(), optional: true) {
            case nil, "BILLED_UPFRONT"?: return .upfront
            case "MONTHLY"?: return .monthly
            case let other?: throw fail(path(), "`\(other)` is not a StoreKit billing plan type (BILLED_UPFRONT, MONTHLY)")
            }
        }

        /// A billing plan, leaving out what equals its default so a plain upfront plan reads `planType: upfront`.
        mutating func readBillingPlan(_ item: JSONNode, path: String, of product: Product) throws(IAPKitError) -> BillingPlan {
            unread(try object(item, path), known: Self.planKeys, at: "billing plans", owner: "`\(product.productID ?? "")`")
            var plan = BillingPlan(path: .root, type: try billingPlanType(item["billingPlanType"], path + ".billingPlanType"))
            let price = try price(item["displayPrice"], path + ".displayPrice")
            if plan.type == .monthly || price?.text != storefrontPrice(of: product) {
                place(price, owner: product.productID ?? "", price: &plan.price, territoryPrices: &plan.territoryPrices)
            }
            let commitment = try self.price(item["commitmentDisplayPrice"], path + ".commitmentDisplayPrice")
            // A commitment price is USD only; in another storefront's currency it is left to its default.
            if foreignStorefront == nil, commitment?.text != plan.defaultCommitmentPrice(of: product)?.text { plan.commitmentPrice = commitment }
            if try bool(item["isEnabled"], path + ".isEnabled") == false { plan.enabled = false }
            return plan
        }

        /// `renewal` is how often the offer's plan bills: the subscription's period, or monthly for a monthly plan.
        mutating func readOffer(
            _ item: JSONNode, path: String, kind: OfferKind, of product: Product,
            renewal: String?
        ) throws(IAPKitError) -> Offer? {
            _ = try object(item, path)
            let id = product.productID ?? ""
            unread(item, known: Self.offerKeys, at: kind.rawValue + "s", owner: "`\(id)`")
            var offer = Offer(path: .root, kind: kind)
            let mode = try string(item["paymentMode"], path + ".paymentMode")
            let period = try string(item["subscriptionPeriod"], path + ".subscriptionPeriod", optional: true)
            let count = try int(item["numberOfPeriods"], path + ".numberOfPeriods") ?? 1
            switch mode {
            case "free":
                offer.mode = .freeTrial
                offer.duration = period.flatMap { Self.multiply($0, count) } ?? period
            case "payUpFront":
                offer.mode = .payUpFront
                offer.duration = period.flatMap { Self.multiply($0, count) } ?? period
            case "payAsYouGo":
                offer.mode = .payAsYouGo
                offer.periods = count
                if let period, period != renewal {
                    notes.append(
                        "`\(id)`: a pay-as-you-go \(kind.rawValue) billed every \(period) on a plan billed every \(renewal ?? "") was imported with the plan's period"
                    )
                }
            default:
                throw fail(path + ".paymentMode", "`\(mode ?? "")` is not a StoreKit payment mode (free, payAsYouGo, payUpFront)")
            }
            // A free trial is free whatever its price text says (Xcode writes none, or an empty one).
            if offer.mode != .freeTrial {
                place(
                    try price(item["displayPrice"], path + ".displayPrice"), owner: id, price: &offer.price,
                    territoryPrices: &offer.territoryPrices)
                if Self.isEmptyPrice(item["displayPrice"]) { notes.append("`\(id)`: a \(kind.rawValue) had an empty displayPrice; set its `price`") }
            }
            if kind == .promotional || kind == .winBack { offer.offerID = try string(item["offerID"], path + ".offerID", optional: true) }
            if kind != .introductory { offer.referenceName = try string(item["referenceName"], path + ".referenceName", optional: true) }
            if kind == .offerCode {
                offer.stackable = try bool(item["isStackable"], path + ".isStackable")
                offer.eligibility = try array(item["eligibility"], path + ".eligibility", optional: true).compactMap {
                    $0.string.flatMap(OfferEligibility.init(rawValue:))
                }.sorted { OfferEligibility.allCases.firstIndex(of: $0)! < OfferEligibility.allCases.firstIndex(of: $1)! }
            }
            return offer
        }

        /// `P1W` × 2 = `P2W`, `P1M` × 3 = `P3M`; nil when the product is not a period App Store Connect names.
        static func multiply(_ period: String, _ count: Int) -> String? {
            guard count > 1 else { return period }
            guard period.hasPrefix("P"), let unit = period.last, let amount = Int(period.dropFirst().dropLast()) else { return nil }
            let total = amount * count
            switch (unit, total) {
            case ("D", 3), ("W", 1), ("W", 2): return "P\(total)\(unit)"
            case ("D", 7): return "P1W"
            case ("D", 14): return "P2W"
            case ("M", 1), ("M", 2), ("M", 3), ("M", 6): return "P\(total)M"
            case ("M", 12): return "P1Y"
            default: return nil
            }
        }
    }
}
