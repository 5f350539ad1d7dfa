/// A failure of the tool: it could not do its job (bad arguments, unreadable or malformed input, I/O).
/// The CLI maps every case to exit code 2. Problems in the user's catalog are `Finding`s instead.
public enum IAPKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read, written or listed.
    case io(path: String, reason: String)
    /// A file's bytes are not what its format requires.
    case malformed(location: SourceLocation, reason: String)
    /// An argument or value given by the user is not acceptable.
    case invalidArgument(String)
    /// The destination exists and the command will not overwrite it.
    case alreadyExists(path: String, hint: String)
    /// The work was refused because of lint errors; the findings say why.
    case refused(reason: String, findings: [Finding])
    /// The run was interrupted (SIGINT/SIGTERM) and everything written so far was removed.
    case interrupted

    public var description: String {
        switch self {
        case let .io(path, reason): return "\(path): \(reason)"
        case let .malformed(location, reason): return "\(location): \(reason)"
        case let .invalidArgument(text): return text
        case let .alreadyExists(path, hint): return "\(path): already exists; \(hint)"
        case let .refused(reason, _): return reason
        case .interrupted: return "interrupted; no output was left behind"
        }
    }
}
