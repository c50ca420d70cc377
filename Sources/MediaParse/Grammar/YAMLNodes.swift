import Foundation
import Yams

/// Reading Yams nodes with errors that point at the file, line and column of the offending node.
package struct YAMLFile: @unchecked Sendable {
    package let path: String
    package let root: Node?

    package init(path: String, text: String) throws {
        self.path = path
        do {
            // The basic resolver tags every scalar a string: our readers convert scalars themselves (`bool`,
            // `int`, `null` read the text), and the default resolver's regular expressions, compiled at its first
            // use, were a sixth of a process's start-up.
            root = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw YAMLFile.grammarError(error, path: path)
        }
    }

    /// The settings files (`locale.yaml`) read in this process, by path and text: every parser reads its
    /// chain's files, and each locale of a language shares them (a server of all locales read the English
    /// settings four times over, and twice per parser). Parsed nodes are values, so sharing them is safe.
    private static let settingsRead = Locked([String: YAMLFile]())

    /// The file at `path` with `text`, parsed once per process (for small files read by every parser: the
    /// memory holds at most 128 of them, then starts again).
    package static func settings(path: String, text: String) throws -> YAMLFile {
        let key = path + "\u{0}" + text
        if let known = settingsRead.withLock({ $0[key] }) { return known }
        let file = try YAMLFile(path: path, text: text)
        settingsRead.withLock { files in
            if files.count >= 128 { files.removeAll() }
            files[key] = file
        }
        return file
    }

    package static func grammarError(_ error: YamlError, path: String) -> GrammarError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            let extra = context.map { " (\($0.text))" } ?? ""
            return GrammarError("YAML: \(problem)\(extra)", at: SourceLocation(file: path, line: mark.line, column: mark.column))
        case let .reader(problem, _, _, _):
            return GrammarError("YAML: \(problem)", at: SourceLocation(file: path))
        default:
            return GrammarError("YAML: \(error)", at: SourceLocation(file: path))
        }
    }

    package func location(_ node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(file: path) }
        return SourceLocation(file: path, line: mark.line, column: mark.column)
    }

    /// Where the text of a scalar starts (inside its quotes, if quoted on one line).
    package func textLocation(_ node: Node) -> SourceLocation {
        var loc = location(node)
        if case let .scalar(s) = node, s.style == .singleQuoted || s.style == .doubleQuoted {
            loc = loc.advanced(by: 1)
        }
        return loc
    }

    package func mapping(_ node: Node, _ what: String) throws -> [(key: String, keyNode: Node, value: Node)] {
        guard case let .mapping(m) = node else {
            throw GrammarError("\(what) must be a mapping (key: value)", at: location(node))
        }
        return try m.map { pair in
            guard case let .scalar(k) = pair.key else {
                throw GrammarError("\(what): keys must be plain names", at: location(pair.key))
            }
            return (k.string, pair.key, pair.value)
        }
    }

    package func sequence(_ node: Node, _ what: String) throws -> [Node] {
        guard case let .sequence(s) = node else {
            throw GrammarError("\(what) must be a list (- item)", at: location(node))
        }
        return Array(s)
    }

    /// A list, or a single scalar taken as a list of one.
    package func sequenceOrScalar(_ node: Node, _ what: String) throws -> [Node] {
        if case .scalar = node { return [node] }
        return try sequence(node, what)
    }

    package func string(_ node: Node, _ what: String) throws -> String {
        guard case let .scalar(s) = node else {
            throw GrammarError("\(what) must be text", at: location(node))
        }
        return s.string
    }

    package func strings(_ node: Node, _ what: String) throws -> [String] {
        try sequenceOrScalar(node, what).map { try string($0, what) }
    }

    package func int(_ node: Node, _ what: String) throws -> Int {
        guard case let .scalar(s) = node, let v = Int(s.string) else {
            throw GrammarError("\(what) must be a whole number", at: location(node))
        }
        return v
    }

    package func bool(_ node: Node, _ what: String) throws -> Bool {
        guard let b = node.bool else { throw GrammarError("\(what) is true or false", at: location(node)) }
        return b
    }

    package func number(_ node: Node, _ what: String) throws -> Double {
        guard case let .scalar(s) = node, let v = Double(s.string), v.isFinite else {
            throw GrammarError("\(what) must be a (finite) number", at: location(node))
        }
        return v
    }

    /// A value for a field: plain `true`/`false` are flags, plain numbers are numbers, anything else text.
    package func value(_ node: Node, _ what: String) throws -> SlotValue {
        guard case let .scalar(s) = node else { throw GrammarError("\(what) must be a single value", at: location(node)) }
        if s.style == .plain {
            switch s.string {
            case "true": return .flag(true)
            case "false": return .flag(false)
            // Not "inf" or "nan": JSON has no such numbers.
            default: if let d = Double(s.string), d.isFinite { return .number(d) }
            }
        }
        return .text(s.string)
    }

    /// Complains about keys other than `allowed`, so that a typo does not silently do nothing.
    package func checkKeys(_ entries: [(key: String, keyNode: Node, value: Node)], allowed: Set<String>, in what: String) throws {
        for e in entries where !allowed.contains(e.key) {
            throw GrammarError("unknown key '\(e.key)' in \(what); expected one of: \(allowed.sorted().joined(separator: ", "))",
                               at: location(e.keyNode))
        }
    }
}
