/// Content-rule examples describe a folder, one entry a line:
/// - `@info VERSION PRODUCT_ID` writes a ContentInfo.plist; `@expect PRODUCT_ID` is the catalog's product ID;
/// - `path/` a folder; `path: text` a file (`\n` for newlines); `path -> target` a symbolic link;
/// - `@fifo path` a FIFO; `@badname path` a file named `path` followed by the byte 0xFF (not UTF-8); `@sparse path BYTES` a sparse file of that size;
/// - `@lock VERSION same|changed` a lock entry whose digest matches the folder or not; `@lock-other` a lock that lists
///   another product only.
public enum ContentExample {
    /// A clean folder for `com.example.app.one`, plus `lines`.
    public static func folder(_ lines: String = "", version: String = "1.0") -> String {
        "@expect com.example.app.one\n@info \(version) com.example.app.one\nContents/\nContents/a.txt: hello\n" + lines
    }
}
