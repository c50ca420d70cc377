import Foundation
import MediaParse
import Yams

/// A labelled corpus file: utterances of one locale with the partial result each must give.
/// The format is described in Corpus/README.md.
public struct CorpusFile: Sendable {
    public struct Case: Sendable {
        public var text: String
        public var expect: JSONValue
        /// file:line of the case
        public var location: SourceLocation
        /// The kind of request it is (an id of `Corpus/kinds.yaml`), when the case says.
        public var kind: String?
    }

    public var path: String
    public var locale: String
    public var appNames: [String]
    /// The caller's own rooms and players for the whole file (like --area, --device).
    public var areaNames: [String]
    public var deviceNames: [String]
    /// Vocabulary files the cases need (paths resolved against the corpus file's folder).
    public var userVocabulary: [String]
    public var globalVocabulary: [String]
    public var cases: [Case]
    /// Phrase -> value cases for the recognisers alone (Duckling's habit), from `recognizers:`.
    public var recognizerCases: [RecognizerCase]

    /// One recogniser case: `text` must be read wholly as one entity of `kind` with `value` (nil: as none).
    public struct RecognizerCase: Sendable {
        public var text: String
        /// "number", "ordinal", "year", "decade", "speed", "duration", "percent"
        public var kind: String
        /// The number; a year or decade is its first year; a duration its seconds.
        public var value: Double?
        public var location: SourceLocation
    }

    /// Reads a corpus file. Errors name the file, line and column.
    /// - Parameter knownKinds: the request kinds a case may name (`kind:`); nil accepts any.
    public init(path: String, knownKinds: Set<String>? = nil) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GrammarError("cannot read the corpus file", at: SourceLocation(file: path))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw GrammarError("not UTF-8 text", at: SourceLocation(file: path))
        }
        try self.init(path: path, text: text, knownKinds: knownKinds)
    }

    public init(path: String, text: String, knownKinds: Set<String>? = nil) throws {
        self.path = path
        let yaml = try YAMLFile(path: path, text: text)
        guard let root = yaml.root else { throw GrammarError("empty corpus file", at: SourceLocation(file: path)) }
        let top = try yaml.mapping(root, "a corpus file")
        try yaml.checkKeys(top, allowed: ["locale", "app_names", "area_names", "device_names", "user_vocabulary", "global_vocabulary", "tests", "recognizers"],
                           in: "a corpus file")
        guard let locale = try top.first(where: { $0.key == "locale" }).map({ try yaml.string($0.value, "locale") }) else {
            throw GrammarError("a corpus file needs `locale:`", at: yaml.location(root))
        }
        self.locale = locale
        appNames = try top.first { $0.key == "app_names" }.map { try yaml.strings($0.value, "app_names") } ?? []
        areaNames = try top.first { $0.key == "area_names" }.map { try yaml.strings($0.value, "area_names") } ?? []
        deviceNames = try top.first { $0.key == "device_names" }.map { try yaml.strings($0.value, "device_names") } ?? []
        let folder = (path as NSString).deletingLastPathComponent
        func files(_ key: String) throws -> [String] {
            try (top.first { $0.key == key }.map { try yaml.strings($0.value, key) } ?? []).map {
                $0.hasPrefix("/") ? $0 : (folder as NSString).appendingPathComponent($0)
            }
        }
        userVocabulary = try files("user_vocabulary")
        globalVocabulary = try files("global_vocabulary")
        cases = []
        recognizerCases = []
        if let recognizers = top.first(where: { $0.key == "recognizers" }) {
            for item in try yaml.sequence(recognizers.value, "recognizers") {
                let fields = try yaml.mapping(item, "a recogniser case")
                try yaml.checkKeys(fields, allowed: ["kind", "text", "texts", "value"], in: "a recogniser case")
                guard let kindNode = fields.first(where: { $0.key == "kind" }) else {
                    throw GrammarError("a recogniser case needs `kind:` (\(RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ")))",
                                       at: yaml.location(item))
                }
                let kindName = try yaml.string(kindNode.value, "kind")
                guard let kind = RecognizerKind(rawValue: kindName), kind != .releaseDate, kind != .frequency else {
                    throw GrammarError("unknown recogniser '\(kindName)'; expected one of: number, ordinal, year, decade, speed, duration, percent",
                                       at: yaml.location(kindNode.value))
                }
                guard let valueNode = fields.first(where: { $0.key == "value" }) else {
                    throw GrammarError("a recogniser case needs `value:` (a number, or null for none)", at: yaml.location(item))
                }
                let value: Double?
                if valueNode.value.null != nil {
                    value = nil
                } else {
                    value = try yaml.number(valueNode.value, "value")
                }
                var texts: [Node] = []
                if let t = fields.first(where: { $0.key == "text" }) { texts.append(t.value) }
                if let t = fields.first(where: { $0.key == "texts" }) { texts += try yaml.sequence(t.value, "texts") }
                guard !texts.isEmpty else { throw GrammarError("a recogniser case needs `text:` or `texts:`", at: yaml.location(item)) }
                for t in texts {
                    recognizerCases.append(RecognizerCase(text: try yaml.string(t, "text"), kind: kind.rawValue, value: value,
                                                          location: yaml.location(t)))
                }
            }
        }
        guard let tests = top.first(where: { $0.key == "tests" }) else { return }
        for item in try yaml.sequence(tests.value, "tests") {
            let fields = try yaml.mapping(item, "a test")
            try yaml.checkKeys(fields, allowed: ["text", "texts", "expect", "kind"], in: "a test")
            let kind = try fields.first { $0.key == "kind" }.map { try yaml.string($0.value, "kind") }
            if let kind, let known = knownKinds, !known.contains(kind) {
                let node = fields.first { $0.key == "kind" }!.value
                throw GrammarError("unknown request kind '\(kind)'; the kinds are listed in kinds.yaml (\(known.count) of them)",
                                   at: yaml.location(node))
            }
            guard let expect = fields.first(where: { $0.key == "expect" }) else {
                throw GrammarError("a test needs `expect:`", at: yaml.location(item))
            }
            var texts: [Node] = []
            if let t = fields.first(where: { $0.key == "text" }) { texts.append(t.value) }
            if let t = fields.first(where: { $0.key == "texts" }) { texts += try yaml.sequence(t.value, "texts") }
            guard !texts.isEmpty else { throw GrammarError("a test needs `text:` or `texts:`", at: yaml.location(item)) }
            for t in texts {
                cases.append(Case(text: try yaml.string(t, "text"), expect: JSONValue(yaml: expect.value),
                                  location: yaml.location(t), kind: kind))
            }
        }
    }

    /// Every corpus file (`*.yaml`) under `directory`, sorted by path (the table of request kinds,
    /// `kinds.yaml`, and the resolution corpora under `resolve/` are not).
    public static func files(under directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !RequestKinds.isTableFile($0) && !ResolutionCorpus.isResolutionPath($0) }
            .map { (directory as NSString).appendingPathComponent($0) }
            .sorted()
    }
}
