#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines of raw bytes from a file descriptor without decoding them, so that a line that is not
/// UTF-8 can be reported instead of silently altered. Ends of line: LF, CRLF or a lone CR.
struct LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var lastWasCR = false

    init(fd: Int32) { self.fd = fd }

    /// True when a whole line is already buffered (reading it will not block).
    var hasBufferedLine: Bool {
        buffer[start...].contains(where: { $0 == 0x0A || $0 == 0x0D })
    }

    /// The next line without its end-of-line bytes, or nil at the end of input.
    mutating func next(beforeBlocking: () -> Void) -> ArraySlice<UInt8>? {
        while true {
            if let i = buffer[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                let byte = buffer[i]
                if byte == 0x0A, lastWasCR, i == start {
                    // The LF of a CRLF whose CR ended the previous line.
                    lastWasCR = false
                    start = i + 1
                    continue
                }
                lastWasCR = byte == 0x0D
                let line = buffer[start..<i]
                start = i + 1
                return line
            }
            if eof {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
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
