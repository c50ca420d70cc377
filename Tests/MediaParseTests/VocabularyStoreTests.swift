@testable import MediaParse
import Foundation
import XCTest

/// The vocabulary data layer: the user's JSON and the app's AppIntentVocabulary.plist, canonical keys,
/// look-ups through the index, changes seen by the next look-up, and the order among overlapping hits.
final class VocabularyStoreTests: XCTestCase {
    // MARK: Fixtures

    static let userJSON = """
    {
      "mediaPlaylistTitle": ["70s punk classics", "Songs for Celestra"],
      "mediaMusicArtistName": ["Special Disaster Team"]
    }
    """

    /// The acceptance AppIntentVocabulary.plist, plus keys the loader must tolerate and ignore.
    static let globalPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>IntentPhrases</key>
    \t<array>
    \t\t<dict>
    \t\t\t<key>IntentName</key><string>INPlayMediaIntent</string>
    \t\t\t<key>IntentExamples</key><array><string>Play my seventies punk anthems</string></array>
    \t\t</dict>
    \t</array>
    \t<key>ParameterVocabularies</key>
    \t<array>
    \t\t<dict>
    \t\t\t<key>ParameterNames</key>
    \t\t\t<array><string>INPlayMediaIntent.playlistTitle</string></array>
    \t\t\t<key>ParameterVocabulary</key>
    \t\t\t<array>
    \t\t\t\t<dict>
    \t\t\t\t\t<key>VocabularyItemIdentifier</key><string>70s punk anthems</string>
    \t\t\t\t\t<key>VocabularyItemSynonyms</key>
    \t\t\t\t\t<array>
    \t\t\t\t\t\t<dict><key>VocabularyItemPhrase</key><string>70s punk anthems</string></dict>
    \t\t\t\t\t\t<dict>
    \t\t\t\t\t\t\t<key>VocabularyItemPhrase</key><string>seventies punk anthems</string>
    \t\t\t\t\t\t\t<key>VocabularyItemPronunciation</key><string>sev-en-tees punk an-thems</string>
    \t\t\t\t\t\t\t<key>VocabularyItemExamples</key><array><string>Play seventies punk anthems</string></array>
    \t\t\t\t\t\t</dict>
    \t\t\t\t\t</array>
    \t\t\t\t</dict>
    \t\t\t</array>
    \t\t</dict>
    \t\t<dict>
    \t\t\t<key>ParameterNames</key>
    \t\t\t<array><string>INPlayMediaIntent.showTitle</string></array>
    \t\t\t<key>ParameterVocabulary</key>
    \t\t\t<array>
    \t\t\t\t<dict>
    \t\t\t\t\t<key>VocabularyItemIdentifier</key><string>show-0042</string>
    \t\t\t\t\t<key>VocabularyItemSynonyms</key>
    \t\t\t\t\t<array>
    \t\t\t\t\t\t<dict><key>VocabularyItemPhrase</key><string>Ten Percent Happier</string></dict>
    \t\t\t\t\t\t<dict><key>VocabularyItemPhrase</key><string>10% Happier</string></dict>
    \t\t\t\t\t</array>
    \t\t\t\t</dict>
    \t\t\t</array>
    \t\t</dict>
    \t</array>
    </dict>
    </plist>
    """

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vocabulary-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
        // Nil, so that XCTest, which keeps every test case to the end of the run, does not keep this too
        // (LeakSanitizer would report it).
        directory = nil
    }

    /// Writes `contents` to a file of the temporary folder and returns its path.
    func write(_ name: String, _ contents: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }

    /// The error `body` throws, as a `GrammarError`.
    func loadError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> GrammarError? {
        do {
            try body()
            XCTFail("expected an error", file: file, line: line)
        } catch let error as GrammarError {
            return error
        } catch {
            XCTFail("expected a GrammarError, got \(error)", file: file, line: line)
        }
        return nil
    }

    /// A store with the acceptance vocabularies loaded.
    func acceptanceStore(user: Bool = true, global: Bool = true) throws -> VocabularyStore {
        let store = try VocabularyStore(locale: "en-US")
        if user { store.setUserVocabulary(try UserVocabulary(contentsOfFile: write("user.json", Self.userJSON))) }
        if global { store.loadGlobal(try GlobalVocabulary(contentsOfFile: write("global.plist", Self.globalPlist))) }
        return store
    }

    /// The hits that win in `text`, as (source, value, original words).
    func best(_ store: VocabularyStore, _ text: String) -> [(source: VocabularySource, value: String, words: String)] {
        VocabularyHit.nonOverlapping(store.hits(in: text)).map { hit in
            let scalars = Array(text.unicodeScalars)[hit.span]
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars)
            return (hit.entry.source, hit.entry.value, String(s))
        }
    }

    // MARK: Files

    func testUserVocabularyJSONKeepsOrderedSets() throws {
        let path = try write("user.json", #"{"mediaPlaylistTitle": ["b", "a", "b", "c"], "mediaShowTitle": []}"#)
        let vocabulary = try UserVocabulary(contentsOfFile: path)
        XCTAssertEqual(vocabulary.phrases[.mediaPlaylistTitle], ["b", "a", "c"])
        XCTAssertEqual(vocabulary.phrases[.mediaShowTitle], [])
        let acceptance = try UserVocabulary(contentsOfFile: write("acceptance.json", Self.userJSON))
        XCTAssertEqual(acceptance.phrases, [.mediaPlaylistTitle: ["70s punk classics", "Songs for Celestra"],
                                            .mediaMusicArtistName: ["Special Disaster Team"]])
    }

    func testUserVocabularyErrorsNameFileAndEntry() throws {
        let wrongEntry = try write("entry.json", #"{"mediaPlaylistTitle": ["a", "b", "c", 4]}"#)
        let e1 = loadError { _ = try UserVocabulary(contentsOfFile: wrongEntry) }
        XCTAssertEqual(e1?.location.file, wrongEntry)
        XCTAssertEqual(e1?.message, "mediaPlaylistTitle[3]: expected a string, found a number")
        XCTAssertTrue(e1?.description.hasPrefix("\(wrongEntry): error: mediaPlaylistTitle[3]") == true, e1?.description ?? "")

        let unknownType = try write("type.json", #"{"playlists": ["a"]}"#)
        let e2 = loadError { _ = try UserVocabulary(contentsOfFile: unknownType) }
        XCTAssertEqual(e2?.location.file, unknownType)
        XCTAssertTrue(e2?.message.contains("unknown vocabulary type 'playlists'") == true, e2?.message ?? "")
        for type in VocabularyType.allCases {
            XCTAssertTrue(e2?.message.contains(type.rawValue) == true, "the valid types are listed: \(type)")
        }

        let notArray = try write("array.json", #"{"mediaShowTitle": "Ten Percent Happier"}"#)
        XCTAssertEqual(loadError { _ = try UserVocabulary(contentsOfFile: notArray) }?.message,
                       "mediaShowTitle: expected an array of strings, found a string")
        let empty = try write("empty.json", #"{"mediaShowTitle": ["ok", "  "]}"#)
        XCTAssertEqual(loadError { _ = try UserVocabulary(contentsOfFile: empty) }?.message, "mediaShowTitle[1]: empty string")
        let notObject = try write("list.json", #"["a"]"#)
        XCTAssertTrue(loadError { _ = try UserVocabulary(contentsOfFile: notObject) }?.message.hasPrefix("expected a JSON object") == true)

        // A syntax error: line and column of the second comma.
        let text = "{\n  \"mediaPlaylistTitle\": [\"a\",, \"b\"]\n}\n"
        let syntax = try write("syntax.json", text)
        let e3 = loadError { _ = try UserVocabulary(contentsOfFile: syntax) }
        XCTAssertEqual(e3?.location.file, syntax)
        XCTAssertEqual(e3?.location.line, 2)
        let secondLine = text.split(separator: "\n")[1]
        let column = secondLine.distance(from: secondLine.startIndex, to: secondLine.range(of: ",,")!.lowerBound) + 2
        XCTAssertEqual(e3?.location.column, column, e3?.description ?? "")
        XCTAssertTrue(e3?.message.hasPrefix("invalid JSON") == true, e3?.message ?? "")

        let missing = directory.appendingPathComponent("missing.json").path
        XCTAssertEqual(loadError { _ = try UserVocabulary(contentsOfFile: missing) }?.location.file, missing)
    }

    func testGlobalVocabularyXMLAndBinaryReadTheSame() throws {
        let xml = try GlobalVocabulary(contentsOfFile: write("AppIntentVocabulary.plist", Self.globalPlist))
        XCTAssertEqual(xml.items.map(\.identifier), ["70s punk anthems", "show-0042"])
        XCTAssertEqual(xml.items.map(\.type), [.mediaPlaylistTitle, .mediaShowTitle])
        XCTAssertEqual(xml.items[0].synonyms.map(\.phrase), ["70s punk anthems", "seventies punk anthems"])
        XCTAssertEqual(xml.items[0].synonyms[1].pronunciation, "sev-en-tees punk an-thems")
        XCTAssertEqual(xml.items[0].synonyms[1].examples, ["Play seventies punk anthems"])

        // The same content as a binary property list, written by Foundation.
        let object = try PropertyListSerialization.propertyList(from: Data(Self.globalPlist.utf8), options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        XCTAssertEqual(binary.prefix(6), Data("bplist".utf8))
        XCTAssertEqual(try GlobalVocabulary(contentsOfFile: write("binary.plist", binary)), xml)

        // Several parameter names (and other intents' prefixes) give the item to each type; other intents'
        // parameters are skipped.
        let multi: [String: Any] = ["ParameterVocabularies": [[
            "ParameterNames": ["INPlayMediaIntent.audiobookAuthorName", "INSearchForMediaIntent.musicArtistName",
                               "INStartWorkoutIntent.workoutName"],
            "ParameterVocabulary": [["VocabularyItemIdentifier": "author-7",
                                     "VocabularyItemSynonyms": [["VocabularyItemPhrase": "J. R. R. Tolkien"]]]],
        ]]]
        let multiData = try PropertyListSerialization.data(fromPropertyList: multi, format: .binary, options: 0)
        let items = try GlobalVocabulary(contentsOfFile: write("multi.plist", multiData)).items
        XCTAssertEqual(items.map(\.type), [.mediaAudiobookAuthorName, .mediaMusicArtistName])
        XCTAssertEqual(Set(items.map(\.identifier)), ["author-7"])
    }

    func testGlobalVocabularyErrorsNameFileAndEntry() throws {
        func plist(_ object: Any) throws -> String {
            try write("bad-\(UUID().uuidString).plist",
                      PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0))
        }
        let good: [String: Any] = ["VocabularyItemIdentifier": "x",
                                   "VocabularyItemSynonyms": [["VocabularyItemPhrase": "x"]]]
        func groups(_ second: [[String: Any]], names: [Any] = ["INPlayMediaIntent.showTitle"]) -> [String: Any] {
            ["ParameterVocabularies": [
                ["ParameterNames": ["INPlayMediaIntent.playlistTitle"], "ParameterVocabulary": [good]],
                ["ParameterNames": names, "ParameterVocabulary": second],
            ]]
        }

        let noIdentifier = try plist(groups([["VocabularyItemSynonyms": [["VocabularyItemPhrase": "y"]]]]))
        let e1 = loadError { _ = try GlobalVocabulary(contentsOfFile: noIdentifier) }
        XCTAssertEqual(e1?.location.file, noIdentifier)
        XCTAssertEqual(e1?.message, "ParameterVocabularies[1].ParameterVocabulary[0]: missing VocabularyItemIdentifier")

        let wrongType = try plist(groups([["VocabularyItemIdentifier": 42, "VocabularyItemSynonyms": []]]))
        XCTAssertEqual(loadError { _ = try GlobalVocabulary(contentsOfFile: wrongType) }?.message,
                       "ParameterVocabularies[1].ParameterVocabulary[0].VocabularyItemIdentifier: expected a string, found a number")

        let badSynonym = try plist(groups([["VocabularyItemIdentifier": "y",
                                            "VocabularyItemSynonyms": [["VocabularyItemPhrase": "ok"], ["Phrase": "y"]]]]))
        XCTAssertEqual(loadError { _ = try GlobalVocabulary(contentsOfFile: badSynonym) }?.message,
                       "ParameterVocabularies[1].ParameterVocabulary[0].VocabularyItemSynonyms[1]: missing VocabularyItemPhrase")

        let unknownParameter = try plist(groups([good], names: ["INPlayMediaIntent.songTitle"]))
        let e2 = loadError { _ = try GlobalVocabulary(contentsOfFile: unknownParameter) }
        XCTAssertTrue(e2?.message.hasPrefix("ParameterVocabularies[1].ParameterNames[0]: unknown parameter 'INPlayMediaIntent.songTitle'") == true,
                      e2?.message ?? "")
        XCTAssertTrue(e2?.message.contains("INPlayMediaIntent.showTitle") == true)

        let duplicate = try plist(["ParameterVocabularies": [
            ["ParameterNames": ["INPlayMediaIntent.playlistTitle"], "ParameterVocabulary": [good, good]],
        ]])
        XCTAssertTrue(loadError { _ = try GlobalVocabulary(contentsOfFile: duplicate) }?.message
            .hasPrefix("ParameterVocabularies[0].ParameterVocabulary[1]: duplicate VocabularyItemIdentifier 'x'") == true)

        let notDictionary = try plist(["ParameterVocabularies": "none"])
        XCTAssertEqual(loadError { _ = try GlobalVocabulary(contentsOfFile: notDictionary) }?.message,
                       "ParameterVocabularies: expected an array, found a string")
        let rootArray = try plist(["a"])
        XCTAssertTrue(loadError { _ = try GlobalVocabulary(contentsOfFile: rootArray) }?.message
            .hasPrefix("expected a dictionary at the top") == true)

        let notPlist = try write("text.plist", "this is not a property list\n")
        let e3 = loadError { _ = try GlobalVocabulary(contentsOfFile: notPlist) }
        XCTAssertEqual(e3?.location.file, notPlist)
        XCTAssertTrue(e3?.message.hasPrefix("not") == true, e3?.message ?? "")
        let brokenXML = try write("broken.plist", Self.globalPlist.replacingOccurrences(of: "</dict>\n</plist>", with: "</plist>"))
        XCTAssertEqual(loadError { _ = try GlobalVocabulary(contentsOfFile: brokenXML) }?.location.file, brokenXML)

        // IntentPhrases alone: no parameter vocabulary, no error.
        let phrasesOnly = try plist(["IntentPhrases": [["IntentName": "INPlayMediaIntent"]]])
        XCTAssertEqual(try GlobalVocabulary(contentsOfFile: phrasesOnly).items, [])
    }

    // MARK: Canonical keys

    func testCanonicalKeysMakeSpokenAndWrittenFormsEqual() throws {
        let store = try VocabularyStore(locale: "en-US")
        let session = try ICUSession(locale: "en_US")
        func keys(_ text: String) -> [String] { store.normalizer.canonicalKeys(of: text, session: session) }
        for decade in ["'70s", "70s", "70's", "seventies", "Seventies", "1970s", "nineteen seventies"] {
            XCTAssertEqual(keys(decade), ["1970s"], decade)
        }
        XCTAssertEqual(keys("ten"), keys("10"))
        XCTAssertEqual(keys("ten percent happier"), keys("10% Happier"))
        XCTAssertEqual(keys("Ten Per Cent Happier"), ["10", "happier"])
        XCTAssertEqual(keys("twenty one pilots"), keys("21 Pilots"))
        XCTAssertEqual(keys("twenty-one pilots"), ["21", "pilots"])
        XCTAssertEqual(keys("the third man"), keys("The 3rd Man"))
        XCTAssertEqual(keys("nineteen eighty-four"), keys("1984"))
        XCTAssertEqual(keys("Don’t Stop Me Now!"), ["dont", "stop", "me", "now"])
        XCTAssertEqual(keys("ＢＥＹＯＮＣÉ"), ["beyonce"])
        XCTAssertEqual(keys("percent"), ["percent"], "a percent word not after a number is a word")

        // Phrases read in batches, ASCII ones lower-cased first (shortcuts for large loads), give exactly the
        // keys of the utterance path: the phrase tokenized alone, then canonicalTokens.
        let phrases = ["Don't Stop Me Now", "AC/DC", "Guns N' Roses", "Khalid's Mix", "The 1975", "Jay-Z & Kanye",
                       "SEVENTIES Punk", "Twenty-One Pilots", "10% Happier", "Sweet Child O` Mine", "U.S.A. Road Trip",
                       "Mr. Brightside (Live)", "P!nk", "1.5x Speed", "Don`t", "!!!", "Beyoncé Live", "周杰伦的歌",
                       "🇺🇸🇬🇧 Flags", "ｆｕｌｌ ｗｉｄｔｈ", "Nineteen", "Seventies", "Line\nBreak", "Café del Mar 2"]
        let batch = store.normalizer.canonicalKeys(of: phrases + phrases.reversed(), session: session)
        for (k, phrase) in (phrases + phrases.reversed()).enumerated() {
            let tokens = store.normalizer.tokenizer.tokenize(phrase, session: session).tokens
            XCTAssertEqual(batch[k], store.normalizer.canonicalTokens(tokens, session: session).map(\.key), phrase)
        }
        XCTAssertEqual(keys("!!!"), [])

        // Ranges point back at the tokens the keys came from.
        let tokens = store.normalizer.tokenizer.tokenize("play ten percent happier", session: session).tokens
        let canonical = store.normalizer.canonicalTokens(tokens, session: session)
        XCTAssertEqual(canonical.map(\.key), ["play", "10", "happier"])
        XCTAssertEqual(canonical.map(\.start), [0, 1, 3])
        XCTAssertEqual(canonical.map(\.end), [1, 3, 4])
        let entities = store.normalizer.numbers.recognize(tokens, session: session)
        XCTAssertEqual(store.normalizer.canonicalTokens(tokens, entities: entities, session: session).map(\.key),
                       canonical.map(\.key), "the parser's own number readings give the same keys")
    }

    // MARK: Look-ups

    func testUserPlaylistHitOverridesDecadeAndGenreWords() throws {
        let store = try acceptanceStore(global: false)
        let text = "Put on some '70s punk classics"
        let hits = store.hits(in: text)
        XCTAssertEqual(hits.count, 1)
        let hit = try XCTUnwrap(hits.first)
        XCTAssertEqual(hit.entry.source, .user)
        XCTAssertEqual(hit.entry.value, "70s punk classics")
        XCTAssertEqual(hit.entry.type, .mediaPlaylistTitle)
        XCTAssertEqual(hit.entry.mediaType, "playlist")
        XCTAssertEqual(hit.entry.field, .mediaName)
        XCTAssertEqual(hit.entry.index, 0)
        XCTAssertEqual(hit.tokens, 3..<6)
        XCTAssertEqual(hit.span, 13..<30, "the span starts after the apostrophe, at '70s'")

        XCTAssertEqual(best(store, "play songs for celestra").map(\.value), ["Songs for Celestra"])
        XCTAssertEqual(best(store, "play SPECIAL disaster team").map(\.value), ["Special Disaster Team"])
        XCTAssertEqual(store.hits(in: "play special disaster team").first?.entry.field, .artistName)
    }

    func testGlobalHitReportsTheIdentifier() throws {
        let store = try acceptanceStore(user: false)
        for text in ["put on some seventies punk anthems", "Put on some '70s punk anthems", "nineteen seventies punk anthems"] {
            let found = best(store, text)
            XCTAssertEqual(found.map(\.value), ["70s punk anthems"], text)
            XCTAssertEqual(found.first?.source, .global)
        }
        let hit = try XCTUnwrap(store.hits(in: "seventies punk anthems").first)
        XCTAssertEqual(hit.entry.identifier, "70s punk anthems")
        XCTAssertEqual(hit.tokens, 0..<3)
    }

    func testPercentShowIsFoundInDigitsAndInWords() throws {
        let store = try acceptanceStore(user: false)
        for (text, words) in [("play 10% Happier", "10% Happier"), ("play ten percent happier", "ten percent happier"),
                              ("play Ten Per Cent Happier please", "Ten Per Cent Happier")] {
            let hits = store.hits(in: text)
            XCTAssertEqual(hits.count, 1, "both synonyms read alike, so one hit: \(text)")
            XCTAssertEqual(hits.first?.entry.value, "show-0042", text)
            XCTAssertEqual(hits.first?.entry.mediaType, "podcastShow", text)
            XCTAssertEqual(best(store, text).first?.words, words)
        }
    }

    func testOnlyWholePhrasesOfWholeTokensMatch() throws {
        let store = try acceptanceStore(user: true, global: false)
        XCTAssertEqual(store.hits(in: "play punk"), [])
        XCTAssertEqual(store.hits(in: "play 70s punk"), [])
        XCTAssertEqual(store.hits(in: "play 70s punk classic"), [])
        XCTAssertEqual(store.hits(in: "play 70s punks classics"), [])
        store.setUserPhrases(["punk"], of: .mediaMusicArtistName)
        XCTAssertEqual(store.hits(in: "play punks").count, 0)
        XCTAssertEqual(store.hits(in: "play punk").map(\.entry.value), ["punk"])
    }

    func testRemovalAndRenameAreSeenByTheNextLookUp() throws {
        let store = try acceptanceStore(global: false)
        let before = store.snapshot()
        XCTAssertTrue(store.removeUserPhrase("70s punk classics", of: .mediaPlaylistTitle))
        XCTAssertEqual(store.hits(in: "Put on some '70s punk classics"), [])
        XCTAssertEqual(store.userPhrases(of: .mediaPlaylistTitle), ["Songs for Celestra"])
        XCTAssertEqual(store.hits(in: "play songs for celestra").first?.entry.index, 0, "the later string moved up")
        XCTAssertFalse(store.removeUserPhrase("70s punk classics", of: .mediaPlaylistTitle))

        // A snapshot taken before the change still reads what it read.
        let session = try ICUSession(locale: "en_US")
        let tokens = store.normalizer.tokenizer.tokenize("Put on some '70s punk classics", session: session).tokens
        XCTAssertEqual(before.hits(in: tokens, session: session).map(\.entry.value), ["70s punk classics"])

        XCTAssertTrue(store.addUserPhrase("Road Trip", of: .mediaPlaylistTitle, at: 0))
        XCTAssertFalse(store.addUserPhrase("Road Trip", of: .mediaPlaylistTitle))
        XCTAssertEqual(store.hits(in: "play road trip").first?.entry.index, 0)
        XCTAssertTrue(store.renameUserPhrase("Road Trip", to: "Summer Drive", of: .mediaPlaylistTitle))
        XCTAssertEqual(store.hits(in: "play road trip"), [])
        let renamed = try XCTUnwrap(store.hits(in: "play summer drive").first)
        XCTAssertEqual(renamed.entry.value, "Summer Drive")
        XCTAssertEqual(renamed.entry.index, 0, "a renamed string keeps its place")
        XCTAssertEqual(store.userPhrases(of: .mediaPlaylistTitle), ["Summer Drive", "Songs for Celestra"])

        // Replacing the whole set, and the whole user vocabulary.
        store.setUserPhrases(["Chill"], of: .mediaPlaylistTitle)
        XCTAssertEqual(store.hits(in: "play summer drive"), [])
        XCTAssertEqual(store.hits(in: "play special disaster team").count, 1, "other types are untouched")
        store.setUserVocabulary(UserVocabulary([.mediaShowTitle: ["Chill"]]))
        XCTAssertEqual(store.hits(in: "play chill").map(\.entry.type), [.mediaShowTitle])
        XCTAssertEqual(store.hits(in: "play special disaster team"), [])
    }

    func testGlobalItemsAreReplacedAndRemovedByIdentifier() throws {
        let store = try acceptanceStore(user: false)
        XCTAssertEqual(store.count.global, 4)
        store.loadGlobal(GlobalVocabulary(items: [.init(type: .mediaShowTitle, identifier: "show-0042",
                                                        synonyms: [.init(phrase: "Happier")])]))
        XCTAssertEqual(store.count.global, 3, "the item with the same type and identifier was replaced")
        XCTAssertEqual(store.hits(in: "play ten percent happier").map(\.tokens), [3..<4])
        XCTAssertEqual(store.removeGlobal(identifier: "show-0042"), 1)
        XCTAssertEqual(store.hits(in: "play happier"), [])
        XCTAssertEqual(store.removeGlobal(identifier: "70s punk anthems", type: .mediaShowTitle), 0)
        XCTAssertEqual(store.removeGlobal(identifier: "70s punk anthems", type: .mediaPlaylistTitle), 1)
        XCTAssertEqual(store.hits(in: "seventies punk anthems"), [])
        XCTAssertTrue(store.snapshot().isEmpty)
    }

    // MARK: Priorities

    func testLongerUserEntryBeatsEarlierShorterOne() throws {
        let store = try VocabularyStore(locale: "en-US")
        store.setUserPhrases(["punk", "a", "b", "c", "d", "70s punk classics"], of: .mediaPlaylistTitle)
        let hits = store.hits(in: "put on some seventies punk classics")
        XCTAssertEqual(Set(hits.map(\.entry.value)), ["punk", "70s punk classics"], "every match is returned")
        let chosen = VocabularyHit.nonOverlapping(hits)
        XCTAssertEqual(chosen.map(\.entry.value), ["70s punk classics"])
        XCTAssertEqual(chosen.first?.entry.index, 5)
    }

    func testUserEntryBeatsLongerGlobalOne() throws {
        let store = try VocabularyStore(locale: "en-US")
        store.setUserPhrases(["classics"], of: .mediaPlaylistTitle)
        store.loadGlobal(GlobalVocabulary(items: [.init(type: .mediaPlaylistTitle, identifier: "pl-70s",
                                                        synonyms: [.init(phrase: "70s punk classics")])]))
        let hits = store.hits(in: "play 70s punk classics")
        XCTAssertEqual(hits.count, 2)
        let chosen = VocabularyHit.nonOverlapping(hits)
        XCTAssertEqual(chosen.map(\.entry.value), ["classics"])
        XCTAssertEqual(chosen.map(\.entry.source), [.user])
        XCTAssertLessThan(hits.first { $0.entry.source == .user }!.entry.priority,
                          hits.first { $0.entry.source == .global }!.entry.priority)
    }

    func testEarlierUserEntryWinsAmongEqualLengths() throws {
        let store = try VocabularyStore(locale: "en-US")
        store.setUserPhrases(["Focus", "Chill"], of: .mediaPlaylistTitle)
        store.setUserPhrases(["Chill"], of: .mediaMusicArtistName)
        let chosen = VocabularyHit.nonOverlapping(store.hits(in: "play chill"))
        XCTAssertEqual(chosen.map(\.entry.type), [.mediaMusicArtistName], "index 0 beats index 1")
        store.removeUserPhrase("Focus", of: .mediaPlaylistTitle)
        let tie = VocabularyHit.nonOverlapping(store.hits(in: "play chill"))
        XCTAssertEqual(tie.map(\.entry.type), [.mediaPlaylistTitle], "both at index 0: the type order decides")

        // Non-overlapping hits are all kept, in order.
        store.setUserPhrases(["Road Trip", "Chill"], of: .mediaPlaylistTitle)
        XCTAssertEqual(VocabularyHit.nonOverlapping(store.hits(in: "chill then road trip")).map(\.entry.value),
                       ["Chill", "Road Trip"])
    }

    // MARK: Threads and scale

    func testLookUpsWhileAnotherThreadChangesTheStore() throws {
        let store = try acceptanceStore()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for k in 0..<50 {
                if worker == 0 {
                    store.addUserPhrase("Temporary \(k)", of: .mediaPlaylistTitle)
                    store.removeUserPhrase("Temporary \(k)", of: .mediaPlaylistTitle)
                } else {
                    XCTAssertEqual(store.hits(in: "put on some seventies punk anthems").map(\.entry.value), ["70s punk anthems"])
                }
            }
        }
        XCTAssertEqual(store.userPhrases(of: .mediaPlaylistTitle), ["70s punk classics", "Songs for Celestra"])
    }

    func testTenThousandUserAndHundredThousandGlobalEntries() throws {
        // Title-cased names of four words (32⁴ of them: all distinct), a quarter of them with a number in
        // words or digits, as catalogues have.
        let words = ["Amber", "Blue", "City", "Dawn", "Echo", "Fire", "Gold", "Harbor", "Iron", "Jade", "Kite",
                     "Lunar", "Maple", "Night", "Ocean", "Prism", "Quiet", "River", "Silver", "Tide", "Urban",
                     "Velvet", "Wild", "Xenon", "Yellow", "Zephyr", "North", "South", "East", "West", "Summer", "Winter"]
        let numbers = ["Twenty One", "Seventies", "Ten Percent", "3", "'80s", "Third", "1999", "Nineteen Eighty-Four"]
        func name(_ i: Int, _ salt: Int) -> String {
            let n = words.count
            var parts = (0..<4).map { words[(i / Int(pow(Double(n), Double($0))) + salt) % n] }
            if i % 4 == 0 { parts.append(numbers[(i / 4) % numbers.count]) }
            return parts.joined(separator: " ")
        }
        let user = (0..<10_000).map { "\(name($0, 1)) Mix" }
        var items: [GlobalVocabulary.Item] = []
        for i in 0..<50_000 {
            let spoken = name(i, 7)
            items.append(.init(type: VocabularyType.allCases[i % 5], identifier: "item-\(i)",
                               synonyms: [.init(phrase: spoken), .init(phrase: "The \(spoken) Radio")]))
        }
        XCTAssertEqual(items.reduce(0) { $0 + $1.synonyms.count }, 100_000)

        let store = try VocabularyStore(locale: "en-US")
        let clock = ContinuousClock()
        let loadTime = clock.measure {
            store.setUserPhrases(user, of: .mediaPlaylistTitle)
            store.loadGlobal(GlobalVocabulary(items: items))
        }
        XCTAssertEqual(store.count.user, 10_000)
        XCTAssertEqual(store.count.global, 100_000)

        var lookUps: [String] = []
        for i in stride(from: 0, to: 10_000, by: 97) { lookUps.append("please play \(user[i]) now") }
        for i in stride(from: 0, to: 50_000, by: 491) { lookUps.append("put on \(items[i].synonyms[1].phrase) in ControlAudio") }
        var found = 0
        let lookUpTime = clock.measure {
            for text in lookUps { found += VocabularyHit.nonOverlapping(store.hits(in: text)).count }
        }
        XCTAssertEqual(found, lookUps.count)

        // Correctness at scale: the right entry, priorities, numbers spoken differently, removal.
        XCTAssertEqual(VocabularyHit.nonOverlapping(store.hits(in: "play \(user[9_999])")).first?.entry.index, 9_999)
        let spoken = items[4].synonyms[0].phrase
        XCTAssertTrue(spoken.hasSuffix(" Seventies"), spoken)
        let written = spoken.replacingOccurrences(of: "Seventies", with: "'70s").lowercased()
        XCTAssertEqual(VocabularyHit.nonOverlapping(store.hits(in: "play \(written)")).map(\.entry.value), ["item-4"])
        let percent = items[8].synonyms[1].phrase.replacingOccurrences(of: "Ten Percent", with: "10%")
        XCTAssertEqual(VocabularyHit.nonOverlapping(store.hits(in: "play \(percent)")).map(\.entry.value), ["item-8"])
        XCTAssertEqual(store.removeGlobal(identifier: "item-4"), 1)
        XCTAssertEqual(store.hits(in: "play \(written)"), [])
        XCTAssertTrue(store.removeUserPhrase(user[0], of: .mediaPlaylistTitle))
        XCTAssertEqual(store.hits(in: "play \(user[9_999])").first?.entry.index, 9_998)

        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("VocabularyStore (\(build) build): loaded 10,000 user + 100,000 global entries in \(loadTime); "
              + "\(lookUps.count) look-ups in \(lookUpTime)")
    }
}
