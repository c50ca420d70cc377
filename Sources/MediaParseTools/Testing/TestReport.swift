import Foundation
import MediaParse

/// The texts and files a test run is reported in: figures, coverage, JUnit XML, JSON, baseline checks.
public struct TestReport {
    public let run: TestRun

    public init(run: TestRun) { self.run = run }

    private var groupKeys: [String] { run.groups.keys.sorted() }

    private static func percent(_ x: Double) -> String { String(format: "%5.1f%%", x * 100) }
    private static func fixed(_ x: Double) -> String { String(format: "%.3f", x) }

    /// One line per locale (cases passed, failed, seconds spent) and a total: what a person reads first.
    public func summaryText() -> String {
        var passed: [String: Int] = [:], failed: [String: Int] = [:]
        for o in run.outcomes {
            if o.passed { passed[o.testCase.locale, default: 0] += 1 } else { failed[o.testCase.locale, default: 0] += 1 }
        }
        let locales = Set(passed.keys).union(failed.keys).sorted()
        func line(_ name: String, _ p: Int, _ f: Int, _ seconds: Double) -> String {
            name.padding(toLength: 10, withPad: " ", startingAt: 0) + String(p).leftPad(8) + String(f).leftPad(8)
                + String(format: "%8.1f s", seconds) + (f > 0 ? "   ✗" : "") + "\n"
        }
        var out = "\n" + "locale".padding(toLength: 10, withPad: " ", startingAt: 0) + "  passed  failed      time\n"
        for l in locales { out += line(l, passed[l] ?? 0, failed[l] ?? 0, run.seconds[l] ?? 0) }
        if locales.count > 1 {
            out += line("all", passed.values.reduce(0, +), failed.values.reduce(0, +), run.seconds.values.reduce(0, +))
        }
        return out
    }

    /// Figures per locale and intent: exact-match rate, then precision / recall / F1 per field.
    public func figuresText() -> String {
        var out = ""
        var currentLocale = ""
        for key in groupKeys {
            let g = run.groups[key]!
            if g.locale != currentLocale {
                currentLocale = g.locale
                let all = run.groups.values.filter { $0.locale == g.locale }
                let cases = all.reduce(0) { $0 + $1.cases }, exact = all.reduce(0) { $0 + $1.exact }
                out += "\n\(g.locale): \(cases) utterances, \(exact) exact (\(Self.percent(cases == 0 ? 1 : Double(exact) / Double(cases))))\n"
            }
            out += "  \(g.intent.padding(toLength: 30, withPad: " ", startingAt: 0)) \(String(g.cases).leftPad(5)) cases  exact \(Self.percent(g.exactRate))\n"
            for field in g.fields.keys.sorted() where field != "intent" || g.fields.count == 1 {
                let c = g.fields[field]!
                if c.tp + c.fp + c.fn == 0 { continue }  // only ever expected absent, and absent
                out += "      \(field.padding(toLength: 36, withPad: " ", startingAt: 0)) P \(Self.fixed(c.precision))  R \(Self.fixed(c.recall))  F1 \(Self.fixed(c.f1))  (tp \(c.tp), fp \(c.fp), fn \(c.fn))\n"
            }
            if let c = g.fields["intent"], g.fields.count > 1 {
                out += "      \("intent".padding(toLength: 36, withPad: " ", startingAt: 0)) P \(Self.fixed(c.precision))  R \(Self.fixed(c.recall))  F1 \(Self.fixed(c.f1))  (tp \(c.tp), fp \(c.fp), fn \(c.fn))\n"
            }
        }
        return out
    }

    /// The grammar's sentences, rules and list entries no utterance exercised, per locale.
    public func coverageText() -> String {
        var out = ""
        for locale in run.coverage.keys.sorted() {
            let u = run.coverage[locale]!
            out += "\nGrammar coverage, \(locale): sentences \(u.sentences.covered)/\(u.sentences.total), rules \(u.rules.covered)/\(u.rules.total), list entries \(u.listEntries.covered)/\(u.listEntries.total)\n"
            if u.items.isEmpty { out += "  everything was exercised\n"; continue }
            out += "  not exercised by any utterance:\n"
            for item in u.items { out += "    \(item.location)  \(item.kind) \(item.name)\n" }
        }
        return out
    }

    /// JUnit XML: one test suite per corpus file, one test case per utterance.
    public func junitXML() -> String {
        var byFile: [String: [TestOutcome]] = [:]
        for o in run.outcomes { byFile[o.testCase.location.file, default: []].append(o) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = run.failures.count
        xml += "<testsuites name=\"mediaparse test\" tests=\"\(run.outcomes.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for file in byFile.keys.sorted() {
            let outcomes = byFile[file]!
            let failed = outcomes.filter { !$0.passed }.count
            xml += "  <testsuite name=\"\(escape(file))\" tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\">\n"
            for o in outcomes {
                let name = escape(o.testCase.text)
                let line = o.testCase.location.line.map { " line=\"\($0)\"" } ?? ""
                xml += "    <testcase classname=\"\(escape(o.testCase.locale + "." + o.testCase.expectedIntent))\" name=\"\(name)\" file=\"\(escape(file))\"\(line)"
                if o.passed {
                    xml += "/>\n"
                } else {
                    xml += ">\n      <failure message=\"\(escape(o.differences.first ?? "differs"))\">\(escape(o.report))</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" { out += "\u{FFFD}" }
                else if (0xFFFE...0xFFFF).contains(scalar.value) { out += "\u{FFFD}" }
                else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    struct Figures: Codable {
        struct Field: Codable { var precision, recall, f1: Double; var tp, fp, fn: Int }
        struct Group: Codable { var locale, intent: String; var cases, exact: Int; var exactRate: Double; var fields: [String: Field] }
        var version = 1
        var passed: Int
        var failed: Int
        var groups: [String: Group]
    }

    private func figures() -> Figures {
        var groups: [String: Figures.Group] = [:]
        for (key, g) in run.groups {
            var fields: [String: Figures.Field] = [:]
            for (name, c) in g.fields {
                fields[name] = .init(precision: c.precision, recall: c.recall, f1: c.f1, tp: c.tp, fp: c.fp, fn: c.fn)
            }
            groups[key.replacingOccurrences(of: "\t", with: " ")] = .init(locale: g.locale, intent: g.intent, cases: g.cases,
                                                                          exact: g.exact, exactRate: g.exactRate, fields: fields)
        }
        let failed = run.failures.count
        return Figures(passed: run.outcomes.count - failed, failed: failed, groups: groups)
    }

    /// The figures as JSON (also the baseline format).
    public func figuresJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(figures())) ?? Data(), as: UTF8.self) + "\n"
    }

    /// Every figure (exact-match rate of a group, F1 of a field) that is lower than in `baseline`.
    public func regressions(against baseline: Data) throws -> [String] {
        let old = try JSONDecoder().decode(Figures.self, from: baseline)
        let new = figures()
        var out: [String] = []
        for key in old.groups.keys.sorted() {
            guard let o = old.groups[key] else { continue }
            guard let n = new.groups[key] else { continue }  // a group no longer tested is not a regression
            if n.exactRate < o.exactRate - 1e-9 {
                out.append("\(key): exact \(String(format: "%.3f", o.exactRate)) -> \(String(format: "%.3f", n.exactRate))")
            }
            for f in o.fields.keys.sorted() {
                guard let of = o.fields[f], let nf = n.fields[f] else { continue }
                if nf.f1 < of.f1 - 1e-9 {
                    out.append("\(key) \(f): F1 \(String(format: "%.3f", of.f1)) -> \(String(format: "%.3f", nf.f1))")
                }
            }
        }
        return out
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
