/// A failure the command line reports as it is: the description is the message, `exitCode` the process's status.
/// Libraries throw these; only the executable turns them into output and an exit.
public protocol ToolError: Error, CustomStringConvertible {
    /// 2 when the tool could not do its job; 1 when what was asked is refused for what it holds; 75 when App Store
    /// Connect's hourly budget is spent and a later run finishes.
    var exitCode: Int32 { get }
}

extension IAPKitError: ToolError {
    public var exitCode: Int32 { 2 }
}
