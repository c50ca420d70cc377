import Foundation
import MediaParse
import MediaParseTools
import XCTest

/// One utterance, one answer, whatever the channel: the library, the CLI on 1 to 8 threads, and the
/// server's batch endpoint give the same bytes for every utterance of every locale's corpus.
final class DeterminismTests: XCTestCase {
    func testEveryCorpusGivesTheSameBytesFromTheLibraryTheCLIAndTheServer() throws {
        let root = CorpusTests.corpusDirectory
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent($0), isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
        XCTAssertGreaterThanOrEqual(folders.count, 20)
        let server = try Server(arguments: ["--max-texts", "1000"])
        defer { server.stop() }
        var checked = 0
        for (n, folder) in folders.enumerated() {
            var seen = Set<String>()
            let texts = CorpusFile.files(under: (root as NSString).appendingPathComponent(folder))
                .flatMap { ((try? CorpusFile(path: $0))?.cases ?? []).map(\.text) }
                .filter { !$0.contains("\n") && seen.insert($0).inserted }
            guard !texts.isEmpty else { continue }
            let input = Data((texts.joined(separator: "\n") + "\n").utf8)
            // Threads: 1, then one of 2…8 per locale, so that every count is run over the corpora.
            let jobs = 2 + n % 7
            let one = try CLI.run(["--locale", folder, "--alternatives", "2", "--jobs", "1"], input: input)
            let many = try CLI.run(["--locale", folder, "--alternatives", "2", "--jobs", String(jobs)], input: input)
            XCTAssertEqual(one.status, 0, one.stderr)
            XCTAssertEqual(one.lines.count, texts.count, folder)
            XCTAssertEqual(one.stdout, many.stdout, "\(folder): --jobs \(jobs) differs from --jobs 1")

            let parser = try MediaParser(locale: folder, cacheCompiledGrammar: true)
            for (i, text) in texts.enumerated() where i < one.lines.count {
                XCTAssertEqual(parser.parse(text, alternatives: 2).jsonLine(), one.lines[i], "\(folder): the library and the CLI differ on \(text)")
            }

            for start in stride(from: 0, to: texts.count, by: 500) {
                let chunk = Array(texts[start..<min(texts.count, start + 500)])
                let body = try JSONSerialization.data(withJSONObject: ["texts": chunk, "locale": folder, "alternatives": 2])
                let answer = try server.request("POST", "/parse", body: body)
                XCTAssertEqual(answer.status, 200, answer.text)
                XCTAssertEqual(answer.text, "[" + one.lines[start..<min(texts.count, start + 500)].joined(separator: ",") + "]\n",
                               "\(folder): the server differs from the CLI")
            }
            checked += texts.count
        }
        print("determinism: \(checked) utterances of \(folders.count) locale folders, the same bytes from the library, the CLI (1 to 8 threads) and the server")
        XCTAssertGreaterThan(checked, 10_000)
    }
}
