import Foundation

/// Targets from Package.swift, imports from the sources, and the layering they must follow.
struct PackageLayout {
    /// From the bottom up. A target imports only targets of lower layers: never one beside it or above it.
    static let layers: [(name: String, targets: [String])] = [
        ("core", ["IAPCore"]),
        ("catalog model", ["PropertyList", "IAPCatalog"]),
        ("hosted content", ["HostedContent"]),
        ("asset packs", ["AssetPacks"]),
        ("lint", ["IAPLint"]),
        ("archive and exchange formats", ["FlatPackage", "CatalogExchange", "Localizations"]),
        ("workflows", ["Packaging", "CatalogSync"]),
        ("command line", ["iapkit"]),
        ("test support", ["TestSupport"]),
        ("tests", ["CatalogTests", "SyncTests", "IAPKitTests"]),
    ]
    /// The App Store Connect client stands beside the catalog stack, from the bottom up: it knows no catalog (it
    /// may use the core), and only the workflows and what is above them use it.
    static let client = ["AppStoreConnectAPI", "AppStoreConnect"]
    static let clientUsers = "workflows"

    /// Modules of the platform and the toolchain, never declared in Package.swift.
    static let platformModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl",
        "Darwin", "Android", "WinSDK", "os", "Synchronization", "Testing", "XCTest", "_Concurrency", "Swift",
    ]

    struct Target: Equatable {
        enum Kind: Equatable { case regular, executable, test, system }
        var name: String
        var kind: Kind
        var dependencies: [String]
        var folder: String
    }

    struct Import: Equatable {
        var file: String
        var line: Int
        var module: String
    }

    var targets: [Target]
    /// Each Swift target's imports, by target name.
    var imports: [String: [Import]]

    static func read(repository: String) throws -> PackageLayout {
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        let targets = parseTargets(manifest)
        var imports: [String: [Import]] = [:]
        for target in targets where target.kind != .system {
            var found: [Import] = []
            let folder = repository + "/" + target.folder
            let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }.sorted()
            for relative in files {
                let text = try String(contentsOfFile: folder + "/" + relative, encoding: .utf8)
                for item in Self.imports(in: text) {
                    found.append(Import(file: target.folder + "/" + relative, line: item.line, module: item.module))
                }
            }
            imports[target.name] = found
        }
        return PackageLayout(targets: targets, imports: imports)
    }

    // MARK: The checks

    /// Imports Package.swift does not declare, and declared dependencies nothing imports. A dependency on an
    /// executable target builds it for the tests to run, so it needs no import.
    func dependencyProblems() -> [String] {
        var problems: [String] = []
        let executables = Set(targets.filter { $0.kind == .executable }.map(\.name))
        for target in targets where target.kind != .system {
            let found = imports[target.name] ?? []
            let declared = Set(target.dependencies)
            for item in found
            where !Self.platformModules.contains(item.module) && item.module != target.name
                && !declared.contains(item.module)
            {
                problems.append(
                    "\(item.file):\(item.line): `import \(item.module)`, but Package.swift does not declare "
                        + "\(item.module) as a dependency of \(target.name)")
            }
            let imported = Set(found.map(\.module))
            for dependency in target.dependencies where !imported.contains(dependency) && !executables.contains(dependency) {
                problems.append("Package.swift: \(target.name) depends on \(dependency), but no file in \(target.folder) imports it")
            }
        }
        return problems
    }

    /// Imports of a target that is beside or above the importing one, and targets the layering does not place.
    func layeringProblems() -> [String] {
        var problems: [String] = []
        let ours = Set(targets.filter { $0.kind != .system }.map(\.name))
        for target in targets where target.kind != .system && Self.place(of: target.name) == nil {
            problems.append(
                "Package.swift: the target \(target.name) has no place in the layering; add it to "
                    + "PackageLayout.layers in Tests/IAPKitTests/Layout/PackageLayout.swift")
        }
        for target in targets where target.kind != .system {
            for item in imports[target.name] ?? [] where ours.contains(item.module) && item.module != target.name {
                if let reason = Self.refusal(importer: target.name, imported: item.module) {
                    problems.append("\(item.file):\(item.line): `import \(item.module)`: \(reason)")
                }
            }
        }
        return problems
    }

    /// Where a target sits: its layer (or the client's stand), its rank, and the layer's name.
    static func place(of name: String) -> (client: Bool, rank: Int, layer: String)? {
        if let index = layers.firstIndex(where: { $0.targets.contains(name) }) { return (false, index, layers[index].name) }
        if let index = client.firstIndex(of: name) { return (true, index, "App Store Connect client") }
        return nil
    }

    /// Why `importer` may not import `imported`, or nil when it may.
    static func refusal(importer: String, imported: String) -> String? {
        guard let from = place(of: importer), let to = place(of: imported) else { return nil }
        let subject = "\(importer) (\(from.layer)) may not import \(imported) (\(to.layer))"
        switch (from.client, to.client) {
        case (false, false):
            if to.rank == from.rank { return subject + ", which is beside it" }
            return to.rank > from.rank ? subject + ", which is above it" : nil
        case (true, true):
            return to.rank >= from.rank ? subject + ", which is above it" : nil
        case (true, false):
            // The core (typed errors, portable helpers with no Foundation beyond its essentials) is everyone's.
            return to.rank == 0 ? nil : subject + ": the App Store Connect client knows no catalog"
        case (false, true):
            let lowest = layers.firstIndex { $0.name == clientUsers } ?? layers.count
            return from.rank < lowest ? subject + ": only the \(clientUsers) and above talk to App Store Connect" : nil
        }
    }

    // MARK: Reading Package.swift

    /// Every target of the manifest, with its dependencies (a product stands for the module of the same name).
    static func parseTargets(_ manifest: String) -> [Target] {
        let text = withoutComments(manifest)
        let kinds: [(String, Target.Kind)] = [
            (".target(", .regular), (".executableTarget(", .executable), (".testTarget(", .test), (".systemLibrary(", .system),
        ]
        var targets: [(offset: Int, target: Target)] = []
        for (opener, kind) in kinds {
            var searchStart = text.startIndex
            while let range = text.range(of: opener, range: searchStart..<text.endIndex) {
                searchStart = range.upperBound
                let body = balanced(text, from: text.index(before: range.upperBound))
                // `.target(name:)` inside a dependency list names a dependency, not a target.
                guard let name = firstString(after: "name:", in: body), isTargetDeclaration(text, at: range.lowerBound) else { continue }
                var dependencies: [String] = []
                if let list = body.range(of: "dependencies:") {
                    let open = body[list.upperBound...].firstIndex(of: "[")!
                    dependencies = dependencyNames(balanced(body, from: open))
                }
                let path = firstString(after: "path:", in: body)
                let folder = path ?? (kind == .test ? "Tests/" : "Sources/") + name
                targets.append(
                    (
                        text.distance(from: text.startIndex, to: range.lowerBound),
                        Target(name: name, kind: kind, dependencies: dependencies, folder: folder)
                    ))
            }
        }
        return targets.sorted { $0.offset < $1.offset }.map(\.target)
    }

    /// Whether the call at `index` is an element of the `targets:` list rather than of a `dependencies:` list.
    private static func isTargetDeclaration(_ text: String, at index: String.Index) -> Bool {
        var depth = 0
        var cursor = index
        while cursor > text.startIndex {
            cursor = text.index(before: cursor)
            switch text[cursor] {
            case "]", ")": depth += 1
            case "(": depth -= 1
            case "[":
                if depth == 0 {
                    let before = text[..<cursor].trimmingCharacters(in: .whitespacesAndNewlines)
                    return before.hasSuffix("targets:")
                }
                depth -= 1
            default: break
            }
        }
        return false
    }

    private static func dependencyNames(_ list: Substring) -> [String] {
        var names: [String] = []
        var index = list.startIndex
        while index < list.endIndex {
            if list[index...].hasPrefix(".product(") {
                let call = balanced(list, from: list.index(index, offsetBy: ".product".count))
                if let name = firstString(after: "name:", in: call) { names.append(name) }
                index = call.endIndex
                continue
            }
            if list[index] == "\"" {
                let start = list.index(after: index)
                let end = list[start...].firstIndex(of: "\"") ?? list.endIndex
                names.append(String(list[start..<end]))
                index = end < list.endIndex ? list.index(after: end) : end
                continue
            }
            index = list.index(after: index)
        }
        return names
    }

    /// From an opening `(` or `[` at `open` to its closing partner, both included; strings are skipped.
    private static func balanced<S: StringProtocol>(_ text: S, from open: S.Index) -> S.SubSequence {
        var depth = 0
        var inString = false
        var index = open
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" || character == "[" {
                depth += 1
            } else if character == ")" || character == "]" {
                depth -= 1
                if depth == 0 { return text[open...index] }
            }
            index = text.index(after: index)
        }
        return text[open...]
    }

    private static func firstString<S: StringProtocol>(after label: String, in text: S) -> String? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "\n" }
        guard rest.first == "\"" else { return nil }
        let value = rest.dropFirst().prefix { $0 != "\"" }
        return String(value)
    }

    /// The manifest without `//` and `/* */` comments (kept inside string literals, where `https://` lives).
    private static func withoutComments(_ text: String) -> String {
        var out = ""
        var inString = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let rest = text[index...]
            if inString {
                out.append(character)
                if character == "\\", text.index(after: index) < text.endIndex {
                    index = text.index(after: index)
                    out.append(text[index])
                } else if character == "\"" {
                    inString = false
                }
            } else if rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? text.endIndex
                continue
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/")?.upperBound ?? text.endIndex
                continue
            } else {
                if character == "\"" { inString = true }
                out.append(character)
            }
            index = text.index(after: index)
        }
        return out
    }

    // MARK: Reading imports

    /// The `import` declarations of a Swift file, with their lines; text inside multi-line string literals (Python
    /// the tests run, say) and block comments is not code.
    static func imports(in source: String) -> [(line: Int, module: String)] {
        var found: [(line: Int, module: String)] = []
        // What ends the multi-line string literal the scan is in: three quotes, and as many `#` as opened it.
        var closing: String?
        var inComment = false
        for (number, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if inComment {
                if line.contains("*/") { inComment = false }
                continue
            }
            if closing == nil {
                if line.hasPrefix("/*") {
                    inComment = !line.contains("*/")
                    continue
                }
                if let module = importedModule(line) { found.append((number + 1, module)) }
            }
            var rest = Substring(line)
            while true {
                if let end = closing {
                    guard let range = rest.range(of: end) else { break }
                    closing = nil
                    rest = rest[range.upperBound...]
                } else {
                    guard let range = rest.range(of: "\"\"\"") else { break }
                    let hashes = rest[..<range.lowerBound].reversed().prefix { $0 == "#" }.count
                    closing = "\"\"\"" + String(repeating: "#", count: hashes)
                    rest = rest[range.upperBound...]
                }
            }
        }
        return found
    }

    /// `import X`, `@testable import X`, `@_spi(S) public import X`, `import struct X.Y`: X.
    private static func importedModule(_ line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        var path = words[1]
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor"]
        if kinds.contains(path), words.count >= 3 { path = words[2] }
        return path.split(separator: ".").first.map(String.init)
    }
}
