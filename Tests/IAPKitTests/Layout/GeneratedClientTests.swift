import Foundation
import TestSupport
import Testing

/// The generated App Store Connect client holds only what is called: each operation it generates (one per entry of
/// `filter: operations:` in Sources/AppStoreConnectAPI/openapi-generator-config.yaml) is called somewhere in the
/// sources outside Generated/. An operation no code calls only costs build time; each failure names it.
@Suite struct GeneratedClientTests {
    static let generated = "/Sources/AppStoreConnectAPI/Generated/"

    @Test func everyGeneratedOperationHasACaller() throws {
        let client = try String(contentsOfFile: Paths.repository + Self.generated + "Client.swift", encoding: .utf8)
        let operations = Self.operations(inClient: client)
        #expect(operations.count > 50, "\(operations)")
        let sources = Paths.repository + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !("/Sources/" + $0).contains(Self.generated) }
        #expect(files.count > 50)
        let code = try files.map { try String(contentsOfFile: sources + "/" + $0, encoding: .utf8) }
        for operation in Self.uncalled(operations, in: code) {
            Issue.record(
                "the generated client has \(operation), which nothing under Sources/ calls: leave it out of the filter in openapi-generator-config.yaml"
            )
        }
    }

    /// The operations a generated Client.swift implements, in its order.
    static func operations(inClient text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let prefix = "    public func "
            guard line.hasPrefix(prefix), let open = line.firstIndex(of: "("),
                line[open...].hasPrefix("(_ input: Operations.")
            else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: prefix.count)..<open])
        }
    }

    /// The operations no line of `sources` calls (or passes on as `.name`); comment lines do not count.
    static func uncalled(_ operations: [String], in sources: [String]) -> [String] {
        func isNamePart(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        var used = Set<String>()
        for source in sources {
            for line in source.split(separator: "\n") where !line.drop(while: { $0 == " " }).hasPrefix("//") {
                // Each `.name` on the line, the name starting with a lower-case letter.
                let bytes = Array(line.utf8)
                var index = 1
                while index < bytes.count {
                    guard bytes[index - 1] == UInt8(ascii: "."), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index]) else {
                        index += 1
                        continue
                    }
                    var end = index
                    while end < bytes.count, isNamePart(bytes[end]) { end += 1 }
                    used.insert(String(decoding: bytes[index..<end], as: UTF8.self))
                    index = end
                }
            }
        }
        return operations.filter { !used.contains($0) }
    }

    // The checker itself, on made-up code.

    @Test func theCheckerFindsOperationsAndTheirCallers() {
        let client = """
            public struct Client: APIProtocol {
                public func appsGetCollection(_ input: Operations.AppsGetCollection.Input) async throws -> Operations.AppsGetCollection.Output {
                }
                public func appsGetInstance(_ input: Operations.AppsGetInstance.Input) async throws -> Operations.AppsGetInstance.Output {
                }
                public func territoriesGetCollection(_ input: Operations.TerritoriesGetCollection.Input) async throws -> Operations.TerritoriesGetCollection.Output {
                }
                public func winBackOffersDeleteInstance(_ input: Operations.WinBackOffersDeleteInstance.Input) async throws -> Operations.WinBackOffersDeleteInstance.Output {
                }
            }
            """
        let operations = Self.operations(inClient: client)
        #expect(operations == ["appsGetCollection", "appsGetInstance", "territoriesGetCollection", "winBackOffersDeleteInstance"])
        let sources = [
            "let apps = try await asc.send { try await $0.appsGetCollection(query: .init(limit: 2)).ok.body.json }",
            """
            /// try await $0.winBackOffersDeleteInstance(path: .init(id: id))
            let read = Client.territoriesGetCollection
            let instance = appsGetInstanceOld(); let other = $0.appsGetInstances()
            """,
        ]
        #expect(Self.uncalled(operations, in: sources) == ["appsGetInstance", "winBackOffersDeleteInstance"])
    }
}
