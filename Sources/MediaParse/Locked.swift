import Foundation

/// A value behind a lock, with `Mutex`'s `withLock`. It locks with `NSLock` (a pthread mutex), which
/// ThreadSanitizer understands: with `Synchronization.Mutex` (a futex on Linux) every access inside
/// `withLock` was reported as a race (Swift 6.3.1; a ten-line program shows it), hiding any real one.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
