import Foundation
import GRDB
import MediaParse
@testable import MediaParseCatalog
import XCTest

/// The catalogue (import, its errors, what an interrupted import leaves) and the resolver's behaviour on
/// the traps the issue names: words people don't say, numbers, sound-alikes, several items of one title,
/// absent items, sort orders, several languages.
final class CatalogTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
        // Nil, so that XCTest, which keeps every test case to the end of the run, does not keep this too
        // (LeakSanitizer would report it).
        folder = nil
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let rows = """
        {"identifier":"s1","type":"song","title":"Hello","artist":"Adele","album":"25","releaseDate":"2015-10-23","popularity":0.9}
        {"identifier":"s2","type":"song","title":"Hello","artist":"Lionel Richie","releaseDate":"1983","popularity":0.6}
        {"identifier":"a1","type":"album","title":"25","artist":"Adele","releaseDate":"2015-11-20","popularity":0.8}
        {"identifier":"a0","type":"album","title":"19","artist":"Adele","releaseDate":"2008-01-28","popularity":0.7}
        {"identifier":"s3","type":"song","title":"Here Comes the Sun - Remastered 2009","artist":"The Beatles","popularity":0.8}
        {"identifier":"s4","type":"song","title":"Thinking Out Loud (feat. Somebody Else)","artist":"Ed Sheeran"}
        {"identifier":"b1","type":"audioBook","title":"Fahrenheit 451","artist":"Ray Bradbury"}
        {"identifier":"ar1","type":"artist","title":"The Beatles","aliases":["die beatles"]}
        {"identifier":"p1","type":"podcastShow","title":"Stuff You Should Know"}
        {"identifier":"e1","type":"podcastEpisode","title":"How Sleep Works","album":"Stuff You Should Know","releaseDate":"2026-11-01"}
        {"identifier":"e2","type":"podcastEpisode","title":"How Coffee Works","album":"Stuff You Should Know","releaseDate":"2026-11-20"}
        {"identifier":"st1","type":"radioStation","title":"Smooth Jazz Radio","genres":["jazz"]}
        """

    func resolver(_ rows: String = rows) throws -> Resolver {
        let (catalog, summary) = try Catalog.load(file: try write("catalog.jsonl", rows), locale: "en-US")
        XCTAssertEqual(summary.problems, [])
        return Resolver(catalog: catalog)
    }

    /// The first item's identifier for an utterance, or "notFound".
    func first(_ text: String, _ resolver: Resolver, parser: MediaParser? = nil) throws -> String {
        let p = try parser ?? MediaParser(locale: "en-US")
        let resolution = try XCTUnwrap(try resolver.resolve(p.parse(text)), "no resolution for \(text)")
        return resolution.items.first?.identifier ?? (resolution.notFound == true ? "notFound" : "none")
    }

    func testTheTrapsOfTheIssue() throws {
        let r = try resolver()
        let parser = try MediaParser(locale: "en-US")
        XCTAssertEqual(try first("play hello by adele", r, parser: parser), "s1")
        XCTAssertEqual(try first("play hello by lionel richie", r, parser: parser), "s2", "the artist decides between two items of one title")
        XCTAssertEqual(try first("play HELLO!", r, parser: parser), "s1", "case and punctuation; the more popular of two")
        XCTAssertEqual(try first("play the album 25", r, parser: parser), "a1", "the type decides")
        XCTAssertEqual(try first("play here comes the sun", r, parser: parser), "s3", "a variant part people don't say")
        XCTAssertEqual(try first("play here comes the son", r, parser: parser), "s3", "a sound-alike")
        XCTAssertEqual(try first("play thinking out loud", r, parser: parser), "s4", "a featured artist is not part of the title")
        XCTAssertEqual(try first("play the audiobook fahrenheit four hundred fifty one", r, parser: parser), "b1", "numbers in words")
        XCTAssertEqual(try first("play the audiobook fahrenheit four five one", r, parser: parser), "b1", "digits said one by one")
        XCTAssertEqual(try first("play the newest episode of stuff you should know", r, parser: parser), "e2", "sort order newest")
        XCTAssertEqual(try first("play the oldest album by adele", r, parser: parser), "a0", "sort order oldest")
        XCTAssertEqual(try first("play some jazz", r, parser: parser), "st1", "a genre alone")
        XCTAssertEqual(try first("play hello by metallica", r, parser: parser), "notFound", "the right title by the wrong artist")
        XCTAssertEqual(try first("play gold dust", r, parser: parser), "notFound")
        XCTAssertNil(try r.resolve(parser.parse("pause")), "a command asks for nothing a catalogue holds")
    }

    func testNotFoundGivesTheNearMissesAndAlternativesFollowTheFirst() throws {
        let r = try resolver()
        let parser = try MediaParser(locale: "en-US")
        let miss = try XCTUnwrap(try r.resolve(parser.parse("play hello by metallica")))
        XCTAssertEqual(miss.items, [])
        XCTAssertEqual(miss.notFound, true)
        XCTAssertTrue(miss.nearMisses?.contains { $0.identifier == "s1" } == true, "\(miss)")
        let both = try XCTUnwrap(try r.resolve(parser.parse("play hello"), alternatives: 3))
        XCTAssertEqual(both.items.map(\.identifier).prefix(2), ["s1", "s2"])
        XCTAssertTrue(both.items.allSatisfy { (0...1).contains($0.score) })
    }

    func testARequestIsKeyedByTheRulesOfTheItemsLanguage() throws {
        // German asked, English item: the English article and "Mr" rules apply to the English title.
        let r = try resolver(#"{"identifier":"k1","type":"song","title":"Mr. Brightside","artist":"The Killers","language":"en"}"#)
        let german = try MediaParser(locale: "de-DE")
        XCTAssertEqual(try first("spiel Mr Brightside von den Killers", r, parser: german), "k1")
    }

    func testAnArtistsAliasesServeItsItems() throws {
        let r = try resolver()
        let german = try MediaParser(locale: "de-DE")
        XCTAssertEqual(try first("spiel Here Comes the Sun von die Beatles", r, parser: german), "s3")
    }

    func testEpisodesTitleEndsDecimalsAndCapitalsInsideAWord() throws {
        let r = try resolver("""
            {"identifier":"e1","type":"podcastEpisode","title":"GAG451: Die Tulpenmanie","artist":"Richard Hemmer","album":"Geschichten aus der Geschichte","language":"de"}
            {"identifier":"e2","type":"podcastEpisode","title":"#280 Die Kaffeemaschine","artist":"Felix Lobrecht","album":"Gemischtes Hack","language":"de"}
            {"identifier":"e3","type":"podcastEpisode","title":"Why We Sleep","artist":"Earwolf","album":"Science Club"}
            {"identifier":"b1","type":"audioBook","title":"Le Comte de Monte-Cristo","artist":"Alexandre Dumas"}
            {"identifier":"r1","type":"radioStation","title":"Q104.3"}
            {"identifier":"s1","type":"song","title":"FourFiveSeconds","artist":"Rihanna"}
            {"identifier":"s2","type":"song","title":"Monte Carlo","artist":"Someone Else"}
            """)
        let english = try MediaParser(locale: "en-US"), german = try MediaParser(locale: "de-DE")
        XCTAssertEqual(try first("spiel die Folge Tulpenmanie", r, parser: german), "e1", "an episode's code is not said")
        XCTAssertEqual(try first("spiel die Folge Die Kaffeemaschine von Gemischtes Hack", r, parser: german), "e2",
                       "the show said as the episode's artist")
        XCTAssertEqual(try first("play why we sleep from science club", r, parser: english), "e3")
        XCTAssertEqual(try first("play the audiobook monte cristo", r, parser: english), "b1", "the distinctive end of a title")
        XCTAssertEqual(try first("play q one oh four point three", r, parser: english), "r1", "a decimal point said")
        XCTAssertEqual(try first("play four five seconds by rihanna", r, parser: english), "s1", "capitals inside a word")
        XCTAssertEqual(try first("play the audiobook monte", r, parser: english), "notFound", "one word is no title's end")
    }

    func testMisheardNamesOtherScriptsAndTypesTheGrammarGaveWithoutAWord() throws {
        let r = try resolver("""
            {"identifier":"g1","type":"song","title":"Mensch","artist":"Herbert Grönemeyer","language":"de"}
            {"identifier":"j1","type":"song","title":"Jein","artist":"Fettes Brot","language":"de"}
            {"identifier":"a1","type":"artist","title":"Seeed","language":"de"}
            {"identifier":"a2","type":"artist","title":"Sido","language":"de"}
            {"identifier":"k1","type":"song","title":"白日","artist":"King Gnu","language":"ja"}
            {"identifier":"k2","type":"song","title":"Happiness","artist":"嵐","language":"ja"}
            {"identifier":"k3","type":"song","title":"パプリカ","artist":"Foorin","language":"ja"}
            """)
        let german = try MediaParser(locale: "de-DE"), japanese = try MediaParser(locale: "ja-JP")
        XCTAssertEqual(try first("spiel Mensch von Grönemaier", r, parser: german), "g1", "a family name alone, misheard")
        XCTAssertEqual(try first("spiel Jain von Fettes Brot", r, parser: german), "j1", "a short sound key, a close spelling")
        XCTAssertEqual(try first("spiel Seed", r, parser: german), "a1", "of two names of one sound key, the closer spelling")
        XCTAssertEqual(try first("キングヌーの白日をかけて", r, parser: japanese), "k1", "a Latin name said in katakana")
        XCTAssertEqual(try first("嵐のハピネスをかけて", r, parser: japanese), "k2", "a Latin title said in katakana")
        XCTAssertEqual(try first("ポルカをかけて", r, parser: japanese), "notFound", "kana keep their vowels among themselves")
        // A Chinese catalogue, asked in Chinese: "播放X" is read as a song, which the show still answers.
        let (zh, _) = try Catalog.load(file: try write("zh.jsonl", """
            {"identifier":"z1","type":"podcastShow","title":"好好说话 第2季","artist":"马东","language":"zh"}
            {"identifier":"z2","type":"song","title":"Yesterday Once More","artist":"Carpenters","language":"en","aliases":["昨日重现"]}
            {"identifier":"z3","type":"song","title":"2002年的第一场雪","artist":"刀郎","language":"zh"}
            """), locale: "zh-CN")
        let chinese = try MediaParser(locale: "zh-CN"), zr = Resolver(catalog: zh)
        let typed = chinese.parse("播放好好说话第2季")
        XCTAssertEqual(typed.mediaSearch?.mediaType, .song, "the premise: a type without a word for it")
        XCTAssertEqual(try zr.resolve(typed)?.items.first?.identifier, "z1")
        XCTAssertEqual(try zr.resolve(chinese.parse("播放歌曲好好说话第2季"))?.notFound, true, "a type said is required")
        XCTAssertEqual(try first("播放昨日重现", zr, parser: chinese), "z2", "an alias keyed by the catalogue's language too")
        XCTAssertEqual(try first("播放二零零二年的第一场雪", zr, parser: chinese), "z3", "numerals said one by one")
    }

    func testNumbersWithMultiplierCharactersAndDigitGroupsKeyAsTheSameNumberInWords() throws {
        let japanese = try NameKeyMaker(locale: "ja-JP"), french = try NameKeyMaker(locale: "fr-FR")
        XCTAssertEqual(japanese.name("115万キロのフィルム").words, japanese.name("百十五万キロのフィルム").words)
        XCTAssertEqual(japanese.name("2億4千万の瞳").words.first, "240000000")
        XCTAssertEqual(japanese.name("1万次悲伤").words.first, "10000")
        XCTAssertEqual(french.name("100 000 chansons").words, french.name("Cent mille chansons").words)
        XCTAssertEqual(french.name("Apache 207").words, ["apache", "207"], "a number of three digits alone stays")
        XCTAssertEqual(french.name("13 12 000").words.count, 2, "only groups of three after a first of one to three")
        XCTAssertEqual(japanese.name("81.3FM").words, japanese.name("81.3").words, "a band glued to its frequency")
        let english = try NameKeyMaker(locale: "en-US")
        XCTAssertEqual(english.name("FM97.4").words, ["974"])
        XCTAssertEqual(english.name("3am").words, ["3am"], "one digit is no frequency")
    }

    func testReadingsAsLikelyAsTheFirstAreResolvedToo() throws {
        // "del" twice: the parser's first reading takes the last as "by", the catalogue says it is the first.
        let r = try resolver("""
            {"identifier":"e1","type":"podcastEpisode","title":"Corazón","artist":"Rocío Giménez","album":"El Rincón del Cine"}
            """)
        let spanish = try MediaParser(locale: "es-ES")
        let text = "pon el episodio corazón del rincón del cine"
        let single = spanish.parse(text)
        XCTAssertEqual(single.mediaSearch?.artistName, "cine", "the premise: the first reading splits at the last del")
        XCTAssertEqual(try r.resolve(single)?.notFound, true)
        let both = spanish.parse(text, alternatives: Resolver.readingsWanted)
        XCTAssertEqual(try r.resolve(both)?.items.first?.identifier, "e1")
    }

    func testBadRowsAreReportedWithTheirLineAndTheOthersImported() throws {
        let jsonl = try write("rows.jsonl", """
            {"identifier":"x1","type":"song","title":"One"}
            not json
            {"identifier":"x2","type":"banana","title":"Two"}
            {"identifier":"x3","title":"Three"}

            {"identifier":"x4","type":"song","title":"Four","popularity":3}
            {"identifier":"x5","type":"album","title":"Five","releaseDate":"2015-13-01"}
            {"identifier":"x6","type":"album","title":"Six","releaseDate":"2015"}
            """)
        let (catalog, summary) = try Catalog.load(file: jsonl, locale: "en-US")
        XCTAssertEqual(summary.imported, 2)
        XCTAssertEqual(summary.problems.map(\.location), ["\(jsonl):2", "\(jsonl):3", "\(jsonl):4", "\(jsonl):6", "\(jsonl):7"])
        XCTAssertTrue(summary.problems[1].message.contains("banana"), summary.problems[1].message)
        XCTAssertTrue(summary.problems[2].message.contains("type"), summary.problems[2].message)
        XCTAssertEqual(try catalog.stats().items, 2)

        let csv = try write("rows.csv", """
            identifier,type,title,artist,genres
            c1,song,"Hello, Goodbye",The Beatles,pop|rock
            c2,song,Broken "quote",Someone,
            c3,song,Three fields
            c4,album,"Multi
            line",Artist,
            """)
        let (c, s) = try Catalog.load(file: csv, locale: "en-US")
        XCTAssertEqual(s.imported, 2)
        XCTAssertEqual(s.problems.map(\.location), ["\(csv):3", "\(csv):4"])
        XCTAssertEqual(try c.stats().types, ["song": 1, "album": 1])
    }

    func testAFileThatIsNotACatalogueIsAClearError() throws {
        let text = try write("text.sqlite", "hello, not a database at all")
        XCTAssertThrowsError(try Catalog.open(path: text, readOnly: true)) { error in
            XCTAssertTrue("\(error)".contains("not a SQLite catalogue"), "\(error)")
        }
        let other = folder.appendingPathComponent("other.sqlite").path
        let queue = try DatabaseQueue(path: other)
        try queue.write { try $0.execute(sql: "CREATE TABLE songs (name TEXT)") }
        try queue.close()
        XCTAssertThrowsError(try Catalog.open(path: other)) { error in
            XCTAssertTrue("\(error)".contains("not a MediaParse catalogue"), "\(error)")
        }
        XCTAssertThrowsError(try Catalog.open(path: folder.appendingPathComponent("missing.sqlite").path)) { error in
            XCTAssertTrue("\(error)".contains("cannot read"), "\(error)")
        }
    }

    func testACatalogueOfANewerSchemaIsRefused() throws {
        let path = folder.appendingPathComponent("newer.sqlite").path
        _ = try Catalog.open(path: path, create: true).importRows([CatalogRow(identifier: "a", type: "song", title: "A")])
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9')") }
        try queue.close()
        XCTAssertThrowsError(try Catalog.open(path: path)) { error in
            XCTAssertTrue("\(error)".contains("newer"), "\(error)")
        }
    }

    /// Schema v2 copies each item's type, release day and popularity onto its name rows. A v1 file read
    /// only resolves as before (from the items); opened for writing, it gains the columns, filled from its items.
    func testACatalogueOfSchemaV1ResolvesAsBeforeAndGainsTheRanksOfV2() throws {
        let path = folder.appendingPathComponent("v1.sqlite").path
        let rows = Self.rows + "\n" + """
            {"identifier":"h3","type":"album","title":"Hello","artist":"Various","releaseDate":"2001","popularity":0.95}
            {"identifier":"h4","type":"playlist","title":"Hello","popularity":0.1}
            """
        _ = try Catalog.open(path: path, create: true).importFile(try write("rows.jsonl", rows))
        let requests = ["play Hello", "play the song Hello", "play the album Hello", "play the newest Hello", "play Hello by Adele",
                        "play 25", "play the playlist Hello", "play Fahrenheit 451"]
        let parser = try MediaParser(locale: "en-US")
        func answers(_ catalog: Catalog) throws -> [String] {
            let r = Resolver(catalog: catalog)
            return try requests.map { try first($0, r, parser: parser) }
        }
        let v2 = try answers(try Catalog.open(path: path, readOnly: true))
        XCTAssertEqual(v2[1], "s1", "the type said first, then popularity")
        XCTAssertEqual(v2[2], "h3", "the type said first")
        XCTAssertEqual(v2[6], "h4", "the type said first, whatever its popularity")
        // The same file as v1 wrote it: no rank columns on the name rows.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for column in ["type", "releaseDay", "popularity"] { try db.execute(sql: "ALTER TABLE name DROP COLUMN \(column)") }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2'")
        }
        try queue.close()
        let v1 = try Catalog.open(path: path, readOnly: true)
        XCTAssertFalse(v1.namesHoldRanks)
        XCTAssertEqual(try answers(v1), v2)
        let migrated = try Catalog.open(path: path)
        XCTAssertTrue(migrated.namesHoldRanks)
        XCTAssertEqual(try answers(migrated), v2)
        let wrong = try migrated.db.read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM name n JOIN item i ON i.id = n.itemId
                WHERE n.type != i.type OR n.popularity != i.popularity OR n.releaseDay IS NOT i.releaseDay
                """)
        }
        XCTAssertEqual(wrong, 0, "every name row holds its item's type, release day and popularity")
    }

    func testAnImportReplacesByIdentifierAndAFailedOneChangesNothing() throws {
        let path = folder.appendingPathComponent("c.sqlite").path
        let catalog = try Catalog.open(path: path, create: true)
        _ = try catalog.importRows([CatalogRow(identifier: "a", type: "song", title: "Old Title"),
                                    CatalogRow(identifier: "b", type: "song", title: "Other")])
        let second = try catalog.importRows([CatalogRow(identifier: "a", type: "song", title: "New Title")])
        XCTAssertEqual(second.replaced, 1)
        XCTAssertEqual(try catalog.stats().items, 2)
        let r = Resolver(catalog: catalog)
        let parser = try MediaParser(locale: "en-US")
        XCTAssertEqual(try first("play new title", r, parser: parser), "a")
        XCTAssertEqual(try first("play old title", r, parser: parser), "notFound", "the replaced title is gone from the indexes")

        // An import that fails half way (here: its second batch cannot be read) leaves the catalogue as it was.
        struct Interrupted: Error {}
        var batches = 0
        XCTAssertThrowsError(try catalog.importBatches {
            batches += 1
            if batches == 1 { return [CatalogRow(identifier: "c", type: "song", title: "Third")] }
            throw Interrupted()
        })
        XCTAssertEqual(try catalog.stats().items, 2)
        XCTAssertEqual(try first("play third", r, parser: parser), "notFound")
    }

    func testAReadOnlyCatalogueCannotBeImportedInto() throws {
        let path = folder.appendingPathComponent("ro.sqlite").path
        _ = try Catalog.open(path: path, create: true).importRows([CatalogRow(identifier: "a", type: "song", title: "A")])
        let readOnly = try Catalog.open(path: path, readOnly: true)
        XCTAssertThrowsError(try readOnly.importRows([CatalogRow(identifier: "b", type: "song", title: "B")])) { error in
            XCTAssertTrue("\(error)".contains("cannot be written"), "\(error)")
        }
        XCTAssertEqual(try readOnly.stats().items, 1)
    }

    /// Fuzz finding F8: an identifier with a NUL in it was stored whole but read back cut at the NUL, so
    /// "s2\0…" resolved as "s2", another item. A NUL in any text of a row is now a problem of that row.
    func testANulInsideARowsTextIsAProblemOfThatRow() throws {
        let path = try write("nul.jsonl", """
            {"identifier":"s2","type":"song","title":"Dont Stop Me Now","artist":"Queen"}
            {"identifier":"s2\\u0000\\u0000x","type":"song","title":"Dont Stop Me Now","artist":"Queen"}
            {"identifier":"s3","type":"song","title":"Under\\u0000Pressure","artist":"Queen"}
            {"identifier":"s4","type":"song","title":"Somebody","artist":"Queen","aliases":["to\\u0000love"]}
            """)
        let (catalog, summary) = try Catalog.load(file: path, locale: "en-US")
        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(summary.problems.map(\.location), ["\(path):2", "\(path):3", "\(path):4"])
        XCTAssertEqual(summary.problems.map(\.message), ["`identifier` holds a NUL character (U+0000)",
                                                         "`title` holds a NUL character (U+0000)",
                                                         "`aliases` holds a NUL character (U+0000)"])
        let resolution = try XCTUnwrap(try Resolver(catalog: catalog).resolve(MediaParser(locale: "en-US").parse("play dont stop me now by queen")))
        XCTAssertEqual(resolution.items.map(\.identifier), ["s2"])
    }

    /// A disk that fills during an import (the file limited to a few more pages than it holds: SQLite then
    /// fails the write with SQLITE_FULL, as on a full disk): a clear error, and the catalogue as it was.
    /// `Scripts/full-disk.sh` does the same on a real filesystem that fills up.
    func testAFullDiskIsAClearErrorAndLosesNothing() throws {
        let path = folder.appendingPathComponent("full.sqlite").path
        let base = (0..<200).map { CatalogRow(identifier: "b\($0)", type: "song", title: "Base Song \($0)", artist: "Band \($0 % 7)") }
        _ = try Catalog.open(path: path, create: true).importRows(base + [CatalogRow(identifier: "known", type: "song", title: "Full Disk Blues")])
        let pages = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 }
        let limited = try Catalog.open(path: path, create: false, locale: "en-US", readOnly: false, catalog: .builtIn,
                                       pageLimit: pages + 8)
        let more = (0..<5_000).map { CatalogRow(identifier: "m\($0)", type: "song", title: "More Song Number \($0)", artist: "Other \($0)") }
        XCTAssertThrowsError(try limited.importRows(more)) { error in
            guard case CatalogError.diskFull(let named) = error else { return XCTFail("not diskFull: \(error)") }
            XCTAssertEqual(named, path)
            XCTAssertTrue("\(error)".contains("the disk is full; the catalogue is as it was before this import"), "\(error)")
        }
        // The rolled-back import's pages no longer hold the disk: its write-ahead log is emptied.
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        XCTAssertEqual(log, 0, "the write-ahead log still holds the failed import")
        let reopened = try Catalog.open(path: path)
        XCTAssertEqual(try reopened.stats().items, 201)
        XCTAssertEqual(try first("play full disk blues", Resolver(catalog: reopened)), "known")
    }

    func testTitleKeysLeaveOutWhatPeopleDontSay() throws {
        let keys = try NameKeyPrinter(locale: "en-US")
        let text = keys.describe("Yesterday - Remastered 2009")
        XCTAssertTrue(text.contains("main: yesterday ["), text)
        let feat = keys.describe("Stay (feat. Mikky Ekko)")
        XCTAssertTrue(feat.contains("main: stay [") && feat.contains("featured: mikky ekko"), feat)
        XCTAssertTrue(keys.describe("R.E.M.").contains("main: rem ["), keys.describe("R.E.M."))
        // Digits said one by one are those digits; a spell-out reading of the run ("four five" = 405) is not.
        XCTAssertTrue(keys.describe("nine one one").contains("main: 911 ["), keys.describe("nine one one"))
        XCTAssertTrue(keys.describe("fahrenheit four five one").contains("main: fahrenheit 451 ["), keys.describe("fahrenheit four five one"))
        XCTAssertTrue(keys.describe("twenty one pilots").contains("main: 21 pilots ["), keys.describe("twenty one pilots"))
        // German hundreds without "ein" at the start of a compound.
        let de = try NameKeyPrinter(locale: "de-DE")
        XCTAssertTrue(de.describe("hundertvierundneunzig Länder").contains("main: 194 lander ["), de.describe("hundertvierundneunzig Länder"))
    }

    func testUnitsNumbersJoinedByAndZeroAndTheSpacedPartsOfATitleKeyAsSaid() throws {
        let de = try NameKeyMaker(locale: "de-DE"), ja = try NameKeyMaker(locale: "ja-JP")
        // Same words of several words: a unit said in words is its abbreviation.
        XCTAssertEqual(de.name("200 km/h").words, ["200", "kmh"])
        XCTAssertEqual(de.name("zweihundert Kilometer pro Stunde").words, ["200", "kmh"])
        XCTAssertEqual(de.name("Kilometer").words, ["km"])
        XCTAssertEqual(de.name("pro Stunde").words, ["pro", "stunde"], "part of a phrase is no phrase")
        // A round number, "und", a smaller one: their sum, glued in one word or apart.
        XCTAssertEqual(de.name("Tausendundeine Nacht").words, ["1001", "nacht"])
        XCTAssertEqual(de.name("1000 und 1 Nacht").words, ["1001", "nacht"])
        XCTAssertEqual(de.name("Zweitausendundeins").words, ["2001"])
        XCTAssertEqual(de.name("Sekundenschlaf").words, ["sekundenschlaf"], "an \"und\" inside a word that is no number")
        XCTAssertEqual(de.name("2 und 2").words, ["2", "2"], "not a round number of hundreds")
        XCTAssertNil(NameKeyMaker.roundPlusSmaller("1000", "2000"))
        XCTAssertNil(NameKeyMaker.roundPlusSmaller("20", "5"))
        XCTAssertNil(NameKeyMaker.roundPlusSmaller("1010", "20"))
        XCTAssertEqual(NameKeyMaker.roundPlusSmaller("100", "10"), "110")
        // Zero as a word, a digit or a kanji; not inside a longer katakana word.
        XCTAssertEqual(ja.name("第ゼロ感").words, ja.name("第0感").words)
        XCTAssertEqual(ja.name("第零感").words, ja.name("第0感").words)
        XCTAssertFalse(ja.name("ゼロックス").words.contains("0"))
        XCTAssertTrue(ja.name("ゼロの執行人").words.first == "0", "\(ja.name("ゼロの執行人").words)")
        // A volume said as 上巻, after の or not.
        XCTAssertEqual(ja.name("サピエンス全史の上巻").words, ja.name("サピエンス全史 上").words)
        // The parts of a title set apart by spaces, in Han only.
        XCTAssertEqual(NameKeyMaker.spacedParts(of: "三体II 黒暗森林 上"), ["三体II", "黒暗森林", "上"])
        XCTAssertEqual(NameKeyMaker.spacedParts(of: "パンク プレイリスト"), [])
        XCTAssertEqual(NameKeyMaker.spacedParts(of: "Hello World"), [])
        XCTAssertTrue(ja.title("三体II 黒暗森林 上").subtitles.contains { $0.words == ja.name("三体2").words })
        // Sound rules: German "ch" before a vowel at a word's start, Spanish spellings of English names,
        // the silent "gh" of English in Japanese keys.
        XCTAssertEqual(de.sound("cheri"), de.sound("scheri"))
        XCTAssertNotEqual(de.sound("christ"), de.sound("schrist"), "before a consonant ch stays k")
        let es = try NameKeyMaker(locale: "es-ES")
        XCTAssertEqual(es.sound("kuin"), es.sound("queen"))
        XCTAssertEqual(es.sound("grin"), es.sound("green"))
        XCTAssertEqual(ja.sound("night"), ja.sound("nit"))
    }

    func testAnArtistReadAsATitleAWordLeftOutAndATitleOneSoundApartWithItsArtist() throws {
        let (catalog, _) = try Catalog.load(file: try write("mixed.jsonl", """
            {"identifier":"s1","type":"song","title":"A Dios le pido","artist":"Juanes","language":"es"}
            {"identifier":"a1","type":"artist","title":"Dios","language":"es"}
            {"identifier":"s2","type":"song","title":"Das geht ab (Wir feiern die ganze Nacht)","artist":"Die Atzen","language":"de"}
            {"identifier":"s3","type":"song","title":"Tabaluga","artist":"Peter Maffay","language":"de"}
            {"identifier":"s4","type":"song","title":"Heb ab","artist":"Cro","language":"de"}
            """), locale: "de-DE")
        let r = Resolver(catalog: catalog)
        let spanish = try MediaParser(locale: "es-ES"), german = try MediaParser(locale: "de-DE")
        XCTAssertEqual(spanish.parse("pon A Dios le pido").mediaSearch?.artistName, "Dios le pido", "the premise: read as an artist")
        XCTAssertEqual(try first("pon A Dios le pido", r, parser: spanish), "s1", "an artist no item answers, tried as a title")
        XCTAssertEqual(try first("pon algo de Dios", r, parser: spanish), "a1", "an artist that is one stays the artist")
        XCTAssertEqual(try first("spiel Das geht ab von den Atzen", r, parser: german), "s2", "the word the parse left out")
        XCTAssertEqual(try first("spiel Heb ab von Cro", r, parser: german), "s4")
        XCTAssertEqual(try first("spiel Tabaluka von Peter Maffay", r, parser: german), "s3", "one sound apart, with its artist")
        XCTAssertEqual(try first("spiel Tabaluka von Nena", r, parser: german), "notFound", "one sound apart, another artist")
        XCTAssertEqual(try first("spiel Tabaluka", r, parser: german), "notFound", "one sound apart, no artist said")
    }

    func testAKanjiWrittenInKanaMeetsTheTitleOnlyWithItsArtist() throws {
        XCTAssertTrue(Resolver.kanaForKanji(["秒", "針", "を", "か", "む"], ["秒", "針", "を", "噛", "む"]))
        XCTAssertTrue(Resolver.kanaForKanji(["よ", "る", "に", "か", "け", "る"], ["夜", "に", "駆", "け", "る"]))
        XCTAssertFalse(Resolver.kanaForKanji(["し", "ろ"], ["白", "日"]), "kanji alone: nothing written as the title")
        XCTAssertFalse(Resolver.kanaForKanji(["よ", "る", "に", "か", "け", "た"], ["夜", "に", "駆", "け", "る"]))
        XCTAssertFalse(Resolver.kanaForKanji(["よ", "に", "か", "け", "る", "る", "る", "る"], ["夜", "に", "駆", "け", "る"]))
        let (catalog, _) = try Catalog.load(file: try write("ja.jsonl", """
            {"identifier":"s1","type":"song","title":"秒針を噛む","artist":"ずっと真夜中でいいのに。","language":"ja","aliases":[]}
            {"identifier":"a1","type":"artist","title":"ずっと真夜中でいいのに。","aliases":["ずとまよ"],"language":"ja"}
            {"identifier":"s2","type":"song","title":"夜に駆ける","artist":"YOASOBI","language":"ja"}
            """), locale: "ja-JP")
        let r = Resolver(catalog: catalog), japanese = try MediaParser(locale: "ja-JP")
        XCTAssertEqual(try first("ずとまよの秒針をかむを流して", r, parser: japanese), "s1")
        XCTAssertEqual(try first("YOASOBIのよるにかけるを流して", r, parser: japanese), "s2")
        XCTAssertEqual(try first("あいみょんのよるにかけるを流して", r, parser: japanese), "notFound", "another artist")
    }
}

/// `mediaparse test` on a resolution corpus: its figures, its misses, its exit status.
final class ResolutionCorpusCommandTests: XCTestCase {
    func testTheTestCommandScoresAResolutionCorpus() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-cmd-\(UUID().uuidString)/resolve")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        try CatalogTests.rows.write(to: dir.appendingPathComponent("catalog.jsonl"), atomically: true, encoding: .utf8)
        let good = """
            locale: en-US
            requests:
              - {text: play hello by adele, expect: s1, trap: artist}
              - {text: play hello by metallica, expect: notFound, trap: absent}
            """
        try good.write(to: dir.appendingPathComponent("requests.yaml"), atomically: true, encoding: .utf8)
        let ok = try CLI.run(["test", dir.appendingPathComponent("requests.yaml").path], input: Data())
        XCTAssertEqual(ok.status, 0, ok.stdout + ok.stderr)
        XCTAssertTrue(ok.stdout.contains("ok   en-US: 2 requests (12 items): top-1 1.000, top-5 1.000, absent -> notFound 1.000"), ok.stdout)

        try (good + "\n  - {text: play hello by lionel richie, expect: s1, trap: artist}\n")
            .write(to: dir.appendingPathComponent("requests.yaml"), atomically: true, encoding: .utf8)
        let bad = try CLI.run(["test", dir.appendingPathComponent("requests.yaml").path], input: Data())
        XCTAssertEqual(bad.status, 1, bad.stdout + bad.stderr)
        XCTAssertTrue(bad.stdout.contains("FAIL en-US"), bad.stdout)
        XCTAssertTrue(bad.stdout.contains("\"play hello by lionel richie\" [artist]") && bad.stdout.contains("want s1"), bad.stdout)
    }
}

/// `mediaparse resolve` and `POST /resolve`: the same resolution as the library's, and clear errors.
final class ResolveCommandTests: XCTestCase {
    func testTheCLIAndTheServerResolveAsTheLibraryDoes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = dir.appendingPathComponent("catalog.jsonl").path
        try (CatalogTests.rows + "\nnot a row\n").write(toFile: rows, atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("catalog.sqlite").path

        // Import: the bad row named with its line, the others stored, exit 65 for the skipped row.
        let imported = try CLI.run(["catalog", "import", rows, "--into", db], input: Data())
        XCTAssertEqual(imported.status, 65, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("\(rows):13: not a JSON object"), imported.stderr)
        let stats = try CLI.run(["catalog", "stats", db], input: Data())
        XCTAssertTrue(stats.stdout.contains("\"items\" : 12"), stats.stdout)

        let utterances = "play hello by lionel richie\npause\nplay hello by metallica\n"
        for catalog in [rows, db] {
            let r = try CLI.run(["resolve", "--catalog", catalog, "--alternatives", "0"], input: Data(utterances.utf8))
            XCTAssertEqual(r.status, 0, r.stderr)
            let lines = try r.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            XCTAssertEqual(lines.count, 3)
            let first = try XCTUnwrap(lines[0]["resolution"] as? [String: Any])
            XCTAssertEqual((first["items"] as? [[String: Any]])?.map { $0["identifier"] as? String }, ["s2"])
            XCTAssertNil(lines[1]["resolution"], "a command has no resolution")
            XCTAssertEqual((lines[2]["resolution"] as? [String: Any])?["notFound"] as? Bool, true)
        }

        // Not a catalogue: a clear error before any input, exit 65.
        let wrong = try CLI.run(["resolve", "--catalog", rows.replacingOccurrences(of: ".jsonl", with: ".txt")], input: Data("play x\n".utf8))
        XCTAssertEqual(wrong.status, 65)
        XCTAssertTrue(wrong.stderr.contains("cannot read"), wrong.stderr)

        let server = try Server(arguments: ["--locale", "en-US", "--catalog", db])
        defer { server.stop() }
        let answer = try server.request("POST", "/resolve", body: Data(#"{"text": "play hello by lionel richie", "alternatives": 0}"#.utf8))
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertTrue(answer.text.contains(#""identifier":"s2""#), answer.text)
        let plain = try Server(arguments: ["--locale", "en-US"])
        defer { plain.stop() }
        let none = try plain.request("POST", "/resolve", body: Data(#"{"text": "play hello"}"#.utf8))
        XCTAssertEqual(none.status, 404)
        XCTAssertTrue(none.text.contains("--catalog"), none.text)
    }
}
