import Foundation
import MediaParse
import MediaParseTools
import XCTest

/// The README's table of locales and the CLI's list of them come from the grammars, never from a hand.
final class LocaleTableTests: XCTestCase {
    func testReadmeTableIsTheGeneratedOne() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try XCTUnwrap(readme.range(of: LocaleTable.beginMarker), "README.md has no locale table marker")
        let end = try XCTUnwrap(readme.range(of: LocaleTable.endMarker, range: begin.upperBound..<readme.endIndex))
        let inReadme = readme[begin.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        let generated = LocaleTable.markdown(try GrammarCatalog.builtIn.localeSummaries(),
                                             corpus: try LocaleTable.corpusSizes(under: Fixtures.repository.appendingPathComponent("Corpus").path))
        XCTAssertEqual(inReadme, generated.trimmingCharacters(in: .whitespacesAndNewlines),
                       "README.md's locale table is stale: paste the output of `mediaparse locales --markdown`")
    }

    func testSummariesSayWhatEachGrammarCovers() throws {
        let summaries = Dictionary(uniqueKeysWithValues: try GrammarCatalog.builtIn.localeSummaries().map { ($0.locale, $0) })
        let en = try XCTUnwrap(summaries["en-US"])
        XCTAssertEqual(en.folders, ["mul", "en", "en-US"], "the shared lists, the language, the region")
        XCTAssertEqual(Set(en.intents), Set(MediaIntent.allCases))
        XCTAssertGreaterThan(en.sentences, 100)
        XCTAssertTrue(GrammarCatalog.builtIn.hasSentenceFiles(locale: "de-AT"))
        // A locale with a locale.yaml and no sentences reads numbers only, and says so (Dutch as it was
        // before its grammar: its locale files alone).
        var catalog = GrammarCatalog()
        for folder in ["nl", "nl-NL"] {
            let text = try XCTUnwrap(GrammarCatalog.builtIn.folders[folder]?["locale.yaml"]?.text)
            catalog.add(folder: folder, path: "locale.yaml", text: text)
        }
        let bare = try XCTUnwrap(try catalog.localeSummaries().first { $0.locale == "nl-NL" })
        XCTAssertEqual(bare.sentences, 0)
        XCTAssertEqual(bare.intents, [])
        XCTAssertFalse(catalog.hasSentenceFiles(locale: "nl-NL"))
        // A grammar added through an overlay shows up.
        catalog.add(folder: "nl", path: "play.yaml", text: """
            intents:
              INPlayMediaIntent:
                data:
                  - sentences: ["speel {artist:artistName}"]
            lists:
              artist:
                wildcard: true
            """)
        XCTAssertTrue(catalog.hasSentenceFiles(locale: "nl-NL"))
        let overlaid = try XCTUnwrap(try catalog.localeSummaries().first { $0.locale == "nl-NL" })
        XCTAssertEqual(overlaid.sentences, 1)
        XCTAssertEqual(overlaid.intents, [.play])
    }

    func testMarkdownGroupsRegionsByLanguage() {
        let table = LocaleTable.markdown([
            LocaleSummary(locale: "de-AT", folders: ["de", "de-AT"], sentences: 10, intents: [.play, .search]),
            LocaleSummary(locale: "de-DE", folders: ["de", "de-DE"], sentences: 12, intents: [.play]),
            LocaleSummary(locale: "nl-NL", folders: ["nl", "nl-NL"], sentences: 0, intents: []),
        ], corpus: ["de-DE": .init(utterances: 5, recognizerCases: 2), "de-AT": .init(utterances: 1, recognizerCases: 0)])
        let lines = table.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(lines[2], "| German (`de`) | de-AT, de-DE | play, search | 10–12 | 6 | 2 |")
        XCTAssertEqual(lines[3], "| Dutch (`nl`) | nl-NL | numbers, dates and durations only (no grammar yet) | 0 | 0 | 0 |")
    }
}
