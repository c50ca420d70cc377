import Foundation

/// The user's vocabulary: for each type, an ordered set of strings, most important first (what
/// `INVocabulary.setVocabularyStrings(_:of:)` takes).
///
/// The file form (`--user-vocabulary`) is a JSON object whose keys are `INVocabularyStringType` names and
/// whose values are arrays of strings:
///
/// ```json
/// {"mediaPlaylistTitle": ["70s punk classics", "Songs for Celestra"], "mediaMusicArtistName": ["Khalid"]}
/// ```
public struct UserVocabulary: Sendable, Hashable {
    /// The ordered set of each type, most important first; exact duplicates are already removed.
    public var phrases: [VocabularyType: [String]]

    /// A vocabulary from ordered sets; an exact duplicate string keeps its first place only.
    public init(_ phrases: [VocabularyType: [String]] = [:]) {
        self.phrases = phrases.mapValues(orderedSet)
    }

    /// Reads a user vocabulary JSON file.
    ///
    /// - Throws: `GrammarError` naming the file and, for a JSON syntax error, its line and column; for a
    ///   wrong entry, the entry (`mediaPlaylistTitle[3]: expected a string, found a number`).
    public init(contentsOfFile path: String) throws {
        try self.init(data: readVocabularyFile(path), file: path)
    }

    /// Reads user vocabulary JSON from `data`; `file` is the name error messages give.
    public init(data: Data, file: String) throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw jsonSyntaxError(error, data: data, file: file)
        }
        let location = SourceLocation(file: file)
        let validTypes = VocabularyType.allCases.map(\.rawValue).joined(separator: ", ")
        guard let object = root as? [String: Any] else {
            throw GrammarError("expected a JSON object whose keys are vocabulary types (\(validTypes)), found \(describeValue(root))",
                               at: location)
        }
        var phrases: [VocabularyType: [String]] = [:]
        // Sorted, so that the first error reported does not depend on dictionary order.
        for key in object.keys.sorted() {
            guard let type = VocabularyType(rawValue: key) else {
                throw GrammarError("unknown vocabulary type '\(key)'; valid types: \(validTypes)", at: location)
            }
            guard let array = object[key] as? [Any] else {
                throw GrammarError("\(key): expected an array of strings, found \(describeValue(object[key]!))", at: location)
            }
            var strings: [String] = []
            strings.reserveCapacity(array.count)
            for (i, item) in array.enumerated() {
                guard let s = item as? String else {
                    throw GrammarError("\(key)[\(i)]: expected a string, found \(describeValue(item))", at: location)
                }
                guard s.contains(where: { !$0.isWhitespace }) else {
                    throw GrammarError("\(key)[\(i)]: empty string", at: location)
                }
                strings.append(s)
            }
            phrases[type] = strings
        }
        self.init(phrases)
    }
}

/// The app's vocabulary for every user, from an `AppIntentVocabulary.plist` (XML or binary).
///
/// `ParameterVocabularies` → each with `ParameterNames` (`INPlayMediaIntent.playlistTitle` …) and
/// `ParameterVocabulary` items: `VocabularyItemIdentifier` and `VocabularyItemSynonyms` (each a
/// `VocabularyItemPhrase`, with an optional `VocabularyItemPronunciation` and `VocabularyItemExamples`).
/// Other keys (`IntentPhrases` …) are read and ignored. Parameter names of other intents' parameters
/// (`INStartWorkoutIntent.workoutName`) are ignored; an unknown parameter of a media intent is an error.
public struct GlobalVocabulary: Sendable, Hashable {
    /// One way of saying an item.
    public struct Synonym: Sendable, Hashable {
        /// `VocabularyItemPhrase`: the words matched.
        public var phrase: String
        /// `VocabularyItemPronunciation`, kept but not used for matching.
        public var pronunciation: String?
        /// `VocabularyItemExamples`, kept but not used for matching.
        public var examples: [String]

        public init(phrase: String, pronunciation: String? = nil, examples: [String] = []) {
            self.phrase = phrase
            self.pronunciation = pronunciation
            self.examples = examples
        }
    }

    /// One `ParameterVocabulary` item for one type (an item under several `ParameterNames` is one `Item`
    /// per type).
    public struct Item: Sendable, Hashable {
        public var type: VocabularyType
        /// `VocabularyItemIdentifier`: what a hit reports.
        public var identifier: String
        public var synonyms: [Synonym]

        public init(type: VocabularyType, identifier: String, synonyms: [Synonym]) {
            self.type = type
            self.identifier = identifier
            self.synonyms = synonyms
        }
    }

    /// The items in file order.
    public var items: [Item]

    public init(items: [Item] = []) { self.items = items }

    /// Reads an `AppIntentVocabulary.plist`, XML or binary.
    ///
    /// - Throws: `GrammarError` naming the file and the entry
    ///   (`ParameterVocabularies[1].ParameterVocabulary[0]: missing VocabularyItemIdentifier`), or the line
    ///   of an XML syntax error when the property list reader gives one.
    public init(contentsOfFile path: String) throws {
        try self.init(data: readVocabularyFile(path), file: path)
    }

    /// Reads an `AppIntentVocabulary.plist` from `data`; `file` is the name error messages give.
    ///
    /// A binary property list can refer to one object from many places, even from inside itself; read
    /// naively, 43 bytes make a list that never ends and a few hundred bytes one of millions of values. The
    /// reading therefore stops, with an error, past `PlistDecodingBudget.maximumDepth` levels of nesting or
    /// past four decoded values per byte of the file, plus 1,024 (each value of a file that shares nothing
    /// takes at least one byte of it).
    public init(data: Data, file: String) throws {
        let location = SourceLocation(file: file)
        // Foundation's XML reader stops the process (a fatal error) on bytes that are not UTF-8 inside an
        // <integer> (finding F6): XML is checked first.
        if looksLikeXML(data), let bad = firstInvalidUTF8Offset(data) {
            let (line, column) = lineAndColumn(ofByte: bad, in: data)
            throw GrammarError("the XML property list is not UTF-8 text (byte \(bad))",
                               at: SourceLocation(file: file, line: line, column: column))
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let root: Any
        func decoder() -> (PropertyListDecoder, PlistDecodingBudget) {
            let budget = PlistDecodingBudget(limit: 4 * data.count + 1024)
            let decoder = PropertyListDecoder()
            decoder.userInfo[PlistDecodingBudget.key] = budget
            return (decoder, budget)
        }
        do {
            // PropertyListDecoder, not PropertyListSerialization: the latter crashes on some malformed binary
            // lists (a set where an array belongs, found by fuzzing), and is slower on large XML files.
            // The expected shape decodes fast; anything else goes through the schema-less reading, so that
            // PlistReader can name the entry that is wrong.
            let typed: TypedVocabularyFile?
            do {
                typed = try decoder().0.decode(TypedVocabularyFile.self, from: data, format: &format)
            } catch let error as PlistReadError {
                throw error
            } catch {
                typed = nil
            }
            if let typed {
                root = typed.foundationValue
            } else {
                root = try decoder().0.decode(PlistValue.self, from: data, format: &format).foundationValue
            }
        } catch let error as PlistReadError {
            throw GrammarError(error.message, at: location)
        } catch {
            let detail: String
            if case let DecodingError.dataCorrupted(context) = error {
                detail = context.underlyingError.map { "\(context.debugDescription) (\($0))" } ?? context.debugDescription
            } else {
                detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            }
            // The XML reader names "line 1" whatever the line; the tags say where an XML file goes wrong.
            if let problem = firstXMLPlistProblem(in: data) {
                throw GrammarError("invalid XML property list: \(problem.message)",
                                   at: SourceLocation(file: file, line: problem.line, column: problem.column))
            }
            let reason = detail.replacing(#/ on line \d+/#, with: "")
            throw GrammarError("not a property list (XML or binary): \(reason)", at: location)
        }
        guard format == .xml || format == .binary else {
            throw GrammarError("not an XML or binary property list (old-style text property lists are not accepted)", at: location)
        }
        var reader = PlistReader(location: location)
        self.init(items: try reader.items(root))
    }
}

/// What one reading of a property list may cost: a number of decoded values and a depth of nesting. One
/// instance per decode, reached through the decoder's `userInfo`; decoding runs on one thread.
final class PlistDecodingBudget: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "MediaParse.PlistDecodingBudget")!
    /// A real `AppIntentVocabulary.plist` is six levels deep.
    static let maximumDepth = 32

    let limit: Int
    private(set) var spent = 0
    private(set) var depth = 0

    init(limit: Int) { self.limit = limit }

    static func of(_ decoder: Decoder) -> PlistDecodingBudget? { decoder.userInfo[key] as? PlistDecodingBudget }

    /// Counts `count` more decoded values.
    func spend(_ count: Int = 1) throws {
        spent += count
        if spent > limit { throw PlistReadError.tooManyValues(limit: limit) }
    }

    /// One level deeper; `leave()` when done.
    func enter() throws {
        depth += 1
        if depth > Self.maximumDepth { throw PlistReadError.tooDeep(limit: Self.maximumDepth) }
    }

    func leave() { depth -= 1 }
}

/// Why the reading of a property list stopped: a limit of `PlistDecodingBudget`, or a type no vocabulary holds.
enum PlistReadError: Error {
    case tooManyValues(limit: Int)
    case tooDeep(limit: Int)
    case unsupportedType(path: String, found: String)

    var message: String {
        switch self {
        case let .tooManyValues(limit):
            return "the property list refers to itself or shares its objects: it expands to more than \(limit) values"
        case let .tooDeep(limit):
            return "the property list refers to itself or is too deeply nested (more than \(limit) levels)"
        case let .unsupportedType(path, found):
            let what = path.isEmpty ? "the top of the property list" : path
            return "\(what): found \(found), which a vocabulary cannot hold (only dictionaries, arrays, strings, numbers, booleans, dates and data)"
        }
    }
}

/// `ParameterVocabularies[1].ParameterNames[0]` from a coding path.
private func describePath(_ path: [CodingKey]) -> String {
    var s = ""
    for key in path {
        if let i = key.intValue { s += "[\(i)]" } else { s += s.isEmpty ? key.stringValue : ".\(key.stringValue)" }
    }
    return s
}

/// The shape of an `AppIntentVocabulary.plist` (keys as Apple names them), for the fast path. Each level
/// counts what it decodes against the decoder's `PlistDecodingBudget`.
private struct TypedVocabularyFile: Decodable {
    struct Synonym: Decodable {
        var VocabularyItemPhrase: String
        var VocabularyItemPronunciation: String?
        var VocabularyItemExamples: [String]?

        enum CodingKeys: String, CodingKey { case VocabularyItemPhrase, VocabularyItemPronunciation, VocabularyItemExamples }

        init(from decoder: Decoder) throws {
            try PlistDecodingBudget.of(decoder)?.spend()
            let c = try decoder.container(keyedBy: CodingKeys.self)
            VocabularyItemPhrase = try c.decode(String.self, forKey: .VocabularyItemPhrase)
            VocabularyItemPronunciation = try c.decodeIfPresent(String.self, forKey: .VocabularyItemPronunciation)
            VocabularyItemExamples = try c.decodeIfPresent([String].self, forKey: .VocabularyItemExamples)
            try PlistDecodingBudget.of(decoder)?.spend(2 + (VocabularyItemExamples?.count ?? 0))
        }
    }
    struct Item: Decodable {
        var VocabularyItemIdentifier: String
        var VocabularyItemSynonyms: [Synonym]

        enum CodingKeys: String, CodingKey { case VocabularyItemIdentifier, VocabularyItemSynonyms }

        init(from decoder: Decoder) throws {
            try PlistDecodingBudget.of(decoder)?.spend(3)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            VocabularyItemIdentifier = try c.decode(String.self, forKey: .VocabularyItemIdentifier)
            VocabularyItemSynonyms = try c.decode([Synonym].self, forKey: .VocabularyItemSynonyms)
        }
    }
    struct Group: Decodable {
        var ParameterNames: [String]
        var ParameterVocabulary: [Item]

        enum CodingKeys: String, CodingKey { case ParameterNames, ParameterVocabulary }

        init(from decoder: Decoder) throws {
            try PlistDecodingBudget.of(decoder)?.spend(3)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            ParameterNames = try c.decode([String].self, forKey: .ParameterNames)
            try PlistDecodingBudget.of(decoder)?.spend(ParameterNames.count)
            ParameterVocabulary = try c.decode([Item].self, forKey: .ParameterVocabulary)
        }
    }
    var ParameterVocabularies: [Group]?

    enum CodingKeys: String, CodingKey { case ParameterVocabularies }

    init(from decoder: Decoder) throws {
        try PlistDecodingBudget.of(decoder)?.spend(2)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ParameterVocabularies = try c.decodeIfPresent([Group].self, forKey: .ParameterVocabularies)
    }

    var foundationValue: Any {
        guard let groups = ParameterVocabularies else { return [String: Any]() }
        return ["ParameterVocabularies": groups.map { g -> [String: Any] in
            ["ParameterNames": g.ParameterNames,
             "ParameterVocabulary": g.ParameterVocabulary.map { item -> [String: Any] in
                 ["VocabularyItemIdentifier": item.VocabularyItemIdentifier,
                  "VocabularyItemSynonyms": item.VocabularyItemSynonyms.map { s -> [String: Any] in
                      var d: [String: Any] = ["VocabularyItemPhrase": s.VocabularyItemPhrase]
                      if let p = s.VocabularyItemPronunciation { d["VocabularyItemPronunciation"] = p }
                      if let e = s.VocabularyItemExamples { d["VocabularyItemExamples"] = e }
                      return d
                  }]
             }]
        }] as [String: Any]
    }
}

/// Any property list value, decoded without a schema, then handed to `PlistReader` as Foundation values so
/// that type errors can name the entry.
private enum PlistValue: Decodable {
    case dictionary([String: PlistValue])
    case array([PlistValue])
    case string(String)
    case bool(Bool)
    case number(Double)
    case date(Date)
    case data(Data)

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let budget = PlistDecodingBudget.of(decoder)
        try budget?.spend()
        try budget?.enter()
        defer { budget?.leave() }
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var d: [String: PlistValue] = [:]
            for key in keyed.allKeys { d[key.stringValue] = try keyed.decode(PlistValue.self, forKey: key) }
            self = .dictionary(d)
        } else if var list = try? decoder.unkeyedContainer() {
            var a: [PlistValue] = []
            while !list.isAtEnd { a.append(try list.decode(PlistValue.self)) }
            self = .array(a)
        } else {
            let single = try decoder.singleValueContainer()
            if let s = try? single.decode(String.self) { self = .string(s) }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let n = try? single.decode(Double.self) { self = .number(n) }
            else if let t = try? single.decode(Date.self) { self = .date(t) }
            else {
                do {
                    self = .data(try single.decode(Data.self))
                } catch let DecodingError.typeMismatch(_, context) {
                    // A set, a UID, a null …: binary property list types that a vocabulary has no use for.
                    let found = context.debugDescription.firstMatch(of: #/but found (.+?) instead/#).map { String($0.1) }
                    throw PlistReadError.unsupportedType(path: describePath(decoder.codingPath),
                                                          found: found ?? "a value of an unknown type")
                }
            }
        }
    }

    var foundationValue: Any {
        switch self {
        case let .dictionary(d): return d.mapValues(\.foundationValue)
        case let .array(a): return a.map(\.foundationValue)
        case let .string(s): return s
        case let .bool(b): return NSNumber(value: b)
        case let .number(n): return NSNumber(value: n)
        case let .date(t): return t
        case let .data(d): return d
        }
    }
}

/// Walks the decoded property list, checking each value's type and naming the path of a wrong one.
private struct PlistReader {
    let location: SourceLocation
    /// Intents whose parameters must be one of the known five; other intents' parameters are skipped.
    static let mediaIntents: Set<String> = ["INPlayMediaIntent", "INAddMediaIntent", "INSearchForMediaIntent",
                                            "INUpdateMediaAffinityIntent"]
    /// (type, identifier) → path of the item, to report duplicates.
    private var seen: [String: String] = [:]

    init(location: SourceLocation) { self.location = location }

    func fail(_ path: String, _ message: String) -> GrammarError {
        GrammarError(path.isEmpty ? message : "\(path): \(message)", at: location)
    }

    func dictionary(_ value: Any, _ path: String) throws -> [String: Any] {
        guard let d = value as? [String: Any] else { throw fail(path, "expected a dictionary, found \(describeValue(value))") }
        return d
    }

    func array(_ value: Any, _ path: String) throws -> [Any] {
        guard let a = value as? [Any] else { throw fail(path, "expected an array, found \(describeValue(value))") }
        return a
    }

    func string(_ value: Any, _ path: String) throws -> String {
        guard let s = value as? String else { throw fail(path, "expected a string, found \(describeValue(value))") }
        return s
    }

    func nonEmptyString(_ value: Any, _ path: String) throws -> String {
        let s = try string(value, path)
        guard s.contains(where: { !$0.isWhitespace }) else { throw fail(path, "empty string") }
        return s
    }

    mutating func items(_ root: Any) throws -> [GlobalVocabulary.Item] {
        guard let top = root as? [String: Any] else {
            throw fail("", "expected a dictionary at the top of the property list, found \(describeValue(root))")
        }
        // A file with only IntentPhrases has no parameter vocabulary: that is allowed.
        guard let groupsValue = top["ParameterVocabularies"] else { return [] }
        var out: [GlobalVocabulary.Item] = []
        for (g, groupValue) in try array(groupsValue, "ParameterVocabularies").enumerated() {
            let groupPath = "ParameterVocabularies[\(g)]"
            let group = try dictionary(groupValue, groupPath)
            guard let namesValue = group["ParameterNames"] else { throw fail(groupPath, "missing ParameterNames") }
            var types: [VocabularyType] = []
            for (n, nameValue) in try array(namesValue, "\(groupPath).ParameterNames").enumerated() {
                let namePath = "\(groupPath).ParameterNames[\(n)]"
                let name = try nonEmptyString(nameValue, namePath)
                if let type = VocabularyType(parameterName: name) {
                    if !types.contains(type) { types.append(type) }
                } else if let intent = name.split(separator: ".").first, Self.mediaIntents.contains(String(intent)) {
                    let valid = VocabularyType.allCases.map { "\(intent).\($0.parameterName)" }.joined(separator: ", ")
                    throw fail(namePath, "unknown parameter '\(name)'; valid parameters: \(valid)")
                }
            }
            guard let vocabularyValue = group["ParameterVocabulary"] else { throw fail(groupPath, "missing ParameterVocabulary") }
            for (i, itemValue) in try array(vocabularyValue, "\(groupPath).ParameterVocabulary").enumerated() {
                let itemPath = "\(groupPath).ParameterVocabulary[\(i)]"
                let (identifier, synonyms) = try item(itemValue, itemPath)
                for type in types {
                    let key = "\(type.rawValue)\u{0}\(identifier)"
                    if let earlier = seen[key] {
                        throw fail(itemPath, "duplicate VocabularyItemIdentifier '\(identifier)' for \(type.rawValue) (first at \(earlier))")
                    }
                    seen[key] = itemPath
                    out.append(GlobalVocabulary.Item(type: type, identifier: identifier, synonyms: synonyms))
                }
            }
        }
        return out
    }

    private func item(_ value: Any, _ path: String) throws -> (String, [GlobalVocabulary.Synonym]) {
        let item = try dictionary(value, path)
        guard let idValue = item["VocabularyItemIdentifier"] else { throw fail(path, "missing VocabularyItemIdentifier") }
        let identifier = try nonEmptyString(idValue, "\(path).VocabularyItemIdentifier")
        guard let synonymsValue = item["VocabularyItemSynonyms"] else { throw fail(path, "missing VocabularyItemSynonyms") }
        let synonymsPath = "\(path).VocabularyItemSynonyms"
        let list = try array(synonymsValue, synonymsPath)
        guard !list.isEmpty else { throw fail(synonymsPath, "no synonyms: an item needs at least one VocabularyItemPhrase") }
        var synonyms: [GlobalVocabulary.Synonym] = []
        for (s, synonymValue) in list.enumerated() {
            let synonymPath = "\(synonymsPath)[\(s)]"
            let synonym = try dictionary(synonymValue, synonymPath)
            guard let phraseValue = synonym["VocabularyItemPhrase"] else { throw fail(synonymPath, "missing VocabularyItemPhrase") }
            let phrase = try nonEmptyString(phraseValue, "\(synonymPath).VocabularyItemPhrase")
            let pronunciation = try synonym["VocabularyItemPronunciation"].map {
                try string($0, "\(synonymPath).VocabularyItemPronunciation")
            }
            var examples: [String] = []
            if let examplesValue = synonym["VocabularyItemExamples"] {
                for (e, example) in try array(examplesValue, "\(synonymPath).VocabularyItemExamples").enumerated() {
                    examples.append(try string(example, "\(synonymPath).VocabularyItemExamples[\(e)]"))
                }
            }
            synonyms.append(GlobalVocabulary.Synonym(phrase: phrase, pronunciation: pronunciation, examples: examples))
        }
        return (identifier, synonyms)
    }
}

/// The strings in order with later exact duplicates removed.
private func orderedSet(_ strings: [String]) -> [String] {
    var seen = Set<String>()
    return strings.filter { seen.insert($0).inserted }
}

func readVocabularyFile(_ path: String) throws -> Data {
    do {
        // Foundation (swift-foundation, Swift 6.3.1) leaks its 4 KB read buffer when the file is empty
        // (LeakSanitizer, `swift test --sanitize=address`): an empty regular file is not read.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? NSNumber)?.intValue == 0 {
            return Data()
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
        throw GrammarError("cannot read the vocabulary file: \(reason)", at: SourceLocation(file: path))
    }
}

/// A JSON syntax error with the line and column of the byte offset the reader reports (Linux says "around
/// character N", Darwin gives `NSJSONSerializationErrorIndex` or "around line L, column C").
private func jsonSyntaxError(_ error: Error, data: Data, file: String) -> GrammarError {
    let info = (error as NSError).userInfo
    let detail = (info[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
    var location = SourceLocation(file: file)
    if let match = detail.firstMatch(of: #/line (\d+), column (\d+)/#) {
        location.line = Int(match.1)
        location.column = Int(match.2)
    } else if let offset = (info["NSJSONSerializationErrorIndex"] as? Int)
                ?? detail.firstMatch(of: #/character (\d+)/#).flatMap({ Int($0.1) }) {
        (location.line, location.column) = lineAndColumn(ofByte: offset, in: data)
    }
    // The reader's own text repeats the offset, which the location now says better.
    let reason = detail.replacing(#/ around (line \d+, column \d+|character \d+)/#, with: "")
    return GrammarError("invalid JSON: \(reason)", at: location)
}

/// 1-based line and column (in Unicode scalars) of byte `offset` of UTF-8 `data`.
func lineAndColumn(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
    let bytes = [UInt8](data.prefix(max(0, offset)))
    let lineStart = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
    let line = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let column = String(decoding: bytes[lineStart...], as: UTF8.self).unicodeScalars.count + 1
    return (line, column)
}

/// "a string", "a number", "an array" … for error messages.
func describeValue(_ value: Any) -> String {
    switch value {
    case is String: return "a string"
    case is [Any]: return "an array"
    case is [String: Any]: return "a dictionary"
    case is NSNull: return "null"
    case let n as NSNumber:
        // JSON and property list booleans are NSNumbers holding a C `char` ("c").
        return String(cString: n.objCType) == "c" ? "a boolean" : "a number"
    case is Date: return "a date"
    case is Data: return "data"
    default: return "a \(type(of: value))"
    }
}
