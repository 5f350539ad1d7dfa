import Foundation
@testable import IAPCatalog
import TestSupport
import Testing

/// The price sheet's CSV reader agrees with Python's `csv` module on RFC 4180 text, and knows each record's line.
@Suite
struct CSVRecordsTests {
    static let samples = [
        "territory,price,startDate\nIND,99,\nBRA,14.90,2027-01-15\n",
        "territory,price\r\nIND,99\r\nJPN,160",
        "a,b\n\"quoted, with comma\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\n",
        "a,b\n,\n\"\",\"\"\n",
        "solo\n\nafter,blank\n",
    ]

    @Test(arguments: samples)
    func recordsMatchPythonsCSVModule(text: String) throws {
        let mine = try CSVRecords.parse(text).map(\.fields).filter { $0 != [""] }
        let dir = TemporaryDirectory()
        let file = dir.write("sheet.csv", text)
        let out = try python(
            """
            import csv, json, sys
            rows = [r for r in csv.reader(open(sys.argv[1], newline="", encoding="utf-8")) if r]
            print(json.dumps(rows))
            """, [file])
        let theirs = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String]]
        #expect(mine == theirs, "\(mine) vs \(theirs ?? [])")
    }

    @Test func eachRecordKnowsItsLineAndAnOpenQuoteIsAnError() throws {
        let records = try CSVRecords.parse("h\n\"a\nb\"\nc\n")
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(throws: CSVRecords.UnterminatedQuote(line: 2)) { try CSVRecords.parse("h\n\"open\n") }
    }
}
