@testable import MediaParse
import Foundation
import XCTest

/// Every kind of bad grammar or vocabulary file: one message naming the file (and the line and column where
/// the format has them), exit status 65 from the CLI with nothing on standard output, and nothing
/// half-loaded in the library.
final class FileErrorTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        // Nil, so that XCTest, which keeps every test case to the end of the run, does not keep this too
        // (LeakSanitizer would report it).
        directory = nil
    }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.standardizedFileURL.path
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String { try write(relative, Data(text.utf8)) }

    /// 1-based line and column of the `occurrence`th `needle` in `text` (columns in characters).
    func position(of needle: String, in text: String, occurrence: Int = 1) -> String {
        var from = text.startIndex
        var found = text.startIndex
        for _ in 0..<occurrence {
            found = text.range(of: needle, range: from..<text.endIndex)!.lowerBound
            from = text.index(after: found)
        }
        let before = text[..<found]
        let line = before.filter { $0 == "\n" }.count + 1
        let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex,
                                     to: before.endIndex) + 1
        return "\(line):\(column)"
    }

    /// Runs the CLI and checks the contract for a bad file: status 65, empty stdout, one message on stderr
    /// that starts with `mediaparse: <where>: error:`.
    func assertRefused(_ arguments: [String], at place: String, saying words: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try CLI.run(arguments, input: Data("play Khalid\n".utf8))
        XCTAssertEqual(r.status, 65, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("mediaparse: \(place): error: "), "expected \(place): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(words), "expected '\(words)': \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one message: \(r.stderr)", file: file, line: line)
    }

    // MARK: Grammar files (--grammars DIR)

    func grammarCase(_ name: String, _ text: String) throws -> (dir: String, path: String) {
        let path = try write("\(name)/en/extra.yaml", text)
        return (directory.appendingPathComponent(name).path, path)
    }

    func testBrokenYAML() throws {
        let text = "intents:\n  INPlayMediaIntent:\n    data: [\n      - sentences: {\n"
        let (dir, path) = try grammarCase("yaml", text)
        let r = try CLI.run(["--grammars", dir], input: Data("play\n".utf8))
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stdout, "")
        XCTAssertNotNil(r.stderr.firstMatch(of: try Regex("^mediaparse: \(NSRegularExpression.escapedPattern(for: path)):\\d+:\\d+: error: ")),
                        r.stderr)
    }

    func testUnknownRule() throws {
        let text = "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin <no_such_rule>\"]\n"
        let (dir, path) = try grammarCase("rule", text)
        try assertRefused(["--grammars", dir], at: "\(path):\(position(of: "<no_such_rule>", in: text))", saying: "unknown rule <no_such_rule>")
    }

    func testUnknownList() throws {
        let text = "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin {no_such_list:mediaName}\"]\n"
        let (dir, path) = try grammarCase("list", text)
        try assertRefused(["--grammars", dir], at: "\(path):\(position(of: "{no_such_list", in: text))", saying: "unknown list {no_such_list}")
    }

    func testRuleThatRefersToItself() throws {
        let text = "expansion_rules:\n  a: \"x <b>\"\n  b: \"y [<a>]\"\nintents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin <a>\"]\n"
        let (dir, path) = try grammarCase("self", text)
        try assertRefused(["--grammars", dir], at: "\(path):\(position(of: "<a>", in: text))", saying: "refers to itself: <a> -> <b> -> <a>")
    }

    func testSlotBoundToNothing() throws {
        // `{x}` names a list `x` and fills the field `x`: neither exists.
        let text = "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin {song}\"]\n"
        let (dir, path) = try grammarCase("slot", text)
        try assertRefused(["--grammars", dir], at: "\(path):\(position(of: "{song}", in: text))", saying: "unknown slot 'song'")
        // A slot of a list that exists, bound to no field.
        let text2 = "lists:\n  n: {wildcard: true}\nintents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin {n:tune}\"]\n"
        let (dir2, path2) = try grammarCase("slot2", text2)
        try assertRefused(["--grammars", dir2], at: "\(path2):\(position(of: "{n:tune}", in: text2))", saying: "unknown slot 'tune'")
    }

    func testDuplicateListValuesWithDifferentOutputs() throws {
        let text = """
        lists:
          order:
            values:
              - {in: fresh, out: newest}
              - {in: (fresh | stale), out: oldest}
        intents:
          INPlayMediaIntent:
            data:
              - sentences: ["spin the {order:sortOrder} one"]

        """
        let (dir, path) = try grammarCase("dup", text)
        try assertRefused(["--grammars", dir], at: "\(path):\(position(of: "(fresh", in: text))",
                          saying: "'fresh' already gives \"newest\" in {order} (at \(path):\(position(of: "fresh", in: text)))")
        // The same value twice is harmless and allowed.
        let same = text.replacingOccurrences(of: "out: oldest", with: "out: newest")
        let (dir2, _) = try grammarCase("same", same)
        let r = try CLI.run(["--grammars", dir2], input: Data("spin the fresh one\n".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual((try r.json(0)["mediaSearch"] as? [String: Any])?["sortOrder"] as? String, "newest")
    }

    func testEmptyGrammarFolder() throws {
        let empty = directory.appendingPathComponent("empty/en")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try write("empty/README.txt", "no grammar here")
        let dir = directory.appendingPathComponent("empty").path
        try assertRefused(["--grammars", dir], at: dir, saying: "no grammar files")
        try assertRefused(["--grammars", directory.appendingPathComponent("missing").path],
                          at: directory.appendingPathComponent("missing").path, saying: "not a folder")
    }

    // MARK: Vocabulary files

    func testUserVocabularyThatIsNotJSON() throws {
        let text = "{\"mediaPlaylistTitle\": [\"Road Trip\",\n   \"Chill\",, \"Focus\"]}\n"
        let path = try write("user.json", text)
        // At the second comma.
        try assertRefused(["--user-vocabulary", path], at: "\(path):\(position(of: ", \"Focus", in: text))", saying: "invalid JSON")
    }

    func testUserVocabularyWithWrongTypes() throws {
        let path = try write("types.json", "{\"mediaPlaylistTitle\": [\"Road Trip\", 7]}")
        try assertRefused(["--user-vocabulary", path], at: path, saying: "mediaPlaylistTitle[1]: expected a string, found a number")
        let unknown = try write("unknown.json", "{\"mediaSongTitle\": [\"x\"]}")
        try assertRefused(["--user-vocabulary", unknown], at: unknown, saying: "unknown vocabulary type 'mediaSongTitle'")
    }

    static let plistHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"

    func testGlobalVocabularyThatIsNotAPlist() throws {
        let path = try write("text.plist", "this is not a property list\n")
        try assertRefused(["--global-vocabulary", path], at: path, saying: "not a property list")
        let empty = try write("empty.plist", Data())
        try assertRefused(["--global-vocabulary", empty], at: empty, saying: "not a property list")
    }

    func testGlobalVocabularyWithBrokenXMLNamesTheTag() throws {
        let cases: [(body: String, at: String, words: String)] = [
            ("<dict>\n  <key>ParameterVocabularies</key>\n  <array>\n    <dict><key>x</dict>\n  </array>\n</dict>\n",
             "</dict>", "</dict> does not close <key>"),
            ("<dict>\n  <key>ParameterVocabularies</key>\n  <aray>\n  </aray>\n</dict>\n", "<aray>", "unknown tag <aray>"),
            ("<dict>\n  <key>IntentPhrases</key>\n  <array/>\n  <key>ParameterVocabularies</key>\n</dict>\n",
             "<key>ParameterVocabularies", "a <key> without a value"),
            ("<dict>\n  <key>ParameterVocabularies</key>\n  <array>\n</dict>\n", "<array>", "</dict> does not close <array>"),
        ]
        for (n, c) in cases.enumerated() {
            let text = Self.plistHead + c.body + "</plist>\n"
            let path = try write("broken-\(n).plist", text)
            let at = c.words.hasPrefix("</dict> does not close") ? position(of: "</dict>", in: text) : position(of: c.at, in: text)
            try assertRefused(["--global-vocabulary", path], at: "\(path):\(at)", saying: c.words)
        }
    }

    func testGlobalVocabularyWithWrongTypes() throws {
        let text = Self.plistHead + """
        <dict>
          <key>ParameterVocabularies</key>
          <array>
            <dict>
              <key>ParameterNames</key><array><string>INPlayMediaIntent.playlistTitle</string></array>
              <key>ParameterVocabulary</key>
              <array><dict><key>VocabularyItemIdentifier</key><integer>42</integer>
                           <key>VocabularyItemSynonyms</key><array/></dict></array>
            </dict>
          </array>
        </dict>
        </plist>

        """
        let path = try write("types.plist", text)
        try assertRefused(["--global-vocabulary", path], at: path,
                          saying: "ParameterVocabularies[0].ParameterVocabulary[0].VocabularyItemIdentifier: expected a string, found a number")
    }

    func testGlobalVocabularyThatRefersToItself() throws {
        // Finding F4: a binary property list whose root array holds itself.
        let path = try write("cycle.plist", HostilePlistTests.bplist([.array([0])]))
        try assertRefused(["--global-vocabulary", path], at: path, saying: "refers to itself")
    }

    // MARK: Nothing half-loaded

    func testAFailedVocabularyLoadKeepsWhatWasLoaded() throws {
        let parser = try Fixtures.corpusParser()
        let before = parser.vocabulary.count
        let line = parser.parse("play the nineties chill mix").jsonLine()
        XCTAssertTrue(line.contains("pl-chill-90s"), line)
        let bad = try write("half.plist", Self.plistHead + """
        <dict><key>ParameterVocabularies</key><array>
          <dict><key>ParameterNames</key><array><string>INPlayMediaIntent.playlistTitle</string></array>
                <key>ParameterVocabulary</key><array>
                  <dict><key>VocabularyItemIdentifier</key><string>new-1</string>
                        <key>VocabularyItemSynonyms</key><array><dict><key>VocabularyItemPhrase</key><string>new one</string></dict></array></dict>
                  <dict><key>VocabularyItemIdentifier</key><string>new-2</string></dict>
                </array></dict>
        </array></dict></plist>
        """)
        XCTAssertThrowsError(try parser.vocabulary.loadGlobal(GlobalVocabulary(contentsOfFile: bad)))
        XCTAssertThrowsError(try parser.vocabulary.setUserVocabulary(UserVocabulary(contentsOfFile: write("half.json", "{\"mediaPlaylistTitle\": [\"ok\", 1]}"))))
        XCTAssertEqual(parser.vocabulary.count.user, before.user)
        XCTAssertEqual(parser.vocabulary.count.global, before.global)
        XCTAssertEqual(parser.parse("play the nineties chill mix").jsonLine(), line)
        XCTAssertFalse(parser.parse("play new one").jsonLine().contains("new-1"))

        // The CLI: a good file, then a bad one: nothing is parsed.
        let good = Fixtures.corpusFolder.appendingPathComponent("vocabulary/global.plist").path
        try assertRefused(["--global-vocabulary", good, "--global-vocabulary", bad], at: bad, saying: "missing VocabularyItemSynonyms")
    }

    func testAFailedGrammarOverlayLeavesTheCatalogAsItWas() throws {
        try write("overlay/en/a-good.yaml", "intents:\n  INPlayMediaIntent:\n    data:\n      - sentences: [\"spin up {name:mediaName}\"]\n")
        try write("overlay/en/b-bad.yaml", Data([0x6C, 0x69, 0xFF, 0x0A]))  // not UTF-8
        var catalog = GrammarCatalog.builtIn
        XCTAssertThrowsError(try catalog.overlay(directory: directory.appendingPathComponent("overlay").path)) { error in
            XCTAssertTrue((error as? GrammarError)?.location.file.hasSuffix("b-bad.yaml") == true, "\(error)")
        }
        XCTAssertEqual(catalog.folders.mapValues { $0.keys.sorted() }, GrammarCatalog.builtIn.folders.mapValues { $0.keys.sorted() })
        XCTAssertNil(catalog.folders["en"]?["a-good.yaml"], "the good file before the bad one was not added")
    }
}
