import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest

/// `mediaparse test`: figures, diffs, exit statuses, JUnit XML, JSON, baselines and imported formats.
final class TestCommandTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("mp-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("grammars/en/lists"), withIntermediateDirectories: true)
        try """
        locale: en-US
        tests:
          - text: "play some jazz"
            expect: {intent: INPlayMediaIntent, mediaSearch: {genreNames: ["jazz"]}}
          - text: "play Khalid"
            expect: {intent: INPlayMediaIntent, mediaSearch: {mediaName: "Khalid"}}
          - text: "what's the weather"
            expect: {intent: null}
        """.write(to: dir.appendingPathComponent("small.yaml"), atomically: true, encoding: .utf8)
        // A deliberately broken grammar: a genre list without jazz.
        try "lists:\n  genre:\n    values: [rock, pop]\n"
            .write(to: dir.appendingPathComponent("grammars/en/lists/genres.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
        // Nil, so that XCTest, which keeps every test case to the end of the run, does not keep this too
        // (LeakSanitizer would report it).
        dir = nil
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func test(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(["test"] + arguments, input: Data())
    }

    func testAGreenCorpusPrintsASummaryFirstAndExitsZero() throws {
        let r = try test([path("small.yaml")])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "mediaparse test: 3 cases from 1 file in \(path("small.yaml"))")
        // The summary: a line per locale with passed, failed and time, before anything else.
        let en = try XCTUnwrap(lines.first { $0.hasPrefix("en-US ") }, r.stdout)
        XCTAssertEqual(en.split(separator: " ").prefix(3).map(String.init), ["en-US", "3", "0"], en)
        XCTAssertLessThan(lines.firstIndex(of: en)!, 4)
        // Figures and coverage only when asked for.
        XCTAssertFalse(r.stdout.contains("mediaSearch.genreNames"), r.stdout)
        XCTAssertFalse(r.stdout.contains("Grammar coverage"), r.stdout)
        XCTAssertEqual(lines.last, "3 passed, 0 failed")

        let full = try test(["--figures", "--coverage", path("small.yaml")])
        XCTAssertTrue(full.stdout.contains("mediaSearch.genreNames"), full.stdout)
        XCTAssertTrue(full.stdout.contains("Grammar coverage, en-US"), full.stdout)
    }

    func testABrokenRuleFailsWithAReadableDiff() throws {
        let r = try test(["--grammars", path("grammars"), path("small.yaml")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("✗ \(path("small.yaml")):3:11  \"play some jazz\""), r.stdout)
        // A diff: what the case expects (-) and what the parser gave (+), then the whole result.
        XCTAssertTrue(r.stdout.contains(#"    - mediaSearch.genreNames: ["jazz"]"#), r.stdout)
        XCTAssertTrue(r.stdout.contains("    + mediaSearch.genreNames: (absent)"), r.stdout)
        XCTAssertTrue(r.stdout.contains(#"      got {"intent":"INPlayMediaIntent""#), r.stdout)
        XCTAssertTrue(r.stdout.contains("matched Grammars/en/"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").last, "2 passed, 1 failed")
    }

    /// From a folder without the source tree, `test` says how to name the corpus; `--corpus DIR` names it.
    func testTheCorpusCanBeNamedFromAnywhere() throws {
        let elsewhere = try CLI.run(["test"], input: Data(), directory: dir)
        XCTAssertEqual(elsewhere.status, 2)
        XCTAssertTrue(elsewhere.stderr.contains("--corpus DIR"), elsewhere.stderr)
        let corpus = dir.appendingPathComponent("corpus/en-US")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("small.yaml"), to: corpus.appendingPathComponent("small.yaml"))
        let named = try CLI.run(["test", "--corpus", dir.appendingPathComponent("corpus").path], input: Data(), directory: dir)
        XCTAssertEqual(named.status, 0, named.stdout + named.stderr)
        XCTAssertTrue(named.stdout.hasPrefix("mediaparse test: 3 cases from 1 file in \(dir.appendingPathComponent("corpus").path)"), named.stdout)
    }

    func testJUnitIsXMLWithOneCasePerUtterance() throws {
        let r = try test(["--grammars", path("grammars"), "--junit", path("report.xml"), path("small.yaml")])
        XCTAssertEqual(r.status, 1)
        let data = try Data(contentsOf: dir.appendingPathComponent("report.xml"))
        let xml = try XMLDocument(data: data)
        XCTAssertEqual(xml.rootElement()?.name, "testsuites")
        XCTAssertEqual(xml.rootElement()?.attribute(forName: "tests")?.stringValue, "3")
        XCTAssertEqual(xml.rootElement()?.attribute(forName: "failures")?.stringValue, "1")
        XCTAssertEqual(try xml.nodes(forXPath: "//testcase").count, 3)
        XCTAssertEqual(try xml.nodes(forXPath: "//testcase/failure").count, 1)
    }

    func testBaselineBlocksRegressionsButNotKnownFailures() throws {
        let baseline = path("baseline.json")
        XCTAssertEqual(try test(["--baseline", baseline, "--update-baseline", path("small.yaml")]).status, 0)
        // Against a green baseline, the broken grammar is a regression.
        let worse = try test(["--grammars", path("grammars"), "--baseline", baseline, path("small.yaml")])
        XCTAssertEqual(worse.status, 1)
        XCTAssertTrue(worse.stdout.contains("regressions against"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("mediaSearch.genreNames: F1 1.000 -> 0.000"), worse.stdout)
        // With the failure recorded in the baseline, it no longer blocks.
        _ = try test(["--grammars", path("grammars"), "--baseline", baseline, "--update-baseline", path("small.yaml")])
        XCTAssertEqual(try test(["--grammars", path("grammars"), "--baseline", baseline, path("small.yaml")]).status, 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any]
        XCTAssertEqual(json?["failed"] as? Int, 1)
    }

    func testJSONFigures() throws {
        XCTAssertEqual(try test(["--json", path("figures.json"), path("small.yaml")]).status, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("figures.json")))) as? [String: Any])
        let groups = try XCTUnwrap(json["groups"] as? [String: Any])
        let play = try XCTUnwrap(groups["en-US INPlayMediaIntent"] as? [String: Any])
        XCTAssertEqual(play["cases"] as? Int, 2)
        XCTAssertEqual(play["exactRate"] as? Double, 1)
    }

    func testBadArgumentsAndUnreadableFilesExitTwo() throws {
        XCTAssertEqual(try test(["--format", "xml", path("small.yaml")]).status, 2)
        XCTAssertEqual(try test([path("does-not-exist.yaml")]).status, 2)
        XCTAssertEqual(try test(["--update-baseline", path("small.yaml")]).status, 2)
        try "tests: [".write(to: dir.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let r = try test([path("broken.yaml")])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("broken.yaml:"), r.stderr)
    }

    func testSnipsAndCoNLLFilesAreImported() throws {
        try """
        {"PlayMusic": [{"data": [{"text": "play "}, {"text": "Hello", "entity": "track"}, {"text": " by "}, {"text": "Adele", "entity": "artist"}]}],
         "AddToPlaylist": [{"data": [{"text": "add "}, {"text": "Khalid", "entity": "artist"}, {"text": " to my "}, {"text": "road trip", "entity": "playlist"}, {"text": " playlist"}]}],
         "GetWeather": [{"data": [{"text": "will it rain tomorrow"}]}]}
        """.write(to: dir.appendingPathComponent("set.json"), atomically: true, encoding: .utf8)
        let snips = try test(["--format", "snips", path("set.json")])
        XCTAssertTrue(snips.stdout.contains("INAddMediaIntent"), snips.stdout)
        XCTAssertEqual(snips.stdout.split(separator: "\n").last?.hasSuffix("failed"), true)
        XCTAssertTrue(snips.stdout.contains("mediaDestination.playlistName"), snips.stdout)

        try """
        # text = play Hello by Adele
        # intent = PlayMusic
        1\tplay\tPlayMusic\tO
        2\tHello\tPlayMusic\tB-track
        3\tby\tPlayMusic\tO
        4\tAdele\tPlayMusic\tB-artist

        # text = set an alarm for six
        # intent = SetAlarm
        1\tset\tSetAlarm\tO
        2\tan\tSetAlarm\tO
        3\talarm\tSetAlarm\tO
        4\tfor\tSetAlarm\tO
        5\tsix\tSetAlarm\tB-time
        """.write(to: dir.appendingPathComponent("set.conll"), atomically: true, encoding: .utf8)
        let conll = try test(["--format", "conll", path("set.conll")])
        XCTAssertEqual(conll.status, 0, conll.stdout)
        XCTAssertEqual(conll.stdout.split(separator: "\n").last, "2 passed, 0 failed")
        XCTAssertTrue(conll.stdout.contains("mediaSearch.artistName"), conll.stdout)
    }
}
