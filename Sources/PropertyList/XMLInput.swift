import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// Hostile XML read through libxml2 the one way iapkit reads XML: no network, no DTD loading, no entity
/// substitution, nothing printed, and any entity declaration refused, so no input grows into gigabytes (one entity
/// used many times) or reads another file (an external entity). Property lists and XLIFF files both come through here.
public final class XMLInput {
    public let document: xmlDocPtr
    public let file: String

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `data`; `kind` ("property lists", "XLIFF files") names what never needs entities in the refusal.
    public init(_ data: Data, file: String, kind: String) throws(IAPKitError) {
        _ = Self.initialized
        self.file = file
        if let offset = Self.firstEntityDeclaration(in: data) {
            throw Self.entityRefusal(file: file, line: data.prefix(offset).reduce(1) { $0 + ($1 == 10 ? 1 : 0) }, kind: kind)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlResetLastError()
        let parsed: xmlDocPtr? = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(clamping: chars.count), file, nil, options)
            }
        }
        guard let parsed else {
            var location = SourceLocation(file: file)
            var reason = "is not well-formed XML"
            if let error = xmlGetLastError() {
                location.line = Int(error.pointee.line)
                location.column = Int(error.pointee.int2)
                if let message = error.pointee.message {
                    reason += ": " + String(cString: message).trimmingSpaces(andNewlines: true)
                }
            }
            throw .malformed(location: location, reason: reason)
        }
        // The same check after parsing, for encodings the byte scan cannot see (UTF-16).
        if let subset = parsed.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            let line = Int(xmlGetLineNo(OpaquePointer(subset).map { xmlNodePtr($0) }!))
            xmlFreeDoc(parsed)
            throw Self.entityRefusal(file: file, line: line, kind: kind)
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    public var root: xmlNodePtr? { xmlDocGetRootElement(document) }

    /// Where `<!ENTITY` first appears, if anywhere.
    static func firstEntityDeclaration(in data: Data) -> Int? {
        let needle = Array("<!ENTITY".utf8)
        return data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return nil }
            var index = 0
            while index <= bytes.count - needle.count {
                if bytes[index] == 0x3C && needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
                index += 1
            }
            return nil
        }
    }

    private static func entityRefusal(file: String, line: Int, kind: String) -> IAPKitError {
        .malformed(location: SourceLocation(file: file, line: line),
                   reason: "declares an XML entity; \(kind) never need entities, and iapkit refuses them")
    }

    /// An element's local name.
    public static func name(of node: xmlNodePtr) -> String { String(cString: node.pointee.name) }

    /// An element's child elements, in order.
    public static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// The text inside an element, its descendants' included.
    public static func text(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { iapkit_xmlFree(content) }
        return String(cString: content)
    }

    /// An attribute's value (`namespace` for a qualified one, such as `xml:space`), nil when absent.
    public static func attribute(_ name: String, of node: xmlNodePtr, namespace: String? = nil) -> String? {
        let found: UnsafeMutablePointer<xmlChar>?
        if let namespace { found = xmlGetNsProp(node, name, namespace) } else { found = xmlGetNoNsProp(node, name) }
        guard let value = found else { return nil }
        defer { iapkit_xmlFree(value) }
        return String(cString: value)
    }

    /// The line an element starts on.
    public static func line(of node: xmlNodePtr) -> Int { Int(xmlGetLineNo(node)) }
}
