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
import IAPCatalog
import PropertyList

/// `ContentInfo.plist`, the file at the root of every hosted-content folder.
public struct ContentInfo: Sendable, Equatable {
    public static let fileName = "ContentInfo.plist"
    public static let contentsFolder = "Contents"
    public static let versionKey = "ContentVersion"
    public static let productKey = "IAPProductIdentifier"

    /// Every key of the file, in file order; `ContentVersion` and `IAPProductIdentifier` among them.
    public var dictionary: PropertyListDictionary

    public init(productID: String, version: ContentVersion) {
        // Apple's tools write the keys sorted: ContentVersion, then IAPProductIdentifier.
        dictionary = PropertyListDictionary([
            (Self.versionKey, .string(version.description)),
            (Self.productKey, .string(productID)),
        ])
    }

    public init(dictionary: PropertyListDictionary) { self.dictionary = dictionary }

    public var versionText: String? {
        if case let .string(text)? = dictionary[Self.versionKey] { return text }
        return nil
    }

    public var version: ContentVersion? { versionText.flatMap(ContentVersion.init) }

    public var productID: String? {
        if case let .string(text)? = dictionary[Self.productKey] { return text }
        return nil
    }

    /// The problems with the file's keys, each a sentence; empty when both keys are strings.
    public var keyProblems: [String] {
        var problems: [String] = []
        for key in [Self.versionKey, Self.productKey] {
            switch dictionary[key] {
            case nil: problems.append("lacks the `\(key)` key")
            case let .string(text)? where key == Self.productKey:
                // The identifier names the archive file: it must be a product ID App Store Connect accepts.
                if let problem = ProductIdentifier.problem(with: text) { problems.append("`\(key)` is not valid: \(problem)") }
            case .string?: break
            case let value?: problems.append("`\(key)` is \(value.kindDescription); it must be a string")
            }
        }
        return problems
    }

    /// Reads `folder/ContentInfo.plist`; throws when it is missing, malformed, or not a dictionary.
    public static func read(folder: String) throws(IAPKitError) -> ContentInfo {
        let path = Path.join(folder, fileName)
        guard case let .dictionary(dictionary) = try PropertyListReader.read(contentsOf: path) else {
            throw .malformed(location: SourceLocation(file: path), reason: "must hold a dictionary at its root")
        }
        return ContentInfo(dictionary: dictionary)
    }

    public func data() throws(IAPKitError) -> Data {
        try PropertyListWriter.write(.dictionary(dictionary))
    }
}
