/// Values the process holds until it exits instead of freeing them: tearing down a large catalog's model at the
/// end of a run only costs time (4% of linting 10,000 products), and the process ends right after. Only the
/// executable does this; a library frees what it loads.
enum KeptUntilExit {
    /// Written only by the command that is running, once it is done with the value.
    nonisolated(unsafe) private static var values: [Any] = []

    static func keep(_ value: Any) { values.append(value) }
}
