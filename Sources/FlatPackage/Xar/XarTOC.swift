import CLibXML2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IAPCore

/// One entry of a xar table of contents.
public struct XarEntry: Sendable {
    public struct Data: Sendable {
        public var length: UInt64
        public var offset: UInt64
        public var size: UInt64
        /// `application/x-gzip` (zlib-framed, as every xar reader expects) or `application/octet-stream` (stored).
        public var encoding: String
        public var archivedSHA1: String
        public var extractedSHA1: String
    }

    public var name: String
    public var isDirectory: Bool
    public var data: Data?
    public var children: [XarEntry]

    public init(name: String, isDirectory: Bool = false, data: Data? = nil, children: [XarEntry] = []) {
        self.name = name
        self.isDirectory = isDirectory
        self.data = data
        self.children = children
    }
}

/// Writes the TOC XML through libxml2's text writer: SHA-1 TOC checksum at heap offset 0, a pinned creation
/// time, and per entry the ownership root:wheel and the pinned times, with no inode or device numbers.
public enum XarTOC {
    public static func xml(entries: [XarEntry], epoch: Int) -> [UInt8] {
        let buffer = xmlBufferCreate()!
        defer { xmlBufferFree(buffer) }
        let writer = xmlNewTextWriterMemory(buffer, 0)!
        xmlTextWriterSetIndent(writer, 1)
        xmlTextWriterSetIndentString(writer, " ")
        xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil)
        start(writer, "xar")
        start(writer, "toc")
        start(writer, "checksum")
        xmlTextWriterWriteAttribute(writer, "style", "sha1")
        element(writer, "size", "20")
        element(writer, "offset", "0")
        xmlTextWriterEndElement(writer)
        element(writer, "creation-time", timestamp(epoch, zulu: false))
        var nextID = 1
        for entry in entries { write(entry, writer: writer, epoch: epoch, nextID: &nextID) }
        xmlTextWriterEndElement(writer)
        xmlTextWriterEndElement(writer)
        xmlTextWriterEndDocument(writer)
        xmlFreeTextWriter(writer)
        let length = Int(xmlBufferLength(buffer))
        return Array(UnsafeBufferPointer(start: xmlBufferContent(buffer), count: length))
    }

    private static func write(_ entry: XarEntry, writer: xmlTextWriterPtr, epoch: Int, nextID: inout Int) {
        start(writer, "file")
        xmlTextWriterWriteAttribute(writer, "id", String(nextID))
        nextID += 1
        element(writer, "name", entry.name)
        element(writer, "type", entry.isDirectory ? "directory" : "file")
        element(writer, "mode", entry.isDirectory ? "0755" : "0644")
        element(writer, "uid", "0")
        element(writer, "user", "root")
        element(writer, "gid", "0")
        element(writer, "group", "wheel")
        let time = timestamp(epoch, zulu: true)
        element(writer, "atime", time)
        element(writer, "mtime", time)
        element(writer, "ctime", time)
        if let data = entry.data {
            start(writer, "data")
            start(writer, "archived-checksum")
            xmlTextWriterWriteAttribute(writer, "style", "sha1")
            xmlTextWriterWriteString(writer, data.archivedSHA1)
            xmlTextWriterEndElement(writer)
            start(writer, "extracted-checksum")
            xmlTextWriterWriteAttribute(writer, "style", "sha1")
            xmlTextWriterWriteString(writer, data.extractedSHA1)
            xmlTextWriterEndElement(writer)
            start(writer, "encoding")
            xmlTextWriterWriteAttribute(writer, "style", data.encoding)
            xmlTextWriterEndElement(writer)
            element(writer, "size", String(data.size))
            element(writer, "offset", String(data.offset))
            element(writer, "length", String(data.length))
            xmlTextWriterEndElement(writer)
        }
        for child in entry.children { write(child, writer: writer, epoch: epoch, nextID: &nextID) }
        xmlTextWriterEndElement(writer)
    }

    private static func start(_ writer: xmlTextWriterPtr, _ name: String) { xmlTextWriterStartElement(writer, name) }

    private static func element(_ writer: xmlTextWriterPtr, _ name: String, _ value: String) {
        xmlTextWriterWriteElement(writer, name, value)
    }

    /// `2023-11-14T22:13:20Z` for entries; the TOC's creation-time has no `Z`, as Apple writes it.
    static func timestamp(_ epoch: Int, zulu: Bool) -> String {
        var time = time_t(epoch)
        var parts = tm()
        gmtime_r(&time, &parts)
        let date = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)]
        let clock = [Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)]
        return Format.padded(date[0], width: 4) + "-" + date[1...].map { Format.padded($0, width: 2) }.joined(separator: "-")
            + "T" + clock.map { Format.padded($0, width: 2) }.joined(separator: ":") + (zulu ? "Z" : "")
    }
}

/// Writes xmlTextWriter's C-string API from Swift strings.
private func xmlTextWriterStartElement(_ writer: xmlTextWriterPtr, _ name: String) {
    _ = name.withCString { CLibXML2.xmlTextWriterStartElement(writer, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
}

private func xmlTextWriterWriteElement(_ writer: xmlTextWriterPtr, _ name: String, _ value: String) {
    _ = name.withCString { n in
        value.withCString { v in
            CLibXML2.xmlTextWriterWriteElement(
                writer, UnsafeRawPointer(n).assumingMemoryBound(to: xmlChar.self),
                UnsafeRawPointer(v).assumingMemoryBound(to: xmlChar.self))
        }
    }
}

private func xmlTextWriterWriteAttribute(_ writer: xmlTextWriterPtr, _ name: String, _ value: String) {
    _ = name.withCString { n in
        value.withCString { v in
            CLibXML2.xmlTextWriterWriteAttribute(
                writer, UnsafeRawPointer(n).assumingMemoryBound(to: xmlChar.self),
                UnsafeRawPointer(v).assumingMemoryBound(to: xmlChar.self))
        }
    }
}

private func xmlTextWriterWriteString(_ writer: xmlTextWriterPtr, _ value: String) {
    _ = value.withCString { CLibXML2.xmlTextWriterWriteString(writer, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
}

private func xmlTextWriterStartDocument(_ writer: xmlTextWriterPtr, _ version: String, _ encoding: String, _ standalone: String?) {
    _ = version.withCString { v in encoding.withCString { e in CLibXML2.xmlTextWriterStartDocument(writer, v, e, nil) } }
}
