import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore

/// Reads XML property lists through libxml2, which reports line numbers for every problem.
public enum PropertyListReader {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `data`; `file` names the source in messages.
    public static func read(_ data: Data, file: String) throws(IAPKitError) -> PropertyListValue {
        _ = initialized
        if data.starts(with: Array("bplist".utf8)) {
            throw .malformed(location: SourceLocation(file: file),
                             reason: "is a binary property list; iapkit reads XML plists "
                                + "(convert it with `plutil -convert xml1 FILE` on a Mac)")
        }
        if data.isEmpty {
            throw .malformed(location: SourceLocation(file: file, line: 1), reason: "is empty; expected an XML property list")
        }
        if data.count > InputFile.Limit.propertyList {
            throw .malformed(location: SourceLocation(file: file),
                             reason: "is \(data.count) bytes; iapkit reads property lists of at most \(InputFile.Limit.propertyList) bytes")
        }
        // Entities are how a small plist becomes gigabytes (one entity used many times) or reads other files
        // (an external entity); no property list needs them, so they are refused before libxml2 sees them.
        if let offset = firstEntityDeclaration(in: data) {
            throw entityRefusal(file: file, line: data.prefix(offset).reduce(1) { $0 + ($1 == 10 ? 1 : 0) })
        }
        // No network, no DTD loading, no entity substitution, and no printing: errors come back as values.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlResetLastError()
        let document: xmlDocPtr? = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: CChar.self) { chars in
                xmlReadMemory(chars.baseAddress, Int32(clamping: chars.count), file, nil, options)
            }
        }
        guard let document else {
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
        defer { xmlFreeDoc(document) }
        // The same check after parsing, for encodings the byte scan cannot see (UTF-16).
        if let subset = document.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
            throw entityRefusal(file: file, line: Int(xmlGetLineNo(OpaquePointer(subset).map { xmlNodePtr($0) }!)))
        }
        guard let root = xmlDocGetRootElement(document), name(of: root) == "plist" else {
            throw .malformed(location: SourceLocation(file: file, line: 1),
                             reason: "is XML but not a property list (no <plist> root element)")
        }
        let children = elementChildren(root)
        guard children.count == 1 else {
            throw .malformed(location: SourceLocation(file: file, line: Int(xmlGetLineNo(root))),
                             reason: "<plist> must hold exactly one value, found \(children.count)")
        }
        return try value(of: children[0], file: file)
    }

    /// Reads a file from disk: a regular file of at most `InputFile.Limit.propertyList` bytes.
    public static func read(contentsOf path: String) throws(IAPKitError) -> PropertyListValue {
        try read(InputFile.read(path, limit: InputFile.Limit.propertyList), file: path)
    }

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

    private static func entityRefusal(file: String, line: Int) -> IAPKitError {
        .malformed(location: SourceLocation(file: file, line: line),
                   reason: "declares an XML entity; property lists never need entities, and iapkit refuses them")
    }

    private static func name(of node: xmlNodePtr) -> String {
        String(cString: node.pointee.name)
    }

    private static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func text(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { iapkit_xmlFree(content) }
        return String(cString: content)
    }

    private static func value(of node: xmlNodePtr, file: String) throws(IAPKitError) -> PropertyListValue {
        let location = SourceLocation(file: file, line: Int(xmlGetLineNo(node)))
        switch name(of: node) {
        case "string":
            return .string(text(of: node))
        case "integer":
            let raw = text(of: node).trimmingSpaces()
            guard let number = Int64(raw) else { throw .malformed(location: location, reason: "<integer> holds \"\(raw)\", not an integer") }
            return .integer(number)
        case "real":
            let raw = text(of: node).trimmingSpaces()
            guard let number = Double(raw) else { throw .malformed(location: location, reason: "<real> holds \"\(raw)\", not a number") }
            return .real(number)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "date":
            let raw = text(of: node).trimmingSpaces()
            guard let date = try? Date.ISO8601FormatStyle().parse(raw) else {
                throw .malformed(location: location, reason: "<date> holds \"\(raw)\", not an ISO 8601 date")
            }
            return .date(date)
        case "data":
            let raw = text(of: node).filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: raw) else { throw .malformed(location: location, reason: "<data> is not valid base64") }
            return .data(data)
        case "array":
            var items: [PropertyListValue] = []
            for child in elementChildren(node) { items.append(try value(of: child, file: file)) }
            return .array(items)
        case "dict":
            let children = elementChildren(node)
            var entries: [(key: String, value: PropertyListValue)] = []
            var seen = Set<String>()
            var index = 0
            while index < children.count {
                let keyNode = children[index]
                let keyLocation = SourceLocation(file: file, line: Int(xmlGetLineNo(keyNode)))
                guard name(of: keyNode) == "key" else {
                    throw .malformed(location: keyLocation, reason: "expected <key> in <dict>, found <\(name(of: keyNode))>")
                }
                let key = text(of: keyNode)
                guard index + 1 < children.count else {
                    throw .malformed(location: keyLocation, reason: "key \"\(key)\" has no value")
                }
                guard seen.insert(key).inserted else {
                    throw .malformed(location: keyLocation, reason: "key \"\(key)\" appears twice")
                }
                entries.append((key, try value(of: children[index + 1], file: file)))
                index += 2
            }
            return .dictionary(PropertyListDictionary(entries))
        case let other:
            throw .malformed(location: location, reason: "<\(other)> is not a property-list element")
        }
    }
}
