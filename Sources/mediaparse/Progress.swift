import Foundation
import MediaParse

/// What a person at a terminal sees while they wait: all of it on standard error, and only when standard
/// error is a terminal, so that piped or redirected output gets nothing extra.
enum Terminal {
    static let isInteractive = isatty(2) == 1

    static func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

/// One line on standard error when a grammar must be compiled: the first use of a language (or of
/// changed grammar files, `--grammars`) takes seconds, and a silent pause looks like a hang.
enum CompileNotice {
    /// The handler to give `MediaParser` (nil when standard error is not a terminal).
    static var handler: ((GrammarCompilation) -> Void)? {
        guard Terminal.isInteractive else { return nil }
        return { event in
            guard case let .started(locale, directory) = event else { return }
            let kept = directory.map { "; kept in \(abbreviatingHome($0)) for the next start" } ?? "; not kept (MEDIAPARSE_CACHE=off)"
            Terminal.write("mediaparse: compiling the \(locale) grammar (first use of these grammar files, a few seconds\(kept)) …\n")
        }
    }

    static func abbreviatingHome(_ path: String) -> String {
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}

/// A progress bar on standard error, drawn only on a terminal.
final class ProgressBar {
    private let total: Int
    private let enabled: Bool
    private let label: String
    private var last = -1

    init(total: Int, label: String = "", minimum: Int = 200) {
        self.total = total
        self.label = label
        enabled = Terminal.isInteractive && total >= minimum
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let width = 40
        let filled = total == 0 ? width : min(done, total) * width / total
        guard filled != last else { return }
        last = filled
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        Terminal.write("\r\(label)\(bar) \(done)/\(total)")
    }

    func finish() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[2K")
    }
}

/// One line saying what is being done now (`bench`: which measurement runs), replaced by the next and
/// cleared before a result is printed. On a terminal only.
enum StatusLine {
    static func show(_ text: String) {
        guard Terminal.isInteractive else { return }
        Terminal.write("\r\u{1B}[2K\(text) …")
    }

    static func clear() {
        guard Terminal.isInteractive else { return }
        Terminal.write("\r\u{1B}[2K")
    }
}

/// `--progress` on a long batch from standard input: lines done, their rate and, when the input is a file
/// of known size, how far through it; redrawn at most ten times a second, on a terminal only.
final class BatchProgress {
    /// Whether anything is drawn (`--progress` on a terminal): callers skip counting bytes otherwise.
    var isEnabled: Bool { enabled }
    private let enabled: Bool
    private let totalBytes: Int?
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0
    private(set) var lines = 0
    private var bytes = 0

    init(enabled: Bool) {
        self.enabled = enabled && Terminal.isInteractive
        var info = stat()
        if self.enabled, fstat(0, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            totalBytes = Int(info.st_size)
        } else {
            totalBytes = nil
        }
    }

    func add(lines n: Int, bytes b: Int) {
        guard enabled else { return }
        lines += n
        bytes += b
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        draw(now: now)
    }

    private func draw(now: UInt64) {
        let seconds = max(Double(now - started) / 1e9, 1e-3)
        var text = "\r\u{1B}[2K\(lines) lines, \(Int(Double(lines) / seconds)) lines/s"
        if let totalBytes {
            let fraction = min(Double(bytes) / Double(totalBytes), 1)
            let width = 30, filled = Int(fraction * Double(width))
            text = "\r\u{1B}[2K" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                + String(format: " %3.0f%%, ", fraction * 100) + "\(lines) lines, \(Int(Double(lines) / seconds)) lines/s"
        }
        Terminal.write(text)
    }

    func finish() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[2K")
    }
}
