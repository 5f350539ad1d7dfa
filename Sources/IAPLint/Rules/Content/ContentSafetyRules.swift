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
import IAPCore

struct ContentExecutableRule: ContentRule {
    static let id = "content-executable"
    static let severity = RuleSeverity.error
    static let rationale = "Hosted content may not carry executable code; App Review rejects it."
    static let summary = "A Mach-O, ELF or PE binary, a #! script, or a .dylib, .so, .framework, .app, .appex or .bundle inside."
    static let bundleExtensions: Set<String> = ["dylib", "so", "framework", "app", "appex", "bundle"]
    static let examples = RuleExamples(
        triggering: [
            ContentExample.folder("Contents/run.sh: #!/bin/sh\\necho hi\n"), ContentExample.folder("Contents/tool: \u{7F}ELF....\n"),
            ContentExample.folder("Contents/Plugin.bundle/\n"), ContentExample.folder("Contents/libx.dylib: x\n"),
        ],
        nonTriggering: [ContentExample.folder("Contents/notes.txt: # not a script\n")])

    func check(_ context: ContentLintContext) {
        guard let tree = context.tree else { return }
        for entry in tree.entries where entry.kind == .file || entry.kind == .directory {
            let path = context.path(of: entry)
            let pathExtension = Path.pathExtension(entry.name).lowercased()
            if !entry.relativePath.isEmpty, Self.bundleExtensions.contains(pathExtension) {
                context.report(Self.self, "`\(entry.relativePath)` is a .\(pathExtension); hosted content may not contain code", file: path)
                continue
            }
            guard entry.kind == .file, entry.size >= 2, let kind = Self.binaryKind(at: path) else { continue }
            context.report(Self.self, "`\(entry.relativePath)` is \(kind); hosted content may not contain executable code", file: path)
        }
    }

    /// What kind of executable the file's first bytes say it is, if any.
    static func binaryKind(at path: String) -> String? {
        guard let head = try? InputFile.head(path, count: 4).bytes, head.count >= 2 else { return nil }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0x23, 0x21]) { return "a script (it starts with #!)" }
        if bytes.starts(with: [0x4D, 0x5A]) { return "a Windows (PE) executable" }
        guard bytes.count == 4 else { return nil }
        if bytes == [0x7F, 0x45, 0x4C, 0x46] { return "an ELF binary" }
        let machO: [[UInt8]] = [
            [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE],
            [0xCF, 0xFA, 0xED, 0xFE], [0xCA, 0xFE, 0xBA, 0xBE], [0xBE, 0xBA, 0xFE, 0xCA],
        ]
        if machO.contains(bytes) { return "a Mach-O binary" }
        return nil
    }
}

struct ContentLinkRule: ContentRule {
    static let id = "content-link"
    static let severity = RuleSeverity.error
    static let rationale = "A link out of the folder would ship files from the building machine, and special files cannot be packaged."
    static let summary = "A symbolic link that is absolute or points outside the folder; a device, FIFO or socket."
    static let examples = RuleExamples(
        triggering: [
            ContentExample.folder("Contents/passwd -> /etc/passwd\n"), ContentExample.folder("Contents/up -> ../../secret\n"),
            ContentExample.folder("@fifo Contents/pipe\n"),
        ],
        nonTriggering: [ContentExample.folder("Contents/b.txt -> a.txt\n")])

    func check(_ context: ContentLintContext) {
        guard let tree = context.tree else { return }
        for entry in tree.entries where entry.invalidName == nil {
            let path = context.path(of: entry)
            switch entry.kind {
            case .other:
                context.report(
                    Self.self,
                    "`\(entry.relativePath)` is \(entry.otherDescription ?? "a special file"); "
                        + "hosted content holds only files, folders and links inside it", file: path)
            case .symlink:
                guard let target = entry.symlinkTarget else { continue }
                if target.hasPrefix("/") {
                    context.report(
                        Self.self,
                        "`\(entry.relativePath)` links to the absolute path \(target); use a relative link "
                            + "inside the folder or copy the file", file: path)
                } else if !Self.staysInside(linkAt: entry.relativePath, target: target) {
                    context.report(Self.self, "`\(entry.relativePath)` links to \(target), outside the content folder", file: path)
                }
            default:
                continue
            }
        }
    }

    /// Whether a relative link target, resolved from the link's folder, stays within the content root.
    static func staysInside(linkAt relativePath: String, target: String) -> Bool {
        var depth = relativePath.split(separator: "/").count - 1
        for component in target.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": depth -= 1; if depth < 0 { return false }
            default: depth += 1
            }
        }
        return true
    }
}

struct ContentNameRule: ContentRule {
    static let id = "content-name"
    static let severity = RuleSeverity.error
    static let rationale =
        "cpio, xar and App Store Connect need UTF-8 names; macOS takes `:` as the separator of its older paths and shows it "
        + "as `/`, and Windows refuses it; APFS and HFS+ take names up to 255 bytes; and on the case-insensitive file "
        + "systems of Apple's devices two names that differ only in case, or in how an accent is encoded, are one file."
    static let summary =
        "A file or folder name that is not valid UTF-8, holds `:` or a control character, is longer than 255 bytes, or differs from another in its folder only in case or Unicode form."
    static let maximumBytes = 255
    static let examples = RuleExamples(
        triggering: [
            ContentExample.folder("@badname Contents/caf\n"), ContentExample.folder("Contents/level:5.json: x\n"),
            ContentExample.folder("Contents/Level.json: a\nContents/level.json: b\n"),
        ],
        nonTriggering: [ContentExample.folder("Contents/café.txt: x\nContents/level-5.json: x\n")])

    func check(_ context: ContentLintContext) {
        guard let tree = context.tree else { return }
        // Names folded as a case-insensitive, normalization-insensitive file system compares them, by folder.
        var seen: [String: String] = [:]
        for entry in tree.entries where !entry.relativePath.isEmpty {
            let parent = Path.parent(entry.relativePath)
            if let name = entry.invalidName {
                context.report(
                    Self.self,
                    "the name \"\(name)\" in `\(parent)/` "
                        + "is not valid UTF-8; the package formats and App Store Connect need UTF-8 names: rename it",
                    file: context.folder)
                continue
            }
            let path = context.path(of: entry)
            if let problem = Self.problem(with: entry.name) {
                context.report(Self.self, "`\(entry.relativePath)` \(problem): rename it", file: path)
            }
            let key = parent + "/" + entry.name.lowercased()
            if let other = seen[key] {
                context.report(
                    Self.self,
                    "`\(entry.relativePath)` and `\(other)` differ only in case or in how an accent is encoded; on the "
                        + "case-insensitive file systems of Apple's devices they are one file: rename one", file: path)
            } else {
                seen[key] = entry.relativePath
            }
        }
    }

    /// What is wrong with a UTF-8 name, as the rest of a sentence, or nil.
    static func problem(with name: String) -> String? {
        if name.contains(":") {
            return "has `:` in its name, which macOS takes as the separator of its older paths (and shows as `/`) and Windows refuses"
        }
        if let control = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "has a control character (U+\(Format.hex(control.value, width: 4, uppercase: true))) in its name"
        }
        if name.utf8.count > maximumBytes {
            return "has a name of \(name.utf8.count) bytes; APFS and HFS+ take at most \(maximumBytes)"
        }
        return nil
    }
}

struct ContentJunkRule: ContentRule {
    static let id = "content-junk"
    static let severity = RuleSeverity.warning
    static let rationale =
        "Files a system or a version control tool leaves behind are not content: `iapkit package` leaves them out, "
        + "so what customers get is the folder without them."
    static let summary =
        "`.DS_Store`, `__MACOSX`, `Thumbs.db`, `.git`, or files beside ContentInfo.plist and Contents/ at the root: `iapkit package` leaves them out."
    static let junkNames = ContentTree.junkNames
    static let examples = RuleExamples(
        triggering: [
            ContentExample.folder("Contents/.DS_Store: x\n"), ContentExample.folder("notes.txt: x\n"),
            ContentExample.folder(".git/\n"),
        ],
        nonTriggering: [ContentExample.folder("Contents/en.lproj/\nContents/en.lproj/Strings.strings: x\n")])

    func check(_ context: ContentLintContext) {
        guard let tree = context.tree else { return }
        var reportedPrefixes: [String] = []
        for entry in tree.entries where !entry.relativePath.isEmpty {
            if reportedPrefixes.contains(where: { entry.relativePath.hasPrefix($0 + "/") }) { continue }
            if Self.junkNames.contains(entry.name) {
                context.report(
                    Self.self, .warning, "`\(entry.relativePath)` is not content; `iapkit package` leaves it out, delete it",
                    file: context.path(of: entry))
                reportedPrefixes.append(entry.relativePath)
            } else if entry.depth == 1, entry.relativePath != ContentInfo.fileName, entry.relativePath != ContentInfo.contentsFolder {
                context.report(
                    Self.self, .warning,
                    "`\(entry.relativePath)` sits beside ContentInfo.plist and Contents/, so "
                        + "`iapkit package` leaves it out; move it into Contents/ to ship it, or delete it", file: context.path(of: entry))
                reportedPrefixes.append(entry.relativePath)
            }
        }
    }
}

struct ContentVersionUnchangedRule: ContentRule {
    static let id = "content-version-unchanged"
    static let severity = RuleSeverity.error
    static let rationale =
        "Devices fetch new content only when the version changes; changed files under the old version never reach customers who have it."
    static let summary = "The content differs from what the last `iapkit package` recorded, but ContentVersion did not change."
    static let examples = RuleExamples(
        triggering: [ContentExample.folder("@lock 1.0 changed\n")],
        nonTriggering: [ContentExample.folder("@lock 1.0 same\n"), ContentExample.folder("@lock 0.9 changed\n")])

    func check(_ context: ContentLintContext) {
        guard let entry = context.lockEntry, let tree = context.tree, let version = context.info?.versionText,
            version == entry.contentVersion
        else { return }
        guard let digest = try? ContentDigest.compute(tree: tree.packaged), digest != entry.digest else { return }
        context.report(
            Self.self,
            "the content changed since version \(version) was packaged, but ContentVersion is still "
                + "\(version); customers who have it will never get the change: run `iapkit bump \(context.folder)`",
            file: context.infoPath)
    }
}

struct ContentVersionLowerRule: ContentRule {
    static let id = "content-version-lower"
    static let severity = RuleSeverity.error
    static let rationale =
        "Devices compare the version on disk with the product's download version and fetch content only for a higher one: "
        + "a lower version never reaches customers who have the last one, and the lock would record the lower version."
    static let summary = "ContentVersion is lower than the version iapkit.lock recorded when the product was last packaged."
    static let examples = RuleExamples(
        triggering: [ContentExample.folder("@lock 1.0.1 same\n", version: "0.9"), ContentExample.folder("@lock 1.0.1 changed\n")],
        nonTriggering: [ContentExample.folder("@lock 1.0 same\n"), ContentExample.folder("@lock 0.9 changed\n", version: "1.0.1")])

    func check(_ context: ContentLintContext) {
        guard let entry = context.lockEntry, let recorded = ContentVersion(entry.contentVersion), let text = context.info?.versionText,
            let version = ContentVersion(text), version < recorded
        else { return }
        context.report(
            Self.self,
            "ContentVersion \(text) is lower than \(entry.contentVersion), the version iapkit.lock recorded when "
                + "`\(context.productIDForMessages)` was last packaged; devices fetch content only for a higher version, so "
                + "customers would keep \(entry.contentVersion): set a higher one (`iapkit bump \(context.folder) --set "
                + "\(recorded.bumped(.patch))`)",
            file: context.infoPath)
    }
}

/// App Store Connect no longer takes hosted content for a product that has none there yet. Lint cannot ask App Store
/// Connect: where iapkit.lock lists the app's hosted content, a product it does not list counts as new. (Without a
/// lock nothing says which content App Store Connect has, and the rule is silent.)
struct ContentNewProductRule: ContentRule {
    static let id = "hosted-content-new"
    static let severity = RuleSeverity.warning
    static let rationale =
        "App Store Connect no longer takes hosted content for a new product; new downloadable content ships as Apple-hosted asset packs."
    static let summary =
        "Hosted content for a product the app's iapkit.lock does not list: App Store Connect takes no new hosted content; ship it as an asset pack, or package it if App Store Connect already hosts it."
    static let examples = RuleExamples(
        triggering: [ContentExample.folder("@lock-other\n")],
        nonTriggering: [ContentExample.folder("@lock 1.0 same\n"), ContentExample.folder()])

    func check(_ context: ContentLintContext) {
        guard let productID = context.expectedProductID, context.lockEntry == nil, context.lockListsProducts, context.tree != nil else { return }
        context.report(
            Self.self, .warning,
            "`\(productID)` has hosted content iapkit.lock does not list, so it is a new "
                + "product's, which App Store Connect no longer takes: ship it as an asset pack "
                + "(`iapkit new-content --from-hosted-content \(context.folder)`), or, if App Store "
                + "Connect already hosts this product's content, run `iapkit package` and commit iapkit.lock",
            file: context.infoPath)
    }
}
