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
import PropertyList

/// Raises `ContentVersion` in `ContentInfo.plist`, keeping every other key and their order. A version only goes up:
/// `.set` refuses one that is not above the folder's.
public enum ContentBumper {
    public enum Change: Sendable, Equatable {
        case bump(ContentVersion.Bump)
        case set(String)
    }

    public struct Result: Sendable, Equatable {
        public var folder: String
        public var oldVersion: String
        public var newVersion: String
    }

    /// Bumps every folder, or none: all are read and checked before any file is written.
    public static func bump(folders: [String], change: Change) throws(IAPKitError) -> [Result] {
        var planned: [(path: String, info: ContentInfo, result: Result)] = []
        for folder in folders {
            var info = try ContentInfo.read(folder: folder)
            let plistPath = Path.join(folder, ContentInfo.fileName)
            guard let oldText = info.versionText else {
                throw .malformed(
                    location: SourceLocation(file: plistPath),
                    reason: "has no string `ContentVersion`; add one such as <string>1.0</string>")
            }
            guard let old = ContentVersion(oldText) else {
                throw .malformed(
                    location: SourceLocation(file: plistPath),
                    reason: "ContentVersion `\(oldText)` is not valid; \(ContentVersion.invalidHint)")
            }
            let new: ContentVersion
            switch change {
            case let .bump(kind): new = old.bumped(kind)
            case let .set(text):
                guard let version = ContentVersion(text) else {
                    throw .invalidArgument("`\(text)` is not a valid content version; \(ContentVersion.invalidHint).")
                }
                // Devices take content again only for a higher version: a lower or equal one never reaches anyone.
                guard version > old else {
                    throw .invalidArgument(
                        "\(folder): --set \(text) is not above ContentVersion \(oldText); versions only go up, since devices "
                            + "fetch content again only for a higher one: set a higher version, such as \(old.bumped(.patch)); "
                            + "nothing was written")
                }
                new = version
            }
            info.dictionary[ContentInfo.versionKey] = .string(new.description)
            planned.append((plistPath, info, Result(folder: folder, oldVersion: oldText, newVersion: new.description)))
        }
        for item in planned {
            try AtomicFile.write(try item.info.data(), to: item.path)
        }
        return planned.map(\.result)
    }
}
