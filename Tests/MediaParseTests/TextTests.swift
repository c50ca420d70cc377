@testable import MediaParse
import XCTest

/// The text stage: ICU word breaking with offsets into the original, matching form, clitics.
final class TextTests: XCTestCase {
    func tokens(_ text: String, locale: String = "en_US", suffixes: [String] = ["'s"]) throws -> Utterance {
        let session = try ICUSession(locale: locale)
        return Tokenizer(splitSuffixes: suffixes).tokenize(text, session: session)
    }

    func testOffsetsAreUnicodeScalarsOfTheOriginal() throws {
        // An emoji (2 UTF-16 units, 1 scalar) and a combining accent (2 scalars) before the words.
        let text = "😀 Cafe\u{301} play Khalid"
        let u = try tokens(text)
        XCTAssertEqual(u.tokens.map(\.key), ["cafe", "play", "khalid"])
        let scalars = Array(text.unicodeScalars)
        for t in u.tokens {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[t.start..<t.end])
            XCTAssertEqual(matchingForm(String(s)), t.key)
        }
        XCTAssertEqual(u.tokens[2].start, 13)
        XCTAssertEqual(u.originalText(tokens: 0..<1), "Cafe\u{301}")
    }

    func testMatchingFormFoldsCaseWidthAccentsAndApostrophes() {
        XCTAssertEqual(matchingForm("Beyoncé"), "beyonce")
        XCTAssertEqual(matchingForm("ＢＥＹＯＮＣＥ"), "beyonce")
        XCTAssertEqual(matchingForm("Don’t"), "don't")
        XCTAssertEqual(matchingForm("Straße"), "strasse")
        XCTAssertEqual(matchingForm("MÖTLEY"), "motley")
    }

    func testPossessiveIsCutIntoItsOwnToken() throws {
        let u = try tokens("play Khalid’s new album")
        XCTAssertEqual(u.tokens.map(\.key), ["play", "khalid", "'s", "new", "album"])
        XCTAssertEqual(u.originalText(tokens: 1..<2), "Khalid")
    }

    func testPunctuationIsNotAToken() throws {
        let u = try tokens("Play \"Be Kind\", please!")
        XCTAssertEqual(u.tokens.map(\.key), ["play", "be", "kind", "please"])
        XCTAssertEqual(u.originalText(tokens: 1..<3), "Be Kind")
    }

    func testChineseAndJapaneseAreSegmentedByDictionary() throws {
        let zh = try tokens("播放周杰伦的歌", locale: "zh_CN", suffixes: [])
        XCTAssertGreaterThan(zh.tokens.count, 2, "\(zh.tokens.map(\.key))")
        XCTAssertEqual(zh.tokens.map(\.key).joined(), "播放周杰伦的歌")
        let ja = try tokens("米津玄師の曲を再生して", locale: "ja_JP", suffixes: [])
        XCTAssertGreaterThan(ja.tokens.count, 3, "\(ja.tokens.map(\.key))")
    }

    func testNumbersWithSeparatorsStayOneToken() throws {
        XCTAssertEqual(try tokens("play 89.1 FM").tokens.map(\.key), ["play", "89.1", "fm"])
        XCTAssertEqual(try tokens("at 1.5x").tokens.map(\.key), ["at", "1.5x"])
    }

    /// ICU's UTF-16 output becomes the string the standard library would make of it, for every width of
    /// character: ASCII, two-byte Latin, three-byte CJK and kana, four-byte emoji (a surrogate pair), and a
    /// lone surrogate (U+FFFD).
    func testUTF16UnitsDecodeAsTheStandardLibraryDoes() {
        let samples: [[UInt16]] = [
            Array("play Khalid".utf16), Array("spiel Grönemeyer, dreißig".utf16), Array("播放周杰伦的歌".utf16),
            Array("カタカナ ｶﾀｶﾅ".utf16), Array("🎵 music 🎧".utf16), Array("é".utf16) + [0xD83C] + Array("x".utf16),
            [0xDFA7, 0x41], [0xD83C], [0x7FF, 0x800, 0xFFFF, 0x80],
        ]
        for units in samples {
            XCTAssertEqual(String(utf16Units: units), String(decoding: units, as: UTF16.self), "\(units)")
            XCTAssertEqual(String(utf16Units: units[1...]), String(decoding: units[1...], as: UTF16.self), "\(units)")
        }
    }
}
