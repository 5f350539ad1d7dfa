import CJansson
import IAPCore

/// A JSON document parsed by jansson, read in place: `JSONNode`s point into jansson's tree and make Swift values
/// only for what a reader asks for.
final class JSONTree {
    private let root: UnsafeMutablePointer<json_t>

    /// The parse failure with jansson's line and column.
    struct Failure: Error {
        var line: Int
        var column: Int
        var reason: String
    }

    init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var error = json_error_t()
        // Any value at the top (the reader then names what it expected); NUL is allowed inside strings.
        guard let root = json_loadb(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count,
                                    size_t(JSON_DECODE_ANY | JSON_ALLOW_NUL), &error) else {
            let reason = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw Failure(line: Int(error.line), column: Int(error.column), reason: reason)
        }
        self.root = root
    }

    deinit { json_delete(root) }

    /// The top-level value; valid while the tree lives.
    var node: JSONNode { JSONNode(pointer: root) }
}

/// One value of a `JSONTree`.
struct JSONNode {
    let pointer: UnsafeMutablePointer<json_t>

    var type: json_type { pointer.pointee.type }
    var isNull: Bool { type == JSON_NULL }
    var isObject: Bool { type == JSON_OBJECT }
    var isArray: Bool { type == JSON_ARRAY }

    /// The value of `key` in an object; nil when absent or when this is not an object.
    subscript(key: String) -> JSONNode? {
        guard isObject, let value = json_object_get(pointer, key) else { return nil }
        return JSONNode(pointer: value)
    }

    /// An object's keys (in no particular order).
    var keys: [String] {
        guard isObject else { return [] }
        var keys: [String] = []
        var iterator = json_object_iter(pointer)
        while let current = iterator {
            keys.append(String(cString: json_object_iter_key(current)))
            iterator = json_object_iter_next(pointer, current)
        }
        return keys
    }

    /// An array's items; empty when this is not an array.
    var items: [JSONNode] {
        guard isArray else { return [] }
        return (0..<json_array_size(pointer)).compactMap { json_array_get(pointer, $0).map(JSONNode.init) }
    }

    var string: String? {
        guard type == JSON_STRING, let value = json_string_value(pointer) else { return nil }
        return value.withMemoryRebound(to: UInt8.self, capacity: json_string_length(pointer)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: json_string_length(pointer)), as: UTF8.self)
        }
    }

    var int: Int? { type == JSON_INTEGER ? Int(json_integer_value(pointer)) : nil }

    var bool: Bool? {
        switch type {
        case JSON_TRUE: return true
        case JSON_FALSE: return false
        default: return nil
        }
    }
}
