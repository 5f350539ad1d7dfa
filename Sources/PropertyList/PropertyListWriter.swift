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

/// Writes XML property lists byte for byte as Apple's tools do: XML declaration, the plist DOCTYPE,
/// `<plist version="1.0">`, the root value unindented, children indented with one tab per level.
/// (libxml2's own writers split the DOCTYPE and indent the root, so the layout is emitted here; escaping
/// follows CFPropertyList: `&`, `<` and `>`.)
public enum PropertyListWriter {
    public static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    public static func write(_ value: PropertyListValue) throws(IAPKitError) -> Data {
        var out = header
        try emit(value, depth: 0, into: &out)
        out += "</plist>\n"
        return Data(out.utf8)
    }

    private static func indent(_ depth: Int) -> String { String(repeating: "\t", count: depth) }

    private static func emit(_ value: PropertyListValue, depth: Int, into out: inout String) throws(IAPKitError) {
        let pad = indent(depth)
        switch value {
        case let .string(text): out += "\(pad)<string>\(try escape(text))</string>\n"
        case let .integer(number): out += "\(pad)<integer>\(number)</integer>\n"
        case let .real(number): out += "\(pad)<real>\(formatReal(number))</real>\n"
        case let .bool(flag): out += "\(pad)<\(flag ? "true" : "false")/>\n"
        case let .date(date):
            out += "\(pad)<date>\(date.formatted(Date.ISO8601FormatStyle()))</date>\n"
        case let .data(data):
            out += "\(pad)<data>\n\(pad)\(data.base64EncodedString())\n\(pad)</data>\n"
        case let .array(items):
            if items.isEmpty { out += "\(pad)<array/>\n"; return }
            out += "\(pad)<array>\n"
            for item in items { try emit(item, depth: depth + 1, into: &out) }
            out += "\(pad)</array>\n"
        case let .dictionary(dictionary):
            if dictionary.entries.isEmpty { out += "\(pad)<dict/>\n"; return }
            out += "\(pad)<dict>\n"
            for (key, item) in dictionary.entries {
                out += "\(indent(depth + 1))<key>\(try escape(key))</key>\n"
                try emit(item, depth: depth + 1, into: &out)
            }
            out += "\(pad)</dict>\n"
        }
    }

    /// Shortest text that reads back as the same double (CFPropertyList writes `0.5`, not `0.50000`).
    private static func formatReal(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    static func escape(_ text: String) throws(IAPKitError) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                // XML 1.0 cannot carry other control characters at all.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    throw .invalidArgument(
                        "a property-list string cannot hold the control character U+" + Format.hex(scalar.value, width: 4, uppercase: true))
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
