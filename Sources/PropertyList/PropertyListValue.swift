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

/// A property-list value. Dictionaries keep their key order, so a file read and written back changes
/// only what was edited.
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)

    /// The name used in messages ("a string", "an integer"...).
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .bool: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }
}

/// An ordered dictionary of property-list values.
public struct PropertyListDictionary: Sendable, Equatable {
    public private(set) var entries: [(key: String, value: PropertyListValue)]

    public init(_ entries: [(key: String, value: PropertyListValue)] = []) { self.entries = entries }

    public static func == (lhs: PropertyListDictionary, rhs: PropertyListDictionary) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public var keys: [String] { entries.map(\.key) }

    public subscript(key: String) -> PropertyListValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }
}
