import Foundation

/// A parsed template: the tree form of `"(play|put on) [the] {genre}"`.
indirect enum TemplateNode: Sendable {
    /// A word in matching form.
    case word(String)
    case sequence([TemplateNode])
    case alternatives([TemplateNode])
    case rule(String, SourceLocation)
    case slot(list: String, slot: String, SourceLocation)
    /// Zero (`*`) or one (`+`) or more repetitions.
    case repetition(TemplateNode, atLeastOne: Bool, SourceLocation)

    static let empty = TemplateNode.sequence([])

    /// Can this match the empty word sequence? (Rules are asked through `ruleMatchesEmpty`.)
    func matchesEmpty(_ ruleMatchesEmpty: (String) -> Bool) -> Bool {
        switch self {
        case .word: return false
        case let .sequence(items): return items.allSatisfy { $0.matchesEmpty(ruleMatchesEmpty) }
        case let .alternatives(items): return items.contains { $0.matchesEmpty(ruleMatchesEmpty) }
        case let .rule(name, _): return ruleMatchesEmpty(name)
        case .slot: return false
        case let .repetition(body, atLeastOne, _): return !atLeastOne || body.matchesEmpty(ruleMatchesEmpty)
        }
    }

    /// Every word sequence this template matches, for list entries (which may not hold slots or rules).
    func expansions(limit: Int = 4096) -> [[String]]? {
        switch self {
        case let .word(w): return [[w]]
        case let .sequence(items):
            var acc: [[String]] = [[]]
            for item in items {
                guard let next = item.expansions(limit: limit) else { return nil }
                acc = acc.flatMap { prefix in next.map { prefix + $0 } }
                if acc.count > limit { return nil }
            }
            return acc
        case let .alternatives(items):
            var acc: [[String]] = []
            for item in items {
                guard let e = item.expansions(limit: limit) else { return nil }
                acc += e
                if acc.count > limit { return nil }
            }
            return acc
        case .rule, .slot, .repetition: return nil
        }
    }
}

/// Reads template text. Words between the syntax characters go through `splitWords`, which cuts and folds
/// them the way utterances are (ICU word breaking and matching form).
struct TemplateParser {
    let text: [Character]
    let location: SourceLocation
    let splitWords: (String) -> [String]
    private var position = 0

    init(_ text: String, location: SourceLocation, splitWords: @escaping (String) -> [String]) {
        self.text = Array(text)
        self.location = location
        self.splitWords = splitWords
    }

    static func parse(_ text: String, at location: SourceLocation,
                      splitWords: @escaping (String) -> [String]) throws -> TemplateNode {
        var parser = TemplateParser(text, location: location, splitWords: splitWords)
        let node = try parser.parseAlternatives(closing: nil)
        if parser.position < parser.text.count {
            throw parser.error("unexpected '\(parser.text[parser.position])'")
        }
        return node
    }

    private func here() -> SourceLocation { location.advanced(by: position) }

    private func error(_ message: String) -> GrammarError {
        GrammarError("\(message) in template \"\(String(text))\"", at: here())
    }

    private mutating func parseAlternatives(closing: Character?) throws -> TemplateNode {
        var alternatives: [TemplateNode] = [try parseSequence()]
        while position < text.count, text[position] == "|" {
            position += 1
            alternatives.append(try parseSequence())
        }
        if let closing {
            guard position < text.count, text[position] == closing else {
                throw error("missing '\(closing)'")
            }
            position += 1
        }
        return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
    }

    private mutating func parseSequence() throws -> TemplateNode {
        var items: [TemplateNode] = []
        var words = ""
        func flushWords() {
            if !words.isEmpty {
                items += splitWords(words).map(TemplateNode.word)
                words = ""
            }
        }
        while position < text.count {
            let c = text[position]
            let start = here()
            var item: TemplateNode
            switch c {
            case "|", ")", "]":
                flushWords()
                return items.count == 1 ? items[0] : .sequence(items)
            case "(":
                flushWords()
                position += 1
                item = try parseAlternatives(closing: ")")
            case "[":
                flushWords()
                position += 1
                item = .alternatives([try parseAlternatives(closing: "]"), .empty])
            case "<":
                flushWords()
                let name = try readName(until: ">")
                item = .rule(name, start)
            case "{":
                flushWords()
                let body = try readName(until: "}")
                let parts = body.split(separator: ":", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
                    throw GrammarError("a slot is {list} or {list:slot}, not {\(body)}", at: start)
                }
                item = .slot(list: parts[0], slot: parts.count == 2 ? parts[1] : parts[0], start)
            case "*", "+":
                throw error("'\(c)' must follow a group, an optional part, a rule or a slot")
            case "}", ">":
                throw error("unexpected '\(c)'")
            default:
                words.append(c)
                position += 1
                continue
            }
            if position < text.count, text[position] == "*" || text[position] == "+" {
                item = .repetition(item, atLeastOne: text[position] == "+", start)
                position += 1
            }
            items.append(item)
        }
        flushWords()
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func readName(until closing: Character) throws -> String {
        let open = text[position]
        position += 1
        var name = ""
        while position < text.count, text[position] != closing {
            if "()[]{}<>|".contains(text[position]) { throw error("'\(text[position])' inside \(open)…\(closing)") }
            name.append(text[position])
            position += 1
        }
        guard position < text.count else { throw error("missing '\(closing)'") }
        position += 1
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw error("empty \(open)\(closing)") }
        return trimmed
    }
}
