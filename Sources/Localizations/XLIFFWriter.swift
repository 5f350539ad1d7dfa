import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCore

/// XLIFF 1.2 as Xcode's localization export writes it, through libxml2's writer: one file per target locale, the
/// primary locale as `source-language`, one `trans-unit` per text with App Store Connect's limit as `maxwidth`
/// (`size-unit="char"`), the text's context as a `note`, and its state: `new` (an empty target) or `translated`.
public enum XLIFFWriter {
    public static let namespace = "urn:oasis:names:tc:xliff:document:1.2"

    /// The XLIFF for `locale`; `original` names the catalog in the `file` element.
    public static func write(_ set: TranslationSet, locale: String, original: String, toolVersion: String) throws(IAPKitError) -> [UInt8] {
        guard let buffer = xmlBufferCreate() else { throw .io(path: original, reason: "out of memory") }
        defer { xmlBufferFree(buffer) }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else { throw .io(path: original, reason: "out of memory") }
        var failed = false
        func check(_ result: Int32) { if result < 0 { failed = true } }
        check(xmlTextWriterSetIndent(writer, 1))
        check(xmlTextWriterSetIndentString(writer, "  "))
        check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil))
        check(xmlTextWriterStartElement(writer, "xliff"))
        check(xmlTextWriterWriteAttribute(writer, "xmlns", namespace))
        check(xmlTextWriterWriteAttribute(writer, "version", "1.2"))
        check(xmlTextWriterStartElement(writer, "file"))
        check(xmlTextWriterWriteAttribute(writer, "original", original))
        check(xmlTextWriterWriteAttribute(writer, "source-language", set.primaryLocale))
        check(xmlTextWriterWriteAttribute(writer, "target-language", locale))
        check(xmlTextWriterWriteAttribute(writer, "datatype", "plaintext"))
        check(xmlTextWriterStartElement(writer, "header"))
        check(xmlTextWriterStartElement(writer, "tool"))
        check(xmlTextWriterWriteAttribute(writer, "tool-id", "iapkit"))
        check(xmlTextWriterWriteAttribute(writer, "tool-name", "iapkit"))
        check(xmlTextWriterWriteAttribute(writer, "tool-version", toolVersion))
        check(xmlTextWriterEndElement(writer))
        check(xmlTextWriterEndElement(writer))
        check(xmlTextWriterStartElement(writer, "body"))
        for unit in set.units {
            try checkText(unit.source, unit: unit.id)
            let translation = unit.translations[locale]
            if let translation { try checkText(translation, unit: unit.id) }
            check(xmlTextWriterStartElement(writer, "trans-unit"))
            check(xmlTextWriterWriteAttribute(writer, "id", unit.id))
            check(xmlTextWriterWriteAttribute(writer, "maxwidth", String(unit.limit)))
            check(xmlTextWriterWriteAttribute(writer, "size-unit", "char"))
            check(xmlTextWriterWriteAttribute(writer, "xml:space", "preserve"))
            check(xmlTextWriterWriteElement(writer, "source", unit.source))
            check(xmlTextWriterStartElement(writer, "target"))
            check(xmlTextWriterWriteAttribute(writer, "state", translation == nil ? "new" : "translated"))
            if let translation { check(xmlTextWriterWriteString(writer, translation)) }
            check(xmlTextWriterEndElement(writer))
            check(xmlTextWriterWriteElement(writer, "note", unit.context))
            check(xmlTextWriterEndElement(writer))
        }
        check(xmlTextWriterEndDocument(writer))
        xmlFreeTextWriter(writer)
        if failed { throw .io(path: original, reason: "libxml2 could not write the XLIFF") }
        guard let content = xmlBufferContent(buffer) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }

    /// XML 1.0 cannot carry most control characters at all; App Store Connect takes none in these texts.
    static func checkText(_ text: String, unit: String) throws(IAPKitError) {
        if let scalar = text.unicodeScalars.first(where: {
            ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || $0.value == 0xFFFE || $0.value == 0xFFFF
        }) {
            throw .invalidArgument(
                "the text of `\(unit)` holds the control character U+" + Format.hex(scalar.value, width: 4, uppercase: true)
                    + ", which XML cannot carry; remove it from the catalog")
        }
    }
}
