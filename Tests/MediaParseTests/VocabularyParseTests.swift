import Foundation
import MediaParse
import XCTest

/// The vocabulary overlay as the parser uses it: hits override the default reading of their words.
final class VocabularyParseTests: XCTestCase {
    func parser(user: [VocabularyType: [String]] = [:], global: [GlobalVocabulary.Item] = []) throws -> MediaParser {
        let p = try MediaParser(locale: "en-US")
        p.vocabulary.setUserVocabulary(UserVocabulary(user))
        if !global.isEmpty { p.vocabulary.loadGlobal(GlobalVocabulary(items: global)) }
        return p
    }

    func item(_ id: String, _ type: VocabularyType, _ phrases: String...) -> GlobalVocabulary.Item {
        GlobalVocabulary.Item(type: type, identifier: id, synonyms: phrases.map { GlobalVocabulary.Synonym(phrase: $0) })
    }

    func testAHitReplacesTheDefaultReadingOfItsWords() throws {
        let p = try parser(user: [.mediaPlaylistTitle: ["70s punk classics"]])
        let r = p.parse("put on some '70s punk classics")
        XCTAssertEqual(r.mediaSearch?.mediaName, "70s punk classics")
        XCTAssertEqual(r.mediaSearch?.mediaType, .playlist)
        XCTAssertNil(r.mediaSearch?.genreNames)
        XCTAssertNil(r.mediaSearch?.releaseDate)
        XCTAssertEqual(r.vocabulary?.first?.source, "user")
        XCTAssertEqual(r.vocabulary?.first?.phrase, "70s punk classics")
        XCTAssertEqual(r.spans?["mediaName"], [13, 30])
    }

    func testWordsOutsideAnEntryKeepTheirReading() throws {
        let p = try parser(user: [.mediaPlaylistTitle: ["70s punk classics"]])
        XCTAssertEqual(p.parse("play punk").mediaSearch?.genreNames, ["punk"])
        XCTAssertNil(p.parse("play punk").vocabulary)
        XCTAssertEqual(p.parse("play some 70s punk").mediaSearch?.genreNames, ["punk"])
    }

    func testGlobalHitsReportTheIdentifierAndNumbersMatchAnySpelling() throws {
        let p = try parser(global: [item("show-0042", .mediaShowTitle, "Ten Percent Happier", "10% Happier")])
        for text in ["play 10% Happier", "play ten percent happier", "play Ten Percent Happier on Spotify"] {
            let r = p.parse(text)
            XCTAssertEqual(r.mediaSearch?.mediaName, "show-0042", text)
            XCTAssertEqual(r.mediaSearch?.mediaType, .podcastShow, text)
            XCTAssertEqual(r.vocabulary?.first?.identifier, "show-0042", text)
        }
    }

    func testAGermanCompoundNumberInAnEntryMeetsEverySpelling() throws {
        // "hundertzwanzig" is a number only through the compound alias (hundert = einhundert); the entry's
        // words and the utterance's must both be read as 120, or the entry is never found.
        let p = try MediaParser(locale: "de-DE")
        p.vocabulary.setUserVocabulary(UserVocabulary([.mediaPlaylistTitle: ["Hundertzwanzig Hits"]]))
        for text in ["spiel hundertzwanzig hits", "spiel einhundertzwanzig Hits", "spiel die Playlist 120 Hits"] {
            let r = p.parse(text)
            XCTAssertEqual(r.mediaSearch?.mediaName, "Hundertzwanzig Hits", text)
            XCTAssertEqual(r.vocabulary?.first?.source, "user", text)
        }
    }

    func testUserEntriesBeatGlobalOnesAndEarlierBeatLater() throws {
        let p = try parser(user: [.mediaPlaylistTitle: ["70s punk classics"]],
                           global: [item("g-1", .mediaPlaylistTitle, "70s punk classics")])
        XCTAssertEqual(p.parse("play 70s punk classics").mediaSearch?.mediaName, "70s punk classics")
        XCTAssertEqual(p.parse("play 70s punk classics").vocabulary?.first?.source, "user")

        // Same words as a playlist and as an artist: the earlier entry of the ordered user set wins.
        let q = try parser(user: [.mediaPlaylistTitle: ["Blue Lagoon"], .mediaMusicArtistName: ["Blue Lagoon"]])
        XCTAssertEqual(q.parse("play Blue Lagoon").mediaSearch?.mediaType, .playlist)
    }

    func testArtistEntriesFillTheArtistName() throws {
        let p = try parser(user: [.mediaMusicArtistName: ["Special Disaster Team"]])
        let r = p.parse("play Maybe Sometime by special disaster team")
        XCTAssertEqual(r.mediaSearch?.artistName, "Special Disaster Team")
        XCTAssertEqual(r.mediaSearch?.mediaName, "Maybe Sometime")
    }

    func testChangesAreSeenByTheNextParse() throws {
        let p = try parser(user: [.mediaPlaylistTitle: ["Road Trip Jams"]])
        XCTAssertEqual(p.parse("play road trip jams").vocabulary?.count, 1)
        p.vocabulary.renameUserPhrase("Road Trip Jams", to: "Summer Jams", of: .mediaPlaylistTitle)
        XCTAssertNil(p.parse("play road trip jams").vocabulary)
        XCTAssertEqual(p.parse("play summer jams").mediaSearch?.mediaName, "Summer Jams")
        p.vocabulary.removeUserPhrase("Summer Jams", of: .mediaPlaylistTitle)
        XCTAssertNil(p.parse("play summer jams").vocabulary)
    }

    /// Found by fuzzing: a binary property list holding a set crashed Foundation's PropertyListSerialization.
    func testAMalformedBinaryPlistIsAnErrorNotACrash() throws {
        let hex = "62706c6973743030c1015161080a000000000000010100000000000000020000000000000000000000000000000c"
        var bytes = [UInt8]()
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            bytes.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        XCTAssertThrowsError(try GlobalVocabulary(data: Data(bytes), file: "set.plist")) { error in
            XCTAssertTrue("\(error)".contains("set.plist"), "\(error)")
        }
    }

    func testADestinationKeepsItsField() throws {
        let p = try parser(user: [.mediaPlaylistTitle: ["Songs for Celestra"]])
        let r = p.parse("add this song to my songs for celestra playlist")
        XCTAssertEqual(r.intent, .add)
        XCTAssertEqual(r.mediaDestination?.playlistName, "Songs for Celestra")
        XCTAssertEqual(r.mediaSearch?.mediaType, .song)
        XCTAssertEqual(r.vocabulary?.first?.field, "playlistName")
    }
}
