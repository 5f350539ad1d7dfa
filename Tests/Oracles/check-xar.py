#!/usr/bin/env python3
"""Checks the structure of a flat package (xar) and of every Bom inside it, with the standard library only.

An independent reader for the tests: it shares no code with iapkit's writers. It prints one line per fact
and exits 1 when any check fails.

  header:  magic, 28-byte header, version 1, exact TOC lengths, checksum algorithm
  toc:     zlib TOC that parses as <xar><toc>, its digest stored at heap offset 0
  entries: every <data> inside the heap, contiguous in TOC order, archived and extracted checksums, encodings
  bom:     BOMStore header, block table, the variables, the Paths B-tree walked leaf by leaf,
           each path with mode, uid/gid, size and checksum (as lsbom prints them), sorted by (parent, name)

usage: check-xar.py PACKAGE.pkg
"""
import hashlib
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

ALGORITHMS = {0: None, 1: "sha1", 2: "md5", 3: "sha256", 4: "sha512"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message)
    return condition


def digest(style, data):
    return hashlib.new(style, data).hexdigest()


def read_xar(blob):
    check(blob[:4] == b"xar!", "magic is xar!")
    header_size, version, toc_compressed, toc_plain, algorithm = struct.unpack(">HHQQI", blob[4:28])
    check(header_size == 28, "header size is 28, not %d" % header_size)
    check(version == 1, "version is 1, not %d" % version)
    style = ALGORITHMS.get(algorithm)
    print("header size=%d version=%d toc=%d/%d cksum=%d(%s)" % (header_size, version, toc_compressed, toc_plain,
                                                               algorithm, style))
    stored_toc = blob[header_size:header_size + toc_compressed]
    check(len(stored_toc) == toc_compressed, "the TOC is complete")
    xml = zlib.decompress(stored_toc)
    check(len(xml) == toc_plain, "uncompressed TOC length %d matches the header (%d)" % (len(xml), toc_plain))
    root = ET.fromstring(xml)
    check(root.tag == "xar" and [child.tag for child in root] == ["toc"], "the TOC is <xar> with one <toc>")
    toc = root.find("toc")
    heap = header_size + toc_compressed
    toc_sum = toc.find("checksum")
    if style:
        check(toc_sum is not None and toc_sum.get("style") == style, "TOC checksum style is " + style)
        offset, size = int(toc_sum.findtext("offset")), int(toc_sum.findtext("size"))
        stored = blob[heap + offset:heap + offset + size].hex()
        check(stored == digest(style, stored_toc), "TOC digest at heap offset %d matches the compressed TOC" % offset)
        print("toc digest ok=%s" % (stored == digest(style, stored_toc)))
    entries = []

    def walk(element, prefix):
        for entry in element.findall("file"):
            name = entry.findtext("name")
            path = prefix + name
            entries.append((int(entry.get("id")), entry.findtext("type"), path, entry))
            walk(entry, path + "/")

    walk(toc, "")
    ids = [entry[0] for entry in entries]
    check(ids == sorted(ids) and len(set(ids)) == len(ids), "entry ids are unique and in document order")
    expected_offset = int(toc_sum.findtext("size")) if toc_sum is not None else 0
    end = expected_offset
    contents = {}
    for ident, kind, path, entry in entries:
        data = entry.find("data")
        line = "entry id=%d %-9s %s" % (ident, kind, path)
        if data is None:
            print(line)
            continue
        length, offset, size = (int(data.findtext(key)) for key in ("length", "offset", "size"))
        encoding = data.find("encoding").get("style")
        stored = blob[heap + offset:heap + offset + length]
        check(len(stored) == length, "%s: its %d bytes lie inside the file" % (path, length))
        check(offset == expected_offset, "%s: heap offset %d follows the previous entry (%d)" % (path, offset, expected_offset))
        expected_offset = offset + length
        end = max(end, offset + length)
        if encoding == "application/octet-stream":
            extracted = stored
        elif encoding == "application/x-gzip":
            extracted = zlib.decompress(stored)
        else:
            check(False, "%s: unknown encoding %s" % (path, encoding))
            continue
        check(len(extracted) == size, "%s: extracted size %d matches <size> %d" % (path, len(extracted), size))
        archived_sum, extracted_sum = data.find("archived-checksum"), data.find("extracted-checksum")
        archived_ok = archived_sum.text.strip() == digest(archived_sum.get("style"), stored)
        extracted_ok = extracted_sum.text.strip() == digest(extracted_sum.get("style"), extracted)
        check(archived_ok, "%s: archived checksum" % path)
        check(extracted_ok, "%s: extracted checksum" % path)
        print("%s length=%d size=%d encoding=%s checksum=%s archived=%s extracted=%s" % (
            line, length, size, encoding, archived_sum.get("style"), archived_ok, extracted_ok))
        contents[path] = extracted
    trailing = len(blob) - heap - end
    check(trailing == 0, "nothing follows the heap (%d bytes do)" % trailing)
    print("heap end=%d trailing=%d" % (heap + end, trailing))
    return contents


def read_bom(name, bom):
    check(bom[:8] == b"BOMStore", name + ": magic is BOMStore")
    version, block_count, index_offset, index_length, vars_offset, vars_length = struct.unpack(">6I", bom[8:32])
    check(version == 1, name + ": version 1")
    (table_count,) = struct.unpack(">I", bom[index_offset:index_offset + 4])
    check(table_count == block_count + 1, name + ": the block table counts the null block (%d vs %d)" % (table_count, block_count))
    table = [struct.unpack(">II", bom[index_offset + 4 + 8 * i:index_offset + 12 + 8 * i]) for i in range(table_count)]
    check(table[0] == (0, 0), name + ": block 0 is null")

    def block(index):
        address, length = table[index]
        check(address + length <= len(bom), "%s: block %d lies inside the file" % (name, index))
        return bom[address:address + length]

    (var_count,) = struct.unpack(">I", bom[vars_offset:vars_offset + 4])
    variables, at = {}, vars_offset + 4
    for _ in range(var_count):
        index, length = struct.unpack(">IB", bom[at:at + 5])
        variables[bom[at + 5:at + 5 + length].decode()] = index
        at += 5 + length
    check(at - vars_offset <= vars_length, name + ": the variables fit their table")
    print("%s variables=%s" % (name, ",".join(variables)))
    tree = block(variables["Paths"])
    check(tree[:4] == b"tree", name + ": Paths is a tree")
    _, child, block_size, path_count = struct.unpack(">4I", tree[4:20])
    node = block(child)
    while struct.unpack(">H", node[:2])[0] == 0:  # a branch: descend through its first child
        node = block(struct.unpack(">I", node[12:16])[0])
    names, parents, lines, keys = {}, {}, [], []
    while True:
        is_leaf, count, forward, _ = struct.unpack(">HHII", node[:12])
        check(is_leaf == 1, name + ": leaves are chained to leaves")
        for i in range(count):
            path_info, file_index = struct.unpack(">II", node[12 + 8 * i:20 + 8 * i])
            ident, record_index = struct.unpack(">II", block(path_info)[:8])
            file_block = block(file_index)
            parent = struct.unpack(">I", file_block[:4])[0]
            leaf_name = file_block[4:].split(b"\0")[0].decode()
            names[ident], parents[ident] = leaf_name, parent
            keys.append((parent, leaf_name.encode()))
            record = block(record_index)
            kind, _, _, mode, uid, gid, mtime, size, _, checksum = struct.unpack(">BBHHIIIIBI", record[:27])
            lines.append((ident, kind, mode, uid, gid, mtime, size, checksum, record))
        if forward == 0:
            break
        node = block(forward)
    check(len(lines) == path_count, "%s: the tree holds %d paths as it says (%d)" % (name, len(lines), path_count))
    check(keys == sorted(keys), name + ": leaves are sorted by (parent id, name)")

    def full_path(ident):
        parts = []
        while ident:
            parts.append(names[ident])
            ident = parents[ident]
        return "/".join(reversed(parts))

    for ident, kind, mode, uid, gid, mtime, size, checksum, record in lines:
        text = "bom %s\t%o\t%d/%d\tmtime=%d" % (full_path(ident), mode, uid, gid, mtime)
        if kind in (1, 3):
            text += "\t%d\t%d" % (size, checksum)
        if kind == 3:
            link_length = struct.unpack(">I", record[27:31])[0]
            text += "\t" + record[31:31 + link_length].split(b"\0")[0].decode()
        print(text)
    print("%s paths=%d sorted=%s" % (name, len(lines), keys == sorted(keys)))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as handle:
        blob = handle.read()
    contents = read_xar(blob)
    for path, data in contents.items():
        if path == "Bom" or path.endswith("/Bom"):
            read_bom(path, data)
    print("ok" if not failures else "%d checks failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
