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
    }
}
