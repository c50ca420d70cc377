import ArgumentParser
import Foundation
import MediaParse

/// `mediaparse`: the parse command by default (`mediaparse` alone is `mediaparse parse`), and the tools as
/// sub-commands. Each sub-command has its own options: a root with options of its own would take the
/// sub-commands' same-named ones (`--locale`, `--app-name` …) for itself.
///
/// Every command gives its `commandName`: without it ArgumentParser derives each name from the type's name
/// (`String(describing:)`) at every start, and that was a seventh of a one-line run's instructions.
struct MediaParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediaparse",
        abstract: "Parse spoken media requests into SiriKit-shaped intents: one utterance a line in, one JSON object a line out.",
        discussion: """
            Reads UTF-8 text from standard input, one utterance per line, and writes exactly one JSON object per line to standard output, in input order, flushed as input arrives. The result format is docs/CONTRACT.md in the source tree.

            Example:
              echo "play Radiolab at double speed" | mediaparse --pretty

            Exit status: 0; 64 for bad arguments or an unsupported locale; 65 for a bad grammar or vocabulary file (the message names the file, line and column).
            """,
        version: "mediaparse \(MediaParseVersion.description)",
        subcommands: [Parse.self, Resolve.self, CatalogCommand.self, Test.self, Lint.self, Bench.self, Serve.self, Locales.self],
        defaultSubcommand: Parse.self
    )

    /// `mediaparse --help`: the overview, the parse command's options (its main job), then the sub-commands.
    static var fullHelp: String {
        var parse = helpMessage(for: Parse.self)
        if let usage = parse.range(of: "USAGE:") { parse = String(parse[usage.lowerBound...]) }
        parse = parse.replacingOccurrences(of: "USAGE: mediaparse parse ", with: "USAGE: mediaparse [parse] ")
        let width = 24
        let commands = configuration.subcommands.map { command -> String in
            let name = command._commandName + (command == Parse.self ? " (default)" : "")
            // Wrapped at 80 columns like ArgumentParser's own lists, continuation lines under the text.
            var lines: [String] = [], line = ""
            for word in command.configuration.abstract.split(separator: " ") {
                if !line.isEmpty, 2 + width + line.count + 1 + word.count > 80 { lines.append(line); line = "" }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
            let indent = String(repeating: " ", count: 2 + width)
            return "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + lines.joined(separator: "\n" + indent)
        }
        let root = helpMessage(for: Self.self)
        let overview = root.range(of: "USAGE:").map { String(root[..<$0.lowerBound]) } ?? ""
        return overview + parse.trimmingCharacters(in: .newlines) + "\n\nSUBCOMMANDS:\n" + commands.joined(separator: "\n")
            + "\n\n  See 'mediaparse help <subcommand>' for its options.\n"
    }
}

/// `mediaparse [parse]`: utterances from standard input, results to standard output.
struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse utterances from standard input (the default command)."
    )

    @Option(help: ArgumentHelp("The locale, BCP 47 (de-DE) or ICU (de_DE); a language alone (de) picks its default region. \(LocaleHelp.available)",
                               valueName: "locale"))
    var locale = "en-US"

    @Flag(help: "Indent the JSON (one object per utterance, over several lines).")
    var pretty = false

    @Option(help: ArgumentHelp("Also give up to N further readings, best first.", valueName: "n"))
    var alternatives = 0

    @Flag(help: "Add an \"explain\" object: the sentence that matched, its file:line:column, and what each word did.")
    var explain = false

    @Option(help: ArgumentHelp("Parse on N threads (default: one per core; output keeps the input order).", valueName: "n"))
    var jobs: Int?

    /// Threads when `--jobs` is not given: one per core, at most 8.
    static var defaultJobs: Int { min(ProcessInfo.processInfo.activeProcessorCount, 8) }

    @Flag(help: "Show lines done and their rate on standard error while a long batch runs (on a terminal only).")
    var progress = false

    @OptionGroup(title: "Parser options") var options: ParserOptions

    func validate() throws {
        guard alternatives >= 0 else { throw ValidationError("--alternatives takes a number of 0 or more") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes a number from 1 to 256") }
    }

    func run() throws {
        let parser = options.parserOrExit(locale: locale)

        var reader = LineReader(fd: 0)
        var output = OutputBuffer()
        var first = true
        let shown = BatchProgress(enabled: progress)
        defer { shown.finish() }
        // Lines are parsed in batches of what has already arrived (one line when input comes slowly, up to
        // `batchSize` from a file), on `jobs` threads; results are written in input order. A line that comes
        // alone is parsed on this thread, so a caller that writes a line and waits gets its answer at once.
        let jobs = self.jobs ?? Self.defaultJobs
        let batchSize = jobs > 1 ? 512 * jobs : 1
        var batch: [InputLine] = []
        func parseBatch() {
            guard !batch.isEmpty else { return }
            let lines = batch
            batch.removeAll(keepingCapacity: true)
            if shown.isEnabled { shown.add(lines: lines.count, bytes: lines.reduce(0) { $0 + $1.length + 1 }) }
            if jobs == 1 || lines.count == 1 {
                for line in lines { output.write(result(for: line, parser: parser).jsonLine(pretty: pretty)) }
                return
            }
            let results = ResultSlots(count: lines.count)
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                var i = worker
                while i < lines.count {
                    results.set(i, result(for: lines[i], parser: parser).jsonLine(pretty: pretty))
                    i += jobs
                }
            }
            for line in results.values { output.write(line) }
        }
        while var line = reader.next(beforeBlocking: { parseBatch(); output.flush() }) {
            if first, line.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {  // a byte order mark
                line.bytes = line.bytes.dropFirst(3)
                line.length -= 3
            }
            first = false
            batch.append(line)
            if batch.count >= batchSize || !reader.hasBufferedLine {
                parseBatch()
                if !reader.hasBufferedLine { output.flush() }
            }
        }
        parseBatch()
        output.flush()
    }

    private func result(for line: InputLine, parser: MediaParser) -> ParseResult {
        if line.isCut {
            // Longer than any line the parser accepts: only its start was kept (LineReader.maxLineBytes).
            let kept = droppingCutSequence(line.bytes)
            var result = ParseResult(utterance: String(decoding: kept, as: UTF8.self), locale: parser.locale, intent: nil)
            result.error = "line too long: \(line.length) bytes (the limit is \(MediaParser.maxScalars) characters); "
                + "not parsed; the utterance holds its first \(kept.count) bytes"
            return result
        }
        if let text = String(validating: line.bytes, as: UTF8.self) {
            return parser.parse(text, alternatives: alternatives, explain: explain)
        }
        var result = ParseResult(utterance: String(decoding: line.bytes, as: UTF8.self), locale: parser.locale, intent: nil)
        result.error = "the line is not valid UTF-8 (\(line.length) bytes); not parsed"
        return result
    }

}

/// Results of a batch, filled by several threads, each slot by one.
final class ResultSlots: @unchecked Sendable {
    private var slots: [String]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: "", count: count) }
    func set(_ i: Int, _ value: String) { lock.lock(); slots[i] = value; lock.unlock() }
    var values: [String] { lock.lock(); defer { lock.unlock() }; return slots }
}

/// Buffers output lines and writes them in large pieces; flushed whenever input would block, so results
/// of a pipe come out as soon as their line went in.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func write(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
        if bytes.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(1, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    if errno == EINTR { continue }
                    // A reader that went away (`| head`) needs no message; a full disk or a broken device does.
                    if errno != EPIPE {
                        let reason = String(cString: strerror(errno))
                        FileHandle.standardError.write(Data("mediaparse: cannot write the results (\(reason)); the output is incomplete\n".utf8))
                    }
                    Foundation.exit(ExitStatus.ioError)
                }
                offset += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

// `mediaparse test` reports bad arguments with exit status 2 (its own convention, as test runners have it);
// the parse command keeps the contract's 64.
let arguments = CommandLine.arguments.dropFirst()
if arguments.count == 1, ["--help", "-h", "help"].contains(arguments.first!) {
    print(MediaParseCommand.fullHelp, terminator: "")
    exit(0)
}
// `--version` belongs to the root, but the root parses its arguments as the default sub-command's.
if arguments.count == 1, arguments.first == "--version" {
    print(MediaParseCommand.configuration.version)
    exit(0)
}
do {
    var command = try MediaParseCommand.parseAsRoot()
    if let serving = command as? Serve {
        try await serving.serve()
    } else {
        try command.run()
    }
} catch {
    if CommandLine.arguments.dropFirst().first == "test", MediaParseCommand.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((MediaParseCommand.fullMessage(for: error) + "\n").utf8))
        Foundation.exit(2)
    }
    MediaParseCommand.exit(withError: error)
}
