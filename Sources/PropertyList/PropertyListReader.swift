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
    /// Parses `data`; `file` names the source in messages.
    public static func read(_ data: Data, file: String) throws(IAPKitError) -> PropertyListValue {
        if data.starts(with: Array("bplist".utf8)) {
            throw .malformed(
                location: SourceLocation(file: file),
                reason: "is a binary property list; iapkit reads XML plists "
                    + "(convert it with `plutil -convert xml1 FILE` on a Mac)")
        }
        if data.isEmpty {
            throw .malformed(location: SourceLocation(file: file, line: 1), reason: "is empty; expected an XML property list")
        }
        if data.count > InputFile.Limit.propertyList {
            throw .malformed(
                location: SourceLocation(file: file),
                reason: "is \(data.count) bytes; iapkit reads property lists of at most \(InputFile.Limit.propertyList) bytes")
        }
        let input = try XMLInput(data, file: file, kind: "property lists")
        // The nodes below live in its document: it must outlive them.
        defer { withExtendedLifetime(input) {} }
        guard let root = input.root, name(of: root) == "plist" else {
            throw .malformed(
                location: SourceLocation(file: file, line: 1),
                reason: "is XML but not a property list (no <plist> root element)")
        }
        let children = elementChildren(root)
        guard children.count == 1 else {
            throw .malformed(
                location: SourceLocation(file: file, line: Int(xmlGetLineNo(root))),
                reason: "<plist> must hold exactly one value, found \(children.count)")
        }
        return try value(of: children[0], file: file)
    }

    /// Reads a file from disk: a regular file of at most `InputFile.Limit.propertyList` bytes.
    public static func read(contentsOf path: String) throws(IAPKitError) -> PropertyListValue {
        try read(InputFile.read(path, limit: InputFile.Limit.propertyList), file: path)
    }

    private static func name(of node: xmlNodePtr) -> String { XMLInput.name(of: node) }
    private static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] { XMLInput.elementChildren(node) }
    private static func text(of node: xmlNodePtr) -> String { XMLInput.text(of: node) }

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
