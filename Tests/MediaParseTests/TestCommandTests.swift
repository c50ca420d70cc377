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
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func test(_ arguments: [String]) throws -> CLI.Run {
        try CLI.run(["test"] + arguments, input: Data())
    }

    func testAGreenCorpusPrintsFiguresAndExitsZero() throws {
        let r = try test([path("small.yaml")])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("INPlayMediaIntent"), r.stdout)
        XCTAssertTrue(r.stdout.contains("mediaSearch.genreNames"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Grammar coverage, en-US"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").last, "3 passed, 0 failed")
    }

    func testABrokenRuleFailsWithAReadableDiff() throws {
        let r = try test(["--grammars", path("grammars"), path("small.yaml")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("✗ \(path("small.yaml")):3:11  \"play some jazz\""), r.stdout)
        XCTAssertTrue(r.stdout.contains(#"mediaSearch.genreNames: expected ["jazz"]"#), r.stdout)
        XCTAssertTrue(r.stdout.contains("matched Grammars/en/"), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").last, "2 passed, 1 failed")
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
