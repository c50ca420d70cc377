import Foundation
import MediaParse
import Yams

/// A JSON value, for comparing results with expectations written in YAML or JSON.
public enum JSONValue: Codable, Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .number(n): try c.encode(n)
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(o): try c.encode(o)
        }
    }

    /// A parse result as a JSON tree (what the CLI prints).
    public init(_ result: ParseResult) {
        let data = (try? JSONEncoder().encode(result)) ?? Data("{}".utf8)
        self = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .null
    }

    /// A YAML node as JSON: plain `true`/`false`, numbers and `null` keep their types, the rest is text.
    init(yaml node: Node) {
        switch node {
        case let .scalar(s):
            if s.style != .plain { self = .string(s.string); return }
            switch s.string {
            case "null", "Null", "NULL", "~", "": self = .null
            case "true", "True", "TRUE": self = .bool(true)
            case "false", "False", "FALSE": self = .bool(false)
            default: self = Double(s.string).map(JSONValue.number) ?? .string(s.string)
            }
        case let .sequence(seq): self = .array(seq.map { JSONValue(yaml: $0) })
        case let .mapping(m):
            var o: [String: JSONValue] = [:]
            for (k, v) in m { o[k.string ?? ""] = JSONValue(yaml: v) }
            self = .object(o)
        case .alias: self = .null
        }
    }

    subscript(key: String) -> JSONValue? {
        if case let .object(o) = self { return o[key] }
        return nil
    }

    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "?" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The differences between an expectation (`self`) and `actual`: every key the expectation names must
    /// be there with that value (objects compared recursively); an expected `null` means absent.
    ///
    /// - Parameters:
    ///   - loose: compare strings in loose form (case, accents, punctuation and a leading article ignored).
    ///   - articles: the articles a loose comparison ignores at the start (the locale's, in matching form).
    public func differences(from actual: JSONValue?, path: String = "", loose: Bool = false, articles: [String] = []) -> [String] {
        mismatches(from: actual, path: path, loose: loose, articles: articles).map(\.description)
    }

    /// One place where a result differs from its expectation.
    public struct Mismatch: Sendable, CustomStringConvertible {
        /// The dotted path of the value ("mediaSearch.artistName"; "(result)" for the whole).
        public var path: String
        /// What the expectation says (`null`: absent).
        public var expected: JSONValue
        /// What the result has there (nil: nothing).
        public var got: JSONValue?

        public var description: String {
            if expected == .null { return "\(path): expected absent, got \(got.map(\.description) ?? "nothing")" }
            return "\(path): expected \(expected), got \(got.map(\.description) ?? "nothing")"
        }
    }

    /// `differences(from:…)` as values, for a report that shows them as a diff.
    public func mismatches(from actual: JSONValue?, path: String = "", loose: Bool = false, articles: [String] = []) -> [Mismatch] {
        let here = path.isEmpty ? "(result)" : path
        switch self {
        case .null:
            if let actual, actual != .null { return [Mismatch(path: here, expected: .null, got: actual)] }
            return []
        case let .object(expected):
            guard case let .object(got)? = actual else { return [Mismatch(path: here, expected: self, got: actual)] }
            return expected.keys.sorted().flatMap { key in
                expected[key]!.mismatches(from: got[key], path: path.isEmpty ? key : "\(path).\(key)", loose: loose,
                                          articles: articles)
            }
        case let .number(n):
            if case let .number(m)? = actual, abs(n - m) < 1e-6 { return [] }
        case let .array(expected):
            if case let .array(got)? = actual, got.count == expected.count {
                return zip(expected, got).enumerated().flatMap { i, pair in
                    pair.0.mismatches(from: pair.1, path: "\(here)[\(i)]", loose: loose, articles: articles)
                }
            }
        case let .string(s) where loose:
            if case let .string(t)? = actual, Self.looseForm(s, articles: articles) == Self.looseForm(t, articles: articles) { return [] }
        default:
            if actual == self { return [] }
        }
        return [Mismatch(path: here, expected: self, got: actual)]
    }
}
