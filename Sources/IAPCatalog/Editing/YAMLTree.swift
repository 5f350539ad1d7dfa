import IAPCore

/// A YAML value as plain data: what two catalogs' texts are compared by, and what is written into another text.
public indirect enum YAMLTree: Sendable, Equatable {
    /// A scalar's text, and whether its writer quoted it (a string that would read as a number, say).
    case scalar(String, quoted: Bool)
    case list([YAMLTree])
    case map([Pair])

    public struct Pair: Sendable, Equatable {
        public var key: String
        public var value: YAMLTree
        public init(_ key: String, _ value: YAMLTree) {
            self.key = key
            self.value = value
        }
    }

    /// The value of `node` in `document`.
    public init(_ document: YAMLDocument, _ node: YAMLDocument.NodeID) {
        switch document.kind(node) {
        case .scalar:
            self = .scalar(document.string(node), quoted: !document.isPlain(node))
        case .sequence:
            self = .list(document.items(node).map { YAMLTree(document, $0) })
        case .mapping:
            let items = document.items(node)
            self = .map(stride(from: 0, to: items.count, by: 2).map { Pair(document.string(items[$0]), YAMLTree(document, items[$0 + 1])) })
        }
    }

    /// Reads UTF-8 YAML; nil when it holds no document.
    public init?(yaml bytes: [UInt8], file: String) throws(IAPKitError) {
        let parsed: Result<YAMLDocument?, YAMLDocument.ParseError> = bytes.withUnsafeBytes { raw in
            do throws(YAMLDocument.ParseError) { return .success(try YAMLDocument.parse(raw)) } catch { return .failure(error) }
        }
        let document: YAMLDocument?
        switch parsed {
        case let .success(parsedDocument): document = parsedDocument
        case let .failure(error):
            throw .malformed(location: SourceLocation(file: file, line: error.line, column: error.column), reason: error.reason)
        }
        guard let document else { return nil }
        self.init(document, document.root)
    }

    /// Two trees mean the same YAML: scalars compare by text, whatever their quoting.
    public func sameValue(as other: YAMLTree) -> Bool {
        switch (self, other) {
        case let (.scalar(a, _), .scalar(b, _)): return a == b
        case let (.list(a), .list(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        case let (.map(a), .map(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.sameValue(as: $1.value) }
        default: return false
        }
    }

    public var pairs: [Pair] {
        if case let .map(pairs) = self { return pairs }
        return []
    }

    public var items: [YAMLTree] {
        if case let .list(items) = self { return items }
        return []
    }

    public var text: String? {
        if case let .scalar(text, _) = self { return text }
        return nil
    }

    public subscript(key: String) -> YAMLTree? { pairs.first { $0.key == key }?.value }

    public var isEmptyContainer: Bool {
        switch self {
        case let .list(items): return items.isEmpty
        case let .map(pairs): return pairs.isEmpty
        case .scalar: return false
        }
    }
}
