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

/// Writes a StoreKit configuration (`.storekit`) that Xcode opens and the simulator runs, in Xcode's exact layout.
/// Values go straight to the output bytes, each object's keys in Xcode's sorted order, with no tree in between.
public struct StoreKitExporter: Sendable {
    /// A format version Xcode writes, `MAJOR.MINOR`: every minor of majors 1 to 6 (Xcode 12 to Xcode 27) is read and
    /// written, each in its major's layout (1.0 has no identifier, non-renewing list or offer codes; 1.1 no offer codes).
    public struct FormatVersion: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        public let major: Int
        public let minor: Int

        public static let v1_0 = Self(1, 0), v1_1 = Self(1, 1), v1_2 = Self(1, 2), v2_0 = Self(2, 0), v3_0 = Self(3, 0),
            v4_0 = Self(4, 0), v5_0 = Self(5, 0), v6_3 = Self(6, 3)
        /// The versions Xcode releases introduced, each written in a test; any other minor of these majors is read too.
        public static let allCases: [FormatVersion] = [.v1_0, .v1_1, .v1_2, .v2_0, .v3_0, .v4_0, .v5_0, .v6_3]
        /// The majors iapkit reads and writes, and the newest version it knows.
        public static let majors = 1...6
        public static let newest = v6_3
        /// `1.0 to 6.3`, for messages.
        public static let range = "\(v1_0.rawValue) to \(newest.rawValue)"

        init(_ major: Int, _ minor: Int) { self.major = major; self.minor = minor }

        public init?(major: Int, minor: Int) {
            guard Self.majors.contains(major), minor >= 0, minor <= 99, major < Self.newest.major || minor <= Self.newest.minor else { return nil }
            self.init(major, minor)
        }

        public init?(rawValue: String) {
            let parts = rawValue.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                let major = Int(parts[0]), let minor = Int(parts[1])
            else { return nil }
            self.init(major: major, minor: minor)
        }

        public var rawValue: String { "\(major).\(minor)" }
        public var description: String { rawValue }

        /// 1.1 added the file's `identifier` and the non-renewing list; 1.2 offer codes.
        var hasIdentifier: Bool { major > 1 || minor >= 1 }
        var hasOfferCodes: Bool { major > 1 || minor >= 2 }
    }

    public var version: FormatVersion
    public init(version: FormatVersion = .v4_0) { self.version = version }

    public func export(_ catalog: Catalog) -> String { String(decoding: exportBytes(catalog), as: UTF8.self) }

    /// The configuration as UTF-8 bytes, ready to write.
    public func exportBytes(_ catalog: Catalog) -> [UInt8] {
        var layout: Layout?
        return export(catalog, layout: &layout)
    }

    /// Where the values of an exported file are in its bytes: each value of the top-level object but the product
    /// lists, each item of those lists with what names it, and each group's values and subscriptions.
    struct Layout {
        struct Group {
            var name: String
            var range: Range<Int>
            var values: [String: Range<Int>] = [:]
            var subscriptions: [(id: String, range: Range<Int>)] = []
        }
        var values: [String: Range<Int>] = [:]
        var lists: [String: [(id: String, range: Range<Int>)]] = [:]
        var groups: [Group] = []
    }

    /// The bytes and, when `layout` is not nil, where each value is in them.
    func export(_ catalog: Catalog, layout: inout Layout?) -> [UInt8] {
        let catalog = Self.inStorefrontCurrency(catalog)
        var out = XcodeJSONWriter(capacity: 4096 + catalog.products.count * 1024)
        let recording = layout != nil
        func record(_ key: String, _ range: Range<Int>) { if recording { layout?.values[key] = range } }
        func item(_ list: String, _ id: String?, _ range: Range<Int>) { if recording { layout?.lists[list, default: []].append((id ?? "", range)) } }
        out.beginObject()
        if version.major >= 4 {
            appPolicies(catalog, into: &out)
            record("appPolicies", out.lastClosed)
        }
        if version.hasIdentifier {
            out.key("identifier")
            let start = out.count
            out.string(StableID.hex8("catalog:" + (catalog.app.bundleID ?? "")))
            record("identifier", start..<out.count)
            out.key("nonRenewingSubscriptions")
            out.beginArray()
            if recording { layout?.lists["nonRenewingSubscriptions"] = [] }
            for product in catalog.products where product.type == .nonRenewingSubscription {
                self.product(product, into: &out)
                item("nonRenewingSubscriptions", product.productID, out.lastClosed)
            }
            out.endArray()
        }
        out.key("products")
        out.beginArray()
        if recording { layout?.lists["products"] = [] }
        // 1.0 lists non-renewing subscriptions with the other products.
        for product in catalog.products where product.type != .nonRenewingSubscription || !version.hasIdentifier {
            self.product(product, into: &out)
            item("products", product.productID, out.lastClosed)
        }
        out.endArray()
        settings(catalog, into: &out)
        record("settings", out.lastClosed)
        out.key("subscriptionGroups")
        out.beginArray()
        for item in catalog.subscriptionGroups {
            var groupLayout = recording ? Layout.Group(name: item.referenceName ?? "", range: 0..<0) : nil
            group(item, into: &out, layout: &groupLayout)
            if var groupLayout {
                groupLayout.range = out.lastClosed
                layout?.groups.append(groupLayout)
            }
        }
        out.endArray()
        out.key("version")
        version(into: &out)
        record("version", out.lastClosed)
        out.endObject()
        return out.finish()
    }

    private func version(into out: inout XcodeJSONWriter) {
        out.beginObject()
        out.key("major")
        out.int(version.major)
        out.key("minor")
        out.int(version.minor)
        out.endObject()
    }

    /// One product of a list as this version writes it, `depth` levels deep: in a subscription group (`groupID`) or
    /// not, with its prices in the simulator storefront's currency.
    func itemBytes(_ product: Product, storefront: String?, groupID: String?, depth: Int) -> [UInt8] {
        var out = XcodeJSONWriter(depth: depth)
        let product = Self.inStorefrontCurrency(product, storefront: storefront)
        if let groupID { subscription(product, groupID: groupID, into: &out) } else { self.product(product, into: &out) }
        return out.bytes
    }

    /// A group with no subscriptions, `depth` levels deep, and where each of its values is.
    func groupBytes(_ group: SubscriptionGroup, depth: Int) -> (bytes: [UInt8], values: [String: Range<Int>]) {
        var out = XcodeJSONWriter(depth: depth)
        var group = group
        group.subscriptions = []
        var layout: Layout.Group? = Layout.Group(name: "", range: 0..<0)
        self.group(group, into: &out, layout: &layout)
        return (out.bytes, layout?.values ?? [:])
    }

    /// What this format version cannot hold, each a sentence naming the subscription, for the caller to show.
    public func unsupported(in catalog: Catalog) -> [String] {
        var notes: [String] = []
        for product in catalog.allSubscriptions {
            let id = product.productID ?? ""
            if version.major < 4 && !(product.winBackOffers + product.billingPlans.flatMap(\.winBackOffers)).isEmpty {
                notes.append("`\(id)`: win-back offers need StoreKit format 4.0 or later; not written")
            }
            if !version.hasOfferCodes && !(product.offerCodes + product.billingPlans.flatMap(\.offerCodes)).isEmpty {
                notes.append("`\(id)`: offer codes need StoreKit format 1.2 or later; not written")
            }
            if version.major < 5, product.billingPlans.contains(where: { !$0.isPlainUpfront }) {
                let offers = product.billingPlans.flatMap(\.allOffers).count
                notes.append(
                    "`\(id)`: billing plans\(offers > 0 ? " and their \(offers) offer\(offers == 1 ? "" : "s")" : "") need StoreKit format 5.0; not written"
                )
            }
        }
        return notes
    }
}

extension BillingPlan {
    /// An enabled upfront plan at the subscription's own price: what every format before 5.0 implies.
    var isPlainUpfront: Bool {
        type == .upfront && price == nil && commitmentPrice == nil && enabled != false && allOffers.isEmpty
    }
}
