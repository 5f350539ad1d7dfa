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

    /// Hands each product at `positions` to `body` in place, in order: rules check every product this way, with no
    /// copy of it. (Read through the subscript from another module, a product is copied whole for each field.)
    public func forEach(in positions: Range<Int>, _ body: (Product) -> Void) {
        var position = Swift.max(positions.lowerBound, 0)
        let end = Swift.min(positions.upperBound, endIndex)
        if position < Swift.min(end, productCount) {
            Self.visit(products, from: position, count: Swift.min(end, productCount) - position, body)
            position = Swift.min(end, productCount)
        }
        guard position < end else { return }
        // Each group's subscriptions follow the last group's: skip the groups that end before `position`.
        for group in groups.indices where position < productCount + groupStarts[group] + groups[group].subscriptions.count {
            let first = position - productCount - groupStarts[group]
            let count = Swift.min(groups[group].subscriptions.count - first, end - position)
            Self.visit(groups[group].subscriptions, from: first, count: count, body)
            position += count
            if position >= end { return }
        }
    }

    /// Hands `count` products of `list` from `first` on to `body`. A product passed straight from an array is copied
    /// first, every field retained and released again, since the compiler cannot tell that `body` leaves the array
    /// alone; passed from an exclusive (`inout`) access, it is lent as it is. Nothing is written through the access.
    private static func visit(_ list: [Product], from first: Int, count: Int, _ body: (Product) -> Void) {
        func lend(_ product: inout Product) { body(product) }
        list.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let products = UnsafeMutablePointer(mutating: base)
            for index in first..<first + count { lend(&products[index]) }
        }
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
