/// A failure the command line reports as it is: the description is the message, `exitCode` the process's status.
/// Libraries throw these; only the executable turns them into output and an exit.
public protocol ToolError: Error, CustomStringConvertible {
    /// 2 when the tool could not do its job; 1 when what was asked is refused for what it holds; 75 when App Store
    /// Connect's hourly budget is spent and a later run finishes.
    var exitCode: Int32 { get }
}

extension IAPKitError: ToolError {
    public var exitCode: Int32 { ExitStatus.failed }
}

/// Every status iapkit exits with; the pages in docs/ name no other (a test reads them against this list).
public enum ExitStatus {
    /// Done, and nothing to report.
    public static let success: Int32 = 0
    /// Findings, a refused catalog or change, a plan or diff that differs.
    public static let refused: Int32 = 1
    /// The tool could not do its job: unreadable input, bad arguments, a failed write or request.
    public static let failed: Int32 = 2
    /// App Store Connect's hourly request budget is spent (`EX_TEMPFAIL`); a later run finishes.
    public static let budgetSpent: Int32 = 75
    /// Interrupted by SIGINT (128 + 2) or SIGTERM (128 + 15), after removing every temporary file.
    public static let interrupted: Int32 = 130, terminated: Int32 = 143

    public static let all: [Int32] = [success, refused, failed, budgetSpent, interrupted, terminated]
}
