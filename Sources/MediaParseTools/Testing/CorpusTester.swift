import Foundation
import MediaParse

/// One labelled utterance to test: what is said and the partial result it must give.
public struct TestCase: Sendable {
    public var text: String
    public var expect: JSONValue
    public var location: SourceLocation
    public var locale: String
    public var appNames: [String] = []
    public var areaNames: [String] = []
    public var deviceNames: [String] = []
    public var userVocabulary: [String] = []
    public var globalVocabulary: [String] = []
    /// Compare strings loosely (case, accents, punctuation, a leading article ignored): for sets labelled by
    /// others, whose spans follow their own conventions.
    public var loose = false
    /// For a recogniser case: the kind of entity `text` must be read as wholly (`expect` holds its value,
    /// `null` for none).
    public var recognizer: String?
    /// The kind of request the case is (an id of `Corpus/kinds.yaml`), when its file says.
    public var kind: String?

    public init(text: String, expect: JSONValue, location: SourceLocation, locale: String) {
        self.text = text
        self.expect = expect
        self.location = location
        self.locale = locale
    }

    /// The intent the case expects, or "none".
    public var expectedIntent: String {
        if let recognizer { return "recognizer \(recognizer)" }
        if case let .string(s)? = expect["intent"] { return s }
        return "none"
    }

    /// The cases of a corpus file: its recogniser cases, then its tests.
    public static func cases(of file: CorpusFile) -> [TestCase] {
        file.recognizerCases.map { c in
            var t = TestCase(text: c.text, expect: c.value.map(JSONValue.number) ?? .null, location: c.location, locale: file.locale)
            t.recognizer = c.kind
            return t
        } + file.cases.map { c in
            var t = TestCase(text: c.text, expect: c.expect, location: c.location, locale: file.locale)
            t.appNames = file.appNames
            t.areaNames = file.areaNames
            t.deviceNames = file.deviceNames
            t.userVocabulary = file.userVocabulary
            t.globalVocabulary = file.globalVocabulary
            t.kind = c.kind
            return t
        }
    }
}

/// True positives, false positives and false negatives of one field.
public struct FieldCounts: Codable, Sendable, Equatable {
    public var tp = 0, fp = 0, fn = 0
    public init() {}
    public var precision: Double { tp + fp == 0 ? 1 : Double(tp) / Double(tp + fp) }
    public var recall: Double { tp + fn == 0 ? 1 : Double(tp) / Double(tp + fn) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
}

/// The figures of one locale and intent.
public struct GroupFigures: Codable, Sendable {
    public var locale: String
    public var intent: String
    public var cases = 0
    public var exact = 0
    public var fields: [String: FieldCounts] = [:]
    public var exactRate: Double { cases == 0 ? 1 : Double(exact) / Double(cases) }
}

/// The outcome of a test run.
public struct TestRun: Sendable {
    public var outcomes: [TestOutcome] = []
    /// "locale\tintent" -> figures
    public var groups: [String: GroupFigures] = [:]
    package var coverage: [String: UncoveredGrammar] = [:]
    /// Seconds spent per locale (making its parsers included: a grammar compiled shows here).
    public var seconds: [String: Double] = [:]
    public var failures: [TestOutcome] { outcomes.filter { !$0.passed } }

    public init() {}
}

/// One case and what the parser gave.
public struct TestOutcome: Sendable {
    public var testCase: TestCase
    public var result: ParseResult
    public var differences: [String]
    /// The differences as values (empty for a recogniser case, whose differences are text alone).
    public var mismatches: [JSONValue.Mismatch] = []
    /// The result as compared (without `explain`).
    public var got: JSONValue?
    public var passed: Bool { differences.isEmpty }

    public init(testCase: TestCase, result: ParseResult, differences: [String]) {
        self.testCase = testCase
        self.result = result
        self.differences = differences
    }

    /// The failure as a diff for a person: `-` what the case expects, `+` what the parser gave, field by
    /// field; then the whole result and the sentence that matched.
    public var diffReport: String {
        var lines = ["✗ \(testCase.location)  \"\(testCase.text)\""]
        if mismatches.isEmpty {
            lines += differences.map { "    \($0)" }
        } else {
            for m in mismatches {
                lines.append("    - \(m.path): \(m.expected == .null ? "(absent)" : m.expected.description)")
                lines.append("    + \(m.path): \(m.got.map { $0 == .null ? "(absent)" : $0.description } ?? "(absent)")")
            }
        }
        if var got {
            if case var .object(o) = got {
                for key in ["utterance", "locale", "spans", "score"] { o[key] = nil }
                got = .object(o)
            }
            lines.append("      got \(got)")
        }
        if testCase.recognizer == nil {
            lines.append(result.explain.map { "      matched \($0.source)  \($0.sentence)" } ?? "      matched no sentence")
        }
        return lines.joined(separator: "\n")
    }

    /// A compact diff: the utterance, what differs, and the sentence that matched.
    public var report: String {
        var lines = ["✗ \(testCase.location)  \"\(testCase.text)\""]
        lines += differences.map { "    \($0)" }
        if let e = result.explain {
            lines.append("    matched \(e.source)  \(e.sentence)")
        } else {
            lines.append("    matched no sentence")
        }
        return lines.joined(separator: "\n")
    }
}

/// Runs labelled cases through parsers (one per locale, app names and vocabulary files) and measures them.
public final class CorpusTester {
    private let catalog: GrammarCatalog
    private let cacheCompiledGrammar: Bool
    private let onCompile: ((GrammarCompilation) -> Void)?
    private var parsers: [String: MediaParser] = [:]
    private var coverage: [String: (parser: MediaParser, coverage: GrammarCoverage)] = [:]

    /// - Parameters:
    ///   - cacheCompiledGrammar: keep compiled grammars on disk (as `MediaParser` does when asked).
    ///   - onCompile: told when a grammar must be compiled (see `MediaParser.init`).
    public init(catalog: GrammarCatalog = .builtIn, cacheCompiledGrammar: Bool = false,
                onCompile: ((GrammarCompilation) -> Void)? = nil) {
        self.onCompile = onCompile
        self.catalog = catalog
        self.cacheCompiledGrammar = cacheCompiledGrammar
    }

    /// The day corpus cases are parsed on, so that "last year" means the same year whenever they run:
    /// 15 June 2026 (Corpus/README.md).
    public static let referenceDate = Date(timeIntervalSince1970: 1_781_524_800)  // 2026-06-15 12:00 UTC

    private func parser(for c: TestCase) throws -> MediaParser {
        let key = ([c.locale] + c.appNames + ["a"] + c.areaNames + ["d"] + c.deviceNames + ["u"] + c.userVocabulary + ["g"]
                   + c.globalVocabulary).joined(separator: "\u{1F}")
        if let p = parsers[key] { return p }
        let p = try MediaParser(locale: c.locale, appNames: c.appNames, areaNames: c.areaNames, deviceNames: c.deviceNames,
                                catalog: catalog, cacheCompiledGrammar: cacheCompiledGrammar,
                                referenceDate: Self.referenceDate, onCompile: onCompile)
        for f in c.userVocabulary { p.vocabulary.setUserVocabulary(try UserVocabulary(contentsOfFile: f)) }
        for f in c.globalVocabulary { p.vocabulary.loadGlobal(try GlobalVocabulary(contentsOfFile: f)) }
        parsers[key] = p
        return p
    }

    /// Runs `cases`, calling `progress(done)` as it goes.
    public func run(_ cases: [TestCase], into run: inout TestRun, progress: (Int) -> Void = { _ in }) throws {
        var clock = DispatchTime.now().uptimeNanoseconds
        for (i, c) in cases.enumerated() {
            defer {
                let now = DispatchTime.now().uptimeNanoseconds
                run.seconds[c.locale, default: 0] += Double(now - clock) / 1e9
                clock = now
            }
            let parser = try parser(for: c)
            if let kind = c.recognizer {
                let differences = Self.recognizerDifferences(c, kind: kind, parser: parser)
                var result = ParseResult(utterance: c.text, locale: parser.locale, intent: nil)
                result.error = differences.isEmpty ? nil : "recogniser"
                run.outcomes.append(TestOutcome(testCase: c, result: result, differences: differences))
                var g = run.groups["\(c.locale)\t\(c.expectedIntent)"] ?? GroupFigures(locale: c.locale, intent: c.expectedIntent)
                g.cases += 1
                if differences.isEmpty { g.exact += 1 }
                run.groups["\(c.locale)\t\(c.expectedIntent)"] = g
                if i % 64 == 0 { progress(i) }
                continue
            }
            var cov = coverage[parser.locale]?.coverage ?? GrammarCoverage()
            let result = parser.parse(c.text, coverage: &cov)
            coverage[parser.locale] = (coverage[parser.locale]?.parser ?? parser, cov)
            var compared = result
            compared.explain = nil
            let actual = JSONValue(compared)
            let mismatches = c.expect.mismatches(from: actual, loose: c.loose, articles: parser.profile.articles)
            var outcome = TestOutcome(testCase: c, result: result, differences: mismatches.map(\.description))
            if !mismatches.isEmpty {
                outcome.mismatches = mismatches
                outcome.got = actual
            }
            run.outcomes.append(outcome)
            count(c, actual: actual, passed: mismatches.isEmpty, articles: parser.profile.articles, into: &run)
            if i % 64 == 0 { progress(i) }
        }
        progress(cases.count)
        for (locale, entry) in coverage { run.coverage[locale] = entry.parser.uncovered(by: entry.coverage) }
    }

    /// What is wrong with a recogniser case: no entity of the kind covers the whole text with the value (or,
    /// for `null`, one does).
    static func recognizerDifferences(_ c: TestCase, kind: String, parser: MediaParser) -> [String] {
        let read = parser.recognize(c.text)
        let whole = read.entities.filter { $0.kind == kind && $0.tokens == 0..<read.tokenCount }
        func shown(_ e: RecognizedEntity) -> String { "\(e.kind) \(e.number.map { SlotValue.number($0).description } ?? "?") over \"\(e.text)\"" }
        let others = read.entities.filter { $0.kind == kind }.map(shown)
        let seen = others.isEmpty ? "no \(kind) at all" : "read: " + others.joined(separator: "; ")
        guard case let .number(expected) = c.expect else {
            return whole.isEmpty ? [] : ["expected no \(kind) covering the whole text, got \(whole.map(shown).joined(separator: "; "))"]
        }
        if whole.contains(where: { abs(($0.number ?? .nan) - expected) < 1e-9 }) { return [] }
        return ["expected \(kind) \(SlotValue.number(expected)) covering the whole text (\(read.tokenCount) words); \(seen)"]
    }

    private func count(_ c: TestCase, actual: JSONValue, passed: Bool, articles: [String], into run: inout TestRun) {
        let key = "\(c.locale)\t\(c.expectedIntent)"
        var g = run.groups[key] ?? GroupFigures(locale: c.locale, intent: c.expectedIntent)
        g.cases += 1
        if passed { g.exact += 1 }
        for (path, expected) in c.expect.leaves() {
            let got = actual.value(at: path)
            var counts = g.fields[path] ?? FieldCounts()
            if expected == .null {
                if let got, got != .null { counts.fp += 1 }
            } else if expected.differences(from: got, loose: c.loose, articles: articles).isEmpty {
                counts.tp += 1
            } else {
                counts.fn += 1
                if let got, got != .null { counts.fp += 1 }
            }
            g.fields[path] = counts
        }
        run.groups[key] = g
    }
}

extension JSONValue {
    /// Every leaf of an expectation with its dotted path (objects are walked, arrays are leaves).
    func leaves(prefix: String = "") -> [(String, JSONValue)] {
        guard case let .object(o) = self else { return [(prefix, self)] }
        return o.keys.sorted().flatMap { k in o[k]!.leaves(prefix: prefix.isEmpty ? k : "\(prefix).\(k)") }
    }

    func value(at path: String) -> JSONValue? {
        var v: JSONValue? = self
        for part in path.split(separator: ".") { v = v?[String(part)] }
        return v
    }

    /// Text for loose comparison: matching form, letters and digits only, single spaces, without a leading
    /// article of the locale (`articles`, in matching form: English "the", German "die" …).
    static func looseForm(_ s: String, articles: [String]) -> String {
        let folded = matchingForm(s)
        var out = ""
        var space = false
        for ch in folded {
            if ch.isLetter || ch.isNumber {
                if space, !out.isEmpty { out.append(" ") }
                out.append(ch)
                space = false
            } else {
                space = true
            }
        }
        for article in articles where out.hasPrefix(article + " ") {
            out.removeFirst(article.count + 1)
            break
        }
        return out
    }
}
