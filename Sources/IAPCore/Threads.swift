#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What iapkit used from full Foundation, on FoundationEssentials and POSIX instead. Full Foundation on Linux links
// in ICU and its data (36 MB of the release binary); these few helpers are all the libraries needed of it.

/// An error a system call returned (errno), described as `strerror` describes it.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public init(_ code: Int32 = errno) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}

/// A mutual-exclusion lock on a pthread mutex (`NSLock` is not in FoundationEssentials; `Mutex` needs macOS 15).
public final class PThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock(); defer { unlock() }
        return try body()
    }
}

/// A condition variable with its mutex (`NSCondition`, which is not in FoundationEssentials).
public final class PThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a signal; the lock must be held, and is held again on return.
    public func wait() { pthread_cond_wait(condition, mutex) }
    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new detached thread (what `Thread { }.start()` did), with `stackSize` bytes of stack.
public func startThread(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, stackSize)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { context in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
    precondition(status == 0, "cannot start a thread: \(SystemError(status))")
}
