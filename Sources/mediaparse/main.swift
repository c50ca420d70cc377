import ArgumentParser
import Foundation
import MediaParse

/// `mediaparse`: reads utterances from standard input, one per line, and writes one JSON result per line.
struct MediaParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediaparse",
        abstract: "Parses spoken media requests into SiriKit-shaped intents (JSON Lines out).",
        discussion: """
            Reads UTF-8 text from standard input, one utterance per line, and writes exactly one JSON object per
            line to standard output, in input order. See CONTRACT.md for the result format.

            Example:
              echo "play the newest episode of Radiolab at double speed" | mediaparse --pretty
            """,
        subcommands: [Parse.self, Test.self, Bench.self],
        defaultSubcommand: Parse.self
    )
}

/// Exit statuses of the contract.
enum ExitStatus {
    static let usage: Int32 = 64       // bad arguments, unsupported locale
    static let dataError: Int32 = 65   // a grammar or vocabulary file is wrong
}

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse utterances from standard input (the default command)."
    )

    @Option(help: "The locale: BCP 47 (de-DE) or ICU (de_DE) form; a language alone picks its default region.")
    var locale = "en-US"

    @OptionGroup var options: ParserOptions

    @Flag(help: "Indent the JSON (one object per utterance, over several lines).")
    var pretty = false

    @Option(help: "Also give up to N further readings, best first.")
    var alternatives = 0

    @Flag(help: "Add an \"explain\" object: the sentence that matched, its file:line:column, and what each word did.")
    var explain = false

    @Option(help: "Parse on N threads (output keeps the input order).")
    var jobs = 1

    func validate() throws {
        guard alternatives >= 0 else { throw ValidationError("--alternatives takes a number of 0 or more") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs takes a number from 1 to 256") }
    }

    func run() throws {
        let parser: MediaParser
        do {
            parser = try MediaParser(locale: locale, appNames: options.appNames, areaNames: options.areaNames,
                                     deviceNames: options.deviceNames, catalog: try options.catalog())
            for file in options.userVocabulary {
                try parser.vocabulary.setUserVocabulary(UserVocabulary(contentsOfFile: file))
            }
            for file in options.globalVocabulary {
                parser.vocabulary.loadGlobal(try GlobalVocabulary(contentsOfFile: file))
            }
        } catch let error as UnsupportedLocaleError {
            fail("mediaparse: \(error)", status: ExitStatus.usage)
        } catch let error as GrammarError {
            fail("mediaparse: \(error)", status: ExitStatus.dataError)
        }

        var reader = LineReader(fd: 0)
        var output = OutputBuffer()
        var first = true
        // Lines are parsed in batches of what has already arrived (one line when input comes slowly, up to
        // `batchSize` from a file), on `jobs` threads; results are written in input order.
        let batchSize = jobs > 1 ? 512 * jobs : 1
        var batch: [InputLine] = []
        func parseBatch() {
            guard !batch.isEmpty else { return }
            let lines = batch
            batch.removeAll(keepingCapacity: true)
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

    private func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(status)
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
                if n <= 0 { if errno == EINTR { continue }; Foundation.exit(74) }
                offset += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

// `mediaparse test` reports bad arguments with exit status 2 (the parse command keeps the contract's 64).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "test" {
    do {
        var command = try Test.parseAsRoot(Array(arguments.dropFirst()))
        try command.run()
    } catch let exit as ExitCode {
        Foundation.exit(exit.rawValue)
    } catch {
        let code = Test.exitCode(for: error)
        if code == .success {
            print(Test.fullMessage(for: error))
            Foundation.exit(0)
        }
        FileHandle.standardError.write(Data((Test.fullMessage(for: error) + "\n").utf8))
        Foundation.exit(2)
    }
} else {
    MediaParseCommand.main()
}
