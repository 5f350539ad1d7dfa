#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every purchasable item of a catalog, products first and then each group's subscriptions, in file order, read in
/// place: no product is copied into a list of its own.
public struct ProductList: RandomAccessCollection, Sendable {
    private let products: [Product]
    private let groups: [SubscriptionGroup]
    /// Where each group's subscriptions start, counted from the first subscription.
    private let groupStarts: [Int]
    private let productCount: Int
    public let endIndex: Int

    public init(_ catalog: Catalog, subscriptionsOnly: Bool = false) {
        products = catalog.products
        groups = catalog.subscriptionGroups
        var starts: [Int] = []
        starts.reserveCapacity(groups.count)
        var total = 0
        for group in groups {
            starts.append(total)
            total += group.subscriptions.count
        }
        groupStarts = starts
        productCount = subscriptionsOnly ? 0 : products.count
        endIndex = productCount + total
    }

    public var startIndex: Int { 0 }

    /// How many threads share work done product by product (reading the products, running the product rules):
    /// one below 4,000 products, where starting threads costs more than it saves; above, as many as `requested`
    /// or the machine has, at most four; never more than there are `units` of work to share out.
    public static func threads(requested: Int?, products: Int, units: Int) -> Int {
        let wanted = requested ?? (products >= 4_000 ? Swift.min(ProcessInfo.processInfo.activeProcessorCount, 4) : 1)
        return Swift.max(1, Swift.min(wanted, units))
    }

    /// Hands each product at `positions` to `body`, in order. Rules check every product this way: `body` gets one
    /// copy of each product for all the rules, where a caller that read a product through the subscript once for
    /// each rule would copy the whole product each time (the accessor is not inlined into other modules).
    public func forEach(in positions: Range<Int>, _ body: (Product) -> Void) {
        var position = Swift.max(positions.lowerBound, 0)
        let end = Swift.min(positions.upperBound, endIndex)
        while position < Swift.min(end, productCount) {
            body(products[position])
            position += 1
        }
        guard position < end else { return }
        // Each group's subscriptions follow the last group's: skip the groups that end before `position`.
        var offset = position - productCount
        for (group, start) in zip(groups, groupStarts) where offset < start + group.subscriptions.count {
            var index = offset - start
            while index < group.subscriptions.count && position < end {
                body(group.subscriptions[index])
                index += 1
                offset += 1
                position += 1
            }
            if position >= end { return }
        }
    }

    /// Every product's ID, in order, and the hosted-content folder of each non-consumable that names one. Read
    /// field by field here, where the arrays are: a product handed out whole is copied first.
    public func identities() -> (productIDs: [String], contentFolders: [(folder: String, productID: String?)]) {
        var productIDs: [String] = []
        productIDs.reserveCapacity(endIndex)
        var folders: [(folder: String, productID: String?)] = []
        func read(_ list: UnsafeBufferPointer<Product>) {
            for index in list.indices {
                if let productID = list[index].productID { productIDs.append(productID) }
                if let folder = list[index].hostedContent, list[index].type == .nonConsumable {
                    folders.append((folder, list[index].productID))
                }
            }
        }
        if productCount > 0 { products.withUnsafeBufferPointer(read) }
        for group in groups.indices { groups[group].subscriptions.withUnsafeBufferPointer(read) }
        return (productIDs, folders)
    }

    /// The product at `position`. Another module reading one field through it copies the whole product first (the
    /// accessor is not inlined there): rules take products from `forEach(in:)`.
    public subscript(position: Int) -> Product {
        _read {
            if position < productCount {
                yield products[position]
            } else {
                let offset = position - productCount
                // The last group starting at or before `offset`; empty groups share a start with the next one.
                var low = 0, high = groupStarts.count - 1
                while low < high {
                    let middle = (low + high + 1) / 2
                    if groupStarts[middle] <= offset { low = middle } else { high = middle - 1 }
                }
                yield groups[low].subscriptions[offset - groupStarts[low]]
            }
        }
    }
}
