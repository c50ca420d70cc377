import Foundation
import MediaParse
import XCTest

/// The `mediaparse` command as scripts use it: lines in, JSON Lines out, exit statuses of the contract.
final class CLITests: XCTestCase {
    typealias Run = CLI.Run
    func run(_ arguments: [String], _ text: String) throws -> Run { try CLI.run(arguments, input: Data(text.utf8)) }
    func run(_ arguments: [String], input: Data) throws -> Run { try CLI.run(arguments, input: input) }

    /// `mediaparse --help` shows the parse command's options, the locales there are and the sub-commands;
    /// a sub-command's help names it in full, and no line runs past 80 columns but the usage line.
    func testHelpShowsTheMainJob() throws {
        let help = try CLI.run(["--help"], input: Data())
        XCTAssertEqual(help.status, 0)
        for expected in ["--locale", "--pretty", "--alternatives", "--explain", "--user-vocabulary", "--global-vocabulary",
                         "de-DE", "ja-JP", "zh-TW", "nl-NL", "SUBCOMMANDS:", "serve", "locales", "test", "lint", "bench"] {
            XCTAssertTrue(help.stdout.contains(expected), "mediaparse --help lacks \(expected)")
        }
        let test = try CLI.run(["test", "--help"], input: Data())
        XCTAssertTrue(test.stdout.contains("USAGE: mediaparse test"), test.stdout)
        for format in ["corpus", "snips", "conll", "jsonl"] { XCTAssertTrue(test.stdout.contains(format), format) }
        XCTAssertFalse(test.stdout.contains("Importer"), "no internal type in help")
        for text in [help.stdout, test.stdout, try CLI.run(["serve", "--help"], input: Data()).stdout] {
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE:") {
                XCTAssertLessThanOrEqual(line.count, 80, String(line))
            }
        }
    }

    /// `--version`: the library's version and the hash of the grammar set built in, on one line.
    func testVersionNamesThePackageAndTheGrammarSet() throws {
        let r = try CLI.run(["--version"], input: Data())
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, "mediaparse \(MediaParseVersion.description)\n")
        XCTAssertNotNil(r.stdout.range(of: #"^mediaparse \d+\.\d+\.\d+ \(grammars [0-9a-f]{16}, \d+ files\)\n$"#,
                                       options: .regularExpression), r.stdout)
    }

    /// Progress and the grammar-compile line are for a person at a terminal: piped, standard error stays
    /// empty and standard output holds the results alone.
    func testProgressAddsNothingWhenPiped() throws {
        let lines = (0..<300).map { $0 % 2 == 0 ? "pause" : "play some jazz" }
        let r = try run(["--progress"], lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.lines.count, 300)
        XCTAssertTrue(r.lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    func testOneJSONLinePerInputLineInOrder() throws {
        let r = try run(["--app-name", "ControlAudio"], "play Khalid in ControlAudio\n\nwhat's the weather\nfind Billie Eilish\n")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.lines.count, 4)
        XCTAssertEqual(try r.json(0)["appName"] as? String, "ControlAudio")
        XCTAssertEqual(r.lines[1], #"{"intent":null,"locale":"en-US","utterance":""}"#)
        XCTAssertTrue(try r.json(2)["intent"] is NSNull)
        XCTAssertEqual(try r.json(3)["intent"] as? String, "INSearchForMediaIntent")
    }

    func testABadLineGetsAnErrorAndTheStreamGoesOn() throws {
        var input = Data("play Khalid\n".utf8)
        input.append(contentsOf: [0x70, 0x6C, 0xFF, 0xFE, 0x0A])  // "pl" + invalid bytes
        input.append(Data("play Outer Peace".utf8))                // last line without a newline
        let r = try run([], input: input)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.lines.count, 3)
        XCTAssertTrue((try r.json(1)["error"] as? String)?.contains("not valid UTF-8") ?? false)
        XCTAssertTrue(try r.json(1)["intent"] is NSNull)
        XCTAssertEqual((try r.json(2)["mediaSearch"] as? [String: Any])?["mediaName"] as? String, "Outer Peace")
    }

    func testLineEndsAndByteOrderMark() throws {
        let r = try run([], "\u{FEFF}play Khalid\r\nplay Outer Peace\rplay jazz\n")
        XCTAssertEqual(r.lines.count, 3)
        XCTAssertEqual(try r.json(0)["utterance"] as? String, "play Khalid")
        XCTAssertEqual(try r.json(1)["utterance"] as? String, "play Outer Peace")
    }

    /// A line longer than any the parser accepts is cut while it is read (memory and time per line stay
    /// bounded): its result says how long it was and keeps its first 16 KiB, never half a character.
    func testOverlongLinesAreCutWhileRead() throws {
        var input = Data(String(repeating: "play ", count: 20_000).utf8)            // 100,000 bytes
        input.append(Data("\r\n".utf8))
        input.append(Data(String(repeating: "é", count: 10_000).utf8))              // 20,000 bytes, 2 a character
        input.append(Data("\nplay jazz\r".utf8))
        input.append(Data(String(repeating: "x", count: 2_001).utf8))               // too long for the parser
        input.append(Data("\n\u{FEFF}play Khalid".utf8))
        let r = try run([], input: input)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.lines.count, 5, r.stdout.prefix(500).description)
        let first = try r.json(0)
        XCTAssertTrue((first["error"] as? String)?.hasPrefix("line too long: 100000 bytes") == true, "\(first["error"] ?? "")")
        XCTAssertTrue(first["intent"] is NSNull)
        XCTAssertLessThanOrEqual((first["utterance"] as? String)?.utf8.count ?? .max, 16 * 1024)
        let second = try r.json(1)
        XCTAssertTrue((second["error"] as? String)?.hasPrefix("line too long: 20000 bytes") == true)
        let kept = try XCTUnwrap(second["utterance"] as? String)
        XCTAssertEqual(Set(kept), ["é"], "cut between characters, not inside one")
        XCTAssertEqual(kept.count, 8_192)
        XCTAssertEqual(try r.json(2)["utterance"] as? String, "play jazz")
        XCTAssertTrue((try r.json(3)["error"] as? String)?.contains("2001 characters") == true)
        // A byte order mark after the first line is text (read from the raw line: JSONSerialization drops it).
        XCTAssertTrue(r.lines[4].contains("\"utterance\":\"\u{FEFF}play Khalid\""), r.lines[4])
    }

    func testUnsupportedLocaleExits64BeforeReading() throws {
        let r = try run(["--locale", "xx-YY"], "play Khalid\n")
        XCTAssertEqual(r.status, 64)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("unsupported locale"), r.stderr)
    }

    func testLocaleForms() throws {
        for (given, reported) in [("en_GB", "en-GB"), ("en", "en-US"), ("en-AU", "en-AU")] {
            XCTAssertEqual(try run(["--locale", given], "play Khalid\n").json(0)["locale"] as? String, reported)
        }
    }

    func testBadGrammarExits65WithFileLineAndColumn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mp-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("en"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("en/extra.yaml")
        try "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin <unknown_rule>\"]\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["--grammars", dir.path], "play Khalid\n")
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("\(file.standardizedFileURL.path):4:27"), r.stderr)
    }

    func testGrammarsFolderAddsSentences() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mp-add-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("en"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin up {name:mediaName}\"]\n"
            .write(to: dir.appendingPathComponent("en/extra.yaml"), atomically: true, encoding: .utf8)
        let r = try run(["--grammars", dir.path], "spin up Khalid\n")
        XCTAssertEqual((try r.json(0)["mediaSearch"] as? [String: Any])?["mediaName"] as? String, "Khalid")
    }

    func testPrettyAlternativesAndExplain() throws {
        let pretty = try run(["--pretty"], "play Khalid\n")
        XCTAssertTrue(pretty.stdout.contains("\n  \"intent\" : \"INPlayMediaIntent\""), pretty.stdout)
        let alt = try run(["--alternatives", "2"], "play the song Awesome Song\n")
        XCTAssertNotNil(try alt.json(0)["alternatives"] as? [Any])
        let explain = try run(["--explain"], "play Khalid\n")
        XCTAssertNotNil(try explain.json(0)["explain"] as? [String: Any])
        XCTAssertEqual(try run(["--alternatives", "-1"], "x\n").status, 64)
    }

    func testJobsKeepTheOrderAndTheBytes() throws {
        let texts = ["play Khalid", "put on some '70s punk classics", "what's the weather", "skip ahead thirty seconds",
                     "add this song to my road trip playlist", "who sings this", "", "find jazz playlists"]
        let input = (0..<300).map { texts[$0 % texts.count] + " \($0 % 7 == 0 ? "please" : "")" }.joined(separator: "\n") + "\n"
        let one = try run(["--jobs", "1"], input)
        let three = try run(["--jobs", "3"], input)
        XCTAssertEqual(one.status, 0)
        XCTAssertEqual(one.lines.count, 300)
        XCTAssertEqual(one.stdout, three.stdout)
        XCTAssertEqual(try run(["--jobs", "0"], "x\n").status, 64)
    }

    /// The corpus utterances (and a few unreadable lines), with the corpus's vocabularies and alternatives:
    /// byte-identical output from two runs, and from `--jobs 1` and `--jobs 4`.
    func testSameInputGivesByteIdenticalOutput() throws {
        var input = Data(Fixtures.corpusUtterances.joined(separator: "\n").utf8)
        input.append(contentsOf: [0x0A, 0x70, 0xFF, 0x0A, 0x00, 0x0D, 0x0A])  // "p\xFF", a NUL, CRLF
        input.append(Data("play Khalid\n".utf8))
        let vocabulary = Fixtures.corpusFolder.appendingPathComponent("vocabulary")
        let arguments = ["--app-name", "ControlAudio", "--alternatives", "2",
                         "--user-vocabulary", vocabulary.appendingPathComponent("user.json").path,
                         "--global-vocabulary", vocabulary.appendingPathComponent("global.plist").path]
        let first = try run(arguments, input: input)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.lines.count, Fixtures.corpusUtterances.count + 3)
        XCTAssertTrue(first.stdout.contains(#""vocabulary":[{"#), "the vocabularies were used")
        let second = try run(arguments, input: input)
        XCTAssertEqual(first.stdout, second.stdout, "two runs differ")
        let one = try run(arguments + ["--jobs", "1"], input: input)
        let four = try run(arguments + ["--jobs", "4"], input: input)
        XCTAssertEqual(first.stdout, one.stdout, "--jobs 1 differs from the default")
        XCTAssertEqual(one.stdout, four.stdout, "--jobs 4 differs from --jobs 1")
    }
}
