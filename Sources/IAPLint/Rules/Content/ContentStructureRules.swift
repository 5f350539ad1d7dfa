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
import HostedContent
import IAPCatalog
import IAPCore

struct ContentFolderRule: ContentRule {
    static let id = "content-folder"
    static let severity = RuleSeverity.error
    static let rationale =
        "A hosted-content package is built from ContentInfo.plist and the Contents/ folder; without them there is nothing to package."
    static let summary = "The hosted-content folder, its ContentInfo.plist or its Contents/ folder is missing."
    static let examples = RuleExamples(
        triggering: ["@expect com.example.app.one\nContents/\n", "@expect com.example.app.one\n@info 1.0 com.example.app.one\n"],
        nonTriggering: [ContentExample.folder()])

    func check(_ context: ContentLintContext) {
        guard let tree = context.tree else {
            context.report(Self.self, "hosted-content folder does not exist; create it with `iapkit new-content`")
            return
        }
        let top = Dictionary(tree.entries.filter { $0.depth == 1 }.map { ($0.relativePath, $0.kind) }, uniquingKeysWith: { a, _ in a })
        if top[ContentInfo.fileName] != .file {
            context.report(
                Self.self,
                "has no \(ContentInfo.fileName) at its root; a hosted-content folder holds "
                    + "ContentInfo.plist and Contents/", file: context.infoPath)
        }
        if top[ContentInfo.contentsFolder] != .directory {
            context.report(
                Self.self, "has no Contents/ folder; put the purchasable files in Contents/",
                file: Path.join(context.folder, ContentInfo.contentsFolder))
        }
    }
}

struct ContentInfoRule: ContentRule {
    static let id = "content-info"
    static let severity = RuleSeverity.error
    static let rationale =
        "App Store Connect reads the product and the version from ContentInfo.plist, and refuses the package when they are missing or wrong."
    static let summary =
        "ContentInfo.plist is malformed (entity declarations included), lacks ContentVersion or IAPProductIdentifier, holds a non-string, or its IAPProductIdentifier breaks the product-ID rules."
    static let examples = RuleExamples(
        triggering: [
            "Contents/\nContentInfo.plist: <plist><dict><key>ContentVersion</key></dict>\n",
            "Contents/\nContentInfo.plist: <plist version=\"1.0\"><dict><key>ContentVersion</key><integer>1</integer><key>IAPProductIdentifier</key><string>a</string></dict></plist>\n",
            "Contents/\n@info 1.0 ../../evil\n",
            "Contents/\nContentInfo.plist: <!DOCTYPE plist [<!ENTITY e \"x\">]><plist><dict><key>ContentVersion</key><string>1.0</string><key>IAPProductIdentifier</key><string>a&e;</string></dict></plist>\n",
        ],
        nonTriggering: [ContentExample.folder()])

    func check(_ context: ContentLintContext) {
        if let error = context.infoError {
            var line: Int?
            var reason = error.description
            if case let .malformed(location, text) = error { line = location.line; reason = text }
            context.report(Self.self, "ContentInfo.plist \(reason)", file: context.infoPath, line: line)
            return
        }
        for problem in context.info?.keyProblems ?? [] {
            context.report(Self.self, "ContentInfo.plist \(problem)", file: context.infoPath)
        }
    }
}

struct ContentIDMismatchRule: ContentRule {
    static let id = "content-id-mismatch"
    static let severity = RuleSeverity.error
    static let rationale =
        "The package is attached to the product its ContentInfo.plist names; a different ID sends it to the wrong product or nowhere."
    static let summary = "IAPProductIdentifier differs from the catalog's product ID."
    static let examples = RuleExamples(
        triggering: ["@expect com.example.app.one\n@info 1.0 com.example.app.two\nContents/\n"],
        nonTriggering: [ContentExample.folder()])

    func check(_ context: ContentLintContext) {
        guard let expected = context.expectedProductID, let actual = context.info?.productID, actual != expected else { return }
        context.report(
            Self.self,
            "IAPProductIdentifier is `\(actual)` but the catalog's product is `\(expected)`; "
                + "they must match or the content is delivered to no one", file: context.infoPath)
    }
}

/// A folder named on its own (no catalog names it) is checked against its own name: `iapkit package` names the
/// archive after IAPProductIdentifier, and the folder is named after the product by convention, so the two must agree.
struct ContentFolderNameRule: ContentRule {
    static let id = "content-folder-name"
    static let severity = RuleSeverity.error
    static let rationale =
        "A hosted-content folder is named after its product ID, and `iapkit package` names the archive after IAPProductIdentifier: "
        + "when the two differ, one of them names the wrong product."
    static let summary =
        "A folder no catalog names for a product has a name other than its IAPProductIdentifier (through a catalog, `content-id-mismatch` checks the ID)."
    static let examples = RuleExamples(
        triggering: ["@info 1.0 com.example.app.two\nContents/\n"],
        nonTriggering: ["@info 1.0 com.example.app.one\nContents/\n", ContentExample.folder()])

    func check(_ context: ContentLintContext) {
        guard context.expectedProductID == nil, let actual = context.info?.productID, context.tree != nil else { return }
        let name = Path.lastComponent(Path.resolved(context.folder))
        guard name != actual, ProductIdentifier.problem(with: actual) == nil else { return }
        context.report(
            Self.self,
            "the folder is named `\(name)` but its IAPProductIdentifier is `\(actual)`, and `iapkit package` names the archive "
                + "after IAPProductIdentifier: rename the folder to `\(actual)`, or correct IAPProductIdentifier in ContentInfo.plist",
            file: context.infoPath)
    }
}

struct ContentVersionRule: ContentRule {
    static let id = "content-version"
    static let severity = RuleSeverity.error
    static let rationale = "App Store Connect and StoreKit compare versions as dotted integers."
    static let summary = "ContentVersion is not integers separated by periods."
    static let examples = RuleExamples(
        triggering: [ContentExample.folder(version: "1.0-beta"), ContentExample.folder(version: "v2")],
        nonTriggering: [ContentExample.folder(version: "1.0.12")])

    func check(_ context: ContentLintContext) {
        guard let text = context.info?.versionText, ContentVersion(text) == nil else { return }
        context.report(Self.self, "ContentVersion `\(text)` is not valid; \(ContentVersion.invalidHint)", file: context.infoPath)
    }
}

struct ContentSizeRule: ContentRule {
    static let id = "content-size"
    static let severity = RuleSeverity(.error, "warning above 1.8 GB")
    static let rationale = "App Store Connect takes hosted content up to 2 GB."
    static let summary = "The folder holds more than 2 GB (a warning above 1.8 GB)."
    static let limit: UInt64 = 2_000_000_000
    static let warningLimit: UInt64 = 1_800_000_000
    static let examples = RuleExamples(
        triggering: [ContentExample.folder("@sparse Contents/big.bin 2000000001\n"), ContentExample.folder("@sparse Contents/big.bin 1900000000\n")],
        nonTriggering: [ContentExample.folder("@sparse Contents/big.bin 1000000000\n")])

    func check(_ context: ContentLintContext) {
        guard let total = context.tree?.totalFileBytes else { return }
        let gigabytes = Format.fixed(Double(total) / 1e9, decimals: 2) + " GB"
        if total > Self.limit {
            context.report(Self.self, "holds \(gigabytes); hosted content is limited to 2 GB per product")
        } else if total > Self.warningLimit {
            context.report(Self.self, .warning, "holds \(gigabytes), close to the 2 GB limit per product")
        }
    }
}
