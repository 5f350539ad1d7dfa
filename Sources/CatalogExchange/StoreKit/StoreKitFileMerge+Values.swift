import IAPCatalog
import IAPCore

/// The file's values as yajl read them: read as `JSONValue.parse` reads them, and written again in Xcode's layout.
extension FileMerge {
    /// A mapping's keys and values, the keys in the order `JSONValue.parse` gives them.
    func sortedPairs(_ node: Node) -> [(key: String, value: Node)] {
        let items = document.items(node)
        var pairs: [(key: String, value: Node)] = []
        pairs.reserveCapacity(items.count / 2)
        for index in stride(from: 0, to: items.count, by: 2) { pairs.append((document.string(items[index]), items[index + 1])) }
        return pairs.sorted { $0.key < $1.key }
    }

    /// The file's value as `JSONValue.parse` reads it: objects sorted by key, whole numbers `int`.
    func json(_ node: Node) -> JSONValue { Self.json(document, node) }

    /// Bytes of JSON the exporter wrote, as values.
    func json(_ bytes: ArraySlice<UInt8>) throws(IAPKitError) -> JSONValue {
        let parsed = bytes.withUnsafeBytes { try? YAMLDocument.parseJSON($0, maximumDepth: JSONValue.maximumDepth) }
        guard let parsed else { throw .malformed(location: SourceLocation(file: "(export)"), reason: "exported JSON did not parse") }
        return FileMerge.json(parsed, parsed.root)
    }

    static func json(_ document: YAMLDocument, _ node: Node) -> JSONValue {
        switch document.kind(node) {
        case .scalar:
            guard document.isPlain(node) else { return .string(document.string(node)) }
            let text = document.string(node)
            switch text {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                if let number = Int(text) { return .int(number) }
                guard let number = Double(text) else { return .string(text) }
                if number == number.rounded(), abs(number) < 9.2e18 { return .int(Int(number)) }
                return .double(number)
            }
        case .sequence:
            return .array(document.items(node).map { json(document, $0) })
        case .mapping:
            let items = document.items(node)
            return .object(
                stride(from: 0, to: items.count, by: 2).map { (document.string(items[$0]), json(document, items[$0 + 1])) }.sorted { $0.0 < $1.0 })
        }
    }

    /// Writes the file's value in Xcode's layout, as `JSONValue.serialized(.xcode)` writes its reading. `groupID`, an
    /// object's `subscriptionGroupID` in its place; `subscriptionsGroupID`, that of each of its subscriptions. Returns
    /// whether either changed a value.
    @discardableResult
    mutating func write(_ node: Node, groupID: JSONValue? = nil, subscriptionsGroupID: JSONValue? = nil) -> Bool {
        var renamed = false
        switch document.kind(node) {
        case .scalar:
            let bytes = document.bytes(node)
            if !document.isPlain(node) {
                out.string(utf8: bytes)
            } else if Self.isPlainLiteral(bytes) {
                out.literal(utf8: bytes)
            } else {
                out.value(json(node))
            }
        case .sequence:
            out.beginArray()
            for item in document.items(node) { write(item) }
            out.endArray()
        case .mapping:
            let items = document.items(node)
            var order = Array(stride(from: 0, to: items.count, by: 2))
            if !Self.inXcodeOrder(order.map { document.bytes(items[$0]) }) {
                order.sort { XcodeJSONWriter.xcodeOrder(document.string(items[$0]), document.string(items[$1])) }
            }
            out.beginObject()
            for index in order {
                let key = document.bytes(items[index]), value = items[index + 1]
                out.key(utf8: key)
                if let groupID, Self.equal(key, "subscriptionGroupID") {
                    out.value(groupID)
                    if json(value) != groupID { renamed = true }
                } else if subscriptionsGroupID != nil, Self.equal(key, "subscriptions"), document.kind(value) == .sequence {
                    out.beginArray()
                    for item in document.items(value) {
                        if write(item, groupID: document.kind(item) == .mapping ? subscriptionsGroupID : nil) { renamed = true }
                    }
                    out.endArray()
                } else {
                    write(value)
                }
            }
            out.endObject()
        }
        return renamed
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && text.withUTF8Buffer { bytes.elementsEqual($0) }
    }

    /// `null`, `true`, `false` and integers written as Swift writes them again (no sign but a minus, no leading zero).
    static func isPlainLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if equal(bytes, "null") || equal(bytes, "true") || equal(bytes, "false") { return true }
        let digits = first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        guard let lead = digits.first, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return (lead != 0x30 || digits.count == 1) && !(first == UInt8(ascii: "-") && digits.count == 1 && lead == 0x30)
    }

    /// Whether keys are already in Xcode's order: told from ASCII bytes, and from the text where there is more.
    static func inXcodeOrder(_ keys: [UnsafeBufferPointer<UInt8>]) -> Bool {
        guard keys.count > 1 else { return true }
        for index in 1..<keys.count where !xcodeLess(keys[index - 1], keys[index]) { return false }
        return true
    }

    static func xcodeLess(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else {
            return XcodeJSONWriter.xcodeOrder(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
        }
        for (x, y) in zip(a, b) where lower(x) != lower(y) { return lower(x) < lower(y) }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}

extension XcodeJSONWriter {
    /// A value in Xcode's layout, each object's keys in Xcode's order, as `JSONValue.serialized(.xcode)` writes it.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: literal("null")
        case let .bool(flag): bool(flag)
        case let .int(number): int(number)
        case let .double(number):
            literal(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)")
        case let .string(text): string(text)
        case let .array(items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case let .object(pairs):
            beginObject()
            for (key, item) in pairs.sorted(by: { Self.xcodeOrder($0.0, $1.0) }) {
                self.key(key)
                self.value(item)
            }
            endObject()
        }
    }
}
