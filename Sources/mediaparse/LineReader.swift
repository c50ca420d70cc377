#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input line: its bytes without the end of line, or, for a line longer than the reader keeps, its first
/// `LineReader.maxLineBytes` bytes and its whole length.
struct InputLine {
    var bytes: ArraySlice<UInt8>
    /// The line's length in bytes; more than `bytes.count` when the line was cut.
    var length: Int
    var isCut: Bool { length > bytes.count }
}

/// Reads lines of raw bytes from a file descriptor without decoding them, so that a line that is not
/// UTF-8 can be reported instead of silently altered. Ends of line: LF, CRLF or a lone CR.
///
/// Memory and time per line are bounded: of a line longer than `maxLineBytes` only the first
/// `maxLineBytes` bytes are kept (the rest is counted and dropped as it is read), and each byte is looked at
/// once when searching for the end of its line.
struct LineReader {
    /// Every line the parser would accept fits (2,000 characters of at most 4 bytes, and a byte order
    /// mark); longer lines are refused anyway.
    static let defaultMaxLineBytes = 16 * 1024

    private let fd: Int32
    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// `buffer[start..<scanned]` holds no end of line.
    private var scanned = 0
    private var eof = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var lastWasCR = false
    /// The kept start of a line that outgrew `maxLineBytes`, and how many bytes of it went by.
    private var cut: (prefix: [UInt8], length: Int)?

    init(fd: Int32, maxLineBytes: Int = LineReader.defaultMaxLineBytes) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The index of the next end of line in the buffer, remembering how far the search went.
    private mutating func nextEnd() -> Int? {
        if scanned < start { scanned = start }
        if let i = buffer[scanned...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            scanned = i
            return i
        }
        scanned = buffer.count
        return nil
    }

    /// True when a whole line is already buffered (reading it will not block).
    var hasBufferedLine: Bool {
        mutating get { cut == nil && nextEnd() != nil }
    }

    /// The next line, or nil at the end of input.
    mutating func next(beforeBlocking: () -> Void) -> InputLine? {
        while true {
            if let i = nextEnd() {
                let byte = buffer[i]
                if byte == 0x0A, lastWasCR, i == start, cut == nil {
                    // The LF of a CRLF whose CR ended the previous line.
                    lastWasCR = false
                    start = i + 1
                    continue
                }
                lastWasCR = byte == 0x0D
                defer { start = i + 1 }
                if let c = cut {
                    cut = nil
                    return InputLine(bytes: c.prefix[...], length: c.length + (i - start))
                }
                // Cut here too, so that where a line is cut does not depend on how the input arrived.
                return InputLine(bytes: buffer[start..<min(i, start + maxLineBytes)], length: i - start)
            }
            if eof {
                if let c = cut {
                    cut = nil
                    defer { start = buffer.count }
                    return InputLine(bytes: c.prefix[...], length: c.length + (buffer.count - start))
                }
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return InputLine(bytes: buffer[start..<min(buffer.count, start + maxLineBytes)], length: buffer.count - start)
            }
            if let c = cut {
                // Still inside a cut line: what is buffered is part of it.
                cut = (c.prefix, c.length + (buffer.count - start))
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if buffer.count - start > maxLineBytes {
                cut = (Array(buffer[start..<(start + maxLineBytes)]), buffer.count - start)
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            // A line that reached this point is not followed by a CRLF's LF at the start of the buffer, unless
            // the buffer ended right after its CR: then lastWasCR still says so.
            beforeBlocking()
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 || (n < 0 && errno != EINTR) {
                eof = true
            }
        }
    }
}

/// `bytes` without a UTF-8 sequence cut off at its end (what cutting a line at a byte count leaves).
func droppingCutSequence(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var i = bytes.endIndex
    var continuation = 0
    while i > bytes.startIndex, continuation < 4, bytes[i - 1] & 0xC0 == 0x80 {
        i -= 1
        continuation += 1
    }
    guard i > bytes.startIndex else { return bytes }
    let lead = bytes[i - 1]
    let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
    return needed > continuation ? bytes[..<(i - 1)] : bytes
}
