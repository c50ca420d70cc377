import Foundation
import MediaParse
import Yams

/// The table of request kinds (`Corpus/kinds.yaml`): the ways people ask, one table for every language.
/// Corpus cases name their kind (`kind: play-mood-occasion`); `mediaparse test` then says, per language,
/// which kinds have no case and which fail. A kind is a shape of phrasing, so a language that passes one
/// sentence of a kind and lacks the kind next door shows where its grammar enumerates sentences.
public struct RequestKinds: Sendable {
    public struct Kind: Sendable, Equatable {
        public var id: String
        /// The phrasing, in plain words.
        public var what: String
        /// One English sentence of the kind (ours).
        public var example: String
        public var location: SourceLocation
    }

    public var path: String
    public var kinds: [Kind]
    public var ids: Set<String> { Set(kinds.map(\.id)) }

    /// The file name of the table, at the top of a corpus folder.
    public static let fileName = "kinds.yaml"

    public static func isTableFile(_ path: String) -> Bool { (path as NSString).lastPathComponent == fileName }

    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw GrammarError("cannot read the table of request kinds", at: SourceLocation(file: path))
        }
        try self.init(path: path, text: text)
    }

    public init(path: String, text: String) throws {
        self.path = path
        let yaml = try YAMLFile(path: path, text: text)
        guard let root = yaml.root else { throw GrammarError("empty table of request kinds", at: SourceLocation(file: path)) }
        let top = try yaml.mapping(root, "the table of request kinds")
        try yaml.checkKeys(top, allowed: ["kinds"], in: "the table of request kinds")
        guard let list = top.first(where: { $0.key == "kinds" }) else {
            throw GrammarError("the table of request kinds needs `kinds:`", at: yaml.location(root))
        }
        var seen: [String: SourceLocation] = [:]
        kinds = []
        for item in try yaml.sequence(list.value, "kinds") {
            let fields = try yaml.mapping(item, "a request kind")
            try yaml.checkKeys(fields, allowed: ["id", "what", "example", "shape"], in: "a request kind")
            func field(_ key: String) throws -> String {
                guard let f = fields.first(where: { $0.key == key }) else {
                    throw GrammarError("a request kind needs `\(key):`", at: yaml.location(item))
                }
                return try yaml.string(f.value, key)
            }
            let id = try field("id")
            let location = yaml.location(item)
            if let first = seen[id] { throw GrammarError("request kind '\(id)' is listed twice (first at \(first))", at: location) }
            seen[id] = location
            kinds.append(Kind(id: id, what: try field("what"), example: try field("example"), location: location))
        }
    }

    /// The table that governs a corpus path: `kinds.yaml` in the folder itself or in one of its parents
    /// (so `Corpus`, `Corpus/de-DE` and `Corpus/de-DE/play.yaml` all find `Corpus/kinds.yaml`).
    public static func find(for path: String) -> String? {
        var folder = (path as NSString).standardizingPath
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
            folder = (folder as NSString).deletingLastPathComponent
        }
        for _ in 0..<3 {
            let candidate = (folder as NSString).appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
        }
        return nil
    }

    /// What one language's cases say about the kinds.
    public struct LanguageReport: Sendable, Equatable {
        public var language: String
        /// Kinds with at least one case, and of those the ones with a failing case.
        public var covered: [String]
        public var failing: [String]
        /// Kinds of the table with no case in this language.
        public var missing: [String]
        /// Cases tagged with a kind.
        public var taggedCases: Int
    }

    /// Per language (the part of the locale before '-'): which kinds have cases, fail, or are missing.
    /// Only languages with grammar cases are reported (a locale with recogniser cases alone has no grammar).
    public func report(_ outcomes: [TestOutcome]) -> [LanguageReport] {
        var byLanguage: [String: (covered: Set<String>, failing: Set<String>, tagged: Int, grammar: Bool)] = [:]
        for o in outcomes {
            let language = String(o.testCase.locale.split(separator: "-").first ?? "")
            var entry = byLanguage[language] ?? ([], [], 0, false)
            if o.testCase.recognizer == nil { entry.grammar = true }
            if let kind = o.testCase.kind {
                entry.tagged += 1
                entry.covered.insert(kind)
                if !o.passed { entry.failing.insert(kind) }
            }
            byLanguage[language] = entry
        }
        let order = kinds.map(\.id)
        return byLanguage.keys.sorted().compactMap { language in
            let e = byLanguage[language]!
            guard e.grammar else { return nil }
            return LanguageReport(language: language,
                                  covered: order.filter { e.covered.contains($0) },
                                  failing: order.filter { e.failing.contains($0) },
                                  missing: order.filter { !e.covered.contains($0) },
                                  taggedCases: e.tagged)
        }
    }

    /// The report as text: a line per language, then the kinds missing or failing by name.
    public func reportText(_ reports: [LanguageReport]) -> String {
        var out = "\nRequest kinds (\(kinds.count) in \(path)):\n"
        for r in reports {
            let passing = r.covered.count - r.failing.count
            out += "  \(r.language): \(passing)/\(kinds.count) kinds pass, \(r.failing.count) fail, \(r.missing.count) without a case (\(r.taggedCases) tagged cases)\n"
            if !r.failing.isEmpty { out += "      failing: \(r.failing.joined(separator: ", "))\n" }
            if !r.missing.isEmpty { out += "      missing: \(r.missing.joined(separator: ", "))\n" }
        }
        return out
    }
}
