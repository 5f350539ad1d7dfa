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
        let shares = (0..<threadCount).map { share in
            let range = (items.count * share / threadCount)..<(items.count * (share + 1) / threadCount)
            return ProductShare(reader: NodeReader(sharing: self), items: items[(items.startIndex + range.lowerBound)...].prefix(range.count),
                                firstIndex: range.lowerBound)
        }
        DispatchQueue.concurrentPerform(iterations: shares.count) { share in shares[share].read(listPath: listPath) }

        let base = visited
        for share in shares {
            share.findings.forEach(consumer)
            for (path, location) in share.reader.sheetLocations { sheetLocations[path] = location }
            visited += share.reader.visited - base
            if let error = share.error { throw error }
            // What one reader would have counted by now; aliases can make a small file stand for a huge tree.
            if visited > Self.valueBudget { try count() }
        }
        // Each share's products are moved, not copied, into the list: copying retains every value of every product,
        // and freeing the shares' own lists then releases them all again.
        return Array(unsafeUninitializedCapacity: shares.reduce(0) { $0 + $1.count }) { buffer, initialized in
            for share in shares { initialized += share.moveProducts(to: buffer.baseAddress! + initialized) }
        }
    }

    /// A reader for one thread's share of the products: the same document and catalog, and the count so far.
    convenience init(sharing other: NodeReader) {
        let findings = FindingCollector()
        self.init(catalog: other.catalog, document: other.document, consumer: findings.consumer)
        visited = other.visited
        buffer = findings
    }
}

/// One thread's run of products and what became of it; touched by that thread alone until the threads are joined.
final class ProductShare: @unchecked Sendable {
    let reader: NodeReader
    let items: ArraySlice<Node>
    /// The first product's place in the list, for paths (`products[1200]`).
    let firstIndex: Int
    /// The products read, `count` of them, until they are moved out.
    private let products: UnsafeMutableBufferPointer<Product>
    private(set) var count = 0
    private(set) var error: IAPKitError?

    init(reader: NodeReader, items: ArraySlice<Node>, firstIndex: Int) {
        self.reader = reader
        self.items = items
        self.firstIndex = firstIndex
        products = .allocate(capacity: items.count)
    }

    deinit {
        products.baseAddress!.deinitialize(count: count)
        products.deallocate()
    }

    var findings: [Finding] { reader.buffer?.findings ?? [] }

    func read(listPath: CatalogPath) {
        do throws(IAPKitError) {
            for (offset, node) in items.enumerated() {
                guard let product = try reader.readProduct(node, path: listPath + (firstIndex + offset)) else { continue }
                (products.baseAddress! + count).initialize(to: product)
                count += 1
            }
        } catch {
            self.error = error
        }
    }

    /// Moves the products to `destination` and says how many; the share holds none afterwards.
    func moveProducts(to destination: UnsafeMutablePointer<Product>) -> Int {
        let moved = count
        destination.moveInitialize(from: products.baseAddress!, count: moved)
        count = 0
        return moved
    }
}
