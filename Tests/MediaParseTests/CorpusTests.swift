import Foundation
import MediaParse
import XCTest

/// Runs every corpus file of every locale under Corpus/ (Duckling's way: a new corpus file needs no new
/// code). A failure prints the utterance, what differs and what the parser gave.
final class CorpusTests: XCTestCase {
    static let corpusDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus").path

    func testEveryCorpusFile() throws {
        let files = CorpusFile.files(under: Self.corpusDirectory)
        XCTAssertFalse(files.isEmpty, "no corpus files under \(Self.corpusDirectory)")
        let runner = CorpusRunner()
        var total = 0, failed = 0
        for path in files {
            let file = try CorpusFile(path: path)
            for outcome in try runner.run(file) {
                total += 1
                if !outcome.passed {
                    failed += 1
                    XCTFail(outcome.report)
                }
            }
        }
        print("corpus: \(total - failed) of \(total) utterances pass")
        XCTAssertGreaterThan(total, 0)
    }
}
