import Foundation
import MediaParse
import XCTest

/// The parser as a library: ranking, spans, scores, alternatives, explanations, limits, threads.
final class ParserTests: XCTestCase {
    static let parser = try! MediaParser(locale: "en-US", appNames: ["ControlAudio", "Control Audio"])

    func parse(_ text: String, alternatives: Int = 0, explain: Bool = false) -> ParseResult {
        Self.parser.parse(text, alternatives: alternatives, explain: explain)
    }

    func testTheContractExample() {
        let r = parse("play the newest episode of Stuff You Should Know in ControlAudio at double speed")
        XCTAssertEqual(r.intent, .play)
        XCTAssertEqual(r.mediaSearch?.mediaType, .podcastEpisode)
        XCTAssertEqual(r.mediaSearch?.mediaName, "Stuff You Should Know")
        XCTAssertEqual(r.mediaSearch?.sortOrder, .newest)
        XCTAssertEqual(r.playbackSpeed, 2.0)
        XCTAssertEqual(r.appName, "ControlAudio")
        XCTAssertEqual(r.spans?["mediaName"], [27, 48])
        XCTAssertEqual(r.spans?["sortOrder"], [9, 15])
        XCTAssertEqual(r.spans?["appName"], [52, 64])
        XCTAssertEqual(r.spans?["playbackSpeed"], [68, 80])
    }

    /// Every span lies inside the utterance, and the text it covers is what the slot was filled from.
    func testSpansCoverTheirText() {
        let texts = ["Play Maybe Sometime by Special Disaster Team in ControlAudio",
                     "put on some '70s punk classics", "😀 play Beyoncé’s newest album on Spotify shuffled",
                     "Play the song \"Be Kind\" by Marshmello and Halsey on Control Audio"]
        for text in texts {
            let r = parse(text)
            let scalars = Array(text.unicodeScalars)
            XCTAssertNotNil(r.spans, text)
            for (key, range) in r.spans?.ranges ?? [] {
                XCTAssertTrue(0 <= range[0] && range[0] < range[1] && range[1] <= scalars.count, "\(text) \(key) \(range)")
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[range[0]..<range[1]])
                let covered = String(s)
                for name in [r.mediaSearch?.mediaName, r.mediaSearch?.artistName, r.mediaSearch?.albumName]
                where key.hasSuffix("Name") && name != nil {
                    if key == "mediaName", name == r.mediaSearch?.mediaName { XCTAssertEqual(covered, name, text) }
                }
            }
        }
        XCTAssertEqual(parse("Play the song \"Be Kind\" by Marshmello").mediaSearch?.mediaName, "Be Kind")
    }

    func testListWordsBeatFreeText() {
        // "jazz" is a genre, not a name; "Khalid" is a name.
        XCTAssertEqual(parse("play some jazz").mediaSearch?.genreNames, ["jazz"])
        XCTAssertNil(parse("play some jazz").mediaSearch?.mediaName)
        XCTAssertEqual(parse("play some Khalid").mediaSearch?.mediaName, "Khalid")
        // One long list entry beats two short ones.
        XCTAssertEqual(parse("play indie rock").mediaSearch?.genreNames, ["indie rock"])
    }

    func testLiteralWordsEndFreeText() {
        let r = parse("Play Maybe Sometime by Special Disaster Team")
        XCTAssertEqual(r.mediaSearch?.mediaName, "Maybe Sometime")
        XCTAssertEqual(r.mediaSearch?.artistName, "Special Disaster Team")
        // On a tie, free text runs to the last marker word.
        let t = parse("play Out From Under from Hurricane Chris")
        XCTAssertEqual(t.mediaSearch?.mediaName, "Out From Under")
        XCTAssertEqual(t.mediaSearch?.artistName, "Hurricane Chris")
    }

    func testAppNamesAreKnownOnlyWhenGiven() throws {
        XCTAssertEqual(parse("play ControlAudio").appName, "ControlAudio")
        XCTAssertNil(parse("play ControlAudio").mediaSearch)
        XCTAssertEqual(parse("play Control Audio").appName, "Control Audio")
        let plain = try MediaParser(locale: "en-US")
        XCTAssertEqual(plain.parse("play ControlAudio").mediaSearch?.mediaName, "ControlAudio")
        XCTAssertEqual(plain.parse("play Khalid on Spotify").appName, "Spotify")
    }

    func testPlaybackOptions() {
        XCTAssertEqual(parse("play Khalid shuffled").playShuffled, true)
        XCTAssertEqual(parse("shuffle my workout playlist").playShuffled, true)
        XCTAssertEqual(parse("play Outer Peace next").playbackQueueLocation, .next)
        XCTAssertEqual(parse("play Outer Peace after this song").playbackQueueLocation, .next)
        XCTAssertEqual(parse("queue up Outer Peace").playbackQueueLocation, .later)
        XCTAssertEqual(parse("play Outer Peace on repeat").playbackRepeatMode, .all)
        XCTAssertEqual(parse("resume Stuff You Should Know").resumePlayback, true)
        XCTAssertEqual(parse("play the audiobook Becoming at one and a half times speed").playbackSpeed, 1.5)
        XCTAssertEqual(parse("play Radiolab at 1.25x").playbackSpeed, 1.25)
        XCTAssertEqual(parse("play Radiolab at half speed").playbackSpeed, 0.5)
    }

    func testNotMediaGivesNull() {
        for text in ["what's the weather like tomorrow", "book a table for two at an italian restaurant",
                     "send a message to Celestra", "play chess with me", "turn on the kitchen lights", ""] {
            XCTAssertNil(parse(text).intent, text)
        }
    }

    func testScoreIsInRangeAndLowerForFreeText() throws {
        let listy = try XCTUnwrap(parse("play some 80s rock").score)
        let free = try XCTUnwrap(parse("play Special Disaster Team").score)
        XCTAssertTrue((0...1).contains(listy) && (0...1).contains(free))
        XCTAssertGreaterThan(listy, free)
    }

    func testAlternativesAreFurtherDistinctReadings() {
        let r = parse("play the song Awesome Song", alternatives: 3)
        let alternatives = r.alternatives ?? []
        XCTAssertFalse(alternatives.isEmpty)
        XCTAssertLessThanOrEqual(alternatives.count, 3)
        for a in alternatives {
            XCTAssertNil(a.utterance)
            XCTAssertNotEqual(a.mediaSearch, r.mediaSearch)
            XCTAssertLessThanOrEqual(a.score ?? 2, r.score ?? 0)
        }
    }

    func testExplainNamesTheSentenceAndEachWord() throws {
        let r = parse("play Khalid on Spotify", explain: true)
        let e = try XCTUnwrap(r.explain)
        XCTAssertEqual(e.intent, "INPlayMediaIntent")
        XCTAssertTrue(e.source.hasPrefix("Grammars/en/play.yaml:"), e.source)
        XCTAssertEqual(e.words.map(\.text), ["play", "Khalid", "on", "Spotify"])
        XCTAssertEqual(e.words[1].matched, "{name:mediaName}")
        XCTAssertEqual(e.words[3].matched, "{app:appName}")
    }

    func testLongInputIsRefusedWithAReason() {
        let long = String(repeating: "play ", count: 100)
        let r = parse(long)
        XCTAssertNil(r.intent)
        XCTAssertTrue(r.error?.contains("limit is \(MediaParser.maxWords)") ?? false, r.error ?? "")
        let huge = String(repeating: "x", count: 100_000)
        XCTAssertTrue(parse(huge).error?.contains("characters") ?? false)
    }

    /// Finding F5: a number too large for JSON made the whole line `{"error":"could not encode the result"}`,
    /// without the utterance.
    func testHugeNumbersStillGiveAWholeResult() throws {
        for text in ["skip back 1e9999999999999999 minutes", "skip ahead \(String(repeating: "9", count: 400)) seconds",
                     "skip back 1\(String(repeating: "0", count: 307)) hours", "play it at \(String(repeating: "9", count: 330))x speed"] {
            let line = parse(text).jsonLine()
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertEqual(object["utterance"] as? String, text)
            XCTAssertNil(object["error"], line)
            for key in ["interval", "playbackSpeed", "playbackRate"] {
                if let n = object[key] as? Double { XCTAssertTrue(n.isFinite, line) }
            }
        }
        XCTAssertEqual(parse("skip back 30 seconds").interval, 30)
    }

    /// Bidi controls and invisible marks around a name are not part of it, nor of its span.
    func testBidiControlsStayOutOfValuesAndSpans() {
        let r = parse("play \u{202E}Khalid\u{202C}")
        XCTAssertEqual(r.mediaSearch?.mediaName, "Khalid")
        XCTAssertEqual(r.spans?["mediaName"], [6, 12])
        let h = parse("play \u{2067}שלום\u{2069} on Spotify\u{200F}")
        XCTAssertEqual(h.mediaSearch?.mediaName, "שלום")
        XCTAssertEqual(h.appName, "Spotify")
        XCTAssertEqual(h.spans?["mediaName"], [6, 10])
        let z = parse("play \u{200B}Outer\u{FEFF} Peace\u{2060} by Toro y Moi")
        XCTAssertEqual(z.mediaSearch?.mediaName, "Outer\u{FEFF} Peace")
        XCTAssertEqual(z.mediaSearch?.artistName, "Toro y Moi")
        // Inside a word they stay: the text is reported as it was said.
        XCTAssertEqual(parse("play Kha\u{200E}lid").mediaSearch?.mediaName, "Kha\u{200E}lid")
    }

    func testJSONHasTheContractShape() throws {
        let line = parse("play Khalid").jsonLine()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["intent"] as? String, "INPlayMediaIntent")
        XCTAssertEqual(object["locale"] as? String, "en-US")
        XCTAssertNil(object["playShuffled"])
        let empty = parse("").jsonLine()
        XCTAssertEqual(empty, #"{"intent":null,"locale":"en-US","utterance":""}"#)
    }
}
