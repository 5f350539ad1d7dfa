#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CYAML
import IAPCore

/// Writes YAML through libyaml's emitter, one event at a time (block style, two-space indent, no line wrapping,
/// raw UTF-8). The caller chooses each scalar's style; libyaml still refuses a plain scalar it could not read back.
public final class YAMLWriter {
    /// libyaml's state, at an address of its own: an import emits a million events, and a stored property passed
    /// `inout` to C costs a dynamic exclusivity check each time.
    private let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
    private let output = Output()
    private var failed: String?
    #if DEBUG
    /// The declared objects being written (nil for a mapping no declaration describes), each with the position of
    /// its last key: in debug builds, and so in every test, a key written out of the order `CatalogFormat` declares
    /// fails the write.
    private var objects: [(object: CatalogObject?, last: Int)] = []
    private var misordered: String?
    #endif

    /// Where libyaml hands its bytes.
    private final class Output {
        var bytes: [UInt8] = []
    }

    /// `preamble` (comments, say) comes first, as given.
    public init(preamble: String = "") {
        output.bytes = Array(preamble.utf8)
        emitter.initialize(to: yaml_emitter_t())
        yaml_emitter_initialize(emitter)
        yaml_emitter_set_output(
            emitter,
            { context, buffer, size in
                guard let context, let buffer else { return 0 }
                Unmanaged<Output>.fromOpaque(context).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(output).toOpaque())
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_break(emitter, YAML_LN_BREAK)
        yaml_emitter_set_encoding(emitter, YAML_UTF8_ENCODING)
        var event = yaml_event_t()
        yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
        emit(&event)
        yaml_document_start_event_initialize(&event, nil, nil, nil, 1)
        emit(&event)
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
    }

    /// A mapping; `object` is the declaration whose key order it follows.
    public func beginMapping(_ object: CatalogObject? = nil) {
        #if DEBUG
        objects.append((object, -1))
        #endif
        var event = yaml_event_t()
        yaml_mapping_start_event_initialize(&event, nil, nil, 1, YAML_ANY_MAPPING_STYLE)
        emit(&event)
    }

    public func endMapping() {
        #if DEBUG
        objects.removeLast()
        #endif
        var event = yaml_event_t()
        yaml_mapping_end_event_initialize(&event)
        emit(&event)
    }

    public func beginSequence() {
        var event = yaml_event_t()
        yaml_sequence_start_event_initialize(&event, nil, nil, 1, YAML_ANY_SEQUENCE_STYLE)
        emit(&event)
    }

    public func endSequence() {
        var event = yaml_event_t()
        yaml_sequence_end_event_initialize(&event)
        emit(&event)
    }

    /// A scalar, plain or double-quoted; implicit tags, so no tag is ever written.
    public func scalar(_ text: String, quoted: Bool = false) {
        // The event yaml_scalar_event_initialize makes, less its check that the value is UTF-8, which a Swift string
        // always is (an import writes 300,000 scalars): the value is copied into memory libyaml frees with the event.
        let count = text.utf8.count
        guard let value = malloc(count + 1)?.assumingMemoryBound(to: UInt8.self) else {
            if failed == nil { failed = "out of memory" }
            return
        }
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let base = bytes.baseAddress { value.initialize(from: base, count: count) }
        }
        if copied == nil { _ = UnsafeMutableBufferPointer(start: value, count: count).initialize(from: text.utf8) }
        value[count] = 0
        var event = yaml_event_t()
        event.type = YAML_SCALAR_EVENT
        event.data.scalar.value = value
        event.data.scalar.length = count
        event.data.scalar.plain_implicit = 1
        event.data.scalar.quoted_implicit = 1
        event.data.scalar.style = quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE
        emit(&event)
    }

    /// A key of the mapping being written.
    public func key(_ name: String) {
        #if DEBUG
        if let object = objects.last?.object, misordered == nil {
            let position = object.position(of: name) ?? -1
            if position <= objects[objects.count - 1].last {
                misordered = "`\(name)` was written where the catalog format does not declare it (\(object.names.joined(separator: ", ")))"
            }
            objects[objects.count - 1].last = position
        }
        #endif
        scalar(name)
    }

    /// Ends the document and returns the YAML.
    public func finish() throws(IAPKitError) -> [UInt8] {
        #if DEBUG
        if let misordered { throw .io(path: "catalog", reason: "could not write YAML: \(misordered)") }
        #endif
        var event = yaml_event_t()
        yaml_document_end_event_initialize(&event, 1)
        emit(&event)
        yaml_stream_end_event_initialize(&event)
        emit(&event)
        yaml_emitter_flush(emitter)
        if let failed { throw .io(path: "catalog", reason: "could not write YAML: \(failed)") }
        return output.bytes
    }

    private func emit(_ event: inout yaml_event_t) {
        guard failed == nil else { yaml_event_delete(&event); return }
        if yaml_emitter_emit(emitter, &event) != 1 {
            failed = emitter.pointee.problem.map { String(cString: $0) } ?? "libyaml's emitter failed"
        }
    }
}
