@testable import MediaParse
import XCTest

/// Numbers, ordinals, years, decades, speeds, durations and frequencies, in digits and in words.
final class RecognizerTests: XCTestCase {
    /// English number forms as a locale.yaml would give them (the test does not read Grammars/en).
    static let forms: NumberForms = {
        var n = NumberForms()
        n.fractions = [("and a half", 0.5), ("half", 0.5)]
        n.durationUnits = [("second", 1), ("seconds", 1), ("minute", 60), ("minutes", 60)]
        n.articlesAsOne = ["a", "an"]
        n.yearZeroWords = ["oh"]
        n.frequencyBands = ["fm", "am"]
        n.aliases = [("fourties", "forties")]
        n.stemEndings = ["y"]
        let fold: (String) -> String = { $0 }
        n.derived[.decade] = DerivedForms(glued: ["{digits}s", "{words}ies"].compactMap { GluedForm($0, fold: fold) },
                                          phrases: [("{digits} ('s|s)", SourceLocation(file: "test"))])
        n.derived[.speed] = DerivedForms(glued: ["{digits}x"].compactMap { GluedForm($0, fold: fold) },
                                         phrases: [("{number} (x|times)", SourceLocation(file: "test"))])
        n.derived[.ordinal] = DerivedForms(glued: ["{digits}st", "{digits}nd", "{digits}rd", "{digits}th"].compactMap { GluedForm($0, fold: fold) })
        return n
    }()

    func entities(_ text: String) throws -> [Entity] {
        let session = try ICUSession(locale: "en_US")
        let tokenizer = Tokenizer(splitSuffixes: ["'s"])
        let recognizer = try NumberRecognizer(forms: Self.forms, icuLocale: "en_US", session: session, tokenizer: tokenizer)
        return recognizer.recognize(tokenizer.tokenize(text, session: session).tokens, session: session)
    }

    /// The value of the widest entity of `kind` found in `text`.
    func value(_ kind: RecognizerKind, in text: String) throws -> SlotValue? {
        try entities(text).filter { $0.kind == kind }.max { ($0.end - $0.start) < ($1.end - $1.start) }?.value
    }

    func testCardinalsInDigitsAndWords() throws {
        XCTAssertEqual(try value(.number, in: "thirty"), .number(30))
        XCTAssertEqual(try value(.number, in: "eighty-one"), .number(81))
        XCTAssertEqual(try value(.number, in: "two hundred thirty four"), .number(234))
        XCTAssertEqual(try value(.number, in: "45"), .number(45))
        XCTAssertEqual(try value(.number, in: "2.5"), .number(2.5))
        XCTAssertNil(try value(.number, in: "play some jazz"))
    }

    func testOrdinals() throws {
        XCTAssertEqual(try value(.ordinal, in: "eighty-first"), .number(81))
        XCTAssertEqual(try value(.ordinal, in: "third"), .number(3))
        XCTAssertEqual(try value(.ordinal, in: "3rd"), .number(3))
    }

    func testFractions() throws {
        XCTAssertEqual(try value(.number, in: "one and a half"), .number(1.5))
        XCTAssertEqual(try value(.speed, in: "one and a half times"), .number(1.5))
        XCTAssertEqual(try value(.speed, in: "1.5x"), .number(1.5))
        XCTAssertEqual(try value(.speed, in: "2 x"), .number(2))
    }

    func testYears() throws {
        let y1975 = SlotValue.dateRange(start: "1975-01-01", end: "1975-12-31")
        XCTAssertEqual(try value(.year, in: "1975"), y1975)
        XCTAssertEqual(try value(.year, in: "nineteen seventy-five"), y1975)
        XCTAssertEqual(try value(.year, in: "two thousand eight"), .dateRange(start: "2008-01-01", end: "2008-12-31"))
        XCTAssertEqual(try value(.year, in: "nineteen oh five"), .dateRange(start: "1905-01-01", end: "1905-12-31"))
        XCTAssertEqual(try value(.year, in: "twenty twenty"), .dateRange(start: "2020-01-01", end: "2020-12-31"))
    }

    func testDecadesInEverySpokenForm() throws {
        let seventies = SlotValue.dateRange(start: "1970-01-01", end: "1979-12-31")
        for text in ["70s", "'70s", "seventies", "the 1970s", "nineteen seventies", "70's"] {
            XCTAssertEqual(try value(.decade, in: text), seventies, text)
        }
        XCTAssertEqual(try value(.decade, in: "fourties"), .dateRange(start: "1940-01-01", end: "1949-12-31"))
        XCTAssertEqual(try value(.decade, in: "2000s"), .dateRange(start: "2000-01-01", end: "2009-12-31"))
        XCTAssertNil(try value(.decade, in: "75s"))
    }

    func testDurations() throws {
        XCTAssertEqual(try value(.duration, in: "thirty seconds"), .number(30))
        XCTAssertEqual(try value(.duration, in: "2 minutes"), .number(120))
        XCTAssertEqual(try value(.duration, in: "a minute and a half"), .number(90))
        XCTAssertEqual(try value(.duration, in: "one and a half minutes"), .number(90))
    }

    /// Finding F5 (Fuzz/findings): "1e9999…" and hundreds of digits were read as an infinite number, which
    /// JSON cannot hold. Only plain digits are numbers, and only finite ones.
    func testOnlyFinitePlainDigitNumbers() throws {
        XCTAssertNil(try value(.number, in: "1e9999999999999999"))
        XCTAssertNil(try value(.number, in: "1e5"))
        XCTAssertNil(try value(.number, in: "0x10"))
        XCTAssertNil(try value(.number, in: "1.2.3"))
        XCTAssertNil(try value(.number, in: String(repeating: "9", count: 400)))
        XCTAssertNil(try value(.duration, in: String(repeating: "9", count: 400) + " minutes"))
        // 10^307 is a finite number, but 10^307 minutes overflow.
        let big = "1" + String(repeating: "0", count: 307)
        XCTAssertEqual(try value(.number, in: big), .number(1e307))
        XCTAssertNil(try value(.duration, in: big + " minutes"))
        for e in try entities("\(big) minutes and \(big) minutes 1.5x 99999999999999999999th") {
            if let n = e.value.number { XCTAssertTrue(n.isFinite, "\(e)") }
        }
        // A number too large for an Int is no decade or year (a fuzzer finding: "9999…9 s" trapped when it was
        // converted to a year).
        let nines = String(repeating: "9", count: 90)
        for text in ["\(nines) s", "\(nines) 's", "the \(nines)s", "in \(nines)"] {
            let found = try entities(text)
            XCTAssertFalse(found.contains { $0.kind == .decade || $0.kind == .year }, "\(text): \(found)")
        }
        XCTAssertEqual(try value(.number, in: "0.5"), .number(0.5))
        XCTAssertEqual(try value(.speed, in: "1.5x"), .number(1.5))
    }

    func testFrequencies() throws {
        let f = try entities("play 89.1 FM").first { $0.kind == .frequency }
        XCTAssertEqual(f?.start, 1)
        XCTAssertEqual(f?.end, 3)
    }

    /// A run of number words that begins with a word ICU reads no number from alone, and that begins none of
    /// the spellings ICU writes ("hundred and ninety" inside "nine hundred and ninety"), is no number, and ICU
    /// is not asked (`NumberWords.neverFirst`); ICU itself says the same of such runs. A word that begins a
    /// spelling though it is no number alone (Spanish "ciento" of "ciento uno") is asked as before.
    func testRunsThatNoSpellingBeginsWithAreNoNumber() throws {
        let session = try ICUSession(locale: "en_US")
        let tokenizer = Tokenizer(splitSuffixes: ["'s"])
        let recognizer = try NumberRecognizer(forms: Self.forms, icuLocale: "en_US", session: session, tokenizer: tokenizer)
        let never = recognizer.spelled.neverFirst
        XCTAssertTrue(never.isSuperset(of: ["hundred", "thousand", "million"]), "\(never.sorted())")
        XCTAssertTrue(never.isDisjoint(with: ["one", "nine", "twenty", "first"]), "\(never.sorted())")
        for run in ["hundred and ninety", "thousand two hundred", "hundred fifty one", "million three"] {
            XCTAssertNil(session.parseSpelledNumber(run), "ICU reads \(run)")
            XCTAssertTrue(recognizer.spelled.beginsWithNeverFirst(run, first: String(run.prefix { $0 != " " })), run)
        }
        let found = recognizer.recognize(tokenizer.tokenize("nine hundred and ninety", session: session).tokens, session: session)
        XCTAssertTrue(found.contains { $0.kind == .number && $0.start == 0 && $0.end == 4 && $0.value == .number(990) })
        XCTAssertFalse(found.contains { $0.start == 1 && $0.end > 2 }, "\(found)")

        let es = try ICUSession(locale: "es_ES")
        let spanish = try NumberRecognizer(forms: NumberForms(), icuLocale: "es_ES", session: es, tokenizer: Tokenizer())
        XCTAssertNil(es.parseSpelledNumber("ciento"))
        XCTAssertFalse(spanish.spelled.neverFirst.contains("ciento"))
        let cientoUno = spanish.recognize(Tokenizer().tokenize("ciento uno", session: es).tokens, session: es)
        XCTAssertTrue(cientoUno.contains { $0.kind == .number && $0.start == 0 && $0.end == 2 && $0.value == .number(101) })
    }

    /// Years in dates are written as printf's "%04d" writes them, which the recogniser no longer calls.
    func testFourDigitYearsAreWrittenAsPrintfWould() {
        for year in [-1234, -100, -9, -1, 0, 7, 42, 999, 1000, 1999, 2024, 9999, 10000, 123_456] {
            XCTAssertEqual(NumberRecognizer.fourDigits(year), String(format: "%04d", year), "\(year)")
        }
    }
}
