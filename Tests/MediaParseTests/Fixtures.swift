import Foundation
import MediaParse
import MediaParseTools

/// Shared inputs of the robustness tests: the corpus utterances and a parser loaded the way the corpus's
/// files load theirs (ControlAudio as an app name, the corpus's user and global vocabularies).
enum Fixtures {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpusFolder = repository.appendingPathComponent("Corpus/en-US")

    /// Every utterance of `Corpus/en-US/*.yaml`, in file order, duplicates kept once.
    static let corpusUtterances: [String] = {
        var seen = Set<String>()
        return CorpusFile.files(under: corpusFolder.path).flatMap { path in
            ((try? CorpusFile(path: path))?.cases ?? []).map(\.text)
        }.filter { seen.insert($0).inserted }
    }()

    /// An en-US parser with ControlAudio as an app name and the corpus's vocabularies.
    static func corpusParser() throws -> MediaParser {
        let parser = try MediaParser(locale: "en-US", appNames: ["ControlAudio"])
        let folder = corpusFolder.appendingPathComponent("vocabulary")
        parser.vocabulary.setUserVocabulary(try UserVocabulary(contentsOfFile: folder.appendingPathComponent("user.json").path))
        parser.vocabulary.loadGlobal(try GlobalVocabulary(contentsOfFile: folder.appendingPathComponent("global.plist").path))
        return parser
    }
}

/// Folders a test makes under the system's temporary folder, all removed by `removeAll()` (a test's
/// `tearDown`), so that no run leaves one behind.
final class TemporaryFolders {
    private var made: [URL] = []

    /// A new, empty folder whose name starts with `prefix`.
    func make(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        made.append(url)
        return url
    }

    func removeAll() {
        for url in made { try? FileManager.default.removeItem(at: url) }
        made = []
    }
}
