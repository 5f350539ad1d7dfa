import Foundation
import HostedContent
import IAPCore
@testable import PropertyList
import TestSupport
import Testing

@Suite struct PropertyListTests {
    @Test func writesApplesLayoutExactly() throws {
        let data = try ContentInfo(productID: "com.example.pack1", version: ContentVersion("1.0")!).data()
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>ContentVersion</key>
            \t<string>1.0</string>
            \t<key>IAPProductIdentifier</key>
            \t<string>com.example.pack1</string>
            </dict>
            </plist>

            """
        #expect(String(decoding: data, as: UTF8.self) == expected)
    }

    @Test func plistlibReadsEveryValueKindWeWrite() throws {
        let value = PropertyListValue.dictionary(
            PropertyListDictionary([
                ("text", .string("a < b & c > d \"quoted\" é 🍌")), ("count", .integer(-42)), ("ratio", .real(0.5)),
                ("yes", .bool(true)), ("no", .bool(false)), ("when", .date(Date(timeIntervalSince1970: 1_700_000_000))),
                ("blob", .data(Data([0, 1, 2, 255]))), ("list", .array([.string("x"), .integer(1)])),
                ("empty", .dictionary(PropertyListDictionary())), ("none", .array([])),
            ]))
        let dir = TemporaryDirectory()
        let path = dir.write("all.plist", try PropertyListWriter.write(value))
        let out = try python(
            """
            import plistlib, sys, datetime
            d = plistlib.load(open(sys.argv[1], 'rb'))
            assert d['text'] == 'a < b & c > d "quoted" é 🍌', d['text']
            assert d['count'] == -42 and d['ratio'] == 0.5 and d['yes'] is True and d['no'] is False
            assert d['when'] == datetime.datetime(2023, 11, 14, 22, 13, 20), d['when']
            assert d['blob'] == bytes([0, 1, 2, 255]) and d['list'] == ['x', 1] and d['empty'] == {} and d['none'] == []
            assert list(d) == ['text', 'count', 'ratio', 'yes', 'no', 'when', 'blob', 'list', 'empty', 'none']
            print('ok')
            """, [path])
        #expect(out == "ok\n")
        // And our reader reads back what we wrote.
        #expect(try PropertyListReader.read(contentsOf: path) == value)
    }

    @Test func readsWhatPlistlibWrites() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("py.plist")
        _ = try python(
            """
            import plistlib, sys
            plistlib.dump({'ContentVersion': '2.1', 'IAPProductIdentifier': 'com.x', 'Extra': [1, True, 'z']}, open(sys.argv[1], 'wb'))
            """, [path])
        guard case let .dictionary(dictionary) = try PropertyListReader.read(contentsOf: path) else {
            Issue.record("not a dictionary"); return
        }
        #expect(dictionary["ContentVersion"] == .string("2.1"))
        #expect(dictionary["Extra"] == .array([.integer(1), .bool(true), .string("z")]))
    }

    @Test(arguments: [
        ("<plist><dict><key>a</key>", "not well-formed XML", 1),
        ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<strin>x</strin>\n</dict>\n</plist>\n", "<strin> is not", 5),
        ("<root/>", "not a property list", 1),
        ("<plist><dict><key>a</key><integer>x1</integer></dict></plist>", "not an integer", 1),
        ("<plist><dict><key>a</key></dict></plist>", "has no value", 1),
        ("<plist><dict><key>a</key><true/><key>a</key><true/></dict></plist>", "appears twice", 1),
        ("", "is empty", 1),
    ])
    func rejectsMalformedInputWithTheFileAndLine(input: String, reason: String, line: Int) {
        do {
            _ = try PropertyListReader.read(Data(input.utf8), file: "ContentInfo.plist")
            Issue.record("accepted \(input)")
        } catch {
            guard case let .malformed(location, text) = error else { Issue.record("wrong error \(error)"); return }
            #expect(location.file == "ContentInfo.plist")
            #expect(location.line == line, "\(text)")
            #expect(text.contains(reason), "\(text)")
        }
    }

    @Test func refusesBinaryPlistsWithAWayOut() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("bin.plist")
        _ = try python("import plistlib, sys; plistlib.dump({'a': 1}, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)", [path])
        #expect(throws: IAPKitError.self) { try PropertyListReader.read(contentsOf: path) }
        do { _ = try PropertyListReader.read(contentsOf: path) } catch {
            #expect(error.description.contains("plutil -convert xml1"))
            #expect(error.description.hasPrefix(path))
        }
    }

    @Test func refusesControlCharactersXMLCannotCarry() {
        #expect(throws: IAPKitError.self) { try PropertyListWriter.write(.string("bell\u{07}")) }
    }

    @Test func survivesArbitraryBytes() {
        var generator = SystemRandomNumberGenerator()
        let seed = Array("<plist version=\"1.0\"><dict><key>ContentVersion</key><string>1.0</string></dict></plist>".utf8)
        for _ in 0..<2000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            do { _ = try PropertyListReader.read(Data(bytes), file: "fuzz.plist") } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
