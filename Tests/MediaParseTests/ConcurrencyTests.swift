import Foundation
@testable import MediaParse
import XCTest

/// One `MediaParser` shared by many threads and many Swift tasks gives, for every corpus utterance, the
/// bytes one thread gives. Run under ThreadSanitizer with
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter ConcurrencyTests` (the results are collected
/// with `Locked`, not `Mutex`, which ThreadSanitizer does not understand on Linux).
final class ConcurrencyTests: XCTestCase {
    static let parser = try! Fixtures.corpusParser()

    /// The options of the `i`th parse: plain, with alternatives, with an explanation.
    static func line(_ text: String, _ i: Int) -> String {
        switch i % 3 {
        case 0: return parser.parse(text).jsonLine()
        case 1: return parser.parse(text, alternatives: 2).jsonLine()
        default: return parser.parse(text, explain: true).jsonLine()
        }
    }

    /// What one thread gives, for each option of `line`.
    static let expected: [[String]] = {
        let texts = Fixtures.corpusUtterances
        return (0..<3).map { k in texts.map { line($0, k) } }
    }()

    func testTheCorpusIsThere() {
        XCTAssertGreaterThan(Fixtures.corpusUtterances.count, 500)
        // The vocabularies are loaded: some utterance reports a vocabulary hit.
        XCTAssertTrue(Self.expected[0].contains { $0.contains(#""vocabulary":[{"#) })
    }

    func testThreadsGiveWhatOneThreadGives() {
        let texts = Fixtures.corpusUtterances
        let expected = Self.expected
        let rounds = 2
        let results = Locked([String](repeating: "", count: texts.count * rounds))
        // Neighbouring iterations run different utterances and options on different threads at once.
        DispatchQueue.concurrentPerform(iterations: texts.count * rounds) { i in
            let line = Self.line(texts[i % texts.count], i / texts.count + i)
            results.withLock { $0[i] = line }
        }
        results.withLock { lines in
            var wrong = 0
            for i in lines.indices where lines[i] != expected[(i / texts.count + i) % 3][i % texts.count] {
                wrong += 1
                if wrong <= 5 { XCTFail("\(texts[i % texts.count]): \(lines[i])") }
            }
            XCTAssertEqual(wrong, 0)
        }
    }

    func testTasksGiveWhatOneThreadGives() async {
        let texts = Fixtures.corpusUtterances
        let expected = Self.expected
        let lines = await withTaskGroup(of: (Int, String).self) { group in
            for i in 0..<texts.count * 2 {
                group.addTask { (i, Self.line(texts[i % texts.count], i + 1)) }
            }
            var lines = [String](repeating: "", count: texts.count * 2)
            for await (i, line) in group { lines[i] = line }
            return lines
        }
        var wrong = 0
        for i in lines.indices where lines[i] != expected[(i + 1) % 3][i % texts.count] {
            wrong += 1
            if wrong <= 5 { XCTFail("\(texts[i % texts.count]): \(lines[i])") }
        }
        XCTAssertEqual(wrong, 0)
    }

    /// Readers on many threads while another changes the vocabulary: every result is one of the two
    /// states' results, never a mixture or a crash.
    func testParsesWhileTheVocabularyChanges() throws {
        let parser = try Fixtures.corpusParser()
        let text = "play the nineties chill mix"
        let with = parser.parse(text).jsonLine()
        _ = parser.vocabulary.removeGlobal(identifier: "pl-chill-90s")
        let without = parser.parse(text).jsonLine()
        XCTAssertNotEqual(with, without)
        let global = try GlobalVocabulary(contentsOfFile: Fixtures.corpusFolder.appendingPathComponent("vocabulary/global.plist").path)
        let odd = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            if i % 8 == 0 {
                if i % 16 == 0 { parser.vocabulary.loadGlobal(global) } else { _ = parser.vocabulary.removeGlobal(identifier: "pl-chill-90s") }
            } else {
                let line = parser.parse(text).jsonLine()
                if line != with && line != without { odd.withLock { $0.append(line) } }
            }
        }
        XCTAssertEqual(odd.withLock { $0 }, [])
    }
}
