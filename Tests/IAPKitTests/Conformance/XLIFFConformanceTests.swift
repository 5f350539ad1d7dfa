import Foundation
import TestSupport
import Testing

/// Exported XLIFF against the OASIS XLIFF 1.2 strict schema, validated by xmllint (libxml2-utils).
@Suite(.enabled(if: XLIFFSchema.path != nil, XLIFFSchema.skipReason))
struct XLIFFConformanceTests {

    @Test func exportedXLIFFIsValidAgainstTheStrictSchema() throws {
        let dir = TemporaryDirectory()
        let export = try iapkit(
            [
                "localizations", "export", "Tests/Fixtures/" + Paths.examplesCatalog, "--format", "xliff",
                "--locale", "fr-FR", "--locale", "zh-Hans", "-o", dir.path,
            ], in: Paths.repository)
        #expect(export.status == 0, "\(export.stderr)")
        // The schema imports xml.xsd from the W3C's URL; an XML catalog points that at the copy beside it, and
        // --nonet makes sure nothing is fetched.
        let xmlSchema = URL(fileURLWithPath: XLIFFSchema.folder + "/xml.xsd").absoluteString
        let catalog = dir.write(
            "xml-catalog.xml",
            """
            <?xml version="1.0"?>
            <catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
              <uri name="http://www.w3.org/2001/xml.xsd" uri="\(xmlSchema)"/>
              <system systemId="http://www.w3.org/2001/xml.xsd" uri="\(xmlSchema)"/>
            </catalog>
            """)
        for locale in ["fr-FR", "zh-Hans"] {
            let result = try run(
                "/usr/bin/env", ["xmllint", "--noout", "--nonet", "--schema", XLIFFSchema.path!, dir.file("\(locale).xliff")],
                environment: ["XML_CATALOG_FILES": catalog])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("validates"), "\(result.stderr)")
        }
    }
}

/// The OASIS XLIFF 1.2 strict schema and the xml.xsd it imports, in the reference folder.
enum XLIFFSchema {
    static let folder = Reference.folder + "/reference/xliff"

    /// `xliff-core-1.2-strict.xsd`, as OASIS names it.
    static let path: String? = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".xsd") && $0.contains("strict") }.sorted().first.map { folder + "/" + $0 }

    static let skipReason = Comment(
        rawValue: "no XLIFF 1.2 strict schema (*strict*.xsd) in \(folder) "
            + "(set IAPKIT_REFERENCE to run conformance tests)")
}
