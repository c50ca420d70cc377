import Foundation
import XCTest

/// The `mediaparse` command as scripts use it: lines in, JSON Lines out, exit statuses of the contract.
final class CLITests: XCTestCase {
    typealias Run = CLI.Run
    func run(_ arguments: [String], _ text: String) throws -> Run { try CLI.run(arguments, input: Data(text.utf8)) }
    func run(_ arguments: [String], input: Data) throws -> Run { try CLI.run(arguments, input: input) }

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

    func testSameInputGivesByteIdenticalOutput() throws {
        let input = "play the best album by Khalid\nput on some '70s punk classics\nplay Khalid on Spotify at 2x\n"
        let a = try run(["--alternatives", "3"], input).stdout
        let b = try run(["--alternatives", "3"], input).stdout
        XCTAssertEqual(a, b)
    }
}
