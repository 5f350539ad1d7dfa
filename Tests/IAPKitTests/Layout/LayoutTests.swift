import Foundation
import TestSupport
import Testing

/// The package's shape, read from its files: each target declares in Package.swift exactly the modules its sources
/// import, no target imports one above it in the layering, and no hand-written source or test runs past 450 lines. Each
/// failure names the file, and the import.
@Suite struct LayoutTests {
    @Test func everyTargetDeclaresExactlyWhatItImports() throws {
        let layout = try PackageLayout.read(repository: Paths.repository)
        for problem in layout.dependencyProblems() { Issue.record(Comment(rawValue: problem)) }
    }

    @Test func noTargetImportsOneAboveIt() throws {
        let layout = try PackageLayout.read(repository: Paths.repository)
        for problem in layout.layeringProblems() { Issue.record(Comment(rawValue: problem)) }
    }

    /// Full Foundation on Linux links in ICU and its data (the release binary doubles, past what `make dist-check`
    /// allows): every source takes FoundationEssentials where it exists, Foundation only in the `#else` of that test.
    /// The generated API client is left out: it names only types FoundationEssentials holds (`Foundation.URL`, `Data`,
    /// `Date`), which bring in no code of full Foundation.
    @Test func noSourceImportsFullFoundationWhereFoundationEssentialsExists() throws {
        let fullFoundation = try Regex(
            #"^\s*(@\w+\s+)*(public\s+|internal\s+)?import\s+(\w+\s+)?Foundation(Networking|XML|Internationalization)?(\.|\s|$)"#)
        for file in try Self.handWrittenSources() {
            let lines = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.firstMatch(of: fullFoundation) != nil {
                let guarded =
                    index >= 2 && lines[index - 1].trimmingCharacters(in: .whitespaces) == "#else"
                    && lines[index - 2].contains("import FoundationEssentials")
                #expect(guarded, "Sources/\(file):\(index + 1): \(line) outside `#if canImport(FoundationEssentials) ... #else`")
            }
        }
    }

    /// A source file past this many lines holds more than one concern: it is split along what its code does, as
    /// `Type+Concern.swift` extensions beside it.
    static let maximumLines = 450

    @Test func noSourceFileRunsPastTheMaximumLength() throws {
        var long: [String] = []
        let tests = try #require(FileManager.default.enumerator(atPath: Paths.repository + "/Tests")).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted().map { "Tests/" + $0 }
        #expect(tests.count > 50)
        for file in try Self.handWrittenSources().map({ "Sources/" + $0 }) + tests {
            let text = try String(contentsOfFile: Paths.repository + "/" + file, encoding: .utf8)
            let lines = text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            if lines > Self.maximumLines { long.append("\(file) (\(lines))") }
        }
        #expect(
            long.isEmpty,
            "past \(Self.maximumLines) lines, to be split along what the code does: \(long.joined(separator: ", "))")
    }

    static let sources = Paths.repository + "/Sources"

    /// Every Swift file under Sources/ but the generated API client, as paths inside Sources/, in order.
    static func handWrittenSources() throws -> [String] {
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.contains("/Generated/") }.sorted()
        #expect(files.count > 50)
        return files
    }

    // The checker itself, on a package made up here.

    static let madeUpManifest = """
        let package = Package(
            name: "x", // a comment with "quotes", and https://example.com
            dependencies: [.package(url: "https://github.com/apple/swift-crypto", from: "3.0.0")],
            targets: [
                .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1"),
                .target(name: "IAPCore"),
                .target(name: "IAPCatalog", dependencies: ["IAPCore", "CYAML"]),
                // Declared but never imported:
                .target(name: "FlatPackage", dependencies: [
                    "IAPCore", .target(name: "IAPCatalog"), .product(name: "Crypto", package: "swift-crypto"),
                ], exclude: ["notes.txt"]),
                .executableTarget(name: "iapkit", dependencies: ["FlatPackage"]),
                .testTarget(name: "IAPKitTests", dependencies: ["iapkit", "IAPCore"]),
            ]
        )
        """

    @Test func theCheckerReadsTargetsAndDependencies() {
        let targets = PackageLayout.parseTargets(Self.madeUpManifest)
        #expect(targets.map(\.name) == ["CYAML", "IAPCore", "IAPCatalog", "FlatPackage", "iapkit", "IAPKitTests"])
        #expect(targets.first { $0.name == "FlatPackage" }?.dependencies == ["IAPCore", "IAPCatalog", "Crypto"])
        #expect(targets.first { $0.name == "FlatPackage" }?.folder == "Sources/FlatPackage")
        #expect(targets.first { $0.name == "IAPKitTests" }?.folder == "Tests/IAPKitTests")
        #expect(targets.first { $0.name == "CYAML" }?.kind == .system)
    }

    @Test func theCheckerReadsImportsButNotStrings() {
        let source = #"""
            @testable import IAPLint
            @_spi(Generated) public import OpenAPIRuntime
            public import struct Foundation.URL
            import Testing
            // import Commented
            let script = """
                import json
                """
            /* import Hidden */
            """#
        #expect(PackageLayout.imports(in: source).map(\.module) == ["IAPLint", "OpenAPIRuntime", "Foundation", "Testing"])
        #expect(PackageLayout.imports(in: source).map(\.line) == [1, 2, 3, 4])
    }

    @Test func theCheckerNamesTheFileAndTheImport() {
        let targets = PackageLayout.parseTargets(Self.madeUpManifest)
        let layout = PackageLayout(
            targets: targets,
            imports: [
                "IAPCore": [],
                "IAPCatalog": [
                    .init(file: "Sources/IAPCatalog/Loader.swift", line: 1, module: "CYAML"),
                    .init(file: "Sources/IAPCatalog/Loader.swift", line: 2, module: "IAPCore"),
                    .init(file: "Sources/IAPCatalog/Loader.swift", line: 3, module: "FlatPackage"),
                ],
                "FlatPackage": [
                    .init(file: "Sources/FlatPackage/Zip.swift", line: 2, module: "IAPCore"),
                    .init(file: "Sources/FlatPackage/Zip.swift", line: 3, module: "Foundation"),
                ],
                "iapkit": [.init(file: "Sources/iapkit/Main.swift", line: 1, module: "FlatPackage")],
                "IAPKitTests": [.init(file: "Tests/IAPKitTests/T.swift", line: 1, module: "IAPCore")],
            ])
        #expect(
            layout.dependencyProblems() == [
                "Sources/IAPCatalog/Loader.swift:3: `import FlatPackage`, but Package.swift does not declare FlatPackage "
                    + "as a dependency of IAPCatalog",
                "Package.swift: FlatPackage depends on IAPCatalog, but no file in Sources/FlatPackage imports it",
                "Package.swift: FlatPackage depends on Crypto, but no file in Sources/FlatPackage imports it",
            ])
        #expect(
            layout.layeringProblems() == [
                "Sources/IAPCatalog/Loader.swift:3: `import FlatPackage`: IAPCatalog (catalog model) may not import "
                    + "FlatPackage (archive and exchange formats), which is above it"
            ])
    }
}
