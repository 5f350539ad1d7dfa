import CYAJL
import IAPCore

/// JSON read by yajl into the arena a `YAMLDocument` holds, as libyaml would have read it (JSON is YAML): strings
/// are double-quoted scalars, numbers, `true`, `false` and `null` plain ones with their text as written. yajl's
/// parser reads strict JSON about four times as fast as libyaml's scanner, which handles all of YAML.
///
/// JSON nodes carry no line or column (both 0): the JSON readers name a value by its path. A failure has both.
extension YAMLDocument {
    /// Reads one UTF-8 JSON value, refusing one nested deeper than `maximumDepth` or an object that repeats a key.
    public static func parseJSON(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) throws(ParseError) -> YAMLDocument {
        var bytes = bytes.bindMemory(to: UInt8.self)
        // A byte-order mark is not JSON, but libyaml read past one (Xcode never writes it): skipped, so such files still import.
        let skipped = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(skipped))
        var builder = JSONDocumentBuilder(capacity: bytes.count, maximumDepth: maximumDepth, offset: skipped)
        defer { builder.release() }
        let status = withUnsafeMutablePointer(to: &builder) { JSONDocumentBuilder.read(bytes, into: $0) }
        switch status.0 {
        case yajl_status_ok:
            guard let document = builder.finish() else {
                throw ParseError(line: 1, column: 1, reason: "holds no JSON value")
            }
            return document
        case yajl_status_client_canceled:
            let failure = builder.failure ?? "stopped"
            throw ParseError(position: status.consumed, in: bytes, reason: failure)
        default:
            // yajl's "parse error: premature EOF\n" and the like: the kind of error is said by "is not valid JSON".
            var reason = status.message
            while reason.last == "\n" || reason.last == " " { reason.removeLast() }
            for prefix in ["parse error: ", "lexical error: "] where reason.hasPrefix(prefix) { reason = String(reason.dropFirst(prefix.count)) }
            throw ParseError(position: status.consumed, in: bytes, reason: reason.isEmpty ? "yajl could not read it" : reason)
        }
    }
}

extension YAMLDocument.ParseError {
    /// At byte `offset` of `bytes`: a 1-based line, and a column counted in Unicode scalars as libyaml counts it.
    init(position offset: Int, in bytes: UnsafeBufferPointer<UInt8>, reason: String) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.init(line: line, column: column, reason: reason)
    }
}

/// The arena under construction while yajl reads, reached from its C callbacks through the context pointer: a struct
/// behind a plain address, so no call pays for the exclusivity checks a class's stored properties would need.
struct JSONDocumentBuilder {
    private var arena: ArenaBuilder
    private var handedOver = false
    /// Finished values waiting for their container to close.
    private var pending: [YAMLDocument.NodeID] = []
    /// The containers open now: their kind, where their children start in `pending`, and their opening bracket's
    /// offset in the input.
    private var open: [(kind: YAMLDocument.Kind, base: Int, start: Int)] = []
    /// The parser, whose count of bytes read says where each container starts and ends.
    fileprivate var handle: yajl_handle?
    private var root: YAMLDocument.NodeID?
    private let maximumDepth: Int
    /// Where yajl's input starts in the bytes given (past a byte-order mark): spans count from the bytes given.
    private let offset: Int
    /// Why a callback stopped the parse.
    private(set) var failure: String?

    init(capacity bytes: Int, maximumDepth: Int, offset: Int) {
        self.offset = offset
        arena = ArenaBuilder(inputBytes: bytes)
        self.maximumDepth = maximumDepth
        pending.reserveCapacity(64)
        open.reserveCapacity(16)
    }

    /// Lets the arena go unless a document took it.
    func release() {
        if !handedOver { arena.deallocate() }
    }

    /// The document, once yajl has read a whole value; nil when it read none.
    mutating func finish() -> YAMLDocument? {
        guard let root, open.isEmpty, !handedOver else { return nil }
        handedOver = true
        return arena.document(root: root, spans: true)
    }

    private mutating func scalar(_ bytes: UnsafePointer<UInt8>?, _ count: Int, style: YAMLDocument.ScalarStyle) -> Int32 {
        finished(arena.scalar(bytes, count: count, style: style, line: 0, column: 0))
        return 1
    }

    private mutating func finished(_ id: YAMLDocument.NodeID) {
        if open.isEmpty { root = id } else { pending.append(id) }
    }

    private mutating func begin(_ kind: YAMLDocument.Kind) -> Int32 {
        guard open.count < maximumDepth else {
            failure = "nested more than \(maximumDepth) levels deep; refusing to read it"
            return 0
        }
        open.append((kind, pending.count, consumed - 1))
        return 1
    }

    private mutating func end() -> Int32 {
        let container = open.removeLast()
        if container.kind == .mapping {
            let repeated = YAMLDocumentBuilder.repeatedKeys(pending[container.base...], records: arena.records, text: arena.text)
            if !repeated.isEmpty {
                failure = "repeats the key \(repeated.map(\.text).joined(separator: ", "))"
                return 0
            }
        }
        // Offsets past Int32's range (a file over 2 GB) are not kept: the span is then unknown.
        let end = consumed
        let (start, stop) = end <= Int(Int32.max) ? (Int32(container.start), Int32(end)) : (-1, -1)
        finished(arena.container(container.kind, line: start, column: stop, pending: &pending, from: container.base))
        return 1
    }

    /// How far yajl has read: in a callback, just past the token it reports.
    private var consumed: Int { offset + (handle.map { Int(yajl_get_bytes_consumed($0)) } ?? 0) }

    /// Runs yajl over `bytes`: how it ended, how far it read, and yajl's description of a parse error.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, into builder: UnsafeMutablePointer<JSONDocumentBuilder>
    )
        -> (yajl_status, consumed: Int, message: String)
    {
        var callbacks = Self.callbacks
        // yajl keeps the callbacks' and the builder's addresses: the handle must not outlive this closure.
        return withUnsafePointer(to: &callbacks) { callbacks in
            guard let handle = yajl_alloc(callbacks, nil, builder) else { return (yajl_status_error, 0, "out of memory") }
            defer { yajl_free(handle) }
            builder.pointee.handle = handle
            defer { builder.pointee.handle = nil }
            var status = yajl_parse(handle, bytes.baseAddress, bytes.count)
            var consumed = Int(yajl_get_bytes_consumed(handle))
            if status == yajl_status_ok {
                // Completing feeds yajl one more byte of its own; a failure there is at the end of the input.
                status = yajl_complete_parse(handle)
                consumed = bytes.count
            }
            guard status == yajl_status_error,
                let described = yajl_get_error(handle, 0, bytes.baseAddress, bytes.count)
            else { return (status, consumed, "") }
            defer { yajl_free_error(handle, described) }
            return (status, consumed, String(cString: described))
        }
    }

    private static func builder(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<JSONDocumentBuilder> {
        context!.assumingMemoryBound(to: JSONDocumentBuilder.self)
    }

    private static func plain(_ context: UnsafeMutableRawPointer?, _ word: StaticString) -> Int32 {
        builder(context).pointee.scalar(word.utf8Start, word.utf8CodeUnitCount, style: .plain)
    }

    /// With `yajl_number` set, yajl hands every number over as its text and never calls the integer or double ones.
    static let callbacks = yajl_callbacks(
        yajl_null: { plain($0, "null") },
        yajl_boolean: { context, value in plain(context, value != 0 ? "true" : "false") },
        yajl_integer: nil,
        yajl_double: nil,
        yajl_number: { context, number, length in
            UnsafeRawPointer(number).map { builder(context).pointee.scalar($0.assumingMemoryBound(to: UInt8.self), length, style: .plain) } ?? 0
        },
        yajl_string: { context, string, length in builder(context).pointee.scalar(string, length, style: .doubleQuoted) },
        yajl_start_map: { builder($0).pointee.begin(.mapping) },
        yajl_map_key: { context, key, length in builder(context).pointee.scalar(key, length, style: .doubleQuoted) },
        yajl_end_map: { builder($0).pointee.end() },
        yajl_start_array: { builder($0).pointee.begin(.sequence) },
        yajl_end_array: { builder($0).pointee.end() }
    )
}
