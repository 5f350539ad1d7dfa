import IAPCore

/// The records of an RFC 4180 CSV text (fields separated by commas, optionally in double quotes with `""` for a
/// quote, records ending in LF or CRLF), each with the line it starts on, for findings that point into a price
/// sheet or a translation sheet; and a record written the same way. Written here rather than taken from a CSV package: the Swift CSV readers at hand report no line numbers
/// and import all of Foundation, where every iapkit module keeps to FoundationEssentials. `CSVRecordsTests` checks
/// it against Python's `csv` module.
public enum CSVRecords {
    public struct Record: Equatable, Sendable {
        public var line: Int
        public var fields: [String]
        /// Where each field starts (its opening quote, if quoted): 1-based line and column, counted in characters.
        public var starts: [Position] = []
    }

    public struct Position: Equatable, Sendable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// A quoted field that never ends, from `line`.
    public struct UnterminatedQuote: Error, Equatable {
        public var line: Int
    }

    /// One record as RFC 4180 writes it, ending in CRLF: a field with a comma, a quote or a line break in double
    /// quotes, its quotes doubled.
    public static func record(_ fields: [String]) -> String {
        fields.map { field in
            let special = field.utf8.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
            }
            return special ? "\"" + field.replacingAll("\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\r\n"
    }

    public static func parse(_ text: String) throws(UnterminatedQuote) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var starts: [Position] = []
        var field: [UInt8] = []
        var line = 1, recordLine = 1
        // The column of the byte at `index`, in characters (UTF-8 lead bytes).
        var column = 1
        var quoted = false, wasQuoted = false
        let bytes = Array(text.utf8)
        var index = 0
        var fieldStart = Position(line: 1, column: 1)
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            starts.append(fieldStart)
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() {
            endField()
            records.append(Record(line: recordLine, fields: fields, starts: starts))
            fields.removeAll()
            starts.removeAll()
        }
        while index < bytes.count {
            let byte = bytes[index]
            if !quoted, field.isEmpty, !wasQuoted, byte != UInt8(ascii: "\n") { fieldStart = Position(line: line, column: column) }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                        column += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1; column = 0 }
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                    quoted = true
                    wasQuoted = true
                case UInt8(ascii: ","):
                    endField()
                case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                    break  // the LF ends the record
                case UInt8(ascii: "\n"):
                    endRecord()
                    line += 1
                    recordLine = line
                    column = 0
                    fieldStart = Position(line: line, column: 1)
                default:
                    field.append(byte)
                }
            }
            if byte & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        if quoted { throw UnterminatedQuote(line: recordLine) }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { endRecord() }
        return records
    }
}
