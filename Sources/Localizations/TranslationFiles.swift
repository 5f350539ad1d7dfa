import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IAPCatalog
import IAPCore
import PropertyList

/// One text as a translation file holds it, with where it stands in that file.
public struct ImportedText: Sendable {
    public var unitID: String
    public var locale: String
    /// nil when the file has no target for the unit.
    public var text: String?
    /// XLIFF's `state` of the target (`new`, `translated`, `final`...); nil in a CSV.
    public var state: String?
    public var location: SourceLocation
}

/// What a translation file declares besides its texts, for the checks of the whole file.
public struct TranslationFile: Sendable {
    public var path: String
    /// Per target locale: where the file names it, and the source locale it names with it.
    public var locales: [(locale: String, source: String?, location: SourceLocation)]
    public var texts: [ImportedText]
}

/// Reading and writing the files translators exchange: XLIFF 1.2 and RFC 4180 CSV.
public enum TranslationFiles {
    /// Translation files are kilobytes; a catalog of 20,000 products exported to one locale is about 20 MB.
    public static let sizeLimit = 32 << 20

    public enum Format: String, Sendable, CaseIterable {
        case xliff, csv

        /// From a file's extension: `.xlf`, `.xliff` or `.csv`.
        public init?(path: String) {
            switch Path.pathExtension(path).lowercased() {
            case "xlf", "xliff": self = .xliff
            case "csv": self = .csv
            default: return nil
            }
        }
    }

    /// Reads a translation file, refusing (as `IAPKitError.malformed`, with its line and column) what is not
    /// well-formed, declares entities, or is not XLIFF or a translation sheet.
    public static func read(_ path: String) throws(IAPKitError) -> TranslationFile {
        guard let format = Format(path: path) else {
            throw .invalidArgument("\(path): not a translation file; iapkit reads .xlf, .xliff and .csv")
        }
        let data = try InputFile.read(path, limit: sizeLimit)
        switch format {
        case .xliff: return try readXLIFF(data, file: path)
        case .csv: return try readCSV(data, file: path)
        }
    }

    // MARK: XLIFF

    static func readXLIFF(_ data: Data, file: String) throws(IAPKitError) -> TranslationFile {
        let input = try XMLInput(data, file: file, kind: "XLIFF files")
        // The nodes below live in its document: it must outlive them.
        defer { withExtendedLifetime(input) {} }
        guard let root = input.root, XMLInput.name(of: root) == "xliff" else {
            throw .malformed(location: SourceLocation(file: file, line: 1), reason: "is XML but not XLIFF (no <xliff> root element)")
        }
        let version = XMLInput.attribute("version", of: root)
        guard version == "1.2" else {
            throw .malformed(
                location: SourceLocation(file: file, line: XMLInput.line(of: root)),
                reason: "is XLIFF \(version ?? "of no version"); iapkit reads XLIFF 1.2, as Xcode and translation platforms write it")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func location(_ node: xmlNodePtr) -> SourceLocation {
            let line = XMLInput.line(of: node)
            var location = SourceLocation(file: file, line: line)
            // libxml2 keeps lines, not columns: the element's tag on its line gives the column.
            if line >= 1, line <= lines.count, let range = lines[line - 1].firstRange(of: "<" + XMLInput.name(of: node)) {
                location.column = lines[line - 1].distance(from: lines[line - 1].startIndex, to: range.lowerBound) + 1
            }
            return location
        }
        var result = TranslationFile(path: file, locales: [], texts: [])
        for fileElement in XMLInput.elementChildren(root) where XMLInput.name(of: fileElement) == "file" {
            let here = location(fileElement)
            guard let locale = XMLInput.attribute("target-language", of: fileElement), !locale.isEmpty else {
                throw .malformed(location: here, reason: "<file> has no target-language; say which locale the file translates into")
            }
            result.locales.append((locale, XMLInput.attribute("source-language", of: fileElement), here))
            var pending = XMLInput.elementChildren(fileElement).filter { XMLInput.name(of: $0) == "body" }
            // Walked by index: taking the first off the list each time would be quadratic in a file of many groups.
            var next = 0
            while next < pending.count {
                let node = pending[next]
                next += 1
                for child in XMLInput.elementChildren(node) {
                    switch XMLInput.name(of: child) {
                    case "group": pending.append(child)
                    case "trans-unit":
                        let target = XMLInput.elementChildren(child).first { XMLInput.name(of: $0) == "target" }
                        result.texts.append(
                            ImportedText(
                                unitID: XMLInput.attribute("id", of: child) ?? "", locale: locale,
                                text: target.map(XMLInput.text(of:)), state: target.flatMap { XMLInput.attribute("state", of: $0) },
                                location: location(target ?? child)))
                    default: break
                    }
                }
            }
        }
        return result
    }

    // MARK: CSV

    /// The sheet's first columns; every other column is a locale.
    public static let csvKeyColumn = "id"
    public static let csvInfoColumns = ["limit", "context"]

    /// One row per text and one column per locale (the primary first), UTF-8 with a byte-order mark so spreadsheet
    /// programs open it as UTF-8, CRLF line ends and quotes where RFC 4180 needs them.
    public static func writeCSV(_ set: TranslationSet, locales: [String]) -> [UInt8] {
        var out = "\u{FEFF}"
        func row(_ fields: [String]) { out += CSVRecords.record(fields) }
        row([csvKeyColumn] + csvInfoColumns + [set.primaryLocale] + locales)
        for unit in set.units {
            row([unit.id, String(unit.limit), unit.context, unit.source] + locales.map { unit.translations[$0] ?? "" })
        }
        return Array(out.utf8)
    }

    static func readCSV(_ data: Data, file: String) throws(IAPKitError) -> TranslationFile {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.withUnsafeBytes({ UTF8Check.isValid($0) }) else {
            throw .malformed(location: SourceLocation(file: file), reason: "is not UTF-8 text; save the sheet as CSV UTF-8")
        }
        let records: [CSVRecords.Record]
        do { records = try CSVRecords.parse(String(decoding: bytes, as: UTF8.self)) } catch {
            throw .malformed(location: SourceLocation(file: file, line: error.line), reason: "has a quoted field that never ends")
        }
        guard let header = records.first, header.fields.first == csvKeyColumn else {
            // Spreadsheets in locales whose decimal mark is a comma save "CSV" with semicolons between the columns.
            if let first = records.first?.fields.first,
                let separator = [(";", "semicolons"), ("\t", "tabs")].first(where: {
                    first.hasPrefix(csvKeyColumn + $0.0)
                })
            {
                throw .malformed(
                    location: SourceLocation(file: file, line: 1, column: csvKeyColumn.count + 1),
                    reason: "separates its columns with \(separator.1), not commas; save the sheet as CSV with "
                        + "commas as the separator (in LibreOffice: Field delimiter `,`; in Excel: CSV UTF-8 "
                        + "with the list separator set to a comma)")
            }
            throw .malformed(
                location: SourceLocation(file: file, line: 1, column: 1),
                reason: "does not start with the column `\(csvKeyColumn)`; export a sheet with `iapkit localizations export --format csv`")
        }
        var result = TranslationFile(path: file, locales: [], texts: [])
        // The first locale column is the source; the rest are targets.
        let localeColumns = header.fields.indices.filter { $0 > 0 && !csvInfoColumns.contains(header.fields[$0]) }
        guard let sourceColumn = localeColumns.first else {
            throw .malformed(location: SourceLocation(file: file, line: 1), reason: "has no locale columns")
        }
        let source = header.fields[sourceColumn]
        for column in localeColumns.dropFirst() {
            let start = header.starts[column]
            result.locales.append((header.fields[column], source, SourceLocation(file: file, line: start.line, column: start.column)))
        }
        for record in records.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            for column in localeColumns.dropFirst() {
                let start =
                    column < record.starts.count ? record.starts[column] : record.starts.last ?? CSVRecords.Position(line: record.line, column: 1)
                let text = column < record.fields.count ? record.fields[column] : ""
                result.texts.append(
                    ImportedText(
                        unitID: record.fields[0], locale: header.fields[column], text: text.isEmpty ? nil : text, state: nil,
                        location: SourceLocation(file: file, line: start.line, column: start.column)))
            }
        }
        return result
    }
}
