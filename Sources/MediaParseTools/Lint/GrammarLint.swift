import Foundation
import MediaParse

/// Checks a grammar the way a reviewer would, before it is compiled or measured: what a grammar author
/// would want to hear about, each finding with the file, line and column to go to.
///
/// - a line over `maxLineLength` characters (long lines hide alternatives; split a rule into a list);
/// - a rule or list nothing refers to (dead grammar, often a typo in the name that refers to it);
/// - a sentence, modifier or rule body written twice, or a list entry given twice in one list;
/// - a rule name that says nothing ("r2", "tmp", "part"): a native speaker extending the grammar reads it;
/// - an `icu_locale` that ICU answers in another language (a typo falls back silently, and numbers in
///   words then follow the wrong language).
public struct GrammarLint {
    public struct Finding: Sendable, CustomStringConvertible {
        public var location: SourceLocation
        public var message: String
        public var description: String { "\(location): \(message)" }
    }

    public static let maxLineLength = 200
    /// Names that say nothing of what the rule matches.
    static let vagueNames: Set<String> = ["r", "rule", "x", "y", "tmp", "temp", "foo", "bar", "baz", "misc", "stuff",
                                          "thing", "things", "part", "piece", "helper", "other", "others", "extra", "test"]

    let catalog: GrammarCatalog

    public init(catalog: GrammarCatalog) { self.catalog = catalog }

    /// The findings for `locale`, in file order.
    public func check(locale: String) throws -> [Finding] {
        let outline = try catalog.outline(locale: locale)
        var findings: [Finding] = []

        for file in outline.files {
            for (i, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.count > Self.maxLineLength {
                findings.append(Finding(location: SourceLocation(file: file.path, line: i + 1, column: Self.maxLineLength + 1),
                                        message: "line of \(line.count) characters (at most \(Self.maxLineLength)); write the alternatives as a YAML list, one per line"))
            }
        }

        let usedRules = Set(outline.pieces.flatMap(\.rules))
        let usedLists = Set(outline.pieces.flatMap(\.lists))
        for rule in outline.pieces where rule.kind == "rule" && !usedRules.contains(rule.name) {
            findings.append(Finding(location: rule.location, message: "rule <\(rule.name)> is never used"))
        }
        for list in outline.lists where !usedLists.contains(list.name) {
            findings.append(Finding(location: list.location, message: "list {\(list.name)} is never used"))
        }

        var seen: [String: SourceLocation] = [:]
        for piece in outline.pieces {
            // Pieces with slots or rules are compared by their text, the others by the words they match.
            let body: String
            if let expansions = piece.expansions, !expansions.isEmpty {
                body = expansions.map { $0.joined(separator: " ") }.sorted().joined(separator: "|")
            } else if let text = piece.text {
                body = "text " + text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            } else {
                continue
            }
            let key = "\(piece.kind) \(piece.kind == "rule" ? "" : piece.name)|" + body
            if let first = seen[key] {
                let what = piece.kind == "rule" ? "rule <\(piece.name)> matches exactly what another rule matches" : "this \(piece.kind) repeats one"
                findings.append(Finding(location: piece.location, message: "\(what) (at \(first))"))
            } else {
                seen[key] = piece.location
            }
        }
        for list in outline.lists {
            var entries: [String: SourceLocation] = [:]
            for entry in list.entries {
                for words in entry.expansions ?? [] {
                    let key = words.joined(separator: " ")
                    if let first = entries[key], first != entry.location {
                        findings.append(Finding(location: entry.location,
                                                message: "\"\(key)\" is already an entry of {\(list.name)} (at \(first))"))
                    } else {
                        entries[key] = entry.location
                    }
                }
            }
        }

        for rule in outline.pieces where rule.kind == "rule" && Self.saysNothing(rule.name) {
            findings.append(Finding(location: rule.location,
                                    message: "rule name <\(rule.name)> says nothing; name it after what it matches (<play_verb>, <polite_end>)"))
        }

        let language = outline.icuLocale.split(whereSeparator: { $0 == "_" || $0 == "-" }).first.map(String.init) ?? ""
        let actual = ICULocaleCheck.actualLocale(for: outline.icuLocale)
        let actualLanguage = actual?.split(separator: "_").first.map(String.init) ?? ""
        if actualLanguage != language {
            let file = outline.files.last { $0.path.hasSuffix("locale.yaml") && $0.text.contains("icu_locale") }
            var location = SourceLocation(file: file?.path ?? outline.locale)
            if let file, let i = file.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: { $0.contains("icu_locale") }) {
                location = SourceLocation(file: file.path, line: i + 1, column: 1)
            }
            findings.append(Finding(location: location,
                                    message: "icu_locale '\(outline.icuLocale)' is answered by ICU as '\(actual ?? "nothing")': numbers and word breaking would follow another language; check the name (ICU's form: de_DE, pt_BR)"))
        }
        return findings.sorted { ($0.location.file, $0.location.line ?? 0) < ($1.location.file, $1.location.line ?? 0) }
    }

    /// A rule name that tells a reader nothing: one or two letters, a placeholder word, or a word with a
    /// number stuck on (`verb2`).
    static func saysNothing(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.count <= 2 { return true }
        let stem = String(lower.reversed().drop { $0.isNumber || $0 == "_" }.reversed())
        if stem.isEmpty || Self.vagueNames.contains(stem) { return true }
        return stem.count < lower.count && lower.last!.isNumber
    }
}
