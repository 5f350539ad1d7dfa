import Foundation
import TestSupport
import Testing

/// Hostile translation files: refused within the same limits as every other reader, with nothing written.
@Suite struct TranslationHostileTests {
    static func project() throws -> (TemporaryDirectory, String, Data) {
        let dir = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Paths.examples + "/catalog.yaml", toPath: dir.file("catalog.yaml"))
        let catalog = dir.file("catalog.yaml")
        return (dir, catalog, FileManager.default.contents(atPath: catalog) ?? Data())
    }

    static let unit = """
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="catalog.yaml" source-language="en-US" target-language="fr-FR" datatype="plaintext"><body>
            <trans-unit id="com.example.fruitstand.kiwi/name"><source>Kiwi Levels</source><target state="translated">&e;</target></trans-unit>
          </body></file>
        </xliff>
        """

    @Test(arguments: [
        ("external entity", "<?xml version=\"1.0\"?>\n<!DOCTYPE xliff [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n" + unit, 2),
        (
            "billion laughs",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE xliff [\n<!ENTITY a \"lol\">\n"
                + (1...9).map {
                    "<!ENTITY \(Character(UnicodeScalar(UInt8(97 + $0)))) \""
                        + String(repeating: "&\(Character(UnicodeScalar(UInt8(96 + $0))));", count: 10) + "\">"
                }.joined(separator: "\n")
                + "\n<!ENTITY e \"&j;\">]>\n" + unit, 3
        ),
        (
            "external DTD",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE xliff SYSTEM \"http://127.0.0.1:9/xliff.dtd\">\n"
                + unit.replacingOccurrences(of: "&e;", with: "Niveaux"), 0
        ),
        // The first error libxml2 meets, where the tags stop matching.
        ("malformed", "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"><file target-language=\"fr-FR\"><body></xliff>\n", 2),
    ])
    func entityTricksAndMalformedXMLAreFindingsAndNothingIsWritten(name: String, xml: String, line: Int) throws {
        let (dir, catalog, before) = try Self.project()
        let file = dir.write("fr.xliff", xml)
        let started = Date()
        let result = try iapkit("localizations", "import", file, catalog)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!result.stdout.contains("root:"), "no file content leaks into the report")
        if name == "external DTD" {
            // Nothing is fetched: the DTD is never loaded, and the text imports as plain text.
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(String(decoding: FileManager.default.contents(atPath: catalog) ?? Data(), as: UTF8.self).contains("name: Niveaux"))
            return
        }
        #expect(result.status == 1, "\(name): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(file):\(line)"), "\(name): \(result.stdout)")
        #expect(result.stdout.contains("[translation-file]"), "\(result.stdout)")
        #expect(result.stdout.contains(name == "malformed" ? "is not well-formed XML" : "declares an XML entity"), "\(result.stdout)")
        #expect(FileManager.default.contents(atPath: catalog) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["catalog.yaml", "fr.xliff"])
    }

    @Test func aHundredMegabyteFileIsRefusedBeforeItIsRead() throws {
        let (dir, catalog, before) = try Self.project()
        let file = dir.file("huge.xliff")
        FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let measured = try measuredIapkit(["localizations", "import", file, catalog])
        #expect(measured.status == 2, "\(measured.stderr)")
        #expect(measured.stderr.contains("is larger than iapkit reads for this kind of file"), "\(measured.stderr)")
        #expect(measured.peakMegabytes < 64, "the file is refused by its size, not read")
        #expect(FileManager.default.contents(atPath: catalog) == before)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let (dir, catalog, _) = try Self.project()
        let fifo = dir.file("fr.xliff")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try iapkit("localizations", "import", fifo, catalog)
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a regular file"), "\(result.stderr)")
    }
}
