import Dispatch
import IAPCore

/// A large catalog's products are read on several threads: the document is complete and never changes, and a
/// product's reading touches nothing outside the product. Each thread reads a run of consecutive products with a
/// reader of its own, which keeps its findings; they are handed on in file order, so the findings, the model and
/// the errors are what one thread makes.
extension NodeReader {
    func readProducts(_ object: Object) throws(IAPKitError) -> [Product] {
        let read = { (node: Node, path: CatalogPath) throws(IAPKitError) -> Product? in try self.readProduct(node, path: path) }
        guard let node = object.node("products"), document.kind(node) == .sequence else { return try object.list("products", read) }
        let items = document.items(node)
        let threadCount = ProductList.threads(requested: threads, products: items.count, units: items.count)
        guard threadCount > 1 else { return try object.list("products", read) }

        let listPath = object.path / "products"
        // Each thread reads its run into its own stretch of the list's buffer, and the stretches are then closed up
        // over the items that were not products: no product is copied, and no second buffer of products is made.
        var shares: [ProductShare] = []
        let products = [Product](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let base = buffer.baseAddress!
            let runs = (0..<threadCount).map { share in
                let range = (items.count * share / threadCount)..<(items.count * (share + 1) / threadCount)
                return ProductShare(
                    reader: NodeReader(sharing: self), items: UnsafeBufferPointer(rebasing: items[range]),
                    firstIndex: range.lowerBound, destination: base + range.lowerBound)
            }
            DispatchQueue.concurrentPerform(iterations: runs.count) { share in runs[share].read(listPath: listPath) }
            for share in runs { initialized += share.moveProducts(to: base + initialized) }
            shares = runs
        }

        let base = visited
        for share in shares {
            share.findings.forEach(consumer)
            for (path, location) in share.reader.sheetLocations { sheetLocations[path] = location }
            visited += share.reader.visited - base
            if let error = share.error { throw error }
            // What one reader would have counted by now; aliases can make a small file stand for a huge tree.
            if visited > Self.valueBudget { try count() }
        }
        return products
    }

    /// A reader for one thread's share of the products: the same document and catalog, and the count so far.
    convenience init(sharing other: NodeReader) {
        let findings = FindingCollector()
        self.init(catalog: other.catalog, document: other.source, consumer: findings.consumer)
        visited = other.visited
        buffer = findings
    }
}

/// One thread's run of products and what became of it; touched by that thread alone until the threads are joined.
final class ProductShare: @unchecked Sendable {
    let reader: NodeReader
    let items: UnsafeBufferPointer<Node>
    /// The first product's place in the list, for paths (`products[1200]`).
    let firstIndex: Int
    /// Where the products read go, `count` of them, until they are moved: the run's own stretch of the list's buffer.
    private let destination: UnsafeMutablePointer<Product>
    private(set) var count = 0
    private(set) var error: IAPKitError?

    init(reader: NodeReader, items: UnsafeBufferPointer<Node>, firstIndex: Int, destination: UnsafeMutablePointer<Product>) {
        self.reader = reader
        self.items = items
        self.firstIndex = firstIndex
        self.destination = destination
    }

    var findings: [Finding] { reader.buffer?.findings ?? [] }

    func read(listPath: CatalogPath) {
        for (offset, node) in items.enumerated() {
            // Read in place, in the slot the product keeps.
            let slot = destination + count
            slot.initialize(to: Product(path: listPath + (firstIndex + offset)))
            do throws(IAPKitError) {
                guard try reader.readProduct(node, into: &slot.pointee) else {
                    slot.deinitialize(count: 1)
                    continue
                }
                count += 1
            } catch {
                slot.deinitialize(count: 1)
                self.error = error
                return
            }
        }
    }

    /// Moves the products down to `target`, at or before where they are, and says how many.
    func moveProducts(to target: UnsafeMutablePointer<Product>) -> Int {
        let moved = count
        if target != destination { target.moveInitialize(from: destination, count: moved) }
        count = 0
        return moved
    }
}
