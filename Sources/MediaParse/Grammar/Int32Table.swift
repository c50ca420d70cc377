#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only run of 32-bit integers: the arrays a compiled grammar is made of.
///
/// Either memory of its own (a grammar compiled in this process) or a view into a grammar file mapped into
/// memory, read where it lies: a process that reads a compiled grammar copies none of its tables, and only
/// the pages a parse touches are ever read from disk or counted in the process's memory. `owner` keeps the
/// memory (or the mapping) alive as long as a table refers to it.
struct Int32Table: @unchecked Sendable, RandomAccessCollection, Equatable {
    private let base: UnsafePointer<Int32>?
    let count: Int
    private let owner: AnyObject?

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// No entry.
    init() {
        base = nil
        count = 0
        owner = nil
    }

    /// A copy of `values` in memory of its own.
    init(_ values: [Int32]) {
        let storage = OwnedInts(values)
        base = UnsafePointer(storage.pointer)
        count = values.count
        owner = storage
    }

    /// `count` values at `base`, inside memory that `owner` keeps alive (a mapped file).
    init(viewing base: UnsafePointer<Int32>, count: Int, owner: AnyObject) {
        self.base = count > 0 ? base : nil
        self.count = count
        self.owner = owner
    }

    @inline(__always)
    subscript(i: Int) -> Int32 {
        precondition(i >= 0 && i < count, "index out of range")
        return base.unsafelyUnwrapped[i]
    }

    /// Whether the values are read where they lie in a mapped grammar file (not a copy).
    var readsInPlace: Bool { owner is MappedFile }

    /// The values as raw memory (for writing them to a file).
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count * 4))
    }

    static func == (a: Int32Table, b: Int32Table) -> Bool { a.count == b.count && a.elementsEqual(b) }

    /// Whether every value lies in `range`. A table read in place gives back the pages this check read (see
    /// `MappedFile.forgetPages`), so that checking a whole file does not make the process hold all of it.
    func allIn(_ range: Range<Int32>) -> Bool {
        defer { forgetPages() }
        guard let base else { return true }
        var inside = true
        for v in UnsafeBufferPointer(start: base, count: count) { inside = inside && v >= range.lowerBound && v < range.upperBound }
        return inside
    }

    /// Whether the values never fall, start at 0 and end at `limit`: ranges of another table, one per entry.
    func isMonotone(upTo limit: Int) -> Bool {
        defer { forgetPages() }
        guard first == 0, Int(last!) == limit, let base else { return false }
        var previous: Int32 = 0
        var rising = true
        for v in UnsafeBufferPointer(start: base, count: count) {
            rising = rising && v >= previous
            previous = v
        }
        return rising
    }

    private func forgetPages() {
        guard let file = owner as? MappedFile, let base else { return }
        file.forgetPages(of: UnsafeRawBufferPointer(start: base, count: count * 4))
    }
}

/// Memory of its own for an `Int32Table`, freed with it.
private final class OwnedInts {
    let pointer: UnsafeMutablePointer<Int32>

    init(_ values: [Int32]) {
        pointer = .allocate(capacity: max(values.count, 1))
        values.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { pointer.initialize(from: address, count: values.count) }
        }
    }

    deinit { pointer.deallocate() }
}

/// A file mapped read-only into memory, unmapped when the last table viewing it goes.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when it cannot be opened or mapped (the caller compiles instead).
    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
        #if canImport(Glibc)
        // Pages of 4 KB, never a 2 MB mapping for a table a parse looks into (10 of the 11.8 MB an English parse
        // held were such mappings; the same pages then stay mapped in small pages: see `willReadAtRandom`).
        _ = madvise(address, size, MADV_NOHUGEPAGE)
        #endif
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives back to the system the whole pages of `region` (a part of this file) that the process has read:
    /// a check that reads the whole file (its checksum, its indexes) then leaves the process no bigger than
    /// what parsing reads afterwards. The mapping stays valid; a page read again comes from the page cache.
    func forgetPages(of region: UnsafeRawBufferPointer) {
        guard let start = region.baseAddress else { return }
        let page = Self.pageSize
        let from = (Int(bitPattern: start) + page - 1) / page * page
        let to = (Int(bitPattern: start) + region.count) / page * page
        guard to > from, let address = UnsafeMutableRawPointer(bitPattern: from) else { return }
        #if canImport(Glibc)
        _ = madvise(address, to - from, MADV_DONTNEED)
        #endif
    }

    /// Says that the file is read at random from now on: the matcher looks at a few entries of many states,
    /// and reading ahead around each one (the kernel's default) fills the page cache in large blocks that a
    /// fault then maps whole (measured: 11.8 MB of an English grammar held after one parse, 1.1 MB when the
    /// pages were read one by one). Before, a check that reads the whole file reads it ahead, in sequence.
    func willReadAtRandom() {
        #if canImport(Glibc)
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count, MADV_RANDOM)
        #endif
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
